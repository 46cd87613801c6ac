// What a learner does in a lesson, in the shapes learning platforms record (docs/lms.md):
// each answered check as an xAPI "answered" statement and as SCORM 1.2 cmi.interactions, and
// the meaningful simulation actions as xAPI statements from one list (SIMULATION_ACTIONS).
// Pure functions: no browser APIs, so Node tests run them as they are.
//
//   checkInteraction(check, answered)     a check (state().checks[]) and its 'answered' event
//                                         -> {id, kind, multiple, question, choices[{id, text}],
//                                             response[ids], correct[ids], success, attempts}
//   xapiInteraction(interaction, lang)    -> {definition, response, success}: the object's
//                                           definition and the result (cmi5.interaction() sends)
//   scormInteraction(interaction, n, at)  -> [[element, value], ...] for cmi.interactions.n
//   simulationStatement(event, where)     a widget's engine event -> {verb, object, result} or null
//
// Choice ids are the options' places in the lesson's own order, as letters: "a", "b", ...
// A learner sees the options shuffled (the progress record's order seed), but the ids, the
// response and the correct pattern all use the lesson's order, so two learners' answers to one
// check compare directly. Letters fit SCORM 1.2's choice format (single characters 0-9, a-z,
// comma-separated); a check of more than 36 options (no lesson has one) gets "o37", ... in xAPI
// and no response pattern in SCORM, which could not carry it.

const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const choiceId = index => (index < LETTERS.length ? LETTERS[index] : `o${index + 1}`);

const indices = value => (Array.isArray(value) ? value : [value]).filter(Number.isInteger).sort((a, b) => a - b);

export function checkInteraction(check, answered) {
  const options = Array.isArray(check?.options) ? check.options : [];
  const choices = options.map((text, i) => ({ id: choiceId(i), text: String(text) }));
  const response = indices(answered.option).map(choiceId);
  const correct = indices(answered.answer).map(choiceId);
  return {
    id: String(answered.check),
    kind: check?.kind === 'predict' ? 'predict' : 'check',
    multiple: !!check?.multiple,
    question: String(check?.question ?? answered.check),
    choices,
    response,
    correct,
    success: answered.correct === true,
    attempts: Number.isInteger(answered.attempts) ? answered.attempts : 1,
  };
}

// [SECTION] xAPI -----------------------------------------------------------------------------------
export const INTERACTION_TYPE = 'http://adlnet.gov/expapi/activities/cmi.interaction';
export const EXTENSION = name => `urn:neuralpath:xapi:${name}`;   // our result extensions' IRIs

export function xapiInteraction(interaction, lang = 'en') {
  const words = text => ({ [lang]: text });
  const definition = {
    type: INTERACTION_TYPE,
    interactionType: 'choice',
    name: words(interaction.question),
    choices: interaction.choices.map(c => ({ id: c.id, description: words(c.text) })),
    extensions: { [EXTENSION('check-kind')]: interaction.kind },
  };
  if (interaction.correct.length) definition.correctResponsesPattern = [interaction.correct.join('[,]')];
  return { definition, response: interaction.response.join('[,]'), success: interaction.success };
}

// [SECTION] SCORM 1.2 ------------------------------------------------------------------------------
// CMIIdentifier: at most 255 characters, no spaces (scorm-again takes printable ASCII); choice
// responses: single characters 0-9 and a-z, comma-separated (RTE 3.4.2, cmi.interactions).
const scormId = text => String(text).replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 255) || 'check';
const scormChoices = ids => (ids.every(id => id.length === 1) ? ids.join(',') : null);
const twoDigits = n => String(n).padStart(2, '0');
export const scormTime = date => `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}:${twoDigits(date.getSeconds())}`;

export function scormInteraction(interaction, n, at = new Date()) {
  const prefix = `cmi.interactions.${n}`;
  const out = [[`${prefix}.id`, scormId(interaction.id)], [`${prefix}.type`, 'choice']];
  const response = scormChoices(interaction.response);
  const pattern = scormChoices(interaction.correct);
  if (pattern !== null && interaction.correct.length) out.push([`${prefix}.correct_responses.0.pattern`, pattern]);
  if (response !== null) out.push([`${prefix}.student_response`, response]);
  out.push([`${prefix}.result`, interaction.success ? 'correct' : 'wrong']);
  out.push([`${prefix}.time`, scormTime(at)]);
  return out;
}

