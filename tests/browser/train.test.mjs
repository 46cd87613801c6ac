// The train widget in a real browser, on one shared page: the learner presses Train, the model
// learns in the trainer's Web Worker (np-train.js; no frame of the page trains) and the page draws
// each step the worker sends, the held-out accuracy reaches 95% while
// the spotlight of "it" stays spread out (the loss is on the output only: nothing teaches "it" to
// look at "dog", as the lesson says); then the page sleeps again. The switch and "try your own
// sentence" use the weights it shows. Frame figures are printed, not asserted (a shared machine's
// load moves them): the gaps between the browser's frames (median, p95, worst: 33.3 ms is 30 fps)
// from requestAnimationFrame timestamps, the long tasks (> 50 ms) PerformanceObserver saw, and the
// load average. What is asserted holds on a busy machine: the steps ran in the worker, no frame
// trained, and a page whose worker cannot load trains in its frames (a slice per frame, at least
// one frame per two steps) to the very same curve. Photographs at 1440 and 375 px
// (build/screenshots/train-*.png) are for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWithLesson, lessonReady, screenshotPath, settled, engineFrames, siteDir } from './harness.mjs';

const ID = 'train-pronoun';
let env, opened;
before(async () => {
  ({ env, opened } = await launchWithLesson('/lesson.html?lesson=self-attention&section=learn', { width: 1440, height: 900 }));
});
after(async () => { await env?.close(); });

const widgetState = page => page.evaluate(i => window.neuralpath.state().widgets.find(w => w.id === i), ID);
const command = (page, message) => page.evaluate(m => window.neuralpath.command(m), { widget: ID, ...message });
const frames = page => page.evaluate(() => new Promise(done =>
  requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done)))));

// Gaps between the browser's frames (requestAnimationFrame timestamps) and long tasks, from
// start() until stop(), which returns {gaps: sorted ms, longTasks: [ms]}.
const frameWatch = {
  start: page => page.evaluate(() => {
    const w = window.__frames = { gaps: [], longTasks: [], last: null, on: true };
    w.observer = new PerformanceObserver(list => { for (const e of list.getEntries()) w.longTasks.push(e.duration); });
    w.observer.observe({ type: 'longtask' });
    const tick = now => {
      if (w.last !== null) w.gaps.push(now - w.last);
      w.last = now;
      if (w.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }),
  stop: page => page.evaluate(() => {
    const w = window.__frames;
    w.on = false;
    w.observer.disconnect();
    return { gaps: [...w.gaps].sort((a, b) => a - b), longTasks: w.longTasks };
  }),
};
const figures = ({ gaps, longTasks }) => {
  const at = q => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))].toFixed(1);
  return `frame gaps median ${at(0.5)} ms, p95 ${at(0.95)} ms, worst ${gaps.at(-1).toFixed(1)} ms ` +
    `(${gaps.filter(g => g > 34).length} of ${gaps.length} over 34 ms); long tasks: ${longTasks.length}` +
    `${longTasks.length ? ` (longest ${Math.max(...longTasks).toFixed(0)} ms)` : ''}; ` +
    `load average ${loadavg().map(x => x.toFixed(1)).join(' ')}`;
};

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

