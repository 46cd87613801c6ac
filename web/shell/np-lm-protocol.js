// The messages between a lesson page and its language-model trainer worker, on the JavaScript
// side: the same shapes engine/lm_worker/protocol.h types and checks in C++ (docs/lm-worker.md
// is the reference; tests/browser/lm-protocol.test.mjs checks both sides agree). The page's
// engine asks for requests through 'lm-worker' events; np-lm.js posts them to the worker, and
// hands each reply back to the engine, after checkReply() here has found it well formed.
//
// Requests (page -> worker)
/** @typedef {{type: 'open', run: number, data: string, config: string, seed: number, steps: number,
 *             prompt: string, text: string}} OpenRequest     load `data` and start run `run` at step 0 */
/** @typedef {{type: 'start', run: number, seed: number}} StartRequest   a new run from step 0 */
/** @typedef {{type: 'train', run: number, until?: number}} TrainRequest train (to step `until`, then pause) */
/** @typedef {{type: 'pause', run: number}} PauseRequest */
/** @typedef {{type: 'text', run: number, text: string}} TextRequest     the learner's text changed */
//
// Replies (worker -> page)
/** @typedef {{type: 'progress', what: 'code'|'data', loaded: number, total: number}} ProgressReply */
/** @typedef {{type: 'ready', run: number, lang: string, source: string, config: string, vocab_size: number,
 *             context: number, layers: number, heads: number, train_tokens: number, validation_tokens: number,
 *             train_documents: number, train_bytes: number, bigram_loss: number|null}} ReadyReply */
/** @typedef {{type: 'snapshot', run: number, step: number, steps: number, running: boolean,
 *             loss: number|null, val_loss: number|null, first_copy_loss: number|null, second_copy_loss: number|null,
 *             curve_from: number, curve: Array<{step: number, loss: number|null, val_loss: number|null}>,
 *             history_from: number, history: Array<{step: number, previous_token: number[], induction: number[]}>,
 *             samples_from: number, samples: Array<{step: number, text: string}>,
 *             heads: Array<{layer: number, head: number, previous_token: number|null, induction: number|null}>,
 *             previous_token: Milestone|null, induction: Milestone|null,
 *             text?: Attention, probe?: Attention}} SnapshotReply */
/** @typedef {{step: number, layer: number, head: number, score: number|null}} Milestone */
/** @typedef {{tokens: string[], weights: Array<Array<number|null>>, cut: boolean}} Attention */
/** @typedef {{type: 'error', run: number, message: string}} ErrorReply */

export const REQUESTS = ['open', 'start', 'train', 'pause', 'text'];
export const REPLIES = ['progress', 'ready', 'snapshot', 'error'];

// Field checks: 'int' (a whole number), 'num' (a number), 'num?' (a number or null), 'str', 'bool',
// 'arr', 'obj?' (an object or null); a name ending in '?' may be left out.
const SHAPES = {
  open: { run: 'int', data: 'str', config: 'str', seed: 'int', steps: 'int', prompt: 'str', text: 'str' },
  start: { run: 'int', seed: 'int' },
  train: { run: 'int', 'until?': 'int' },
  pause: { run: 'int' },
  text: { run: 'int', text: 'str' },
  progress: { what: 'str', loaded: 'num', total: 'num' },
  ready: { run: 'int', lang: 'str', source: 'str', config: 'str', vocab_size: 'int', context: 'int', layers: 'int',
    heads: 'int', train_tokens: 'int', validation_tokens: 'int', train_documents: 'int', train_bytes: 'int',
    bigram_loss: 'num?' },
  snapshot: { run: 'int', step: 'int', steps: 'int', running: 'bool', loss: 'num?', val_loss: 'num?',
    first_copy_loss: 'num?', second_copy_loss: 'num?', curve_from: 'int', curve: 'arr', history_from: 'int',
    history: 'arr', samples_from: 'int', samples: 'arr', heads: 'arr', previous_token: 'obj?', induction: 'obj?',
    'text?': 'obj', 'probe?': 'obj' },
  error: { run: 'int', message: 'str' },
};

const KINDS = {
  int: v => Number.isInteger(v),
  num: v => typeof v === 'number' && Number.isFinite(v),
  'num?': v => v === null || (typeof v === 'number' && Number.isFinite(v)),
  str: v => typeof v === 'string',
  bool: v => typeof v === 'boolean',
  arr: v => Array.isArray(v),
  obj: v => v !== null && typeof v === 'object' && !Array.isArray(v),
  'obj?': v => v === null || (typeof v === 'object' && !Array.isArray(v)),
};

// Why `message` is not a well-formed message of one of `types`, or '' when it is. Checks the
// type, every field's presence and kind, and that no field is unknown (the C++ side refuses the
// same); the numbers' ranges are the engine's to check.
function check(message, types) {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return 'a trainer message must be an object';
  if (!types.includes(message.type)) return `unknown trainer message type '${String(message.type)}'`;
  const shape = SHAPES[message.type];
  for (const [field, kind] of Object.entries(shape)) {
    const optional = field.endsWith('?');
    const name = optional ? field.slice(0, -1) : field;
    if (!(name in message)) {
      if (optional) continue;
      return `${message.type} needs '${name}'`;
    }
    if (!KINDS[kind](message[name])) return `${message.type}: '${name}' is not ${kind}`;
  }
  for (const name of Object.keys(message))
    if (name !== 'type' && !(name in shape) && !(`${name}?` in shape)) return `${message.type} has an unknown field '${name}'`;
  if (message.type === 'progress' && !['code', 'data'].includes(message.what)) return "progress: 'what' must be code or data";
  return '';
}

export const checkRequest = message => check(message, REQUESTS);
export const checkReply = message => check(message, REPLIES);
