// ort_attention.mjs: ONNX Runtime's attention on attention-bench's inputs, the rival column of
// `./neuralpath bench`: onnxruntime-node (native, MLAS) and onnxruntime-web (its WebAssembly
// build, here under Node), both pinned in package.json.
//
//   node tests/bench/ort_attention.mjs --runtime node|web [--t 256,1024] [--d 64]
//        [--masks none,causal] [--threads N] [--repeats N] [--budget S] [--dump DIR]
//
// What an ONNX Runtime user runs for one head (ORT 1.30, CPU), its fastest op for each mask:
//   no mask   com.microsoft MultiHeadAttention (natively MLAS's flash attention)
//   causal    the faster, timed at T = 1024, of com.microsoft GroupQueryAttention (always causal;
//             a prompt of T tokens, no past) and MultiHeadAttention with unidirectional = 1
// All take Q, K, V as [batch 1][T][heads·d] with one head, and scale = 1/√d as the attribute.
// The graphs are one node each, built here as ONNX protobuf bytes ([SECTION] ONNX graphs): no
// model file comes from anywhere else.
//
// Timing as attention-bench: one warm-up, then best of repeated runs. --threads 1: CPU time of
// the process (process.cpuUsage counts every thread, whichever one ORT runs the session on);
// more threads: wall time (intra-op threads, ORT's own pool). onnxruntime-web runs one thread (the
// page has no SharedArrayBuffer, so neither does our WebAssembly kernel). Prints one JSON line.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const runtime = option('runtime', 'node');
const ts = option('t', '256,1024,2048,4096,8192').split(',').map(Number);
const d = Number(option('d', '64'));
const masks = option('masks', 'none,causal').split(',');
const threads = runtime === 'web' ? 1 : Number(option('threads', '1'));
const repeats = Number(option('repeats', '5'));
const budget = Number(option('budget', '0.5'));
const dumpDir = option('dump', '');
if (!['node', 'web'].includes(runtime)) throw new Error(`--runtime node|web, not ${runtime}`);

// [SECTION] Inputs -------------------------------------------------------------------------------

// attention-bench's inputs: uniform in [-√3, √3) from lowbias32(seed·golden + i) (C. Wellons).
function hashedMatrix(seed, n) {
  const out = new Float32Array(n);
  const base = Math.imul(seed, 0x9E3779B9) >>> 0;
  for (let i = 0; i < n; i++) {
    let x = (base + i) >>> 0;
    x ^= x >>> 16;
    x = Math.imul(x, 0x7feb352d) >>> 0;
    x ^= x >>> 15;
    x = Math.imul(x, 0x846ca68b) >>> 0;
    x ^= x >>> 16;
    // float32 steps as in C++: unit exact, then (unit·2 - 1)·√3 rounded to float each time
    const unit = Math.fround((x >>> 8) * (1 / 16777216));
    out[i] = Math.fround(Math.fround(Math.fround(unit * 2) - 1) * Math.fround(1.7320508));
  }
  return out;
}

// [SECTION] ONNX graphs --------------------------------------------------------------------------
// Just the protobuf wire format (varints and length-delimited fields) and the few ONNX messages
// one node needs; field numbers from onnx.proto (ModelProto, GraphProto, NodeProto, ...).

const varint = value => {  // non-negative integers below 2^53
  const bytes = [];
  let v = value;
  while (v >= 0x80) {
    bytes.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  bytes.push(v);
  return bytes;
};
const key = (field, wire) => varint(field * 8 + wire);
const int = (field, value) => [...key(field, 0), ...varint(value)];
const bytesField = (field, bytes) => [...key(field, 2), ...varint(bytes.length), ...bytes];
const str = (field, text) => bytesField(field, [...new TextEncoder().encode(text)]);
const float = (field, value) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, value, true);
  return [...key(field, 5), ...b];
};

const FLOAT = 1, INT32 = 6;  // TensorProto.DataType
const attributeInt = (name, value) => [...str(1, name), ...int(3, value), ...int(20, 2)];      // type INT
const attributeFloat = (name, value) => [...str(1, name), ...float(2, value), ...int(20, 1)];  // type FLOAT
// ValueInfoProto{name, type: TypeProto{tensor_type{elem_type, shape{dim{dim_value | dim_param}}}}}
const valueInfo = (name, elemType, dims) => [...str(1, name), ...bytesField(2, bytesField(1, [
  ...int(1, elemType),
  ...bytesField(2, dims.flatMap(dim => bytesField(1, typeof dim === 'number' ? int(1, dim) : str(2, dim)))),
]))];

