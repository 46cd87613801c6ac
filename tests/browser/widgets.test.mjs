// The lesson widgets in a real browser: the spotlight swings from "animal" to "street", the
// BERT switch opens the heatmap's upper triangle, the cost explorer runs both kernels in the
// page without freezing it, and every widget is photographed at phone, tablet and desktop
// widths (build/screenshots/widgets-*.png) for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, lessonReady, screenshotPath } from './harness.mjs';

const TIRED = "The animal didn't cross the street because it was too tired.";
const WIDE = "The animal didn't cross the street because it was too wide.";

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const widgetState = (page, id) => page.evaluate(i => window.neuralpath.state().widgets.find(w => w.id === i), id);
const command = (page, message) => page.evaluate(m => window.neuralpath.command(m), message);
// Two animation frames: the engine has drawn (and laid out) at least once since the change.
const frames = page => page.evaluate(() => new Promise(done =>
  requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done)))));

async function openLesson(width, height, section, scale = 1) {
  const opened = await openPage(env, `/lesson.html?lesson=self-attention&section=${section}`,
    { width, height, scale });
  await lessonReady(opened.page);
  await frames(opened.page);
  return opened;
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
  const { page, problems, context } = await openLesson(1280, 900, 'spotlight');
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
  await context.close();
});

test('the BERT switch opens the heatmap\'s upper triangle; every row still sums to 1', async () => {
  const { page, problems, context } = await openLesson(1280, 900, 'causal-mask');
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
  assert.deepEqual(problems, []);
  await context.close();
});

test('the cost explorer runs the naive and tiled kernels in the page without freezing it', async () => {
  const { page, problems, context } = await openLesson(1280, 900, 'cost');
  // The page's own frame pace with nothing running (software WebGL is slow on its own).
  await watchFrames(page);
  await page.waitForTimeout(2000);
  const idle = await stopWatching(page);
  console.log(`idle page: ${idle.frames} frames in 2 s, longest ${Math.round(idle.max)} ms`);
  const results = [];
  for (const T of [1024, 4096, 8192]) {
    await watchFrames(page);
    await command(page, { type: 'run', widget: 'cost', T });
    await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.id === 'cost').running === false,
      null, { timeout: 300_000, polling: 250 });
    const gaps = await stopWatching(page);
    const run = (await widgetState(page, 'cost')).runs.at(-1);
    results.push({ T, naive: run.naive, tiled: run.tiled, max_difference: run.max_difference,
      frames: gaps.frames, longest_frame_ms: Math.round(gaps.max) });
    assert.equal(run.tiled.status, 'done');
    assert.ok(gaps.frames > 3, `the page kept drawing (${gaps.frames} frames)`);
    assert.ok(gaps.max < 1500, `no frame waited ${Math.round(gaps.max)} ms`);
    if (T * T * 16 <= 256 * 2 ** 20) {
      assert.equal(run.naive.status, 'done');
      assert.ok(run.max_difference <= 1e-5, `naive and tiled agree (${run.max_difference})`);
    } else {
      assert.equal(run.naive.status, 'refused');
      assert.match(run.naive.reason, /more than the 256\.00 MiB/);
    }
  }
  for (const r of results)
    console.log(`cost explorer T=${r.T}: naive ${r.naive.status} ${(r.naive.seconds * 1000).toFixed(1)} ms ` +
      `(${r.naive.gflops.toFixed(2)} GFLOP/s), tiled ${(r.tiled.seconds * 1000).toFixed(1)} ms ` +
      `(${r.tiled.gflops.toFixed(2)} GFLOP/s), max diff ${r.max_difference}, ` +
      `${r.frames} frames, longest ${r.longest_frame_ms} ms`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every widget is photographed at 375, 768 and 1440 px, light and dark', async () => {
  const shots = [['it-spotlight', 'spotlight'], ['causal-grid', 'heatmap'],
    ['mask-walkthrough', 'mask-steps'], ['cost', 'cost-explorer']];
  for (const [width, height, scale] of [[375, 812, 2], [768, 1024, 1], [1440, 900, 1]]) {
    for (const theme of ['light', 'dark']) {
      const { page, problems, context } = await openLesson(width, height, 'spotlight', scale);
      await command(page, { type: 'theme', dark: theme === 'dark' });
      for (const [id, name] of shots) {
        await scrollTo(page, id);
        if (id === 'causal-grid') await command(page, { type: 'selectCell', widget: id, row: 2, col: 1 });
        if (id === 'mask-walkthrough') await command(page, { type: 'stage', widget: id, stage: 'softmax' });
        if (id === 'cost') {  // with a finished run on screen
          await command(page, { type: 'run', widget: id, T: 1000 });
          await page.waitForFunction(() => !window.neuralpath.state().widgets.find(w => w.id === 'cost').running,
            null, { timeout: 120_000, polling: 250 });
        }
        await frames(page);
        await page.screenshot({ path: screenshotPath(`widgets-${name}-${width}-${theme}`) });
      }
      if (theme === 'light') {  // the spotlight swung to "wide", and one number explaining itself
        await scrollTo(page, 'it-spotlight');
        await command(page, { type: 'setSentence', widget: 'it-spotlight', text: WIDE });
        await page.waitForTimeout(1500);  // the swing
        await page.screenshot({ path: screenshotPath(`widgets-spotlight-wide-${width}`) });
        for (const [mistake, extra] of [['no-scale', { d: 512 }], ['wrong-transpose', {}]]) {
          await scrollTo(page, 'mask-walkthrough');
          await command(page, { type: 'mistake', widget: 'mask-walkthrough', mistake, ...extra });
          const rect = (await widgetState(page, 'mask-walkthrough')).rect;
          await command(page, { type: 'scroll', by: rect[3] * 0.5 });  // the mistakes are the lower half
          await frames(page);
          await page.screenshot({ path: screenshotPath(`widgets-mistake-${mistake}-${width}`) });
        }
        await scrollTo(page, 'causal-grid');
        await command(page, { type: 'explain', widget: 'causal-grid', row: 2, col: 1 });
        await frames(page);
        await page.screenshot({ path: screenshotPath(`widgets-explain-${width}`) });
      }
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});
