// Kept across reloads (#32): a learner's trained model and the figures' state (what a shared link
// carries) come back after a reload; saving waits until a drag ends; a corrupt or full storage
// never destroys what was kept; Reset progress leaves the figures alone (docs/lms.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { openLesson, waitForLesson, LESSON } from './embed-kit.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const WIDGETS = `neuralpath:v1:widgets:${LESSON}`;
const KEPT = `neuralpath:v1:kept-widgets:${LESSON}:`;

const open = (setup, arg) => openLesson(env, setup, arg);

const widget = (page, kind) => page.evaluate(k => window.neuralpath.state().widgets.find(w => w.kind === k), kind);
const stored = page => page.evaluate(key => localStorage.getItem(key), WIDGETS);
// What the tests do through commands stands for the learner's typing: a key's release ends it.
const inputEnds = page => page.keyboard.press('Shift');
// The learner's sentence for widget `id`, set by a command (inputEnds then ends the "typing").
const setSentence = (page, id, text) =>
  page.evaluate(([t, i]) => window.neuralpath.command({ widget: i, type: 'setSentence', text: t }), [text, id]);
// Waits until the saved figures hold `text`.
const savedWith = (page, text, timeout = 10_000) =>
  page.waitForFunction(([key, t]) => (localStorage.getItem(key) || '').includes(t), [WIDGETS, text], { timeout });
// The learner types `text` as the widget's sentence, the key's release ends the input, and the
// page saves it (the full suite at load 12 showed that waiting for some engine event to save it
// instead is a race). `saved`: the part of it the saved figures are checked for.
async function typeAndSave(page, id, text, saved = text) {
  await setSentence(page, id, text);
  await inputEnds(page);
  await savedWith(page, saved);
}
const storedWidgets = async page => JSON.parse((await stored(page)) || '{"widgets":{}}').widgets;

