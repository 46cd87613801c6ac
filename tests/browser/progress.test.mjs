// Saved progress: answers, reveals and position survive a reload, can be reset, and storage
// that is missing, full or holding garbage never breaks the lesson (a visible note says so).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage } from './harness.mjs';
import { waitForLesson, LESSON } from './embed-kit.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const KEY = `neuralpath:v1:progress:${LESSON}`;
const PATH = `/lesson.html?lesson=${LESSON}`;

// Opens the lesson with `setup` run before any page script (to tamper with storage).
async function open(setup, arg) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (setup) await context.addInitScript(setup, arg);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(env.origin + PATH);
  await waitForLesson(page);
  return { page, context, problems };
}

const firstCheck = page => page.evaluate(() => window.neuralpath.state().checks[0]);

// Answers the first check through the text version (open it with the toolbar, click option 1).
async function answerFirstCheck(page, option = 1) {
  if (await page.locator('#np-mirror.np-mirror-closed').count()) await page.getByRole('button', { name: 'Text version', exact: true }).click();
  await page.locator('#np-mirror .np-m-check').first().locator('.np-m-option').nth(option).click();
  await page.waitForFunction(o => window.neuralpath.state().checks[0].chosen[0] === o, option, { timeout: 10_000 });
}

test('answers, reveals and the section survive a reload', async () => {
  const { page, context, problems } = await open();
  await answerFirstCheck(page, 1);
  const reveal = await page.evaluate(() => window.neuralpath.state().reveals[0]?.id);
  if (reveal) await page.evaluate(id => window.neuralpath.command({ type: 'reveal', id, open: true }), reveal);
  const sections = await page.evaluate(() => window.neuralpath.state().sections.map(s => s.anchor));
  await page.evaluate(anchor => window.neuralpath.goto(anchor), sections.at(-1));
  await page.waitForFunction(key => (localStorage.getItem(key) || '').length > 0, KEY);
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
  assert.equal(await page.locator('#np-mirror .np-m-check').first().locator('.np-m-option').nth(1).getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('.np-note:visible').count(), 0, 'no warning when saving works');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the reset control clears the saved progress and can be undone', async () => {
  const { page, context, problems } = await open();
  await answerFirstCheck(page, 0);
  await page.getByRole('button', { name: 'Reset progress' }).click();
  await page.waitForFunction(() => window.neuralpath.state().checks[0].chosen.length === 0);
  assert.match(await page.locator('.np-note').innerText(), /Progress reset/);
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

for (const [what, value] of [['not JSON', '{"version":1,"lesson":'], ['the wrong shape', '[1,2,3]'],
  ['a record the engine refuses', JSON.stringify({ version: 1, lesson: LESSON, progress: '{"answers": "?"' })]]) {
  test(`a stored value that is ${what} is ignored: the lesson works and says so`, async () => {
    const { page, context, problems } = await open(([key, v]) => {
      if (!sessionStorage.getItem('np-test-seeded')) { localStorage.setItem(key, v); sessionStorage.setItem('np-test-seeded', '1'); }
    }, [KEY, value]);
    const note = page.locator('.np-note');
    await note.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await note.innerText(), /could not be read/);
    await answerFirstCheck(page, 1);   // the lesson still works, and saving replaces the bad value
    await page.waitForFunction(key => { try { return JSON.parse(localStorage.getItem(key)).version === 1; } catch { return false; } }, KEY);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('with storage blocked the lesson works and a visible note says progress is not saved', async () => {
  const { page, context, problems } = await open(() => {
    Object.defineProperty(window, 'localStorage', { configurable: true,
      get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
  });
  await answerFirstCheck(page, 1);
  const note = page.locator('.np-note');
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
  const note = page.locator('.np-note');
  await note.waitFor({ state: 'visible' });
  assert.match(await note.innerText(), /storage is full/);
  assert.deepEqual(problems, []);
  await context.close();
});
