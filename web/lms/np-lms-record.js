// The learner's record in a learning platform's small text field (SCORM 1.2's cmi.suspend_data
// holds 4,096 characters), and the status a platform shows, from the lesson's 'progress' events.
// Pure functions: no browser APIs, so Node tests run them as they are.
//
//   record  the engine's progress record (lesson::Progress serialised; a JSON text or object):
//           {"v":1,"lesson":ID,"section":A,"visited":[..],"answers":{ID:[..]},"reveals":[..],"step":N}
//   widgets the figures' state (the engine's snapshot, as np-storage.js keeps it): {id: snapshot}
//   packed  "np1:" + the record's JSON without "lesson" (the package knows which lesson it is),
//           with the widgets under "w"
//
// Past the limit, what matters least goes first, each step said in `dropped`:
//   1. the figures' settings (a sentence typed, a mask, a stage...), the largest first
//   2. the opened reveals
//   3. the playback position
//   4. the visited sections (the current one stays)
//   5. the trained models (a snapshot with a seed and its steps: minutes of the learner's time
//      to train again, a few characters to keep)
//   6. the answers, one by one from the end
// The current section is never dropped. Status and score live in their own fields, so a
// trimmed record never changes what the platform has recorded.

import { say } from './np-lms-words.js';

export const SUSPEND_DATA_LIMIT = 4096;
const PREFIX = 'np1:';

function recordObject(record) {
  if (typeof record === 'string') {
    try { record = JSON.parse(record); } catch { return null; }
  }
  return record && typeof record === 'object' && !Array.isArray(record) ? record : null;
}

// A trained model's snapshot: a seed and the steps trained (the train widget's, lm-train's).
export const isTrainedModel = snapshot => !!snapshot && typeof snapshot === 'object' && 'seed' in snapshot &&
  (Number(snapshot.steps) > 0 || Number(snapshot.step) > 0);

// -> {data, dropped: [what was left out]} or {error} when the record is unreadable.
export function packRecord(record, limit = SUSPEND_DATA_LIMIT, widgets = null) {
  const object = recordObject(record);
  if (!object) return { error: say('record_not_object') };
  const compact = { ...object };
  delete compact.lesson;
  delete compact.summary;   // state()'s progress carries a derived summary; never stored
  delete compact.w;
  if (widgets && typeof widgets === 'object' && !Array.isArray(widgets) && Object.keys(widgets).length) compact.w = { ...widgets };
  const dropped = [];
  const fits = () => PREFIX.length + JSON.stringify(compact).length <= limit;
  // Widgets in the order they go: the figures' settings largest first, then (later) trained models.
  const dropWidgets = (trained, what) => {
    if (fits() || !compact.w) return;
    const ids = Object.keys(compact.w).filter(id => isTrainedModel(compact.w[id]) === trained)
      .sort((a, b) => JSON.stringify(compact.w[b]).length - JSON.stringify(compact.w[a]).length);
    let removed = 0;
    for (const id of ids) {
      if (fits()) break;
      delete compact.w[id];
      removed++;
    }
    if (!Object.keys(compact.w).length) delete compact.w;
    if (removed) dropped.push(`${removed} ${what}`);
  };
  dropWidgets(false, 'figure settings');
  const steps = [   // [what, field, how]
    ['opened reveals', 'reveals', () => delete compact.reveals],
    ['playback position', 'step', () => delete compact.step],
    ['visited sections', 'visited', () => { compact.visited = compact.section ? [compact.section] : []; }],
  ];
  for (const [what, field, drop] of steps) {
    if (fits()) break;
    if (compact[field] === undefined) continue;
    drop();
    dropped.push(what);
  }
  dropWidgets(true, 'trained models');
  if (!fits() && compact.answers && typeof compact.answers === 'object') {
    const ids = Object.keys(compact.answers);
    let removed = 0;
    while (!fits() && ids.length) { delete compact.answers[ids.pop()]; removed++; }
    if (removed) dropped.push(`${removed} answer${removed === 1 ? '' : 's'}`);
  }
  if (!fits()) return { error: say('record_too_big', { limit }) };
  return { data: PREFIX + JSON.stringify(compact), dropped };
}

// -> {record: the engine's JSON text, widgets: {id: snapshot} or null} for packRecord's output, {empty: true} for "", or {error}.
export function unpackRecord(data, lessonId) {
  if (typeof data !== 'string' || data === '') return { empty: true };
  if (!data.startsWith(PREFIX)) return { error: say('record_foreign') };
  let object;
  try { object = JSON.parse(data.slice(PREFIX.length)); } catch {
    return { error: say('record_cut') };
  }
  if (!object || typeof object !== 'object' || Array.isArray(object)) return { error: say('record_not_stored_object') };
  const { w, ...rest } = object;
  const widgets = w && typeof w === 'object' && !Array.isArray(w) ? w : null;
  return { record: JSON.stringify({ ...rest, lesson: lessonId }), widgets };
}

// What a platform shows for a 'progress' event {completed, completed_checks, total_checks, score}.
//   status  'incomplete' until every section is visited and every check answered, then
//           'passed' (all answers right, or the score reaches masteryScore when the platform
//           set one) or 'failed'
//   score   0..100, the share of checks answered right
// A status once 'passed' is never taken back (a later retry, a trimmed record); a 'failed' one
// stays until the lesson is completed again.
export function lessonOutcome(progress, { previous = '', masteryScore = null } = {}) {
  const total = Number(progress?.total_checks) || 0;
  const right = Number(progress?.completed_checks) || 0;
  const score = total > 0 ? Math.round(100 * Math.min(1, right / total)) : 100;
  const completed = progress?.completed === true;
  let status = 'incomplete';
  if (completed) {
    const mastery = Number.isFinite(masteryScore) ? masteryScore : null;
    status = (mastery === null ? right >= total : score >= mastery) ? 'passed' : 'failed';
  }
  if (previous === 'passed') status = 'passed';
  else if (previous === 'failed' && status === 'incomplete') status = 'failed';
  return { status, score, completed };
}