test('a trained model and a figure\'s sentence survive a reload; Reset progress leaves them', async t => {
  const { page, context, problems } = await open();
  const train = await widget(page, 'train');
  const heatmap = await widget(page, 'heatmap');
  assert.ok(train && heatmap, 'the lesson has a train widget and a heatmap');
  await page.evaluate(id => window.neuralpath.command({ widget: id, type: 'trainSteps', n: 120 }), train.id);
  const sentence = 'The tired dog slept by the warm fire';
  await setSentence(page, heatmap.id, sentence);
  // The steps run over frames: under load they were still running when the input ended, and the
  // save caught step 80 (a reload or leaving the page saves the rest; nothing else would here).
  await page.waitForFunction(id => window.neuralpath.state().widgets.find(w => w.id === id).step === 120, train.id, { timeout: 20_000 });
  // Saved without a reload too, once the input ends.
  await inputEnds(page);
  await page.waitForFunction(([key, t, h]) => {
    const value = JSON.parse(localStorage.getItem(key) || 'null');
    return value?.widgets?.[t]?.steps === 120 && JSON.stringify(value.widgets[h] || {}).includes('tired dog');
  }, [WIDGETS, train.id, heatmap.id], { timeout: 10_000 });
  const trainedBefore = await widget(page, 'train');
  assert.equal(trainedBefore.step, 120);

  // Reset progress clears answers and place, not the learner's experiments.
  await page.evaluate(() => window.neuralpath.command({ type: 'reset' }));
  assert.equal((await widget(page, 'train')).step, 120, 'Reset progress leaves the trained model');

  await page.reload();
  await waitForLesson(page);
  await page.waitForFunction(id => window.neuralpath.state().widgets.find(w => w.id === id).step === 120, train.id, { timeout: 20_000 });
  const trainedAfter = await widget(page, 'train');
  assert.equal(trainedAfter.loss, trainedBefore.loss, 'the same weights: training is replayed to the same step');
  assert.equal(trainedAfter.accuracy, trainedBefore.accuracy);
  assert.equal(trainedAfter.running, false, 'restored paused');
  assert.equal((await page.evaluate(id => window.neuralpath.state().widgets.find(w => w.id === id).sentence, heatmap.id)), sentence);
  t.diagnostic(`after the reload: step ${trainedAfter.step}, loss ${trainedAfter.loss}, accuracy ${trainedAfter.accuracy}`);

  // A training still running when the page is reloaded is kept at the step it had reached.
  await page.evaluate(id => window.neuralpath.command({ widget: id, type: 'resetTraining' }), train.id);
  await page.evaluate(id => window.neuralpath.command({ widget: id, type: 'train' }), train.id);
  await page.waitForFunction(id => window.neuralpath.state().widgets.find(w => w.id === id).step >= 20, train.id, { timeout: 20_000 });
  await page.reload();
  await waitForLesson(page);
  await page.waitForFunction(id => window.neuralpath.state().widgets.find(w => w.id === id).step >= 20, train.id, { timeout: 20_000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('saving waits until a drag ends: nothing is written while the pointer is down', async () => {
  const { page, context, problems } = await open();
  const heatmap = await widget(page, 'heatmap');
  await typeAndSave(page, heatmap.id, 'A first sentence here', 'A first sentence');
  // The pointer goes down on the page's margin and stays there: a drag in progress.
  await page.mouse.move(4, 400);
  await page.mouse.down();
  await setSentence(page, heatmap.id, 'A second sentence now');
  await page.keyboard.press('Shift');   // even a key's release: the pointer is still down
  await page.waitForTimeout(2000);     // past the settle time
  assert.ok((await stored(page)).includes('A first sentence'), 'nothing written during the drag');
  await page.mouse.up();
  await savedWith(page, 'A second sentence', 5000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a figures record that cannot be read is kept aside before anything is written over it', async () => {
  const { page, context, problems } = await open((key) => {
    if (!sessionStorage.getItem('seeded')) { localStorage.setItem(key, '{"version": 1, "lesson": "self-att'); sessionStorage.setItem('seeded', '1'); }
  }, WIDGETS);
  const heatmap = await widget(page, 'heatmap');
  assert.equal(heatmap.sentence !== undefined, true);
  await typeAndSave(page, heatmap.id, 'The kept copy stays');
  const copies = await page.evaluate(prefix => Object.keys(localStorage).filter(k => k.startsWith(prefix))
    .map(k => localStorage.getItem(k)), KEPT);
  assert.deepEqual(copies, ['{"version": 1, "lesson": "self-att'], 'the unreadable value, exactly as it was');
  assert.deepEqual(problems, []);
  await context.close();
});

test('full storage keeps the figures it had: a failed write never removes them', async () => {
  const { page, context, problems } = await open();
  const heatmap = await widget(page, 'heatmap');
  await typeAndSave(page, heatmap.id, 'Saved before the disk filled', 'disk filled');
  const before = await stored(page);
  await page.evaluate(() => {
    const own = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (String(key).includes(':widgets:')) throw new DOMException('full', 'QuotaExceededError');
      return own.call(this, key, value);
    };
  });
  await setSentence(page, heatmap.id, 'Not saved: no room');
  await inputEnds(page);
  await page.waitForTimeout(2000);
  assert.equal(await stored(page), before, 'the earlier value is still there');
  assert.equal((await storedWidgets(page))[heatmap.id] !== undefined, true);
  assert.equal(await page.evaluate(id => window.neuralpath.state().widgets.find(w => w.id === id).sentence, heatmap.id), 'Not saved: no room',
    'the lesson goes on');
  assert.deepEqual(problems, []);
  await context.close();
});

// Each module script runs when it has arrived; on a slow machine the lesson once loaded before
// np-storage.js listened for it, and then the kept figures were never restored (nor saved again).
test('a storage script that arrives after the lesson has loaded still restores and saves', async () => {
  const { page, context, problems } = await open();
  const heatmap = await widget(page, 'heatmap');
  const sentence = 'The late script keeps this';
  await typeAndSave(page, heatmap.id, sentence);
  await page.route('**/np-storage.js', async route => {
    await new Promise(done => setTimeout(done, 4000));
    await route.continue();
  });
  await page.reload();
  await waitForLesson(page);
  await page.waitForFunction(([id, text]) => window.neuralpath.state().widgets.find(w => w.id === id).sentence === text,
    [heatmap.id, sentence], { timeout: 15_000 });
  assert.equal(await page.evaluate(() => window.neuralpath.state().widgets.length > 0), true);
  assert.deepEqual(problems, []);
  await context.close();
});

// While the engine starts, np-app.js routes the engine's key listeners to the canvas. A module
// that arrived in that time had its listeners routed too: np-storage's keyup then never ran
// without the canvas focused, and a change was not saved (CI, at load 12). Here np-storage.js
// arrives while the engine's script is held back, so it registers during the routing.
test('a storage script that arrives while the engine starts still saves on a key\'s release', async () => {
  const { page, context, problems } = await open();
  await page.route('**/lesson.*.js', async route => { await new Promise(done => setTimeout(done, 3000)); await route.continue(); });
  await page.route('**/np-storage.js', async route => { await new Promise(done => setTimeout(done, 1000)); await route.continue(); });
  await page.reload();
  await waitForLesson(page);
  // Past the save the restore schedules (0.6 s), which would otherwise catch the change below.
  await page.waitForTimeout(1500);
  const heatmap = await widget(page, 'heatmap');
  const sentence = 'Saved though it came late';
  await setSentence(page, heatmap.id, sentence);
  // The key is released with the focus off the canvas (as after a click in the text version).
  await page.evaluate(() => document.activeElement?.blur());
  await inputEnds(page);
  await savedWith(page, sentence);
  assert.deepEqual(problems, []);
  await context.close();
});