// [SECTION] Simulation actions ----------------------------------------------------------------------
// One row per action a platform hears of: the engine event (docs/protocol.md) that says it
// happened, the xAPI verb, the activity type of its object (the widget), and the numbers it
// carries as result extensions (EXTENSION(name)) and, where one fits, a scaled score.
const VERB = name => ({ id: `http://adlnet.gov/expapi/verbs/${name}`, display: { 'en-US': name } });
const SIMULATION = 'http://adlnet.gov/expapi/activities/simulation';
const MEDIA = 'http://adlnet.gov/expapi/activities/media';
const finite = value => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export const SIMULATION_ACTIONS = [
  { event: 'trained', action: 'trained the attention model to the end of its run', verb: 'achieved', type: SIMULATION,
    numbers: e => ({ accuracy: e.accuracy, loss: e.loss, steps: e.step }), scaled: e => e.accuracy },
  { event: 'lmInduction', action: 'an induction head formed while training the language model', verb: 'achieved', type: SIMULATION,
    numbers: e => ({ induction: e.score, step: e.step, layer: e.layer, head: e.head }) },
  { event: 'lmTrained', action: 'trained the language model to the end of its run', verb: 'achieved', type: SIMULATION,
    numbers: e => ({ 'val-loss': e.val_loss, loss: e.loss, induction: e.induction, steps: e.step }) },
  { event: 'generated', action: 'had the language model write text to its end', verb: 'interacted', type: SIMULATION,
    numbers: e => ({ tokens: e.tokens, temperature: e.temperature, 'top-k': e.top_k, 'top-p': e.top_p }) },
  { event: 'kvRace', action: 'raced decoding with and without the KV cache', verb: 'interacted', type: SIMULATION,
    numbers: e => ({ speedup: e.speedup, 'cached-seconds': e.cached_s, 'full-seconds': e.full_s, positions: e.positions }) },
  { event: 'costRun', action: 'ran naive and tiled attention side by side', verb: 'interacted', type: SIMULATION,
    numbers: e => ({ length: e.T, 'max-difference': e.max_difference }) },
  { event: 'playback', action: 'played the course playback to its end', verb: 'experienced', type: MEDIA,
    when: e => e.finished === true, numbers: e => ({ steps: e.steps }) },
  { event: 'explain', action: 'opened the explanation of a number', verb: 'experienced', type: SIMULATION,
    numbers: () => ({}) },
];
export const SIMULATION_EVENTS = new Set(SIMULATION_ACTIONS.map(a => a.event));

// `where`: {activityId (the AU's), lang, title (the lesson's)}. Null for an event that is no
// action of the list (a playback that paused, a malformed event).
export function simulationStatement(event, { activityId, lang = 'en', title = '' }) {
  const row = SIMULATION_ACTIONS.find(a => a.event === event?.type);
  if (!row || (row.when && !row.when(event)) || typeof event.widget !== 'string' || !event.widget) return null;
  const extensions = {};
  for (const [name, value] of Object.entries(row.numbers(event))) {
    if (finite(value) !== undefined) extensions[EXTENSION(name)] = value;
  }
  if (row.event === 'explain' && typeof event.title === 'string') extensions[EXTENSION('explained')] = event.title.slice(0, 200);
  const result = {};
  const scaled = row.scaled ? finite(row.scaled(event)) : undefined;
  if (scaled !== undefined && scaled >= 0 && scaled <= 1) result.score = { scaled };
  if (Object.keys(extensions).length) result.extensions = extensions;
  const name = title ? `${title}: ${event.widget}` : event.widget;
  return {
    verb: VERB(row.verb),
    object: { objectType: 'Activity', id: `${activityId}/widget/${encodeURIComponent(event.widget)}`,
      definition: { type: row.type, name: { [lang]: name } } },
    ...(Object.keys(result).length ? { result } : {}),
  };
}
