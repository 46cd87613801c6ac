// The lesson widgets in a real browser: the spotlight swings from "animal" to "street", the
// BERT switch opens the heatmap's upper triangle, the cost explorer runs both kernels in the
// page without freezing it, two widgets match their reviewed golden images, and every widget is
// photographed at phone, tablet and desktop widths (build/screenshots/widgets-*.png) for a
// person to look at. One desktop page serves every test; the phone photographs get their own
// (a device pixel ratio is fixed per page).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchWithLesson, openPage, lessonReady, screenshotPath, settled, expectGolden } from './harness.mjs';

const TIRED = "The animal didn't cross the street because it was too tired.";
const WIDE = "The animal didn't cross the street because it was too wide.";

let env, desk;
before(async () => {
  ({ env, opened: desk } = await launchWithLesson('/lesson.html?lesson=self-attention&section=spotlight', { width: 1280, height: 900 }));
  await settled(desk.page);
});
after(async () => { await env?.close(); });

const widgetState = (page, id) => page.evaluate(i => window.neuralpath.state().widgets.find(w => w.id === i), id);
const command = (page, message) => page.evaluate(m => window.neuralpath.command(m), message);
// Two animation frames: the engine has drawn (and laid out) at least once since the change.
const frames = page => page.evaluate(() => new Promise(done =>
  requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done)))));

// The shared desktop page at a section, in the light theme, at 1280 × 900.
async function deskAt(section) {
  const { page } = desk;
  await page.setViewportSize({ width: 1280, height: 900 });
  await command(page, { type: 'theme', dark: false });
  await command(page, { type: 'goto', section });
  await settled(page);
  return desk;
}

// Scrolls the page so the widget's top sits just below the top of the reading column (under
// the phone layout's contents bar).
async function scrollTo(page, id) {
  await command(page, { type: 'goto', section: (await widgetState(page, id)).section });
  await frames(page);
  for (let i = 0; i < 4; i++) {
    const state = await page.evaluate(() => window.neuralpath.state());
    const top = state.layout.column[1] + 8;
    const rect = state.widgets.find(w => w.id === id).rect;
    if (Math.abs(rect[1] - top) < 2) break;
    await command(page, { type: 'scroll', by: rect[1] - top });
    await frames(page);
  }
}

