// Page metrics for the benchmark: what a first visit to a lesson downloads, and how long the
// page takes to be ready. Prints one JSON object (./neuralpath bench includes it):
//
//   node tests/bench/page-metrics.mjs [--site build/web/site] [--lesson self-attention] [--runs 5]
//
//   bytes     every file the first visit fetched, raw, as served (the response bodies Chromium
//             received from web/serve.mjs: the build's quality-11 .br files where there are
//             fresh ones, else quality 5 on the fly), and recompressed here at quality 11 and 5
//             for comparison, largest first, with totals
//   ready_ms  time from navigation start to window.neuralpath.ready, in a fresh browser each run
//             (cold: empty HTTP and code caches; the server has compressed its files once
//             already, as a static host would have), headless Chromium on localhost: every run,
//             the median and the worst, the load average around each run, and the median of
//             each mark on the way (np-app.js and web/main.cpp's np:* performance marks:
//             wasm-compiled, main, lesson-parsed, fonts-built, first-frame, ready ...)
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/serve.mjs';
import { chromiumArgs, siteDir as defaultSite } from '../browser/harness.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const site = resolve(option('site', defaultSite));
const lesson = option('lesson', 'self-attention');
const runs = Math.max(1, Number(option('runs', 7)) || 7);
const path = `/lesson.html?lesson=${lesson}`;

const median = values => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const brotli = (bytes, quality) =>
  brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } }).length;

// Installed before any page script: notes when each loading phase finishes, by catching the
// assignment of window.neuralpath (np-app.js) and listening to its events and ready promise.
function recordPhases() {
  window.__phases = {};
  let value;
  Object.defineProperty(window, 'neuralpath', {
    configurable: true,
    get: () => value,
    set(api) {
      value = api;
      for (const phase of ['engine-ready', 'lesson-loaded'])
        api.events.addEventListener(phase, () => { window.__phases[phase] = performance.now(); }, { once: true });
      api.ready.then(() => { window.__phases.ready = performance.now(); }, () => {});
    },
  });
}

async function oneVisit(origin) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: chromiumArgs });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(recordPhases);
  const page = await context.newPage();
  const fetched = new Map();  // pathname -> bytes of the response body as sent (encoded)
  const sizes = [];
  page.on('requestfinished', request => sizes.push(request.sizes().then(
    size => fetched.set(new URL(request.url()).pathname, size.responseBodySize), () => {})));
  await page.goto(origin + path);
  await page.waitForFunction(() => window.__phases && window.__phases.ready, null, { timeout: 120_000 });
  const phases = await page.evaluate(() => {
    const out = { ...window.__phases };
    for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('np:')) out[m.name] = m.startTime;
    return out;
  });
  await Promise.all(sizes);
  await browser.close();
  return { phases, fetched };
}

async function main() {
  const server = await startServer({ root: site, port: 0 });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const samples = [];
  const loads = [];
  let fetched = new Map();
  try {
    // The server compresses each file once, on its first request; a static host would have
    // done that ahead of time, so the warm-up visit is not counted.
    await oneVisit(origin);
    for (let i = 0; i < runs; i++) {
      loads.push(loadavg()[0]);
      const visit = await oneVisit(origin);  // a fresh browser each time: nothing cached
      samples.push(visit.phases);
      if (i === 0) fetched = visit.fetched;
    }
  } finally {
    await new Promise(done => server.close(done));
  }
  const files = [];
  for (const [pathname, served] of fetched) {
    const file = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
    const bytes = await readFile(join(site, decodeURIComponent(file))).catch(() => null);
    if (!bytes) continue;
    files.push({ file: file.slice(1), raw: bytes.length, served, brotli: brotli(bytes, 11),
      brotli_q5: brotli(bytes, 5) });
  }
  files.sort((a, b) => b.brotli - a.brotli);
  const sum = key => files.reduce((total, f) => total + f[key], 0);
  const round = ms => Math.round(ms);
  loads.push(loadavg()[0]);
  // Every mark the first run made, in the order it made them, with its median over all runs.
  const marks = Object.keys(samples[0]).filter(name => name.startsWith('np:'))
    .sort((a, b) => samples[0][a] - samples[0][b]);
  console.log(JSON.stringify({
    page: path,
    bytes: { first_visit_served: sum('served'), first_visit_brotli: sum('brotli'), first_visit_raw: sum('raw'),
      first_visit_brotli_q5: sum('brotli_q5'), files },
    ready_ms: {
      median: round(median(samples.map(s => s.ready))),
      worst: round(Math.max(...samples.map(s => s.ready))),
      runs: samples.map(s => round(s.ready)),
      load_average: [Math.min(...loads), Math.max(...loads)].map(l => Number(l.toFixed(2))),
      marks_median: Object.fromEntries(marks.map(name =>
        [name.slice(3), round(median(samples.map(s => s[name]).filter(Number.isFinite)))])),
      phases_median: Object.fromEntries(['engine-ready', 'lesson-loaded', 'ready']
        .map(phase => [phase, round(median(samples.map(s => s[phase])))])),
      how: `${runs} cold visits, a fresh headless Chromium each (software WebGL), localhost`,
    },
  }, null, 2));
}

main().catch(error => { console.error(`page-metrics: ${error.message}`); process.exit(1); });
