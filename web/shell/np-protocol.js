// The page protocol as the shell reads it: every field of the engine's JSON (state(), the lesson
// document, the events, the limits, a command's reply) that a module of web/shell reads, named
// once here with its type, and a small validator. docs/protocol.md says what each field means;
// this file says which of them the shell depends on.
//
// The engine side is checked against it without a browser: tests/ui/protocol_dump.cpp writes the
// state, the document and the events of a scripted walk through every lesson in both languages,
// and tests/protocol/protocol.test.mjs validates them here. A field the engine renames or drops
// then fails that test, not a learner's page. The page validates the first state() too
// (np-app.js) and says so on the console.
//
//   validate(SHAPES.state, np.state(), 'state')   -> [] or ["state.playback.id: missing",
//                                                     "state.section: string|null expected, number found"]
//   transportOf(state)                            -> {id, step, steps, playing, caption, speed} | null
//   progressSummary(state)                        -> {checks, correct, ...} | null
//
// A shape is a type name ('string', 'integer', 'number', 'boolean', 'object', 'array', 'any';
// 'T|null' may be null; a key ending in '?' may be absent), an object of shapes (its keys must
// be there, others are allowed), [shape] (an array of them), or oneOfKind(...) (objects told
// apart by their `kind`).
//
// [SECTION] Shapes
// [SECTION] Reading the state
// [SECTION] The validator

// [SECTION] Shapes ------------------------------------------------------------------------------

const KINDS = Symbol('kinds');
const NULLABLE = Symbol('nullable');
const oneOfKind = (base, kinds) => ({ [KINDS]: { base, kinds } });
const nullable = shape => ({ [NULLABLE]: shape });

// A run of inline text (document_export.h).
const runs = [{ text: 'string' }];

// A block of the lesson document, as the text version (np-mirror.js) rebuilds it.
const block = oneOfKind({ kind: 'string', text: 'string', 'id?': 'string' }, {
  paragraph: { runs },
  heading: { level: 'integer', runs },
  list: { ordered: 'boolean', start: 'integer', items: 'array' },
  quote: { blocks: 'array' },
  table: { header: 'array', rows: 'array' },
  check: { question: 'string', runs, multiple: 'boolean', options: [{ text: 'string', runs }], 'hint?': 'string',
           'predict?': 'boolean' },
  reveal: { label: 'string', blocks: 'array' },
  callout: { callout: 'string', title: 'string', blocks: 'array' },
  equation: { latex: 'string', 'caption?': 'string' },
  code: { language: 'string', lines: ['string'], 'caption?': 'string' },
  // What the widget's kind says of itself decides the text version's controls: a transport
  // (play, pause, step: a timeline such as the course playback), a sentence form, choices.
  widget: { widget: 'string', title: 'string', widget_index: 'integer', caption: 'string', 'transport?': 'boolean',
            'takes_sentence?': 'boolean',
            'choices?': { label: 'string', items: [{ label: 'string', command: 'object', 'when?': 'object' }] } },
});

// The first widget with a transport (a timeline the learner plays through): state().playback.
// Share links, the narrator and the text version find the board through it, never by its kind.
const transport = { id: 'string', step: 'integer', steps: 'integer', playing: 'boolean', caption: 'string|null',
                    speed: 'number' };

// The learner's progress summary (engine/lesson/progress.h): np-finish.js keeps it for the home
// page, np-mirror.js prints it.
const summary = { checks: 'integer', answered: 'integer', correct: 'integer', sections: 'integer', visited: 'integer',
                  percent: 'number', completed: 'boolean' };

