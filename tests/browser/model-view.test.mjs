// The multi-head lesson's model view (#16) as a learner uses it: on a phone (375×740, touch) and
// a desk (1440×900, mouse), a tap on a head's thumbnail opens its heatmap and a tap on one of
// its cells opens that weight's derivation in the explain panel. Thumbnails stay inside the card
// and above its caption. Screenshots go to build/screenshots/model-view-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, lessonReady, screenshotPath, settled } from './harness.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const ID = 'every-head';

async function openLesson({ width, height, touch }) {
  const context = await env.browser.newContext({ viewport: { width, height }, hasTouch: touch, isMobile: touch,
    reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(`${env.origin}/lesson.html?lesson=multi-head&section=learned&voice=off`);
  await lessonReady(page);
  await settled(page);
  return { context, page, problems };
}

const pageState = page => page.evaluate(() => window.neuralpath.state());
const widget = async page => (await pageState(page)).widgets.find(w => w.id === ID);
const command = (page, message) => page.evaluate(m => window.neuralpath.command(m), message);

// Scrolls by `by` CSS px and waits for the page to settle.
async function scrollBy(page, by) {
  await command(page, { type: 'scroll', by });
  await settled(page);
}

// A tap (touch) or a click (mouse) at a point given in canvas CSS px.
async function press(page, touch, x, y) {
  const box = await page.locator('#canvas').boundingBox();
  if (touch) await page.touchscreen.tap(box.x + x, box.y + y);
  else await page.mouse.click(box.x + x, box.y + y);
  await settled(page);
}

for (const device of [{ name: 'phone', width: 375, height: 740, touch: true },
                      { name: 'desk', width: 1440, height: 900, touch: false }]) {
  test(`${device.name}: a tap on a thumbnail opens that head, a tap on a cell explains its weight`, async () => {
    const { context, page, problems } = await openLesson(device);
    try {
      // The widget's top just under the top of the reading column.
      for (let i = 0; i < 4; i++) {
        const state = await pageState(page);
        const by = state.widgets.find(w => w.id === ID).rect[1] - (state.layout.column[1] + 8);
        if (Math.abs(by) < 2) break;
        await scrollBy(page, by);
      }
      let w = await widget(page);
      assert.equal(w.layers, 1);
      assert.deepEqual(w.heads, [4]);
      const { thumbs, body_end: bodyEnd } = w.layout;
      assert.equal(thumbs.length, 4);
      for (const t of thumbs) {
        const [x, y, tw, th] = t.rect;
        assert.ok(x >= w.rect[0] && x + tw <= w.rect[0] + w.rect[2], `head ${t.head + 1} inside the card`);
        assert.ok(y + th <= bodyEnd, `head ${t.head + 1} ends above the caption`);
        assert.ok(y + th <= device.height, `head ${t.head + 1} on screen`);
      }
      await page.screenshot({ path: screenshotPath(`model-view-${device.name}-grid`) });

      // Head 3 (the object head): its thumbnail opens its grid.
      const [x, y, tw, th] = thumbs[2].rect;
      await press(page, device.touch, x + tw / 2, y + th / 2);
      w = await widget(page);
      assert.deepEqual(w.open, { layer: 0, head: 2, label: 'Head 3' });
      assert.equal(w.table.rows.length, w.tokens.length, 'the text version reads the open grid');

      // Bring the open grid's rows on screen, then tap the cell "carried" → "bag" (row 3, column
      // 5), or the first column where a phone's grid scrolls it out of sight.
      await scrollBy(page, w.layout.cells.origin[1] - 200);
      w = await widget(page);
      const { origin, size, clip } = w.layout.cells;
      const row = 3;
      const col = origin[0] + size[0] * 5.5 < clip[0] + clip[2] ? 5 : 0;
      await press(page, device.touch, origin[0] + size[0] * (col + 0.5), origin[1] + size[1] * (row + 0.5));
      w = await widget(page);
      assert.deepEqual([w.selected?.row, w.selected?.col], [row, col]);
      assert.equal(w.selected.weight, w.weights[0][2][row][col], 'the selected weight is the trace\'s');
      assert.equal(w.explained.open, true, 'the explain panel is open');
      assert.ok(w.explained.title.includes(`“${w.tokens[row]}” → “${w.tokens[col]}”`), w.explained.title);
      assert.ok(w.explained.title.startsWith('Head 3'), w.explained.title);
      assert.ok(w.explained.inputs.some(i => i.name === 'q_h·k_h'), 'the score is taken apart');
      // The derivation is a sheet at the bottom, clear of the tapped cell, so one more tap on the
      // next row's cell explains that one at once (a popup took a tap just to close itself).
      const sheet = w.explained.sheet;
      assert.ok(sheet && sheet[1] >= origin[1] + size[1] * (row + 2), `the sheet (${sheet}) leaves the next row visible`);
      await page.screenshot({ path: screenshotPath(`model-view-${device.name}-explained`) });
      await press(page, device.touch, origin[0] + size[0] * (col + 0.5), origin[1] + size[1] * (row + 1.5));
      w = await widget(page);
      assert.deepEqual([w.selected?.row, w.selected?.col], [row + 1, col], 'one tap picks the next cell');
      assert.ok(w.explained.open && w.explained.title.includes(`“${w.tokens[row + 1]}” → “${w.tokens[col]}”`),
        w.explained.title);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

// The head view on a phone: a weight's derivation opens in a sheet across the bottom, below the
// head chips, and one tap on a chip toggles that head while the derivation stays open (a popup
// took that tap to close itself, so a learner could not toggle heads while reading).
test('phone: a derivation in the head view leaves the head chips visible and tappable', async () => {
  const { context, page, problems } = await openLesson({ width: 375, height: 740, touch: true });
  try {
    const HEADS = 'trained-heads';
    const view = async () => (await pageState(page)).widgets.find(w => w.id === HEADS);
    for (let i = 0; i < 4; i++) {
      const state = await pageState(page);
      const by = state.widgets.find(w => w.id === HEADS).rect[1] - (state.layout.column[1] + 8);
      if (Math.abs(by) < 2) break;
      await scrollBy(page, by);
    }
    let v = await view();
    assert.equal(v.layout.heads.length, 4);
    // "carried" (row 3) → "bag" (column 5) in head 3, as a tap on "bag" on the right opens it.
    await command(page, { type: 'explain', widget: HEADS, head: 2, row: 3, col: 5 });
    await settled(page);
    v = await view();
    assert.equal(v.explained.open, true);
    const sheet = v.explained.sheet;
    assert.ok(sheet, 'the derivation is a sheet, not a popup');
    assert.ok(sheet[1] + sheet[3] <= 740 && sheet[0] >= 0 && sheet[0] + sheet[2] <= 375, `sheet on screen: ${sheet}`);
    for (const chip of v.layout.heads)
      assert.ok(chip[1] + chip[3] <= sheet[1] && chip[1] >= 0, `chip ${chip} visible above the sheet at ${sheet[1]}`);
    await page.screenshot({ path: screenshotPath('head-view-phone-sheet') });
    const [x, y, w, h] = v.layout.heads[1];
    await press(page, true, x + w / 2, y + h / 2);
    v = await view();
    assert.deepEqual(v.shown, [true, false, true, true], 'one tap toggles head 2');
    assert.equal(v.explained.open, true, 'and the derivation stays open');
    await page.screenshot({ path: screenshotPath('head-view-phone-sheet-toggled') });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