// Counts animation frames and the longest gap between two until stop() is called.
const watchFrames = page => page.evaluate(() => {
  window.__gaps = { max: 0, frames: 0, last: performance.now(), on: true };
  const tick = now => {
    const g = window.__gaps;
    g.max = Math.max(g.max, now - g.last); g.last = now; g.frames++;
    if (g.on) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});
const stopWatching = page => page.evaluate(() => { window.__gaps.on = false; return window.__gaps; });

test('switching the spotlight between tired and wide moves its top token from animal to street', async () => {
  const { page, problems } = await deskAt('spotlight');
  let spot = await widgetState(page, 'it-spotlight');
  assert.equal(spot.sentence, TIRED);
  assert.equal(spot.query, 'it');
  assert.equal(spot.top.token, 'animal');
  await command(page, { type: 'setSentence', widget: 'it-spotlight', text: WIDE });
  await frames(page);
  spot = await widgetState(page, 'it-spotlight');
  assert.equal(spot.top.token, 'street');
  assert.ok(spot.top.weight > 0.5, `street takes most of the attention (${spot.top.weight})`);
  await command(page, { type: 'setSentence', widget: 'it-spotlight', text: TIRED });
  assert.equal((await widgetState(page, 'it-spotlight')).top.token, 'animal');
  // A bad sentence is refused with a message the page can show; the spotlight keeps its own.
  await assert.rejects(command(page, { type: 'setSentence', widget: 'it-spotlight', text: '   ' }),
    /Type a sentence first/);
  assert.equal((await widgetState(page, 'it-spotlight')).top.token, 'animal');
  assert.deepEqual(problems, []);
});

test('a refused sentence stays in the spotlight\'s box beside its message, and a chosen sentence clears both', async () => {
  const { page, problems } = await deskAt('spotlight');
  // Refused: the message, then the box drawn with `field` (waited for: the frames the command
  // woke may have run before the refusal came back).
  const refuse = async (text, message, field) => {
    await assert.rejects(command(page, { type: 'setSentence', widget: 'it-spotlight', text }), message);
    await page.waitForFunction(f => window.neuralpath.state().widgets.find(w => w.id === 'it-spotlight').layout.field === f,
      field, { timeout: 10_000 }).catch(() => {});
    return widgetState(page, 'it-spotlight');
  };
  let spot = await refuse('', /Type a sentence first/, '');
  assert.equal(spot.layout.field, '', 'the box is empty, as the message says (it showed the old sentence)');
  spot = await refuse('the cat 🙂 saw it', /cannot be drawn/, 'the cat saw it');
  assert.equal(spot.layout.field, 'the cat saw it', 'no "?" where the emoji was');
  const long = Array(60).fill('word').join(' ');
  spot = await refuse(long, /60 tokens/, long);
  assert.equal(spot.layout.field, long);
  assert.equal(spot.sentence, TIRED, 'the spotlight keeps what it showed');
  await scrollTo(page, 'it-spotlight');
  await command(page, { type: 'scroll', by: (await widgetState(page, 'it-spotlight')).rect[3] - 500 });
  await settled(page);
  await page.screenshot({ path: screenshotPath('widgets-spotlight-refused') });
  await command(page, { type: 'chooseSentence', widget: 'it-spotlight', index: 1 });
  await frames(page);
  spot = await widgetState(page, 'it-spotlight');
  assert.equal(spot.layout.field, WIDE);
  assert.equal(spot.input_error, undefined, 'the refusal went with the refused sentence');
  await command(page, { type: 'chooseSentence', widget: 'it-spotlight', index: 0 });
  assert.deepEqual(problems, []);
});

test('at 375 px the heatmap fits the card without a sideways scroll, in Spanish and English', async () => {
  for (const lang of ['es', 'en']) {
    const phone = await openPage(env, `/lesson.html?lesson=self-attention&lang=${lang}&section=causal-mask`,
      { width: 375, height: 812, scale: 2 });
    await lessonReady(phone.page);
    for (const mask of ['causal', 'none']) {
      await command(phone.page, { type: 'setMask', widget: 'causal-grid', mask });
      await scrollTo(phone.page, 'causal-grid');
      await settled(phone.page);
      const { layout } = await widgetState(phone.page, 'causal-grid');
      assert.equal(layout.scrolls, false, `${lang} ${mask}: no sideways scroll`);
      assert.ok(layout.grid[2] <= layout.card_width + 0.5, `${lang} ${mask}: grid ${layout.grid[2]} px in a ${layout.card_width} px card`);
      await phone.page.screenshot({ path: screenshotPath(`widgets-heatmap-375-${lang}-${mask}`) });
    }
    assert.deepEqual(phone.problems, []);
    await phone.context.close();
  }
});

test('the BERT switch opens the heatmap\'s upper triangle; every row still sums to 1', async () => {
  const { page, problems } = await deskAt('causal-mask');
  const upper = weights => weights.flatMap((row, i) => row.filter((_, j) => j > i));
  let heat = await widgetState(page, 'causal-grid');
  assert.equal(heat.causal, true);
  assert.ok(upper(heat.weights).every(w => w === 0), 'causal: the future is exactly 0');
  assert.equal(heat.masked.length, upper(heat.weights).length);
  await command(page, { type: 'setMask', widget: 'causal-grid', mask: 'none' });
  await frames(page);
  heat = await widgetState(page, 'causal-grid');
  assert.equal(heat.causal, false);
  assert.ok(upper(heat.weights).every(w => w > 0), 'BERT: every word sees the future');
  assert.deepEqual(heat.masked, []);
  for (const sum of heat.row_sums) assert.ok(Math.abs(sum - 1) < 1e-5, `row sum ${sum}`);
  await command(page, { type: 'setMask', widget: 'causal-grid', mask: 'causal' });
  assert.deepEqual(problems, []);
});

test('the cost explorer runs the naive and tiled kernels in the page without freezing it', async () => {
  // T = 1024: both kernels finish and agree. T = 8192: the naive kernel is refused (its T×T
  // matrices would pass the tab's budget; the exact boundary is tested natively, widgets_cost)
  // and the tiled one works in slices while the page keeps drawing; stopped after 1.5 s.
  const { page, problems } = await deskAt('cost');
  await watchFrames(page);
  await command(page, { type: 'run', widget: 'cost', T: 1024 });
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.id === 'cost').running === false,
    null, { timeout: 120_000, polling: 100 });
  let gaps = await stopWatching(page);
  let run = (await widgetState(page, 'cost')).runs.at(-1);
  assert.equal(run.naive.status, 'done');
  assert.equal(run.tiled.status, 'done');
  assert.ok(run.max_difference <= 1e-5, `naive and tiled agree (${run.max_difference})`);
  assert.ok(gaps.frames > 3, `the page kept drawing (${gaps.frames} frames)`);
  assert.ok(gaps.max < 1500, `no frame waited ${Math.round(gaps.max)} ms`);
  console.log(`cost explorer T=1024: naive ${(run.naive.seconds * 1000).toFixed(1)} ms ` +
    `(${run.naive.gflops.toFixed(2)} GFLOP/s), tiled ${(run.tiled.seconds * 1000).toFixed(1)} ms ` +
    `(${run.tiled.gflops.toFixed(2)} GFLOP/s), ${gaps.frames} frames, longest ${Math.round(gaps.max)} ms`);

  await watchFrames(page);
  await command(page, { type: 'run', widget: 'cost', T: 8192 });
  run = (await widgetState(page, 'cost')).runs.at(-1);
  assert.equal(run.naive.status, 'refused');
  assert.match(run.naive.reason, /more than the 256\.00 MiB/);
  await page.waitForTimeout(1500);  // real time: the page's own frame pace while the run works
  gaps = await stopWatching(page);
  if ((await widgetState(page, 'cost')).running) {  // a fast tiled kernel may already be done
    await command(page, { type: 'stop', widget: 'cost' });
    assert.equal((await widgetState(page, 'cost')).runs.at(-1).tiled.status, 'stopped');
  } else assert.equal((await widgetState(page, 'cost')).runs.at(-1).tiled.status, 'done');
  assert.ok(gaps.frames > 3, `the page kept drawing during the run (${gaps.frames} frames in 1.5 s)`);
  assert.ok(gaps.max < 1500, `no frame waited ${Math.round(gaps.max)} ms`);
  console.log(`cost explorer T=8192 (tiled, stopped after 1.5 s): ${gaps.frames} frames, longest ${Math.round(gaps.max)} ms`);
  assert.deepEqual(problems, []);
});

