// The page's side of the language-model trainers (docs/lm-worker.md). Uses window.neuralpath only.
//
//   'lm-worker' events   the engine's training widget (lm-train) asks for a request to go to its
//                        trainer: {widget, message}. The first one starts that widget's Web Worker
//                        (np-lm-worker.js); every request is posted to it.
//   worker replies       checked (np-lm-protocol.js) and handed to the widget as the command
//                        {widget, type: 'worker', message}; a worker that fails to start or
//                        stops is reported the same way, as an error reply.
//   kept on reload       each training widget's snapshot (seed, step, running, text: what a shared
//                        link carries too) is saved in localStorage under
//                        neuralpath:v1:lm-train:<lesson> whenever it changes, and restored when the
//                        lesson opens again (not while a shared link is shown: np-share.js restores
//                        that one). The run replays to the saved step: training is deterministic.
import { checkReply, checkRequest } from './np-lm-protocol.js';

const np = window.neuralpath;
const workers = new Map();   // widget id -> Worker
const storageKey = `neuralpath:v1:lm-train:${np.params.lesson}`;
// Launched by a learning platform (?platform=1): the platform keeps the training with the other
// figures (np-storage.js), and this browser's copy, another learner's on a shared computer, is
// neither restored nor written over.
const keptHere = !np.params.shared && !np.params.platform;

function deliver(widget, message) {
  const why = checkReply(message);
  if (why) { console.warn(`lm-train ${widget}: ignoring a malformed trainer reply: ${why}`); return; }
  try {
    np.command({ widget, type: 'worker', message });
  } catch (error) {
    console.warn(`lm-train ${widget}: ${error.message}`);
  }
  if (message.type === 'snapshot') save();
}

function workerFor(widget) {
  let worker = workers.get(widget);
  if (worker) return worker;
  worker = new Worker('np-lm-worker.js');
  worker.onmessage = event => deliver(widget, event.data);
  // A script that cannot load or a trainer that crashed: the widget says so and offers a restart.
  worker.onerror = event => {
    event.preventDefault();
    workers.delete(widget);
    worker.terminate();
    deliver(widget, { type: 'error', run: 0, message: String(event.message || 'lm_train.worker_stopped') });
  };
  workers.set(widget, worker);
  return worker;
}

np.events.addEventListener('lm-worker', event => {
  const { widget, message } = event.detail || {};
  const why = checkRequest(message);
  if (typeof widget !== 'string' || why) { console.warn(`lm-train: not posting a malformed request: ${why}`); return; }
  workerFor(widget).postMessage(message);
});

// [SECTION] Kept on reload -------------------------------------------------------------------------

// The training widgets are those that have asked for a worker (reading the whole state() to
// find them would cost the page a frame at every snapshot).
const trainingWidgets = () => [...workers.keys()];

let lastSaved = '';
function save() {
  if (!keptHere) return;   // a shared view never saves over the learner's own; nor a platform's launch
  let snapshots;
  try { snapshots = np.command({ type: 'snapshot' }).widgets || {}; } catch { return; }
  const kept = {};
  for (const id of trainingWidgets()) if (snapshots[id]) kept[id] = snapshots[id];
  const text = JSON.stringify(kept);
  if (text === lastSaved) return;
  lastSaved = text;
  try { localStorage.setItem(storageKey, text); } catch { /* storage full or blocked: nothing kept */ }
}

function restore() {
  if (!keptHere) return;
  let kept;
  try { kept = JSON.parse(localStorage.getItem(storageKey) || 'null'); } catch { kept = null; }
  if (!kept || typeof kept !== 'object' || Array.isArray(kept) || !Object.keys(kept).length) return;
  lastSaved = JSON.stringify(kept);
  try {
    const reply = np.command({ type: 'restoreSnapshot', widgets: kept });
    for (const dropped of reply.dropped || []) console.warn(`lm-train ${dropped.widget}: not restored: ${dropped.error}`);
  } catch (error) {
    console.warn(`lm-train: the saved training could not be restored: ${error.message}`);
  }
}

np.ready.then(restore, () => {});
