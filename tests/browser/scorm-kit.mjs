// Shared by the SCORM and cmi5 tests: build the packages from the built site, unzip one, serve
// a folder (plus test routes, e.g. an LRS) on 127.0.0.1, and start Chromium.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumArgs } from './harness.mjs';
import { recycledBrowser } from './recycled-contexts.mjs';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const siteDir = process.env.NEURALPATH_SITE || join(repo, 'build/web/site');

// Runs the packager as `./neuralpath dist` does; returns {dir, zips: {name: path}}. The zips are
// kept in build/lms-test-packages/ for the other test files of the run, keyed by every input's
// size and time (the site, web/lms, the npm runtime), so a change rebuilds them.
export function buildPackages(format) {
  const inputs = [siteDir, join(repo, 'web/lms'), join(repo, 'node_modules/@xapi/cmi5/dist')];
  const hash = createHash('sha256').update(format);
  for (const root of inputs) {
    for (const entry of readdirSync(root, { recursive: true }).sort()) {
      const info = statSync(join(root, entry));
      hash.update(`${root}/${entry}:${info.size}:${info.mtimeMs}\n`);
    }
  }
  const parent = join(repo, 'build/lms-test-packages');
  const dir = join(parent, `${format}-${hash.digest('hex').slice(0, 16)}`);
  const listing = join(dir, 'zips.json');
  if (!existsSync(listing)) {
    // Two test files may run at once (./neuralpath test runs two) and both build: each builds in
    // its own folder and renames it into place; the one that comes second uses the first's.
    mkdirSync(parent, { recursive: true });
    for (const old of readdirSync(parent).filter(n => new RegExp(`^${format}-[0-9a-f]{16}$`).test(n) && join(parent, n) !== dir))
      rmSync(join(parent, old), { recursive: true, force: true });
    const building = join(parent, `building-${format}-${process.pid}`);
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building);
    const out = execFileSync(process.execPath, [join(repo, 'web/lms/package.mjs'), '--site', siteDir, `--${format}`, building],
      { cwd: building, encoding: 'utf8' });
    const zips = {};
    for (const line of out.trim().split('\n')) {
      const file = line.split(/\s+/)[0];
      zips[/^neuralpath-(.+)-(scorm12|cmi5)\.zip$/.exec(file)[1]] = join(dir, file);
    }
    writeFileSync(join(building, 'zips.json'), JSON.stringify(zips));
    try {
      renameSync(building, dir);
    } catch (error) {
      if (!['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
      rmSync(building, { recursive: true, force: true });  // another file's build is in place
    }
  }
  return { dir, zips: JSON.parse(readFileSync(listing, 'utf8')), cleanup: () => {} };
}

export function unzip(zip, into) {
  mkdirSync(into, { recursive: true });
  execFileSync('cmake', ['-E', 'tar', 'xf', zip], { cwd: into });
  return into;
}

export const zipEntries = zip => execFileSync('cmake', ['-E', 'tar', 'tf', zip], { encoding: 'utf8' })
  .split('\n').filter(Boolean);

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.md': 'text/markdown; charset=utf-8', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.xml': 'application/xml',
};

// Serves files under `root`; `route(request, response, url)` may answer first (return true).
export async function serve(root, route = () => false) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    try {
      if (await route(request, response, url)) return;
    } catch (error) {
      response.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error.stack || error));
      return;
    }
    const path = normalize(join(base, decodeURIComponent(url.pathname)));
    let body = null;
    if (path.startsWith(base + sep)) { try { if (statSync(path).isFile()) body = readFileSync(path); } catch { /* 404 */ } }
    if (!body) { response.writeHead(404).end('not found'); return; }
    response.writeHead(200, { 'Content-Type': types[extname(path)] || 'application/octet-stream', 'Cache-Control': 'no-store' })
      .end(body);
  });
  await new Promise(done => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise(done => server.close(done)) };
}

// Its contexts are recycled (recycled-contexts.mjs): a launch opens the lesson in a warm tab.
export async function startBrowser() {
  return recycledBrowser(await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: chromiumArgs }));
}

// Console errors, page errors, failed requests and HTTP errors of a page, for "none happened".
export function watchProblems(page) {
  const problems = [];
  page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('response', r => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  return problems;
}

// A shared computer: someone opens the package's lesson page itself in `page` (no platform),
// types a sentence into its heatmap and lets go of a key, so the browser keeps it. Returns the
// heatmap's id, their sentence and the browser's whole storage as they left it.
export async function anotherPersonsVisit(page, origin, lesson) {
  await page.goto(`${origin}/pkg/lesson.html?lesson=${lesson}`);
  await page.waitForFunction(() => window.neuralpath?.ready && document.readyState !== 'loading', null, { timeout: 60_000 });
  await page.evaluate(() => window.neuralpath.ready);
  const heatmapId = await page.evaluate(() => window.neuralpath.state().widgets.find(w => w.kind === 'heatmap').id);
  const theirs = 'Someone else typed this sentence';
  await page.evaluate(([id, text]) => window.neuralpath.command({ widget: id, type: 'setSentence', text }), [heatmapId, theirs]);
  await page.keyboard.press('Shift');
  await page.waitForFunction(text => Object.values(localStorage).some(v => v.includes(text)), theirs, { timeout: 10_000 });
  return { heatmapId, theirs, stored: await browserStorage(page) };
}
export const browserStorage = page => page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