// The widgets as a learner sees them, in one page per pixel ratio: the phone at 375 px (×2),
// the tablet and desktop widths by resizing the desktop page; both themes by the theme command.
// The cost explorer runs once per page, so its finished run is on every photograph.
async function photograph({ page, problems }, width, height, goldens = {}) {
  const shots = [['it-spotlight', 'spotlight'], ['causal-grid', 'heatmap'],
    ['mask-walkthrough', 'mask-steps'], ['cost', 'cost-explorer']];
  await page.setViewportSize({ width, height });
  for (const theme of ['dark', 'light']) {  // light last: its extras leave the page changed
    await command(page, { type: 'theme', dark: theme === 'dark' });
    for (const [id, name] of shots) {
      await scrollTo(page, id);
      if (id === 'causal-grid') await command(page, { type: 'selectCell', widget: id, row: 2, col: 1 });
      if (id === 'mask-walkthrough') await command(page, { type: 'stage', widget: id, stage: 'softmax' });
      if (id === 'cost' && !(await widgetState(page, id)).runs.length) {  // with a finished run on screen
        await command(page, { type: 'run', widget: id, T: 1000 });
        await page.waitForFunction(() => !window.neuralpath.state().widgets.find(w => w.id === 'cost').running,
          null, { timeout: 120_000, polling: 100 });
      }
      await settled(page);
      await page.screenshot({ path: screenshotPath(`widgets-${name}-${width}-${theme}`) });
      const golden = goldens[`${name}-${theme}`];
      if (golden) {
        const [x, y, w, h] = (await widgetState(page, id)).rect;
        const box = await page.locator('#canvas').boundingBox();
        await expectGolden(env, page, golden, { clip: { x: box.x + x, y: box.y + y, width: w, height: Math.min(h, height - y) } });
      }
    }
    if (theme === 'light') {  // the spotlight swung to "wide", and one number explaining itself
      await scrollTo(page, 'it-spotlight');
      await command(page, { type: 'setSentence', widget: 'it-spotlight', text: WIDE });
      await settled(page);  // the swing has landed
      await page.screenshot({ path: screenshotPath(`widgets-spotlight-wide-${width}`) });
      await command(page, { type: 'setSentence', widget: 'it-spotlight', text: TIRED });
      for (const [mistake, extra] of [['no-scale', { d: 512 }], ['wrong-transpose', {}]]) {
        await scrollTo(page, 'mask-walkthrough');
        await command(page, { type: 'mistake', widget: 'mask-walkthrough', mistake, ...extra });
        const rect = (await widgetState(page, 'mask-walkthrough')).rect;
        await command(page, { type: 'scroll', by: rect[3] * 0.5 });  // the mistakes are the lower half
        await settled(page);
        await page.screenshot({ path: screenshotPath(`widgets-mistake-${mistake}-${width}`) });
      }
      await scrollTo(page, 'causal-grid');
      await command(page, { type: 'explain', widget: 'causal-grid', row: 2, col: 1 });
      await settled(page);
      await page.screenshot({ path: screenshotPath(`widgets-explain-${width}`) });
    }
  }
  assert.deepEqual(problems, []);
}

test('every widget is photographed at 375, 768 and 1440 px, light and dark; two match their golden images', async () => {
  const phone = await openPage(env, '/lesson.html?lesson=self-attention&section=spotlight',
    { width: 375, height: 812, scale: 2 });
  await lessonReady(phone.page);
  await photograph(phone, 375, 812);
  await phone.context.close();
  await photograph(desk, 768, 1024, { 'heatmap-light': 'widget-heatmap-768-light' });
  await desk.page.reload();  // a fresh page for the next width (the explanation is still open)
  await lessonReady(desk.page);
  await photograph(desk, 1440, 900, { 'spotlight-dark': 'widget-spotlight-1440-dark' });
});
