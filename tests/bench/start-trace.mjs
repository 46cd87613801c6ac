// Where a cold visit's start goes, task by task: one visit of a lesson under Chromium's tracing,
// printed as the page's np:* marks, the main thread's tasks (with what inside them took longest)
// and the GPU process's command-buffer flushes. page-metrics.mjs gives the medians; this shows
// one visit in full, for finding what to move (docs/performance.md, "Third pass").
//
//   node tests/bench/start-trace.mjs [--site build/web/site] [--lesson self-attention]
//        [--min-ms 15] [--out trace.json]
//
// A task's inside lists the nested trace events of 10 ms or more, the longest first: a
// `FunctionCall` is script or wasm, `Commit` / `GLES2::ReadPixels` is the compositor reading the
// canvas back (in software WebGL it waits there for the GPU process to draw), `Layout` is layout.
// --out keeps the whole trace, for chrome://tracing or Perfetto.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/serve.mjs';
import { chromiumArgs, siteDir as defaultSite } from '../browser/harness.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const site = resolve(option('site', defaultSite));
const lesson = option('lesson', 'self-attention');
const minMs = Number(option('min-ms', 15)) || 15;
const out = option('out', '');

const server = await startServer({ root: site, port: 0 });
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: chromiumArgs });
await browser.startTracing(undefined, {
  categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute',
    'gpu', 'toplevel'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
await page.goto(`${origin}/lesson.html?lesson=${lesson}`);
await page.waitForFunction(() => performance.getEntriesByName('np:ready').length > 0, null, { timeout: 120_000 });
await page.waitForTimeout(300);  // the tasks right after ready
const buffer = await browser.stopTracing();
await browser.close();
server.close();
if (out) writeFileSync(out, buffer);

const { traceEvents } = JSON.parse(buffer.toString());
const marks = traceEvents.filter(e => e.cat?.includes('blink.user_timing') && e.name.startsWith('np:'));
if (!marks.length) throw new Error('no np:* marks in the trace: did the page start?');
const at = Object.fromEntries(marks.map(e => [e.name.slice(3), e.ts]));
const origin0 = at['app-start'];
const ms = ts => ((ts - origin0) / 1000).toFixed(0);
const { pid, tid } = marks[0];
console.log(`marks (ms after np:app-start): ${Object.entries(at).sort((a, b) => a[1] - b[1]).map(([k, v]) => `${k} ${ms(v)}`).join(' · ')}`);

// The main thread's top-level tasks from just before app-start to just after ready.
const main = traceEvents.filter(e => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur)
  .filter(e => e.ts > origin0 - 500_000 && e.ts < at.ready + 300_000).sort((a, b) => a.ts - b.ts);
const tasks = main.filter(e => e.name === 'RunTask');
console.log(`\nmain-thread tasks of ${minMs} ms or more:`);
for (const task of tasks.filter(t => t.dur >= minMs * 1000)) {
  const inside = new Map();
  for (const e of main)
    if (e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e.dur >= 10_000 &&
        !/^(ThreadControllerImpl::RunTask|RunTask)$/.test(e.name)) {
      const what = e.name + (e.args?.data?.functionName ? ` ${e.args.data.functionName}` : '');
      inside.set(what, Math.max(inside.get(what) || 0, e.dur));
    }
  const longest = [...inside].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, d]) => `${n} ${(d / 1000).toFixed(0)}`);
  console.log(`  ${ms(task.ts).padStart(6)} ms  ${(task.dur / 1000).toFixed(0).padStart(4)} ms  ${longest.join(' | ')}`);
}

// The GPU process's flushes: where the canvas's WebGL commands are run.
const names = Object.fromEntries(traceEvents.filter(e => e.ph === 'M' && e.name === 'process_name').map(e => [e.pid, e.args.name]));
const gpu = traceEvents.filter(e => names[e.pid] === 'GPU Process' && e.name === 'CommandBuffer::Flush' && e.dur >= 5000);
console.log(`\nGPU process flushes of 5 ms or more: ${gpu.map(f => `${ms(f.ts)} ms +${(f.dur / 1000).toFixed(0)}`).join(' · ') || 'none'}`);
process.exit(0);
