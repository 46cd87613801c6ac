// The train widget in a real browser, on one shared page: the learner presses Train, the page
// keeps drawing while the model learns a slice per frame, the held-out accuracy reaches 95% and
// the spotlight of "it" lands on "dog"; then the page sleeps again. The switch and "try your own
// sentence" use the weights it shows. Frame figures are printed (the slices' longest, the
// browser's longest gap between frames); photographs at 1440 and 375 px
// (build/screenshots/train-*.png) are for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, lessonReady, screenshotPath, settled, engineFrames, siteDir } from './harness.mjs';

const ID = 'train-pronoun';
let env, opened;
before(async () => {
  env = await launch();
  opened = await openPage(env, '/lesson.html?lesson=self-attention&section=learn', { width: 1440, height: 900 });
  await lessonReady(opened.page);
});
after(async () => { await env?.close(); });

const widgetState = page => page.evaluate(i => window.neuralpath.state().widgets.find(w => w.id === i), ID);
const command = (page, message) => page.evaluate(m => window.neuralpath.command(m), { widget: ID, ...message });
const frames = page => page.evaluate(() => new Promise(done =>
  requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done)))));

// The widget's top just below the top of the reading column.
async function scrollToWidget(page) {
  for (let i = 0; i < 4; i++) {
    const state = await page.evaluate(() => window.neuralpath.state());
    const by = state.widgets.find(w => w.id === ID).rect[1] - (state.layout.column[1] + 8);
    if (Math.abs(by) < 2) break;
    await page.evaluate(b => window.neuralpath.command({ type: 'scroll', by: b }), by);
    await frames(page);
  }
}

test('Train teaches "it" to find the dog a slice per frame, the page keeps drawing, then sleeps', async () => {
  const { page, problems } = opened;
  await scrollToWidget(page);
  await settled(page);
  let s = await widgetState(page);
  assert.equal(s.kind, 'train');
  assert.equal(s.step, 0);
  assert.equal(s.running, false);
  assert.ok(Math.max(...s.spotlight.weights) < 0.3, `untrained: spread out (${s.spotlight.weights})`);
  await page.screenshot({ path: screenshotPath('train-1440-before') });

  await page.evaluate(() => {
    window.__gaps = { list: [], last: performance.now(), on: true };
    const tick = now => {
      const g = window.__gaps;
      g.list.push(now - g.last); g.last = now;
      if (g.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const started = Date.now();
  await command(page, { type: 'train' });
  await page.waitForFunction(i => window.neuralpath.state().widgets.find(w => w.id === i).step >= 100, ID,
    { timeout: 60_000, polling: 50 });
  await page.screenshot({ path: screenshotPath('train-1440-during') });
  await page.waitForFunction(i => window.neuralpath.state().widgets.find(w => w.id === i).finished, ID,
    { timeout: 60_000, polling: 100 });
  const seconds = (Date.now() - started) / 1000;
  const gaps = await page.evaluate(() => { window.__gaps.on = false; return window.__gaps.list; });
  s = await widgetState(page);
  const sorted = [...gaps].sort((a, b) => a - b);
  console.log(`train widget in the page: ${s.total_steps} steps in ${seconds.toFixed(1)} s, ${gaps.length} frames; ` +
    `longest training slice ${s.longest_slice_ms.toFixed(1)} ms (budget 8 ms), ${Math.round(s.steps_per_second)} steps/s ` +
    `within a slice; gaps between frames: median ${sorted[sorted.length >> 1].toFixed(1)} ms, ` +
    `longest ${sorted.at(-1).toFixed(1)} ms; held-out accuracy ` +
    s.curve.filter(p => p.step % 50 === 0).map(p => `${p.step}: ${(100 * p.accuracy).toFixed(1)}%`).join(', '));
  assert.ok(gaps.length >= s.total_steps / 2, `the page drew while training (${gaps.length} frames)`);
  assert.ok(s.longest_slice_ms < 50, `a training slice took ${s.longest_slice_ms} ms`);
  assert.ok(s.curve.length > 10, 'the curves have points along the way');
  assert.ok(s.accuracy >= 0.95, `held-out accuracy ${s.accuracy}`);
  assert.equal(s.spotlight.tokens[s.spotlight.top], 'dog');
  await settled(page);  // finished: the page stops drawing by itself
  const idle = await engineFrames(page);
  await frames(page);
  assert.equal(await engineFrames(page), idle, 'no engine frames once training is done');
  await page.screenshot({ path: screenshotPath('train-1440-trained') });

  // Your own sentence with the trained weights, then the hand-set ones; a sentence without "it".
  await command(page, { type: 'setSentence', text: "The horse didn't cross the bridge because it was too long." });
  s = await widgetState(page);
  assert.equal(s.custom.tokens[s.custom.top], 'bridge');
  await command(page, { type: 'useTrained', trained: false });
  assert.equal((await widgetState(page)).trained, false);
  await assert.rejects(command(page, { type: 'setSentence', text: 'The horse sat down.' }), /“it”/);

  // On a phone's width: same state, photographed.
  await page.setViewportSize({ width: 375, height: 800 });
  await frames(page);
  await scrollToWidget(page);
  await settled(page);
  await page.screenshot({ path: screenshotPath('train-375-hand-set') });
  await command(page, { type: 'useTrained', trained: true });
  await settled(page);
  await page.screenshot({ path: screenshotPath('train-375-trained') });
  assert.deepEqual(problems, []);
});

// The site's course-playback lesson carries the weights the build trained (a ```trained-weights
// block): they are what a fresh training run of this build's neuralpath-cli gives, and the page
// opens the lesson without training (its next-word step guesses "future" all the same).
test('the shipped trained weights equal a fresh training run, and the page uses them', async () => {
  const cli = join(import.meta.dirname, '../../build/native/engine/cli/neuralpath-cli');
  const scratch = mkdtempSync(join(tmpdir(), 'np-ship-'));
  try {
    const out = join(scratch, 'weights');
    const run = spawnSync(cli, ['train', '--lesson', 'lessons/course-playback.md', '--ship', out],
      { cwd: join(import.meta.dirname, '../..'), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const fresh = readFileSync(out, 'utf8');
    const served = readFileSync(join(siteDir, 'lessons/course-playback.md'), 'utf8');
    assert.ok(fresh.startsWith('```trained-weights\n'), fresh.slice(0, 80));
    assert.ok(served.endsWith(`\n${fresh}`), 'the served lesson ends with the freshly trained block');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const { page, problems } = opened;
  await page.setViewportSize({ width: 1280, height: 900 });
  const started = Date.now();
  await page.goto(env.origin + '/lesson.html?lesson=course-playback');
  await lessonReady(page);
  console.log(`course-playback ready in ${Date.now() - started} ms with shipped weights`);
  const state = await page.evaluate(() => window.neuralpath.state());
  assert.deepEqual(state.errors, []);
  assert.deepEqual(problems, []);
});