let workerCurve = null;  // the curve the worker trained, for the frames' run to match
test('Train teaches the output of "it" to name the noun in a worker, the page keeps drawing, then sleeps', async () => {
  const { page, problems } = opened;
  await scrollToWidget(page);
  await settled(page);
  let s = await widgetState(page);
  assert.equal(s.kind, 'train');
  assert.equal(s.step, 0);
  assert.equal(s.running, false);
  assert.ok(Math.max(...s.spotlight.weights) < 0.3, `untrained: spread out (${s.spotlight.weights})`);
  await page.screenshot({ path: screenshotPath('train-1440-before') });

  await frameWatch.start(page);
  const framesBefore = await engineFrames(page);
  const started = Date.now();
  await command(page, { type: 'train' });
  await page.waitForFunction(i => window.neuralpath.state().widgets.find(w => w.id === i).step >= 100, ID,
    { timeout: 60_000, polling: 50 });
  const midway = await widgetState(page);
  await page.screenshot({ path: screenshotPath('train-1440-during') });
  await page.waitForFunction(i => window.neuralpath.state().widgets.find(w => w.id === i).finished, ID,
    { timeout: 60_000, polling: 100 });
  const seconds = (Date.now() - started) / 1000;
  const watched = await frameWatch.stop(page);
  s = await widgetState(page);
  console.log(`train widget in the page: ${s.total_steps} steps in ${seconds.toFixed(1)} s in the trainer worker, ` +
    `${Math.round(s.steps_per_second)} steps/s there; ${figures(watched)}; held-out accuracy ` +
    s.curve.filter(p => p.step % 50 === 0).map(p => `${p.step}: ${(100 * p.accuracy).toFixed(1)}%`).join(', '));
  assert.equal(s.in_worker, true, 'the steps ran in the trainer worker');
  assert.equal(s.worker_error, undefined);
  assert.equal(s.longest_slice_ms, 0, 'no frame of the page trained');
  // Engine frames, not the rAF gaps above: those miss the frame the watch starts on and its last.
  const drawn = await engineFrames(page) - framesBefore;
  // At the frames' pace (120 steps a second, TrainWorker::kStepsPerSecond), so the learner
  // watches the curves form: unpaced, the worker's 300 steps took 0.3 s and they appeared whole.
  assert.ok(seconds >= (s.total_steps - 1) / 120 - 0.1, `${s.total_steps} steps in ${seconds.toFixed(2)} s`);
  // Frames, not a count of them: a loaded machine (load 10 in CI's two files at a time) drew 17
  // frames of 400-660 ms in this run, where a quiet one draws 50.
  assert.ok(drawn >= 2, `the page drew the worker's steps as they came (${drawn} engine frames)`);
  assert.ok(midway.step < s.total_steps, `the page showed step ${midway.step} on the way`);
  assert.ok(s.curve.length > 10, 'the curves have points along the way');
  workerCurve = s.curve;
  assert.ok(s.accuracy >= 0.95, `held-out accuracy ${s.accuracy}`);
  const dog = s.spotlight.weights[s.spotlight.tokens.indexOf('dog')];
  assert.ok(dog < 0.2, `trained on the output alone, "it" gives "dog" only ${dog}`);
  // Finished: the page stops drawing by itself, once the last step's spotlight has glided to
  // its place. settled() sees 100 ms without a frame; on a loaded machine that can fall inside
  // the glide, so it may take a few tries, but the page must come to rest.
  let resting = false;
  for (let tries = 0; tries < 5 && !resting; tries++) {
    await settled(page);
    const idle = await engineFrames(page);
    await frames(page);
    resting = await engineFrames(page) === idle;
  }
  assert.ok(resting, 'no engine frames once training is done');
  await page.screenshot({ path: screenshotPath('train-1440-trained') });

  // Your own sentence with the trained weights, then the hand-set ones; a sentence without "it".
  await command(page, { type: 'setSentence', text: "The horse didn't cross the bridge because it was too long." });
  s = await widgetState(page);
  const trainedCustom = s.custom.weights;
  await command(page, { type: 'useTrained', trained: false });
  s = await widgetState(page);
  assert.equal(s.trained, false);
  assert.notDeepEqual(s.custom.weights, trainedCustom, 'your sentence follows the switch');
  assert.equal(s.custom.tokens[s.custom.top], 'bridge', 'the hand-set weights look at the bridge');
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

// The multi-head lesson's train widget: four heads start from random weights and part ways (only
// partly: the loss is on the output), one column each for where "carried" looks. Trained live for a while (frame figures printed, the
// page drawing while it trains), then on to step 60 at once; photographed at 1440 px
// (build/screenshots/train-heads-1440.png).
let headsAt60 = null;
test('the multi-head lesson trains its four heads in the page, and they do not all take the same word', async () => {
  const { page, problems } = opened;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(env.origin + '/lesson.html?lesson=multi-head&section=learned');
  await lessonReady(page);
  const heads = () => page.evaluate(() => window.neuralpath.state().widgets.find(w => w.id === 'train-heads'));
  let s = await heads();
  assert.equal(s.kind, 'train');
  assert.equal(s.spotlight.heads.length, 4);
  await frameWatch.start(page);
  const framesBefore = await engineFrames(page);
  await page.evaluate(() => window.neuralpath.command({ widget: 'train-heads', type: 'train' }));
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.id === 'train-heads').step >= 20,
    null, { timeout: 60_000, polling: 100 });
  await page.evaluate(() => window.neuralpath.command({ widget: 'train-heads', type: 'pause' }));
  const watched = await frameWatch.stop(page);
  s = await heads();
  console.log(`multi-head training in the page: ${s.step} steps live, ${Math.round(s.steps_per_second)} steps/s, ` +
    `in the trainer worker; ${figures(watched)}`);
  assert.equal(s.in_worker, true, 'the steps ran in the trainer worker');
  assert.equal(s.longest_slice_ms, 0, 'no frame of the page trained');
  const drawn = await engineFrames(page) - framesBefore;  // engine frames: see the first test
  assert.ok(drawn >= 2, `the page drew the worker's steps as they came (${drawn} engine frames)`);
  // On to step 60 in the page, from the worker's state (a progress every 100 ms can carry the
  // run past 60 before the pause: then from a reset).
  if (s.step > 60) await page.evaluate(() => window.neuralpath.command({ widget: 'train-heads', type: 'resetTraining' }));
  s = await heads();
  if (s.step < 60)
    await page.evaluate(n => window.neuralpath.command({ widget: 'train-heads', type: 'trainSteps', n }), 60 - s.step);
  s = await heads();
  const tops = s.spotlight.head_tops.map(t => s.spotlight.tokens[t]);
  console.log(`after 60 steps "carried" looks most at, head by head: ${tops.join(', ')}`);
  assert.ok(new Set(tops).size >= 2, `the heads part ways: ${tops}`);
  assert.ok(s.accuracy >= 0.95, `held-out accuracy after 60 steps: ${s.accuracy}`);
  headsAt60 = s.spotlight;
  await page.evaluate(() => window.neuralpath.command({ type: 'scroll', by:
    window.neuralpath.state().widgets.find(w => w.id === 'train-heads').rect[1] - 80 }));
  await settled(page);
  await page.screenshot({ path: screenshotPath('train-heads-1440') });
  assert.deepEqual(problems, []);
});

