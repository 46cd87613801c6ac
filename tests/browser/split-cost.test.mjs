// The multi-head lesson's split-and-join step-through and live cost readout (#16), as a learner
// uses them: on a phone (375×740, touch) a thumb taps Next through the eight steps, picks a head,
// taps a number for its derivation, and moves the cost sliders with − / + and a tap on the
// track; on a desktop (1440×900) a mouse drags the head-count slider and Enter repeats the
// focused Next. Each widget's numbers are read back from state(); photographs go to
// build/screenshots/split-cost-*.png for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, lessonReady, screenshotPath, settled } from './harness.mjs';

let env;
const problems = [];
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

async function open({ width, height, touch }) {
  const context = await env.browser.newContext({ viewport: { width, height }, hasTouch: touch, isMobile: touch,
    reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(`${env.origin}/lesson.html?lesson=multi-head&section=split-join&voice=off`);
  await lessonReady(page);
  await settled(page);
  return { page, context };
}

const widget = (page, id) => page.evaluate(i => window.neuralpath.state().widgets.find(w => w.id === i), id);
const command = (page, message) => page.evaluate(m => window.neuralpath.command(m), message);

// Scrolls so the widget's top sits just below the top of the reading column.
async function scrollTo(page, id, below = 8) {
  await command(page, { type: 'goto', section: (await widget(page, id)).section });
  await settled(page);
  for (let i = 0; i < 4; i++) {
    const state = await page.evaluate(() => window.neuralpath.state());
    const rect = state.widgets.find(w => w.id === id).rect;
    const top = state.layout.column[1] + below;
    if (Math.abs(rect[1] - top) < 2) break;
    await command(page, { type: 'scroll', by: rect[1] - top });
    await settled(page);
  }
}

// A layout rectangle [x, y, w, h] (CSS px from the canvas's top left) on the page, at a fraction
// of its width and height.
async function at(page, rect, fx = 0.5, fy = 0.5) {
  const box = await page.locator('#canvas').boundingBox();
  return { x: box.x + rect[0] + rect[2] * fx, y: box.y + rect[1] + rect[3] * fy };
}
async function tap(page, rect, fx, fy) {
  const { x, y } = await at(page, rect, fx, fy);
  await page.touchscreen.tap(x, y);
  await settled(page);
}
async function click(page, rect, fx, fy) {
  const { x, y } = await at(page, rect, fx, fy);
  await page.mouse.click(x, y);
  await settled(page);
}
const inside = (rect, top, height) => rect[1] >= top && rect[1] + rect[3] <= height;
const overlap = (a, b) => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];

test('375 px, touch: Next walks the eight steps of split and join, a head chip picks a head, a tapped number explains itself', async () => {
  const { page, context } = await open({ width: 375, height: 740, touch: true });
  await scrollTo(page, 'split-join-walk');
  let w = await widget(page, 'split-join-walk');
  assert.equal(w.stage, 'cut');
  assert.deepEqual(w.column_heads, [0, 0, 1, 1, 2, 2, 3, 3]);
  assert.ok(w.rect[2] <= 375, `the widget fits the phone (${w.rect[2]} px)`);
  await page.screenshot({ path: screenshotPath('split-cost-phone-cut') });
  const seen = [w.narration];
  for (let k = 1; k < w.stages.length; k++) {
    w = await widget(page, 'split-join-walk');
    // Keep Next on screen: scroll it into the middle of the canvas when the grid pushed it down.
    const height = (await page.locator('#canvas').boundingBox()).height;
    const top = (await page.evaluate(() => window.neuralpath.state())).layout.column[1];
    if (!inside(w.layout.next, top, height)) {
      await command(page, { type: 'scroll', by: w.layout.next[1] - height / 2 });
      await settled(page);
      w = await widget(page, 'split-join-walk');
    }
    await tap(page, w.layout.next);
    w = await widget(page, 'split-join-walk');
    assert.equal(w.stage_index, k, `a tap on Next goes to step ${k + 1}`);
    assert.ok(!seen.includes(w.narration), `step ${k + 1} says something new: ${w.narration}`);
    seen.push(w.narration);
    if (w.stage === 'scale') {
      assert.match(w.formula, /÷ √2/);
      assert.ok(Math.abs(w.scale.factor - Math.SQRT1_2) < 1e-6, 'the scale is 1/√d_head = 1/√2');
      await page.screenshot({ path: screenshotPath('split-cost-phone-scale') });
    }
    if (w.stage === 'concat') {
      assert.equal(w.matrix[0].length, 8);
      await page.screenshot({ path: screenshotPath('split-cost-phone-concat') });
    }
  }
  assert.equal(w.stage, 'output');
  // Back to the scores, then head 2 by its chip.
  await command(page, { type: 'stage', widget: 'split-join-walk', stage: 'scores' });
  await scrollTo(page, 'split-join-walk');
  w = await widget(page, 'split-join-walk');
  await tap(page, w.layout.heads[1]);
  w = await widget(page, 'split-join-walk');
  assert.equal(w.head, 1, 'the second chip picks head 2');
  assert.match(w.narration, /head 2/);
  // The bottom-right cell of the grid: the last word's score of the last word.
  await tap(page, w.layout.grid, 0.97, 0.95);
  w = await widget(page, 'split-join-walk');
  assert.ok(w.explained.open, 'a tapped number opens its explanation');
  const last = w.tokens.length - 1;
  assert.deepEqual(w.selected, [last, last]);
  assert.match(w.explained.inputs[0].value, new RegExp(w.table.rows[last].cells[last].replace('.', '\\.')));
  await page.screenshot({ path: screenshotPath('split-cost-phone-explain') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('375 px, touch: the cost readout moves with − / + and a tap on the track; its values never sit under a grab', async () => {
  const { page, context } = await open({ width: 375, height: 740, touch: true });
  await scrollTo(page, 'heads-cost');
  let c = await widget(page, 'heads-cost');
  assert.equal(c.heads, 8);
  const flat = { parameters: c.parameters, total: c.total_mults };
  for (const name of ['width', 'heads', 'length']) {
    const part = c.layout[name];
    assert.ok(!overlap(part.label, part.track), `${name}: the value is printed clear of the slider`);
    assert.ok(part.label[1] + part.label[3] <= part.track[1] + 0.5, `${name}: the value sits above its track`);
    for (const b of ['less', 'more']) assert.ok(part[b][2] >= 32 && part[b][3] >= 32, `${name} ${b}: finger-sized`);
  }
  await tap(page, c.layout.heads.more);
  c = await widget(page, 'heads-cost');
  assert.equal(c.heads, 16, '+ goes to the next count that divides 512');
  assert.equal(c.d_head, 32);
  assert.equal(c.parameters, flat.parameters);
  assert.equal(c.total_mults, flat.total);
  assert.equal(c.grid_cells, 16 * 1000 * 1000);
  await tap(page, c.layout.heads.less);
  await tap(page, c.layout.heads.less);
  c = await widget(page, 'heads-cost');
  assert.equal(c.heads, 4);
  assert.equal(c.total_mults, flat.total);
  // A tap near the right end of the T track sets a long sequence.
  await tap(page, c.layout.length.track, 0.9);
  c = await widget(page, 'heads-cost');
  assert.ok(c.T > 10000, `T moved to ${c.T}`);
  assert.ok(c.score_mults > c.projection_mults / 4, 'at long T the scores catch up with the projections');
  await page.screenshot({ path: screenshotPath('split-cost-phone-cost') });
  // A width that 4 does not divide moves the heads and says so.
  await command(page, { type: 'setWidth', widget: 'heads-cost', d_model: 1600 });
  await command(page, { type: 'setHeads', widget: 'heads-cost', heads: 25 });
  await command(page, { type: 'setWidth', widget: 'heads-cost', d_model: 768 });
  await settled(page);
  c = await widget(page, 'heads-cost');
  assert.equal(c.heads, 24);
  assert.match(c.note, /25/);
  await page.screenshot({ path: screenshotPath('split-cost-phone-cost-note') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('1440 px: a mouse drags the head count, parameters and multiplications stay put; Enter repeats the focused Next',
  async () => {
  const { page, context } = await open({ width: 1440, height: 900, touch: false });
  await scrollTo(page, 'heads-cost');
  let c = await widget(page, 'heads-cost');
  const before = { parameters: c.parameters, total: c.total_mults, d_head: c.d_head };
  const from = await at(page, c.layout.heads.track, 0.02);
  const to = await at(page, c.layout.heads.track, 1.1);  // past the end: the drag clamps at the last stop
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
  await settled(page);
  c = await widget(page, 'heads-cost');
  assert.equal(c.heads, 512, 'dragged to the right end: one column per head');
  assert.equal(c.d_head, 1);
  assert.equal(c.parameters, before.parameters);
  assert.equal(c.total_mults, before.total);
  await page.screenshot({ path: screenshotPath('split-cost-desk-cost') });

  await scrollTo(page, 'split-join-walk');
  let w = await widget(page, 'split-join-walk');
  await click(page, w.layout.next);
  w = await widget(page, 'split-join-walk');
  assert.equal(w.stage, 'slice');
  await page.keyboard.press('Enter');
  await settled(page);
  w = await widget(page, 'split-join-walk');
  assert.equal(w.stage, 'scores', 'Enter on the focused Next steps again');
  await page.screenshot({ path: screenshotPath('split-cost-desk-scores') });
  assert.deepEqual(problems, []);
  await context.close();
});
