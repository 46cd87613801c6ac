// The language-model trainer's Web Worker (issue #33: training in the page runs off the main
// thread, so a frame never waits on a training step). A classic worker script: np-lm.js starts
// one per training widget with `new Worker('np-lm-worker.js')` and posts it the requests of
// np-lm-protocol.js; it answers with the replies there. The training itself is C++
// (engine/lm_worker, built as lm-trainer.js + lm-trainer.wasm, web/lm_trainer.cpp); this file
// only downloads, copies strings in and out, and keeps training between messages:
//
//   open     fetches lm-trainer.wasm and the data file at once, reporting {type: 'progress'} as
//            they arrive, then hands both to the trainer: ready, then a snapshot at step 0.
//            Messages that come meanwhile wait their turn.
//   others   go straight to the trainer; while it is running, it trains in slices of SLICE_MS and
//            yields to this worker's event loop between them, so a pause or new text is taken
//            within a slice.
// An error this script finds itself is posted with a catalogue key as its message
// ('lm_train.no_memory'); the engine shows the key's words (there is no catalogue in a worker).

const SLICE_MS = 60;           // training per turn of the event loop (a pause waits at most this)
const PROGRESS_EVERY_MS = 100; // progress messages at most this often

let trainer = null;            // {open, handle, work, running} once the wasm runs
let opening = null;            // the open in progress (a Promise)
let openFailure = null;        // why the last open failed: every later request is answered with it
const waiting = [];            // requests that came while opening

const post = reply => self.postMessage(reply);

async function assetSizes() {
  try { return await (await fetch('asset-sizes.json')).json(); } catch { return {}; }
}

// The whole body of `url` as bytes, posting progress as it arrives. `total`: the raw size from
// asset-sizes.json (a compressed response's Content-Length counts compressed bytes).
async function fetchCounted(url, what, total) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  if (!total && !response.headers.get('content-encoding')) total = Number(response.headers.get('content-length')) || 0;
  const reader = response.body.getReader();
  const parts = [];
  let loaded = 0, last = 0;
  post({ type: 'progress', what, loaded: 0, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    const now = performance.now();
    if (now - last >= PROGRESS_EVERY_MS) { last = now; post({ type: 'progress', what, loaded, total: Math.max(total, loaded) }); }
  }
  post({ type: 'progress', what, loaded, total: loaded });
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const part of parts) { bytes.set(part, at); at += part.length; }
  return bytes;
}

// The trainer's exports with strings copied through its heap (never its stack).
function wrap(M) {
  const utf8 = new TextEncoder();
  const withBytes = (bytes, call) => {
    const pointer = M._lmt_alloc(bytes.length);
    if (!pointer) throw new Error('lm_train.no_memory');
    try {
      M.HEAPU8.set(bytes, pointer);   // HEAPU8 read after the allocation: growing the heap replaces it
      return call(pointer, bytes.length);
    } finally { M._lmt_free(pointer); }
  };
  const replies = pointer => JSON.parse(M.UTF8ToString(pointer));
  return {
    open: (message, data) => withBytes(utf8.encode(JSON.stringify(message)), (m, n) =>
      withBytes(data, (d, k) => replies(M._lmt_open(m, n, d, k)))),
    handle: message => withBytes(utf8.encode(JSON.stringify(message)), (m, n) => replies(M._lmt_handle(m, n))),
    work: (steps, ms) => replies(M._lmt_work(steps, ms)),
    running: () => M._lmt_running() === 1,
  };
}

async function open(message) {
  const sizes = await assetSizes();
  const [code, data] = await Promise.all([
    fetchCounted('lm-trainer.wasm', 'code', sizes['lm-trainer.wasm'] || 0),
    fetchCounted(message.data, 'data', sizes[message.data] || 0),
  ]);
  if (!trainer) {
    importScripts('lm-trainer.js');   // defines createLmTrainer (Emscripten, MODULARIZE)
    trainer = wrap(await createLmTrainer({  // eslint-disable-line no-undef
      wasmBinary: code.buffer,
      print: text => console.log(text),
      printErr: text => console.warn(text),
    }));
  }
  for (const reply of trainer.open(message, data)) post(reply);
}

// Messages to the trainer, and training in turns of the event loop (np-worker-turns.js).
importScripts('np-worker-turns.js');
const { handle } = trainerLoop(() => trainer, t => t.work(1 << 20, SLICE_MS), post);  // eslint-disable-line no-undef

self.onmessage = event => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  if (message.type === 'open') {
    const run = message.run | 0;
    openFailure = null;
    opening = open(message).catch(error => {
      openFailure = String(error && error.message || error);
      post({ type: 'error', run, message: openFailure });
    })
      .finally(() => {
        opening = null;
        while (waiting.length && !opening && trainer) handle(waiting.shift());
        waiting.length = 0;   // without a trainer (the open failed) they cannot be answered
      });
    return;
  }
  if (opening || !trainer) {
    if (opening) waiting.push(message);
    // After a failed open, repeat its reason: a bare 'not_open' would replace the words the
    // learner needs (no memory, a failed download) with one that explains nothing.
    else post({ type: 'error', run: message.run | 0, message: openFailure || 'lm_train.not_open' });
    return;
  }
  handle(message);
};