export const SHAPES = {
  state: {
    lesson: 'string',
    title: 'string',
    errors: ['string'],
    layout: 'object',
    section: 'string|null',
    sections: [{ anchor: 'string', title: 'string', level: 'string' }],
    checks: [{ id: 'string', question: 'string', options: ['string'], order: ['integer'], multiple: 'boolean',
               kind: 'string', chosen: ['integer'], correct: 'boolean|null', attempts: 'integer',
               'feedback?': 'string|null', 'answer?': ['integer'], revealed: 'boolean', 'measured?': 'object|null' }],
    reveals: [{ id: 'string', open: 'boolean' }],
    widgets: [{ kind: 'string', id: 'string', section: 'string', 'summary?': 'string', 'error?': 'string|null',
                'table?': { caption: 'string', columns: ['string'], rows: [{ header: 'string', cells: ['string'] }] } }],
    playback: nullable(transport),
    progress: nullable({ v: 'integer', lesson: 'string', summary }),  // null before a lesson loads
  },

  document: {
    lesson: 'string',
    title: 'string',
    summary: 'string',
    intro: [block],
    sections: [{ anchor: 'string', title: 'string', level: 'string', blocks: [block] }],
  },

  // Each event's `detail` (neuralpath.events), by type: the fields a module of the shell reads.
  events: {
    ready: { 'lesson?': 'string' },
    section: { section: 'string' },
    answered: { check: 'string', correct: 'boolean' },
    progress: { progress: 'string' },
    completed: { score: 'number' },
    caption: { text: 'string', step: 'integer', widget: 'string', voice: 'boolean' },
    playback: { playing: 'boolean', step: 'integer', speed: 'number', voice: 'boolean', caption: 'string|null',
                widget: 'string' },
    export: { widget: 'string', format: 'string' },
    lmModelWanted: { name: 'string' },
    'lm-worker': { widget: 'string', message: 'object' },
    'train-worker': { widget: 'string', message: 'object' },
  },

  // neuralpath.limits (engine/ui/page_limits.h): the numbers the page checks before the engine.
  limits: { lesson_bytes: 'integer', command_bytes: 'integer', record_bytes: 'integer', sentence_bytes: 'integer',
            json_depth: 'integer', shared_state_chars: 'integer', shared_state_bytes: 'integer' },

  // The `snapshot` command's reply: what a shared link holds (np-share.js).
  snapshot: { ok: 'boolean', section: 'string', widgets: 'object' },
};

// [SECTION] Reading the state -------------------------------------------------------------------

// The board the learner plays through, or null: the first widget whose kind says it has a
// transport (engine/ui/widget.h, Widget::transport), whatever that kind is called.
export function transportOf(state) {
  const p = state?.playback;
  return p && typeof p === 'object' && typeof p.id === 'string' ? p : null;
}

// The learner's progress summary, or null before a lesson loads.
export const progressSummary = state => state?.progress?.summary || null;

// [SECTION] The validator -----------------------------------------------------------------------

const TYPES = {
  string: v => typeof v === 'string',
  integer: v => Number.isInteger(v),
  number: v => typeof v === 'number' && Number.isFinite(v),
  boolean: v => typeof v === 'boolean',
  object: v => v !== null && typeof v === 'object' && !Array.isArray(v),
  array: v => Array.isArray(v),
  any: () => true,
};

const describe = v => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const mismatch = (path, shape, value) => `${path}: ${shape} expected, ${describe(value)} found`;

// The problems of `value` against `shape`, each "path: what is wrong"; [] when it fits.
export function validate(shape, value, path = '$', problems = []) {
  if (typeof shape === 'string') {
    const names = shape.split('|');
    if (value === null && names.includes('null')) return problems;
    if (!names.some(name => name !== 'null' && TYPES[name]?.(value)))
      problems.push(mismatch(path, shape, value));
    return problems;
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) { problems.push(mismatch(path, 'array', value)); return problems; }
    value.forEach((item, i) => validate(shape[0], item, `${path}[${i}]`, problems));
    return problems;
  }
  if (shape[NULLABLE]) return value === null ? problems : validate(shape[NULLABLE], value, path, problems);
  if (!TYPES.object(value)) { problems.push(mismatch(path, 'object', value)); return problems; }
  if (shape[KINDS]) {
    const { base, kinds } = shape[KINDS];
    validate(base, value, path, problems);
    const own = kinds[value.kind];
    if (own) validate(own, value, `${path}(${value.kind})`, problems);
    return problems;
  }
  for (const [key, inner] of Object.entries(shape)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    if (!(name in value)) { if (!optional) problems.push(`${path}.${name}: missing`); continue; }
    validate(inner, value[name], `${path}.${name}`, problems);
  }
  return problems;
}

// An event's problems: its type must be one the page knows when it is one the shell reads.
export function validateEvent(detail, path = 'event') {
  const shape = SHAPES.events[detail?.type];
  return shape ? validate(shape, detail, `${path}(${detail.type})`) : [];
}