// A 375 px touch phone (isMobile, hasTouch): both train widgets photographed
// (build/screenshots/train-touch-375.png: the seed field with its − and + on the card;
// train-heads-touch-375.png), and the multi-head one trained to step 60 shows the same heads as
// the desktop did.
test('on a 375 px touch phone both train widgets are drawn, and the same steps give the same heads', async () => {
  const phone = await env.browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true,
    deviceScaleFactor: 2 });
  try {
    const p = await phone.newPage();
    const problems = [];
    p.on('pageerror', error => problems.push(`page error: ${error.message}`));
    const open = async (lesson, section, id) => {
      await p.goto(`${env.origin}/lesson.html?lesson=${lesson}&section=${section}`);
      await lessonReady(p);
      await p.evaluate(i => window.neuralpath.command({ type: 'scroll', by:
        window.neuralpath.state().widgets.find(w => w.id === i).rect[1] - 60 }), id);
      await settled(p);
    };
    await open('self-attention', 'learn', ID);
    await p.screenshot({ path: screenshotPath('train-touch-375') });
    await open('multi-head', 'learned', 'train-heads');
    await p.evaluate(() => window.neuralpath.command({ widget: 'train-heads', type: 'trainSteps', n: 60 }));
    await settled(p);
    await p.screenshot({ path: screenshotPath('train-heads-touch-375') });
    const s = await p.evaluate(() => window.neuralpath.state().widgets.find(w => w.id === 'train-heads'));
    if (headsAt60) assert.deepEqual(s.spotlight, headsAt60, 'the same seed and steps give the phone the same heads');
    assert.deepEqual(problems, []);
  } finally {
    await phone.close();
  }
});

