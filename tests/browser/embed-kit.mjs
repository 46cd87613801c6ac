// Shared by embed, progress and a11y tests: a course site on a second origin, the answer key of
// a lesson (read from its text, as an author wrote it), and small waits on the text version.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/serve.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const LESSON = 'self-attention';

// Serves `pages` ({name: html}) from a fresh folder (`root`, where more pages may be written
// later) on its own port: another origin than the lesson site (same host, other port).
export async function hostSite(pages) {
  const root = mkdtempSync(join(tmpdir(), 'np-host-'));
  for (const [name, html] of Object.entries(pages)) writeFileSync(join(root, name), html);
  const server = await startServer({ root, port: 0, policy: false });   // its pages have inline scripts
  return { origin: `http://127.0.0.1:${server.address().port}`, root,
    close: () => new Promise(done => server.close(done)) };
}

// The lesson's knowledge checks in reading order: id, whether several answers are right, and
// the indices of the correct options, read from the ```check blocks of lessons/ID.md.
export function answerKey(id = LESSON) {
  return answerKeyOf(readFileSync(join(repo, 'lessons', `${id}.md`), 'utf8'));
}

export function answerKeyOf(text) {
  const checks = [];
  for (const match of text.matchAll(/^```check[^\n]*\n([\s\S]*?)^```/gm)) {
    const lines = match[1].split('\n');
    const check = { id: '', multiple: false, correct: [], options: 0 };
    for (const line of lines) {
      let m;
      if ((m = /^id:\s*(\S+)/.exec(line))) check.id = m[1];
      else if (/^answer:\s*multiple/.test(line) || /^multiple:\s*(yes|true|on)/.test(line)) check.multiple = true;
      else if (/^\s*-\s+text:/.test(line)) check.options++;
      else if ((m = /^\s+correct:\s*(\S+)/.exec(line)) && /^(yes|true|on)$/.test(m[1])) check.correct.push(check.options - 1);
    }
    if (check.correct.length > 1) check.multiple = true;
    checks.push(check);
  }
  return checks;
}

// The text version has been built from the engine's document.
export async function mirrorReady(frameOrPage) {
  await frameOrPage.waitForFunction(() => document.querySelectorAll('#np-mirror .np-m-section').length > 0,
    null, { timeout: 60_000 });
}

// Ready, and every module script of the page has run: they run in order, each once it has
// arrived, so under load the lesson could be in before np-storage.js listened, and a test's first
// change then went unsaved (CI, reload.test). DOMContentLoaded waits for all of them.
export async function waitForLesson(frameOrPage) {
  await frameOrPage.waitForFunction(() => window.neuralpath && window.neuralpath.ready, null, { timeout: 60_000 });
  await frameOrPage.waitForFunction(() => document.readyState !== 'loading', null, { timeout: 60_000 });
  await frameOrPage.evaluate(() => window.neuralpath.ready);
  await mirrorReady(frameOrPage);
}

// The lesson opened in a fresh 1280 x 800 context, with `setup(arg)` run before any page script
// (to tamper with storage), its page errors and console errors collected in `problems`.
export async function openLesson(env, setup, arg, path = `/lesson.html?lesson=${LESSON}`) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (setup) await context.addInitScript(setup, arg);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(env.origin + path);
  await waitForLesson(page);
  return { page, context, problems };
}

// Serious and critical axe-core findings on the page, as readable lines.
export async function axeProblems(page, options = {}) {
  // The lesson site's CSP runs only its own scripts (no inline ones, which addScriptTag({path})
  // would add): axe is served as if it were one of the site's files.
  const axeUrl = new URL('/__test-axe.min.js', page.url()).href;
  await page.route(axeUrl, route => route.fulfill({ path: join(repo, 'node_modules/axe-core/axe.min.js'),
    contentType: 'text/javascript; charset=utf-8' }));
  await page.addScriptTag({ url: axeUrl });
  const result = await page.evaluate(async opts => {
    const r = await window.axe.run(document, opts);
    return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')) }));
  }, options);
  return result.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.impact} ${v.id}: ${v.help} (${v.nodes.join(', ')})`);
}
