// The page's side of the train widgets' trainer workers (issue #33: training in the page runs
// off the main thread). Uses window.neuralpath only.
//
//   on start           tells the engine that training goes to workers (neuralpath.trainInWorkers);
//                      a page without this script trains in its frames, as before
//   'train-worker'     a train widget asks for a request to go to its trainer: {widget, message}.
//   events             The first one (a prepare, once the widget is on screen) starts that
//                      widget's Web Worker (np-train-worker.js); prepare and train requests get
//                      the lesson's text (the worker builds the same model from it), and every
//                      request is posted
//   worker replies     handed to the widget as the command {widget, type: 'worker', message}
//                      (the engine checks them); a worker that fails to start or stops is
//                      reported the same way, as an error reply, and the widget trains on in
//                      the page's frames
const np = window.neuralpath;
const workers = new Map();   // widget id -> Worker

function deliver(widget, message) {
  if (!message || typeof message !== 'object' || typeof message.type !== 'string') return;
  try {
    np.command({ widget, type: 'worker', message });
  } catch (error) {
    console.warn(`train ${widget}: ${error.message}`);
  }
}

function workerFor(widget) {
  let worker = workers.get(widget);
  if (worker) return worker;
  worker = new Worker('np-train-worker.js');
  worker.onmessage = event => deliver(widget, event.data);
  worker.onerror = event => {
    event.preventDefault();
    workers.delete(widget);
    worker.terminate();
    console.warn(`train ${widget}: the trainer stopped: ${event.message || 'no reason given'}`);
    deliver(widget, { type: 'error', run: 0, message: 'train.worker_stopped' });
  };
  workers.set(widget, worker);
  return worker;
}

np.events.addEventListener('train-worker', event => {
  const { widget, message } = event.detail || {};
  if (typeof widget !== 'string' || !message || typeof message !== 'object') return;
  // train and prepare build the widget's model from the lesson: the worker gets the same text
  const withText = message.type === 'train' || message.type === 'prepare';
  const request = withText ? { ...message, lesson: np.lessonText() || '' } : message;
  try {
    workerFor(widget).postMessage(request);
  } catch (error) {   // a page whose policy forbids workers: the frames train
    console.warn(`train ${widget}: no trainer worker: ${error.message}`);
    deliver(widget, { type: 'error', run: 0, message: 'train.worker_not_started' });
  }
});

np.onEngineReady(() => np.trainInWorkers());