// Without its trainer worker (the script's download fails: an old proxy, a blocked URL), Train
// still trains: in the page's frames, a slice per frame, from where the widget was, to the same
// held-out curve the worker gave (training is deterministic, wherever it runs).
test('when the trainer worker cannot load, the page trains in its frames, to the same curve', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.route('**/attention-trainer.js', route => route.fulfill({ status: 404, body: 'gone' }));
    const p = await context.newPage();
    const errors = [];
    p.on('pageerror', error => errors.push(error.message));
    await p.goto(`${env.origin}/lesson.html?lesson=self-attention&section=learn`);
    await lessonReady(p);
    const framesBefore = await engineFrames(p);
    await p.evaluate(i => window.neuralpath.command({ widget: i, type: 'train' }), ID);
    await p.waitForFunction(i => window.neuralpath.state().widgets.find(w => w.id === i).finished, ID,
      { timeout: 90_000, polling: 100 });
    const s = await widgetState(p);
    assert.match(s.worker_error, /could not be downloaded/);
    assert.equal(s.in_worker, false);
    assert.ok(s.longest_slice_ms > 0, 'the frames trained');
    const drawn = await engineFrames(p) - framesBefore;
    assert.ok(drawn >= s.total_steps / 2, `a slice per frame (${drawn} engine frames for ${s.total_steps} steps)`);
    if (workerCurve) assert.deepEqual(s.curve, workerCurve, 'the frames and the worker trained the same curve');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

// The trainer worker loads while the learner reads: its files are fetched once the Train button
// comes on screen (prepare, engine/widgets/train/train_protocol.h), never with a lesson whose
// train widget is out of sight (the first visit stays as small as it was), and a Train pressed
// after that trains in the worker.
test('the trainer is fetched when Train comes on screen, not before, and the first Train trains in it', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const fetched = [];
    context.on('request', request => {
      const file = new URL(request.url()).pathname.split('/').pop();
      if (file.startsWith('attention-trainer') || file === 'np-train-worker.js') fetched.push(file);
    });
    const p = await context.newPage();
    const errors = [];
    p.on('pageerror', error => errors.push(error.message));
    await p.goto(`${env.origin}/lesson.html?lesson=self-attention`);
    await lessonReady(p);
    await settled(p);
    await p.waitForTimeout(300);
    const rect = (await widgetState(p)).rect;
    assert.ok(rect[1] > 800, `the train widget starts below the first screen (at y ${rect[1]})`);
    assert.deepEqual(fetched, [], 'nothing of the trainer while Train is out of sight');

    await p.evaluate(i => window.neuralpath.command({ type: 'scroll', by:
      window.neuralpath.state().widgets.find(w => w.id === i).rect[1] - 60 }), ID);
    await settled(p);
    for (let waited = 0; waited < 30_000 && !fetched.includes('attention-trainer.wasm'); waited += 100)
      await p.waitForTimeout(100);
    assert.ok(fetched.includes('np-train-worker.js') && fetched.includes('attention-trainer.wasm'),
      `the trainer is fetched once Train is on screen (${fetched.join(', ')})`);
    let s = await widgetState(p);
    assert.equal(s.step, 0, 'a prepare trains nothing');
    assert.equal(s.running, false);
    assert.equal(s.worker_error, undefined);

    await p.evaluate(i => window.neuralpath.command({ widget: i, type: 'train' }), ID);
    await p.waitForFunction(i => window.neuralpath.state().widgets.find(w => w.id === i).finished, ID,
      { timeout: 90_000, polling: 100 });
    s = await widgetState(p);
    assert.equal(s.in_worker, true);
    assert.equal(s.longest_slice_ms, 0);
    assert.equal(fetched.filter(file => file === 'attention-trainer.wasm').length, 1, 'fetched once');
    if (workerCurve) assert.deepEqual(s.curve, workerCurve, 'the prepared trainer trains the same curve');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
