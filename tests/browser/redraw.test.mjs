// The canvas drawn in parts (web/canvas_damage.h: a frame redraws only the tiles it changes) shows
// exactly what the same state drawn whole shows. #34: the course playback's matrices, filling
// step after step, left lines through their headers ("a header looks struck through") and a bar
// in a spotlight chip, until a scroll redrew everything. Each state below is reached by frames
// drawn in parts; then the canvas is drawn whole (np_set_viewport at the same size forgets
// what it showed) and the two pictures must be the same, pixel for pixel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { launch, lessonReady, settled, screenshotPath } from './harness.mjs';
import { comparePixels, decodePng, encodePng } from './png.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

async function open(lesson, device) {
  const context = await env.browser.newContext(device === 'phone'
    ? { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true }
    : { viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  await page.goto(`${env.origin}/lesson.html?lesson=${lesson}&voice=off`);
  await lessonReady(page);
  await settled(page);
  return { context, page, problems };
}

// The canvas as it is (drawn in parts), then drawn whole: the pixels that differ.
async function partsAgainstWhole(page, name) {
  await settled(page);
  const parts = await page.locator('#canvas').screenshot();
  await page.evaluate(() => {
    const box = document.getElementById('canvas').getBoundingClientRect();
    window.Module._np_set_viewport(Math.max(1, box.width), Math.max(1, box.height), window.devicePixelRatio || 1);
  });
  await settled(page);
  const whole = await page.locator('#canvas').screenshot();
  const result = comparePixels(decodePng(parts), decodePng(whole), 8);
  if (result.size || result.differing) {
    writeFileSync(screenshotPath(`${name}-parts`), parts);
    writeFileSync(screenshotPath(`${name}-whole`), whole);
    if (result.diff) writeFileSync(screenshotPath(`${name}-diff`), encodePng(result.diff));
  }
  return result.size ? Infinity : result.differing;
}

for (const device of ['phone', 'desk']) {
  test(`${device}: the course playback's steps, filled frame by frame, look as they do drawn whole`, async () => {
    const { context, page, problems } = await open('course-playback', device);
    const state = await page.evaluate(() => window.neuralpath.state());
    const board = state.widgets.find(w => w.kind === 'playback');
    await page.evaluate(to => window.neuralpath.command({ type: 'scroll', to }), state.layout.scroll + board.rect[1] - 60);
    // Steps whose matrices fill under headers (the old renderer failed 4 of these 9 at 375 px,
    // by 159-189 pixels each, and all 9 at 1440 px).
    const failed = [];
    for (let step = 4; step <= 12; step++) {
      await page.evaluate(step => window.neuralpath.command({ type: 'seek', step }), step);
      const differing = await partsAgainstWhole(page, `redraw-${device}-step-${step}`);
      if (differing) failed.push(`step ${step}: ${differing} pixels`);
    }
    assert.deepEqual(failed, [], 'drawn in parts, the board shows what it shows drawn whole');
    assert.deepEqual(problems, []);
    await context.close();
  });
}
