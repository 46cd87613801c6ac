// Big and hostile input at the page's edge: text crosses into the engine through the heap with
// size limits (never the 4 MB WebAssembly stack), a lesson that cannot open says why (never
// "Opening the lesson…" for good), and the pages work under the server's strict CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openPage, lessonReady } from './harness.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const LESSON_PATH = '/lesson.html?lesson=self-attention';

// Opens a lesson page whose lesson text is `body`; returns once the page says something final:
// the lesson drawn, or an error message in the overlay.
async function openWithLesson(body, setup) {
  const context = await env.browser.newContext({ viewport: { width: 1024, height: 700 } });
  if (setup) await context.addInitScript(setup);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  await page.route('**/lessons/self-attention.md', route => route.fulfill({ contentType: 'text/markdown', body }));
  await page.goto(env.origin + LESSON_PATH);
  const outcome = await page.waitForFunction(() => {
    const box = document.querySelector('#np-overlay .np-overlay-box.np-error');
    if (box && !document.getElementById('np-overlay').hidden) return { error: box.innerText };
    return document.getElementById('np-overlay').hidden && window.neuralpath?.state() ? { ready: true } : null;
  }, null, { timeout: 60_000 });
  return { page, context, problems, outcome: await outcome.jsonValue() };
}

test('a lesson over 4 MB is refused with a message that says so', async () => {
  const body = `---\nid: self-attention\ntitle: Huge\n---\n\n## Beginner: One\n\n${'word '.repeat(900_000)}\n`;
  const { context, outcome, problems } = await openWithLesson(body);
  assert.ok(outcome.error, 'an error is shown');
  assert.match(outcome.error, /could not be opened/);
  assert.match(outcome.error, /4\.3 MB; a lesson may be at most 4\.0 MB/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an error escaping the engine while it reads the lesson is shown, not "Opening the lesson…" for good', async () => {
  const body = (await (await fetch(`${env.origin}/lessons/self-attention.md`)).text());
  // Stands in for a trap inside the engine's load call (a stack overflow, an abort).
  const { context, outcome } = await openWithLesson(body, () => {
    let module;
    Object.defineProperty(window, 'Module', { configurable: true, get: () => module, set(value) {
      module = value;
      Object.defineProperty(value, '_np_load_lesson', { configurable: true,
        get: () => () => { throw new WebAssembly.RuntimeError('memory access out of bounds'); }, set() {} });
    } });
  });
  assert.ok(outcome.error, `an error is shown (${JSON.stringify(outcome)})`);
  assert.match(outcome.error, /This lesson could not be opened/);
  assert.match(outcome.error, /memory access out of bounds/);
  await context.close();
});

test('a deeply nested lesson ends in the lesson or a message, never a page stuck opening', async () => {
  const nest = n => '\\frac{'.repeat(n) + 'x' + '}{2}'.repeat(n);
  const body = `---\nid: self-attention\ntitle: Deep\nlevel: Beginner\nsummary: s\n---\n\n## Beginner: One\n\n$$\n${nest(400)}\n$$\n\n${'> '.repeat(2000)}quote\n`;
  const { context, outcome } = await openWithLesson(body);
  assert.ok(outcome.error || outcome.ready, JSON.stringify(outcome));
  await context.close();
});

test('long text goes through the heap: 1.5 M characters are refused by the engine, 3 M by the page, and the lesson goes on', async () => {
  const { page, context, problems } = await openPage(env, LESSON_PATH, { width: 1024, height: 700 });
  await lessonReady(page);
  const tried = await page.evaluate(() => {
    const result = {};
    for (const [name, n] of [['long', 1_500_000], ['huge', 3_000_000]]) {
      try { window.neuralpath.setSentence('the cat '.repeat(n / 8)); result[name] = 'accepted'; }
      catch (error) { result[name] = error.message; }
    }
    return result;
  });
  assert.notEqual(tried.long, 'accepted');
  assert.doesNotMatch(tried.long, /larger than|at most 2\.0 MB/, `the engine itself answered: ${tried.long}`);
  assert.match(tried.huge, /the command is 2\.9 MB; the lesson engine takes at most 2\.0 MB/);
  // Memory is intact: the engine still answers and draws.
  const state = await page.evaluate(() => window.neuralpath.state());
  assert.ok(state.checks.length > 0);
  await page.evaluate(id => window.neuralpath.answer(id, 0), state.checks[0].id);
  assert.deepEqual(await page.evaluate(() => window.neuralpath.state().checks[0].chosen), [0]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the home page and the lesson page run under the strict CSP with no violation', async () => {
  for (const path of ['/', LESSON_PATH, '/host-demo.html']) {
    const context = await env.browser.newContext({ viewport: { width: 1024, height: 700 } });
    const page = await context.newPage();
    const violations = [];
    page.on('console', m => { if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text()); });
    const response = await page.goto(env.origin + path);
    assert.match(response.headers()['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval';/);
    if (path === '/') {
      await page.waitForSelector('#np-lessons a');
      assert.ok(await page.locator('#np-lessons a').count() >= 1, 'the lesson list is drawn');
      // In the course's order, each lesson's own `order:` (the Beginner lesson first, not by file name).
      const listed = (await page.locator('#np-lessons a').evaluateAll(links => links.map(a => a.href)))
        .map(href => new URL(href).searchParams.get('lesson'));
      const orderOf = id => Number((readFileSync(join(repo, 'lessons', `${id}.md`), 'utf8').match(/^order: (\d+)$/m) || [])[1] || Infinity);
      assert.deepEqual([...listed].sort((a, b) => orderOf(a) - orderOf(b)), listed, 'lessons listed by their order');
      assert.equal(listed[0], 'self-attention');
    } else if (path === LESSON_PATH) {
      await lessonReady(page);
    } else {
      await page.waitForFunction(() => document.querySelector('[data-neuralpath-lesson] iframe'));
      await page.frameLocator('iframe').locator('#canvas').waitFor();
    }
    assert.deepEqual(violations, [], path);
    await context.close();
  }
});
