// Saved progress: answers, reveals and position survive a reload, can be reset, and storage
// that is missing, full or holding garbage never breaks the lesson (a visible note says so).
// A stored record that cannot be fully used is never overwritten: it is kept aside exactly as
// it was, what can be used is restored, and the page says so and offers it back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, screenshotPath } from './harness.mjs';
import { answerKey, openLesson, waitForLesson, LESSON } from './embed-kit.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const KEY = `neuralpath:v1:progress:${LESSON}`;
const KEPT = `neuralpath:v1:kept:${LESSON}:`;
const statusNote = page => page.locator('.np-note:not(.np-note-kept)');
const keptNote = page => page.locator('.np-note-kept');

const open = (setup, arg) => openLesson(env, setup, arg);

const firstCheck = page => page.evaluate(() => window.neuralpath.state().checks[0]);

// Answers the first check through the text version (open it with the toolbar, click option 1).
async function answerFirstCheck(page, option = 1) {
  if (await page.locator('#np-mirror.np-mirror-closed').count()) await page.getByRole('button', { name: 'Text version', exact: true }).click();
  await page.locator('#np-mirror .np-m-check').first().locator(`.np-m-option[data-option="${option}"]`).click();
  await page.waitForFunction(o => window.neuralpath.state().checks[0].chosen[0] === o, option, { timeout: 10_000 });
}

