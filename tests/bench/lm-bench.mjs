// lm-bench.mjs: the language-model part of `./neuralpath bench` (issue #28), used by bench.mjs.
//   runLmBench(...)  runs lm-bench natively (1 thread and every core, one process, so the ratio
//                    is taken under one load), lm-bench.cjs in WebAssembly under Node (one thread,
//                    the page's code and flags) and torch_lm.py (the same architecture in
//                    torch.nn, one thread, on OpenBLAS), one after the other
//   lmTable(report)  the table's lines and the targets
// Run alone (the language-model part only, the same table):
//   node tests/bench/lm-bench.mjs [--native PATH] [--wasm PATH|--no-wasm] [--openblas DIR]
//                                 [--configs page,small,small-8k] [--steps N] [--json]
// Tokens per second are wall-clock; "CPU" columns divide by the process's CPU time instead,
// which a loaded machine disturbs less (the load average is printed with them).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const defaultConfigs = ['page', 'small', 'small-8k'];  // the page's model and the two shipped ones (es, en)
// the page's induction head crosses 0.5 near this step (docs/language-model.md): its wasm time
const pageCrossingStep = 1500;

function lastJson(command, args, env, log) {
  log(`${command} ${args.join(' ')}`);
  const out = execFileSync(command, args, { env, encoding: 'utf8', maxBuffer: 16 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop());
}

export function runLmBench({ native, wasm, openblas, cores, log, problems, steps = 20, configs = defaultConfigs }) {
  const load = loadavg().map(x => Number(x.toFixed(2)));
  const rows = [];
  const n = lastJson(native, ['--json', '--configs', configs.join(','), '--steps', String(steps),
    '--threads', [...new Set([1, cores])].join(',')], process.env, log).lm;
  let w = [];
  if (wasm && existsSync(wasm))
    w = lastJson('node', ['--no-experimental-fetch', wasm, '--json', '--configs', configs.join(','), '--steps', String(steps),
      '--threads', '1'], process.env, log).lm;
  else if (wasm) problems.push(`no WebAssembly lm-bench at ${wasm}`);
  for (const config of configs) {
    const one = n.find(r => r.config === config && r.threads === 1);
    const all = n.find(r => r.config === config && r.threads === cores);
    const env = { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' };
    delete env.OPENBLAS_CORETYPE;
    delete env.OPENBLAS_L2_SIZE;
    if (openblas) env.LD_LIBRARY_PATH = [openblas, env.LD_LIBRARY_PATH].filter(Boolean).join(':');
    let torch = null;
    try {
      torch = lastJson('/usr/bin/python3', [join(here, 'torch_lm.py'), '--shape', JSON.stringify(one.shape),
        '--steps', String(steps), '--threads', '1'], env, log);
    } catch (error) {
      problems.push(`torch_lm.py did not run: ${error.message.split('\n')[0]}`);
    }
    rows.push({ config, shape: one.shape, tokens_per_step: one.tokens_per_step, gemm: one.gemm, native1: one,
      nativeN: cores > 1 ? all : null, wasm: w.find(r => r.config === config) || null, torch });
  }
  return { load_average: load, load_average_end: loadavg().map(x => Number(x.toFixed(2))), cores, rows };
}

export function lmTable(report, f, target) {
  const { cores } = report;
  const header = ['language model', 'tokens/step', 'native 1 thr', `native ${cores} thr`, `${cores}thr/1`, 'wasm (Node)',
    'PyTorch 1 thr', 'native/PT', 'native/PT (CPU)'];
  const r1 = (a, b) => (a && b ? `${f(a / b, 2)}x` : '-');
  const body = report.rows.map(r => [`${r.config} (d ${r.shape.d_model}, L ${r.shape.layers}, V ${r.shape.vocab_size})`,
    String(r.tokens_per_step), f(r.native1.tokens_per_s), f(r.nativeN?.tokens_per_s), r1(r.nativeN?.tokens_per_s, r.native1.tokens_per_s),
    f(r.wasm?.tokens_per_s), f(r.torch?.tokens_per_s), r1(r.native1.tokens_per_s, r.torch?.tokens_per_s),
    r1(r.native1.cpu_tokens_per_s, r.torch?.cpu_tokens_per_s)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map(row => row[i].length)));
  const line = cells => `| ${cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const loads = `${report.load_average.join(' ')} at the start, ${report.load_average_end.join(' ')} at the end`;
  const lines = [`Language-model training, tokens/s (load average ${loads}; matrix products: ${report.rows[0]?.gemm}):`,
    line(header), `|${widths.map((w, i) => (i < 1 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)];
  const page = report.rows.find(r => r.config === 'page');
  if (page?.wasm) {
    const seconds = pageCrossingStep * page.tokens_per_step / page.wasm.tokens_per_s;
    lines.push(`The page's config in WebAssembly: ${f(page.wasm.step_ms, 1)} ms a step; step ${pageCrossingStep} ` +
      `(where its induction head crosses 0.5) after ${f(seconds, 0)} s of training.`);
    target(`page config: wasm seconds to step ${pageCrossingStep} (induction >= 0.5)`, `${f(seconds, 0)} s`, '<= 90 s', seconds <= 90);
  }
  for (const r of report.rows) {
    if (r.torch) {
      const x = r.native1.tokens_per_s / r.torch.tokens_per_s;
      target(`LM training (${r.config}) vs PyTorch+OpenBLAS, 1 thread`, `${f(x, 2)}x`, '>= 1.5x', x >= 1.5);
    }
    if (r.nativeN) {
      const x = r.nativeN.tokens_per_s / r.native1.tokens_per_s;
      target(`LM training (${r.config}), ${cores} threads vs 1 (wall time)`, `${f(x, 2)}x`, '> 1.7x', x > 1.7);
      // On cores busy with other work the wall time cannot show scaling; the CPU time can: the
      // threads' CPU time per token over one thread's, at most cores / 1.7 if idle cores are to
      // give 1.7x (the step's serial part, the gradient sum and AdamW, included).
      if (r.nativeN.cpu_tokens_per_s && r.native1.cpu_tokens_per_s) {
        const extra = r.native1.cpu_tokens_per_s / r.nativeN.cpu_tokens_per_s;
        target(`LM training (${r.config}), ${cores} threads: CPU time per token / one thread's`, `${f(extra, 2)}x`,
          `<= ${f(cores / 1.7, 2)}x (what > 1.7x on idle cores needs)`, extra <= cores / 1.7);
      }
    }
  }
  return lines;
}

// [standalone] the language-model part alone: its table and targets, as ./neuralpath bench prints them
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
  };
  const problems = [], targets = [];
  const report = runLmBench({
    native: option('native', 'build/native/tests/bench/lm-bench'),
    wasm: argv.includes('--no-wasm') ? null : option('wasm', 'build/web/tests/bench/lm-bench.cjs'),
    openblas: option('openblas', ''), cores: cpus().length, log: line => console.error(`> ${line}`), problems,
    steps: Number(option('steps', '20')), configs: option('configs', defaultConfigs.join(',')).split(','),
  });
  const f = (x, digits = 1) => (x === undefined || x === null ? '-' : x.toFixed(digits));
  const lines = lmTable(report, f, (name, value, goal, met) => targets.push({ name, value, goal, met }));
  if (argv.includes('--json')) {
    console.log(JSON.stringify({ lm: report, targets, problems }));
  } else {
    console.log(lines.join('\n'));
    for (const t of targets) console.log(`${t.met ? 'met    ' : 'NOT MET'}  ${t.name}: ${t.value} (target ${t.goal})`);
    for (const p of problems) console.log(`problem: ${p}`);
  }
}
