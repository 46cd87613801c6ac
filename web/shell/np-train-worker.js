// The train widget's trainer worker (issue #33: training in the page runs off the main thread,
// so a frame never waits on a training step). A classic worker script: np-train.js starts one per
// train widget with `new Worker('np-train-worker.js')` and posts it the widget's requests
// (engine/widgets/train/train_protocol.h: prepare, train, pause); it answers with progress and error
// replies, which the engine checks. The training is C++ (engine/widgets/train/train_worker.h,
// built as attention-trainer.js + .wasm, web/attention_trainer.cpp); this file only loads it,
// copies messages in and out, and keeps training between messages:
//   a request   goes to the trainer once it is loaded (requests that come meanwhile wait)
//   running     the trainer trains in slices of SLICE_MS and yields to this worker's event loop
//               between them, so a pause is taken within a slice; it keeps the frames' pace
//               (TrainWorker::kStepsPerSecond), and the worker sleeps until the next step is due
// A trainer that cannot load is answered with an error reply whose message is a catalogue key
// (there is no catalogue in a worker; the engine shows the key's words): the widget then trains
// in the page's frames, from where it was.

const SLICE_MS = 30;   // training per turn of the event loop (a pause waits at most this)

let trainer = null;    // {handle, work, running} once the wasm runs
let loading = null;    // the load in progress (a Promise)
let loadFailure = null;

const post = reply => self.postMessage(reply);

// The trainer's exports, with each message copied through its heap (never its stack).
function wrap(M) {
  const utf8 = new TextEncoder();
  const replies = pointer => JSON.parse(M.UTF8ToString(pointer));
  return {
    handle: message => {
      const bytes = utf8.encode(JSON.stringify(message));
      const pointer = M._atr_alloc(bytes.length);
      if (!pointer) throw new Error('train.worker_no_memory');
      try {
        M.HEAPU8.set(bytes, pointer);   // HEAPU8 read after the allocation: growing the heap replaces it
        return replies(M._atr_handle(pointer, bytes.length));
      } finally { M._atr_free(pointer); }
    },
    work: ms => replies(M._atr_work(ms)),
    running: () => M._atr_running() === 1,
    waitMs: () => M._atr_wait_ms(),
  };
}

async function load() {
  importScripts('attention-trainer.js');   // defines createAttentionTrainer (Emscripten, MODULARIZE)
  trainer = wrap(await createAttentionTrainer({  // eslint-disable-line no-undef
    print: text => console.log(text),
    printErr: text => console.warn(text),
  }));
}

// Messages to the trainer, and training in turns of the event loop (np-worker-turns.js).
importScripts('np-worker-turns.js');
const { handle } = trainerLoop(() => trainer, t => t.work(SLICE_MS), post, t => t.waitMs());  // eslint-disable-line no-undef

const waiting = [];
self.onmessage = event => {
  const message = event.data;
  if (!message || typeof message !== 'object') return;
  if (trainer) { handle(message); return; }
  if (loadFailure) { post({ type: 'error', run: 0, message: loadFailure }); return; }
  waiting.push(message);
  loading ||= load().then(() => { while (waiting.length) handle(waiting.shift()); }, error => {
    console.warn(`the trainer did not load: ${error && error.message || error}`);
    loadFailure = 'train.worker_not_loaded';
    waiting.length = 0;
    post({ type: 'error', run: 0, message: loadFailure });
  });
};