test('answers, reveals and the section survive a reload', async () => {
  const { page, context, problems } = await open();
  await answerFirstCheck(page, 1);
  const reveal = await page.evaluate(() => window.neuralpath.state().reveals[0]?.id);
  if (reveal) await page.evaluate(id => window.neuralpath.command({ type: 'reveal', id, open: true }), reveal);
  const sections = await page.evaluate(() => window.neuralpath.state().sections.map(s => s.anchor));
  await page.evaluate(anchor => window.neuralpath.goto(anchor), sections.at(-1));
  // Wait for the record that holds the answer: the engine's events reach the page a frame or
  // more after its state changes, and under load an earlier record (any record) is not yet the
  // one to reload from.
  await page.waitForFunction(key => {
    try {
      return Object.keys(JSON.parse(JSON.parse(localStorage.getItem(key)).progress).answers || {}).length > 0;
    } catch { return false; }
  }, KEY, { timeout: 10_000 });
  const stored = JSON.parse(await page.evaluate(key => localStorage.getItem(key), KEY));
  assert.equal(stored.version, 1);
  assert.equal(stored.lesson, LESSON);

  await page.reload();
  await waitForLesson(page);
  const after = await page.evaluate(() => window.neuralpath.state());
  assert.deepEqual(after.checks[0].chosen, [1], 'the answer is back');
  if (reveal) assert.equal(after.reveals.find(r => r.id === reveal).open, true, 'the reveal is open again');
  assert.equal(after.section, sections.at(-1), 'the learner is where they left off');
  // The text version shows the restored answer too.
  assert.equal(await page.locator('#np-mirror .np-m-check').first().locator('.np-m-option[data-option="1"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('.np-note:visible').count(), 0, 'no warning when saving works');
  assert.deepEqual(problems, []);
  await context.close();
});

// The engine's events reach the page once a frame; a page hidden or closed in between (a reload
// just after a click) sends them at once. The page is hidden in the same task as the answer, so
// no frame can carry the event first: without that, nothing is stored yet when it is asked.
test('an answer given just before the page is closed is kept', async () => {
  const { page, context, problems } = await open();
  const storedAnswers = await page.evaluate(key => {
    const np = window.neuralpath;
    np.answer(np.state().checks[0].id, 1);
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    return JSON.parse(JSON.parse(localStorage.getItem(key) ?? '{"progress": "{}"}').progress).answers ?? {};
  }, KEY);
  assert.deepEqual(Object.values(storedAnswers), [[1]], 'the answer is stored as the page goes');
  await page.reload();
  await waitForLesson(page);
  assert.deepEqual((await firstCheck(page)).chosen, [1], 'and is back after the reload');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the reset control clears the saved progress and can be undone', async () => {
  const { page, context, problems } = await open();
  await answerFirstCheck(page, 0);
  await page.getByRole('button', { name: 'Reset progress' }).click();
  await page.waitForFunction(() => window.neuralpath.state().checks[0].chosen.length === 0);
  assert.match(await statusNote(page).innerText(), /Progress reset/);
  await page.reload();
  await waitForLesson(page);
  assert.deepEqual((await firstCheck(page)).chosen, [], 'still cleared after a reload');
  await answerFirstCheck(page, 0);
  await page.getByRole('button', { name: 'Reset progress' }).click();
  await page.getByRole('button', { name: 'Undo reset' }).click();
  await page.waitForFunction(() => window.neuralpath.state().checks[0].chosen[0] === 0);
  assert.deepEqual(problems, []);
  await context.close();
});

// Seeds localStorage once per context (reloads keep what the page saved).
const seed = entries => {
  if (sessionStorage.getItem('np-test-seeded')) return;
  for (const [k, v] of entries) localStorage.setItem(k, v);
  sessionStorage.setItem('np-test-seeded', '1');
};
const keptCopies = page => page.evaluate(prefix => Object.keys(localStorage).filter(k => k.startsWith(prefix))
  .map(k => localStorage.getItem(k)), KEPT);
const wrap = progress => JSON.stringify({ version: 1, lesson: LESSON, saved: '2026-01-01T00:00:00Z', progress });

for (const [what, value] of [['not JSON', '{"version":1,"lesson":'], ['the wrong shape', '[1,2,3]'],
  ['a record the engine refuses', wrap('{"answers": "?"')], ['another lesson\'s', wrap('{"v":1,"lesson":"other"}')]]) {
  test(`a stored value that is ${what} is kept aside, never overwritten: the lesson works and says so`, async () => {
    const { page, context, problems } = await open(seed, [[KEY, value]]);
    const note = keptNote(page);
    await note.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await note.innerText(), /could not be read.*The original is kept in this browser/s);
    assert.deepEqual(await keptCopies(page), [value], 'the original, exactly as it was');
    await answerFirstCheck(page, 1);   // the lesson still works, and saving goes on
    await page.waitForFunction(key => { try { return JSON.parse(localStorage.getItem(key)).version === 1; } catch { return false; } }, KEY);
    assert.deepEqual(await keptCopies(page), [value], 'saving left the kept copy alone');
    if (what !== 'not JSON') { assert.deepEqual(problems, []); await context.close(); return; }
    // Later visits still offer it, until the learner deletes it.
    await page.reload();
    await waitForLesson(page);
    await note.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await note.innerText(), /earlier visit/);
    await note.getByRole('button', { name: 'Delete it' }).click();
    assert.deepEqual(await keptCopies(page), []);
    assert.equal(await note.isVisible(), false);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('a record with one bad field gives back the rest, keeps the original and says what was left out', async () => {
  const checks = answerKey().map(c => c.id);  // from the lesson's text: no page load just to ask
  const progress = JSON.stringify({ v: 1, lesson: LESSON, answers: { [checks[0]]: [1], [checks[1]]: ['two'] }, step: 'x' });
  const value = wrap(progress);
  const { page, context, problems } = await open(seed, [[KEY, value]]);
  const note = keptNote(page);
  await note.waitFor({ state: 'visible', timeout: 10_000 });
  const text = await note.innerText();
  assert.match(text, /Part of your saved progress could not be used/);
  assert.match(text, new RegExp(`the answer to "${checks[1]}"`));
  assert.match(text, /What could be used is back/);
  const state = await page.evaluate(() => window.neuralpath.state());
  assert.deepEqual(state.checks[0].chosen, [1], 'the good answer is back');
  assert.deepEqual(state.checks[1].chosen, [], 'the bad one is left out');
  assert.deepEqual(await keptCopies(page), [value]);
  // The original can be downloaded as it was.
  const [download] = await Promise.all([page.waitForEvent('download'), note.getByRole('button', { name: 'Download it' }).click()]);
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  assert.equal(Buffer.concat(chunks).toString('utf8'), value);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a newer version\'s record is read as far as possible and kept', async () => {
  const value = wrap(JSON.stringify({ v: 7, lesson: LESSON, section: 'nowhere', streak: { days: 3 } }));
  const { page, context, problems } = await open(seed, [[KEY, value]]);
  const note = keptNote(page);
  await note.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await note.innerText(), /newer version \(7\)/);
  assert.deepEqual(await keptCopies(page), [value]);
  await answerFirstCheck(page, 0);
  // The unknown field is written back with the new progress.
  await page.waitForFunction(key => /streak/.test(JSON.parse(localStorage.getItem(key)).progress), KEY);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a stored record over 1 MB never breaks the lesson, on this visit or the next', async () => {
  const value = wrap(JSON.stringify({ v: 1, lesson: LESSON, notes: 'n'.repeat(1_200_000) }));
  const { page, context, problems } = await open(seed, [[KEY, value]]);
  const note = keptNote(page);
  await note.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await note.innerText(), /1\.\d+ MiB, more than a saved record may be/);  // the engine formats the size
  assert.equal((await keptCopies(page))[0]?.length, value.length);
  await answerFirstCheck(page, 1);
  await page.reload();
  await waitForLesson(page);
  assert.deepEqual((await firstCheck(page)).chosen, [1], 'the new progress is back after a reload');
  assert.deepEqual(problems, []);
  await context.close();
});

test('with no room to keep a copy, nothing is saved until the learner decides', async () => {
  const value = '{"version":1,"lesson":"self-attention","progress":{"v":1}';   // unreadable
  const { page, context, problems } = await open(([key, v]) => {
    if (!sessionStorage.getItem('np-test-seeded')) { localStorage.setItem(key, v); sessionStorage.setItem('np-test-seeded', '1'); }
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (k, val) {
      if (String(k).includes(':kept:')) throw new DOMException('full', 'QuotaExceededError');
      return setItem.call(this, k, val);
    };
  }, [KEY, value]);
  const note = keptNote(page);
  await note.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await note.innerText(), /no room to keep a copy, so this visit is not saved/);
  await answerFirstCheck(page, 1);
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(key => localStorage.getItem(key), KEY), value, 'the original is untouched');
  await note.getByRole('button', { name: 'Delete it and save from now on' }).click();
  await page.waitForFunction(key => { try { return JSON.parse(localStorage.getItem(key)).progress.length > 0; } catch { return false; } }, KEY);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with storage blocked the lesson works and a visible note says progress is not saved', async () => {
  const { page, context, problems } = await open(() => {
    Object.defineProperty(window, 'localStorage', { configurable: true,
      get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
  });
  await answerFirstCheck(page, 1);
  const note = statusNote(page);
  await note.waitFor({ state: 'visible' });
  assert.match(await note.innerText(), /not letting the lesson save/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with storage full the lesson works and says it cannot save', async () => {
  const { page, context, problems } = await open(() => {
    Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };
  });
  await answerFirstCheck(page, 1);
  const note = statusNote(page);
  await note.waitFor({ state: 'visible' });
  assert.match(await note.innerText(), /storage is full/);
  assert.deepEqual(problems, []);
  await context.close();
});

// [SECTION] The home page's list (#34) ---------------------------------------------------------------

test('the home page shows each lesson\'s progress in this browser, "Finished" once it is, and switches language', async () => {
  const { page, context, problems } = await open();
  // Two sections read and one check answered.
  const sections = await page.evaluate(() => window.neuralpath.state().sections.map(s => s.anchor));
  await page.evaluate(a => window.neuralpath.goto(a), sections[1]);
  await page.evaluate(() => window.neuralpath.answer(window.neuralpath.state().checks[0].id, 0));
  await page.waitForFunction(l => (localStorage.getItem(`neuralpath:v1:summary:${l}`) || '').includes('"answered":1'), LESSON);

  const home = await context.newPage();
  home.on('pageerror', e => problems.push(`page error: ${e.message}`));
  await home.goto(`${env.origin}/`);
  const item = home.locator(`a[href*="lesson=${LESSON}"]`);
  await item.locator('.np-lesson-progress').waitFor();
  const bar = item.locator('[role="progressbar"]');
  const percent = Number(await bar.getAttribute('aria-valuenow'));
  assert.ok(percent > 0 && percent < 100, `part done: ${percent}%`);
  assert.match(await item.locator('.np-lesson-status').textContent(), new RegExp(`^${percent}% done · 2 of \\d+ sections read, 1 of \\d+ checks answered`));
  // A lesson never opened in this browser shows no progress.
  assert.equal(await home.locator('.np-lesson-progress').count(), 1);
  await home.screenshot({ path: screenshotPath('home-progress') });

  // Finished: every section read, every check answered.
  for (const anchor of sections) await page.evaluate(a => window.neuralpath.goto(a), anchor);
  const checks = await page.evaluate(() => window.neuralpath.state().checks.map(c => c.id));
  for (const id of checks) await page.evaluate(id => window.neuralpath.answer(id, 0), id);
  await page.waitForFunction(l => (localStorage.getItem(`neuralpath:v1:summary:${l}`) || '').includes('"completed":true'), LESSON);
  await home.reload();
  await item.locator('.np-lesson-progress').waitFor();
  assert.match(await item.locator('.np-lesson-status').textContent(), /^Finished · \d+ of \d+ checks correct/);

  // The language menu reopens the list in Spanish.
  const menu = home.locator('select.np-lang');
  assert.equal(await menu.isVisible(), true);
  await Promise.all([home.waitForURL(/lang=es/), menu.selectOption('es')]);
  await home.locator('h1').filter({ hasText: 'Lecciones' }).waitFor();
  await item.locator('.np-lesson-progress').waitFor();
  assert.match(await item.locator('.np-lesson-status').textContent(), /^Terminada/);
  await home.screenshot({ path: screenshotPath('home-progress-es') });
  assert.deepEqual(problems, []);
  await context.close();
});