function attentionModel(op, mask) {
  const scale = 1 / Math.sqrt(d);
  const qkv = ['query', 'key', 'value'].map(name => valueInfo(name, FLOAT, [1, 'T', d]));
  let node, inputs = qkv;
  if (op === 'MultiHeadAttention') {
    node = [...str(1, 'query'), ...str(1, 'key'), ...str(1, 'value'), ...str(2, 'output'),
      ...str(4, 'MultiHeadAttention'), ...str(7, 'com.microsoft'),
      ...bytesField(5, attributeInt('num_heads', 1)), ...bytesField(5, attributeFloat('scale', scale)),
      ...(mask === 'causal' ? bytesField(5, attributeInt('unidirectional', 1)) : [])];
  } else {
    // no past: past_key, past_value are empty names (absent optional inputs); seqlens_k = T - 1
    node = [...str(1, 'query'), ...str(1, 'key'), ...str(1, 'value'), ...str(1, ''), ...str(1, ''),
      ...str(1, 'seqlens_k'), ...str(1, 'total_sequence_length'),
      ...str(2, 'output'), ...str(2, 'present_key'), ...str(2, 'present_value'),
      ...str(4, 'GroupQueryAttention'), ...str(7, 'com.microsoft'),
      ...bytesField(5, attributeInt('num_heads', 1)), ...bytesField(5, attributeInt('kv_num_heads', 1)),
      ...bytesField(5, attributeFloat('scale', scale))];
    inputs = [...qkv, valueInfo('seqlens_k', INT32, [1]), valueInfo('total_sequence_length', INT32, [1])];
  }
  const outputs = [valueInfo('output', FLOAT, [1, 'T', d])];
  if (op !== 'MultiHeadAttention') outputs.push(valueInfo('present_key', FLOAT, [1, 1, 'T', d]), valueInfo('present_value', FLOAT, [1, 1, 'T', d]));
  const graph = [...bytesField(1, node), ...str(2, `attention_${mask}`),
    ...inputs.flatMap(i => bytesField(11, i)), ...outputs.flatMap(o => bytesField(12, o))];
  // ModelProto{ir_version 8, opset_import{"" 17}, opset_import{"com.microsoft" 1}, graph}
  return new Uint8Array([...int(1, 8), ...str(2, 'neuralpath-bench'),
    ...bytesField(8, int(2, 17)), ...bytesField(8, [...str(1, 'com.microsoft'), ...int(2, 1)]),
    ...bytesField(7, graph)]);
}

// [SECTION] Running ------------------------------------------------------------------------------

const require = createRequire(import.meta.url);
let ort;
if (runtime === 'node') {
  ort = require('onnxruntime-node');
} else {
  ort = require('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
}
const version = ort.env.versions[runtime] ?? ort.env.versions.common;
const cpuSeconds = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const wallSeconds = () => Number(process.hrtime.bigint()) / 1e9;
const clock = threads === 1 ? cpuSeconds : wallSeconds;

const inputs = t => {
  const shape = [1, t, d];
  return { query: new ort.Tensor('float32', hashedMatrix(1, t * d), shape),
    key: new ort.Tensor('float32', hashedMatrix(2, t * d), shape),
    value: new ort.Tensor('float32', hashedMatrix(3, t * d), shape) };
};

// One warm-up, then at least `runs` runs and until `seconds` are spent: the best and median time
// and the last output.
async function measure(op, mask, feeds, t, runs, seconds) {
  const options = { executionProviders: [runtime === 'web' ? 'wasm' : 'cpu'], graphOptimizationLevel: 'all',
    executionMode: 'sequential', intraOpNumThreads: threads, interOpNumThreads: 1 };
  const session = await ort.InferenceSession.create(attentionModel(op, mask), options);
  const run = { ...feeds };
  if (op === 'GroupQueryAttention') {  // a prompt of t tokens: seqlens_k = t - 1 (its last index)
    run.seqlens_k = new ort.Tensor('int32', Int32Array.of(t - 1), [1]);
    run.total_sequence_length = new ort.Tensor('int32', Int32Array.of(t), [1]);
  }
  let out = (await session.run(run)).output;
  const times = [];
  let spent = 0;
  while (times.length < runs || (spent < seconds && times.length < 200)) {
    const start = clock();
    out = (await session.run(run)).output;
    times.push(clock() - start);
    spent += times.at(-1);
  }
  await session.release();
  times.sort((a, b) => a - b);
  return { best: times[0], median: times[times.length >> 1], runs: times.length, out };
}

// Causal: GroupQueryAttention is ORT's causal op, but its WebAssembly build runs it 7x slower
// than MultiHeadAttention with unidirectional = 1 (measured at T = 1024). Both are timed briefly
// at T = 1024 and the faster one runs every T, so the column is ONNX Runtime at its best.
const ops = {};
const probes = {};
for (const mask of masks) {
  if (mask === 'none') {
    ops[mask] = 'MultiHeadAttention';
    continue;
  }
  const feeds = inputs(1024);
  for (const op of ['GroupQueryAttention', 'MultiHeadAttention'])
    probes[op] = (await measure(op, mask, feeds, 1024, 3, 0.05)).best;
  ops[mask] = Object.entries(probes).sort((a, b) => a[1] - b[1])[0][0];
}

const rows = [];
for (const t of ts) {
  const feeds = inputs(t);
  for (const mask of masks) {
    // The op picked; if it fails at this T (onnxruntime-web's MultiHeadAttention overflows a
    // 32-bit size from T = 4096 on), the other causal op; else the row says why.
    let m = null, op = ops[mask], error = '';
    for (const candidate of mask === 'none' ? [op] : [op, ...Object.keys(probes).filter(o => o !== op)]) {
      try {
        m = await measure(candidate, mask, feeds, t, repeats, budget);
        op = candidate;
        break;
      } catch (e) {
        error += `${error ? '; ' : ''}${candidate}: ${e.message.split('\n')[0].replace(/^.*\/onnxruntime\//, '')}`;
      }
    }
    if (!m) {
      rows.push({ t, mask, kernel: `ort-${runtime}`, op: ops[mask], threads, error });
      continue;
    }
    const flops = 4 * t * t * d * (mask === 'causal' ? 0.5 : 1);
    rows.push({ t, mask, kernel: `ort-${runtime}`, op, threads, seconds: m.best,
      median_seconds: m.median, runs: m.runs, gflops: flops / m.best * 1e-9 });
    if (dumpDir) writeFileSync(join(dumpDir, `ort-${runtime}-${threads}-${t}-${mask}.f32`),
      new Uint8Array(m.out.data.buffer, m.out.data.byteOffset, m.out.data.byteLength));
  }
}
console.log(JSON.stringify({ runtime: `onnxruntime-${runtime}`, version, threads, ops, causal_probe_seconds: probes,
  rows }));
