// np-models.js: the language models a lesson's widgets run, fetched only when one asks for one.
// Nothing is downloaded on a first visit: a widget that needs a model shows a button, and the
// engine says `lmModelWanted` when the learner presses it (or asks it for text).
//
//   engine event {type: 'lmModelWanted', name}       ->  fetch models/lm-NAME.nplm, streamed
//   each chunk      np_lm_model_progress(name, received, total)   (the widget draws the bar)
//   the whole file  np_lm_model_bytes(name, pointer, length)      (the engine reads and checks it)
//   a failure       np_lm_model_failed(name, reason)              (the widget says why, offers Retry)
//
// A model is fetched once per page; asking again after a failure fetches it again.
import { readAll } from './np-bytes.js';

const np = window.neuralpath;
const NAME = /^[a-z0-9-]{1,32}$/;
const MAX_BYTES = 64 << 20;  // far above a shipped model (3.3 MB at most); a larger answer is not ours
// A failure's reason in the learner's words (shown inside lm-model.download_failed's {error}).
const words = (key, args) => window.neuralpath.text(`lm-model.${key}`, args);
const HEADER_LENGTH = 'content-length';  // a header name, not words
const inFlight = new Set();

function engine() {
  const M = window.Module;
  return {
    progress: M.cwrap('np_lm_model_progress', null, ['string', 'number', 'number']),
    bytes: M.cwrap('np_lm_model_bytes', 'number', ['string', 'number', 'number']),
    failed: M.cwrap('np_lm_model_failed', null, ['string', 'string']),
    alloc: M._np_alloc,
    free: M._np_free,
  };
}

// The file's bytes, reporting progress as they arrive. total is 0 when the server does not say.
async function download(name, onProgress) {
  const response = await fetch(`models/lm-${name}.nplm`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const total = Number(response.headers.get(HEADER_LENGTH)) || 0;
  if (total > MAX_BYTES) throw new Error(words('too_big', { max: String(MAX_BYTES) }));
  return readAll(response.body, { limit: MAX_BYTES, tooBig: () => new Error(words('too_big', { max: String(MAX_BYTES) })),
    onBytes: received => onProgress(received, total) });
}

async function load(name) {
  if (!NAME.test(name) || inFlight.has(name)) return;
  inFlight.add(name);
  const e = engine();
  try {
    const bytes = await download(name, (received, total) => e.progress(name, received, total));
    const pointer = e.alloc(bytes.length);
    if (!pointer) throw new Error(words('no_memory'));
    try {
      window.Module.HEAPU8.set(bytes, pointer);  // HEAPU8 read after the allocation: growing replaces it
      e.bytes(name, pointer, bytes.length);      // the engine reports a damaged file itself
    } finally {
      e.free(pointer);
    }
  } catch (error) {
    console.warn(`model ${name}: ${error.message || error}`);
    e.failed(name, String(error.message || error));
  } finally {
    inFlight.delete(name);
  }
}

np.events.addEventListener('lmModelWanted', event => { load(String(event.detail?.name ?? '')); });
