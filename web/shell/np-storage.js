// Saved progress: the learner's position, answers, reveals and voice settings, kept in this
// browser's localStorage per lesson, restored when the lesson opens, and reset from the page.
//
//   key    neuralpath:v1:progress:<lesson id>
//   value  {"version": 1, "lesson": ID, "saved": ISO time, "progress": <the engine's record>}
//   kept   neuralpath:v1:kept:<lesson id>:<ISO time>   a record that could not be fully used,
//          exactly as it was found; removed only by the learner ("Delete it")
//
// The engine owns the record (lesson::Progress, serialised); this file only stores what the
// 'progress' event carries and hands it back with the 'restore' command. A stored record is
// never overwritten unless it was fully used: one that cannot be read, or is only partly usable
// (one bad field, a newer version's, answers to checks the lesson no longer has), is first
// copied aside; what is usable is restored; a note says so and offers the original for download.
// If there is no room for the copy, this visit saves nothing until the learner decides.
// Storage that is missing (blocked cookies, some private modes, sandboxed frames) or full never
// stops the lesson either: a small visible note says progress is not being saved.
import { toolbar, noteSlot, chromeText } from './np-mirror.js';
import { nestingOver, quoteShort } from './np-json.js';

const np = window.neuralpath;
// Words from the engine's catalogue ([storage]); the controls made before it runs get theirs
// through chromeText once it does.
const t = (key, args) => np.text(key, args);
const VERSION = 1;
const lesson = np.params.lesson;
const key = `neuralpath:v${VERSION}:progress:${lesson}`;
const keptPrefix = `neuralpath:v${VERSION}:kept:${lesson}:`;
// Launched by a learning platform (web/lms/, ?platform=1): the platform keeps this learner's
// progress and figures, and its launch page restores them. What this browser keeps is then
// someone else's on a shared computer: it is neither restored nor written over. The figures
// still go out in 'widgets-kept' (the launch page stores them with the platform).
const platformKeeps = np.params.platform;
// Stored values larger than the engine takes (neuralpath.limits.record_bytes), or nested deeper
// (json_depth), are not handed to it: they are kept aside as they are, and the lesson starts fresh.

// [SECTION] Storage access, each step guarded ---------------------------------------------------

function store() {
  try {
    const s = window.localStorage;   // the getter itself throws where storage is blocked
    return s || null;
  } catch { return null; }
}

// {status: 'empty'|'unavailable'} or {status: 'ok', raw, progress} or
// {status: 'unreadable', raw, why}.
function readRecord() {
  const s = store();
  if (!s) return { status: 'unavailable' };
  let raw;
  try { raw = s.getItem(key); } catch { return { status: 'unavailable' }; }
  if (raw === null) return { status: 'empty' };
  const limits = np.limits || { record_bytes: Infinity, json_depth: Infinity };   // (a host reading before the engine runs)
  if (raw.length > limits.record_bytes)
    return { status: 'unreadable', raw, why: t('storage.why_too_large', { size: np.format('bytes', raw.length) }) };
  if (nestingOver(raw, limits.json_depth)) return { status: 'unreadable', raw, why: t('storage.why_not_record') };
  let record;
  try { record = JSON.parse(raw); } catch { return { status: 'unreadable', raw, why: t('storage.why_not_json') }; }
  if (!record || typeof record !== 'object' || Array.isArray(record)) return { status: 'unreadable', raw, why: t('storage.why_not_record') };
  if (record.version !== VERSION) return { status: 'unreadable', raw, why: t('storage.why_version', { found: quoteShort(record.version), version: VERSION }) };
  if (record.lesson !== lesson) return { status: 'unreadable', raw, why: t('storage.why_other_lesson') };
  const p = record.progress;
  if (!(typeof p === 'string' || (p && typeof p === 'object' && !Array.isArray(p))))
    return { status: 'unreadable', raw, why: t('storage.why_no_progress') };
  return { status: 'ok', raw, progress: p };
}

function writeRecord(progress) {
  const s = store();
  if (!s) return 'unavailable';
  try {
    s.setItem(key, JSON.stringify({ version: VERSION, lesson, saved: new Date().toISOString(), progress }));
    return 'ok';
  } catch (error) {
    // QuotaExceededError (full) vs SecurityError and the like (not allowed).
    return error && (error.name === 'QuotaExceededError' || error.code === 22) ? 'full' : 'unavailable';
  }
}

function removeRecord() {
  try { store()?.removeItem(key); } catch { /* nothing stored, nothing to remove */ }
}

// Copies a record aside under its own key; returns that key, or null when it could not.
function keepAside(raw) {
  const s = store();
  if (!s) return null;
  const keptKey = keptPrefix + new Date().toISOString();
  try {
    s.setItem(keptKey, raw);
    return s.getItem(keptKey) === raw ? keptKey : null;
  } catch { return null; }
}

function keptKeys() {
  const s = store();
  const keys = [];
  try {
    for (let i = 0; s && i < s.length; i++) {
      const k = s.key(i);
      if (k && k.startsWith(keptPrefix)) keys.push(k);
    }
  } catch { /* storage went away: nothing to list */ }
  return keys.sort();
}

// [SECTION] The visible notes and the reset control ----------------------------------------------

function makeNote() {
  const note = document.createElement('p');
  note.className = 'np-note';
  note.setAttribute('role', 'status');
  note.hidden = true;
  const text = document.createElement('span');
  // The note can be put away (it covers the canvas's corner); it comes back if things change.
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.className = 'np-note-dismiss';
  chromeText(dismiss, 'storage.dismiss', 'aria-label');
  dismiss.textContent = '×';
  dismiss.addEventListener('click', () => { note.hidden = true; });
  note.append(text, dismiss);
  noteSlot().append(note);
  return { note, text, dismiss };
}

function button(key, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  chromeText(b, key);
  b.addEventListener('click', onClick);
  return b;
}

// Saving status: not saved / storage full / progress reset (with Undo).
const status = makeNote();
const undoButton = button('storage.undo', () => undo());
undoButton.hidden = true;
status.note.insertBefore(undoButton, status.dismiss);
status.dismiss.addEventListener('click', () => { undoButton.hidden = true; });

// A record that could not be fully used: what happened, and what the learner can do with it.
const kept = makeNote();
kept.note.classList.add('np-note-kept');
const downloadButton = button('storage.download', () => downloadKept());
const deleteButton = button('storage.delete', () => deleteKept());
kept.note.insertBefore(downloadButton, kept.dismiss);
kept.note.insertBefore(deleteButton, kept.dismiss);

let saveStatus = 'ok';
function showStatus(kind) {
  if (kind === 'ok' || kind === 'empty') {
    if (!undoButton.hidden) return;   // keep the "Undo" offer until it is used or replaced
    status.note.hidden = true;
    return;
  }
  status.note.classList.toggle('np-note-info', kind === 'reset');
  status.text.textContent = t(kind === 'reset' ? 'storage.reset_done' : kind === 'full' ? 'storage.full' : 'storage.unavailable');
  undoButton.hidden = kind !== 'reset';
  status.note.hidden = false;
}

// What the kept note is about: the raw record (for download), where it is kept (or null when
// there was no room), and whether saving waits for the learner (no room for the copy).
let keptRecord = null;   // {raw, key}
let holdSaving = false;
let lastProgress = null;   // what the engine last reported (for "Undo reset", and a save after "Delete it")

function showKept(message) {
  kept.text.textContent = message;
  deleteButton.textContent = t(holdSaving ? 'storage.delete_and_save' : 'storage.delete');
  kept.note.hidden = false;
}

function describe(reasons) {
  const shown = reasons.slice(0, 2).join(t('storage.reasons_separator'));
  return reasons.length > 2 ? t('storage.reasons_more', { reasons: shown, n: reasons.length - 2 }) : shown;
}

// The stored record at `key` could not be fully used (`reasons`, for the learner).
function setAside(raw, reasons, restored) {
  console.warn(`saved progress of "${lesson}" kept aside: ${reasons.join('; ')}`);
  const keptKey = keepAside(raw);
  keptRecord = { raw, key: keptKey };
  holdSaving = !keptKey;
  const args = { reasons: describe(reasons) };
  showKept(t(`storage.${restored ? 'partly_used' : 'unreadable'}_${keptKey ? 'kept' : 'no_room'}`, args));
}

function downloadKept() {
  if (!keptRecord) return;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([keptRecord.raw], { type: 'application/json' }));
  link.download = `neuralpath-${lesson}-saved-progress.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

function deleteKept() {
  if (keptRecord?.key) {
    try { store()?.removeItem(keptRecord.key); } catch { /* already gone */ }
  }
  for (const k of keptKeys()) { try { store()?.removeItem(k); } catch { /* already gone */ } }
  keptRecord = null;
  kept.note.hidden = true;
  if (holdSaving) {
    holdSaving = false;
    if (lastProgress !== null) save(lastProgress);
  }
  np.announce(t('storage.deleted'));
}

const resetButton = document.createElement('button');
resetButton.type = 'button';
resetButton.className = 'np-tool';
chromeText(resetButton, 'storage.reset');
toolbar().append(resetButton);

let undoProgress = null;
resetButton.addEventListener('click', () => {
  undoProgress = lastProgress;
  if (!holdSaving && !platformKeeps) removeRecord();
  try { np.command({ type: 'reset' }); } catch (error) {
    np.announce(t('storage.reset_failed', { error: error.message }));
    return;
  }
  showStatus('reset');
  np.announce(t('storage.reset_announced'));
});
function undo() {
  const progress = undoProgress;
  undoButton.hidden = true;
  showStatus(saveStatus);
  if (!progress) return;
  try {
    np.command({ type: 'restore', progress });
    np.announce(t('storage.undone'));
  } catch (error) { np.announce(t('storage.undo_failed', { error: error.message })); }
}

// [SECTION] Restore on load, save on every change -------------------------------------------------

np.onLessonLoaded(() => {
  if (platformKeeps) return;
  const found = readRecord();
  if (found.status === 'ok') {
    let reply;
    try {
      reply = np.command({ type: 'restore', progress: found.progress });
    } catch (error) {
      // The engine refused it whole (another lesson's, nothing readable): keep it, start fresh.
      const prefix = t('commands.progress_unreadable', { error: '' });  // the engine's words before the reason
      setAside(found.raw, [error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message], false);
      return;
    }
    if (Array.isArray(reply.dropped) && reply.dropped.length) setAside(found.raw, reply.dropped, true);
  } else if (found.status === 'unreadable') {
    setAside(found.raw, [found.why], false);
  } else if (found.status !== 'empty') {
    saveStatus = found.status;
    showStatus(found.status);
  }
  // A copy kept on an earlier visit is still waiting for the learner.
  if (!keptRecord) {
    const earlier = keptKeys();
    if (earlier.length) {
      let raw = null;
      try { raw = store().getItem(earlier[0]); } catch { /* listed but unreadable */ }
      if (raw !== null) {
        keptRecord = { raw, key: earlier[0] };
        showKept(t(earlier.length > 1 ? 'storage.kept_earlier_copies' : 'storage.kept_earlier', { n: earlier.length }));
      }
    }
  }
});

function save(progress) {
  const result = writeRecord(progress);
  if (result !== saveStatus || result !== 'ok') {
    saveStatus = result;
    showStatus(result);
  }
}

// A shared link's view (?s=, np-share.js) is someone else's: nothing is saved over the learner's
// own progress until they choose "Save my progress from here" ('shared-view-end').
let sharedView = np.params.shared;
np.events.addEventListener('shared-view-end', () => {
  sharedView = false;
  if (lastProgress !== null && !holdSaving) save(lastProgress);
});

np.events.addEventListener('progress', event => {
  const progress = event.detail?.progress;
  if (progress === undefined || progress === null) return;
  lastProgress = progress;
  if (holdSaving || sharedView || platformKeeps) return;   // an unreadable original without a copy, a shared view, the platform's
  save(progress);
});

// [SECTION] The figures, kept across reloads ------------------------------------------------------
// What a shared link carries (np-share.js) is kept too: the engine's `snapshot`, each changed
// widget's state (sentence, mask, stage, selected cell, sampling settings...; a trained model as
// its seed and steps: training is deterministic, so the restore replays it to the same weights).
//
//   key    neuralpath:v1:widgets:<lesson id>
//   value  {"version": 1, "lesson": ID, "saved": ISO time, "widgets": {id: snapshot}}
//   kept   neuralpath:v1:kept-widgets:<lesson id>:<ISO time>   one that could not be read, as it was
//
// Put back when the lesson opens (restoreSnapshot: a widget the lesson no longer has, or a
// snapshot it refuses, is left out and the console says which; the rest is restored), except in
// a shared view, which shows the link's figures. The language-model trainers are np-lm.js's.
// Saved when the learner has changed something: after an input ends (a drag saves once, when the
// pointer is lifted, never while it is down), after the engine reports a change, and at once
// when the page is hidden or closed (a training that runs on is saved then, or when it ends). No
// timer looks on its own: an idle page costs nothing (idle.test.mjs).
// Nothing is written when nothing changed. Storage that is full or blocked keeps what it had.
const WIDGETS_KEY = `neuralpath:v${VERSION}:widgets:${lesson}`;
const KEPT_WIDGETS_PREFIX = `neuralpath:v${VERSION}:kept-widgets:${lesson}:`;
const OWN_STORAGE = new Set(['lm-train']);   // kinds whose state another file keeps (np-lm.js)
const SETTLE_MS = 600;
let widgetsHeld = false;   // a stored value that could not be read nor copied aside: never overwritten
let widgetsSaved = null;   // the text last written (or found)
let widgetsRestored = false;   // nothing is written before what was kept is put back

// {status: 'empty'|'unavailable'} or {status: 'ok', widgets} or {status: 'unreadable', raw, why}
function readWidgets() {
  const s = store();
  if (!s) return { status: 'unavailable' };
  let raw;
  try { raw = s.getItem(WIDGETS_KEY); } catch { return { status: 'unavailable' }; }
  if (raw === null) return { status: 'empty' };
  const limits = np.limits || { shared_state_bytes: Infinity, json_depth: Infinity };
  if (raw.length > limits.shared_state_bytes) return { status: 'unreadable', raw, why: t('storage.why_too_large', { size: np.format('bytes', raw.length) }) };
  if (nestingOver(raw, limits.json_depth)) return { status: 'unreadable', raw, why: t('storage.why_not_record') };
  let value;
  try { value = JSON.parse(raw); } catch { return { status: 'unreadable', raw, why: t('storage.why_not_json') }; }
  const plain = v => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!plain(value) || value.version !== VERSION || value.lesson !== lesson || !plain(value.widgets))
    return { status: 'unreadable', raw, why: t('storage.why_not_record') };
  return { status: 'ok', widgets: value.widgets, raw };
}

// Each changed widget's snapshot, less the kinds kept elsewhere; null when the engine cannot say.
function widgetSnapshots() {
  let snapshots, kinds;
  try {
    snapshots = np.command({ type: 'snapshot' }).widgets || {};
    kinds = new Map((np.state().widgets || []).map(w => [w.id, w.kind]));
  } catch { return null; }
  const out = {};
  // A platform's launch keeps them all here: np-lm.js then keeps nothing in this browser.
  for (const [id, snapshot] of Object.entries(snapshots)) if (platformKeeps || !OWN_STORAGE.has(kinds.get(id))) out[id] = snapshot;
  return out;
}

let pointersDown = 0;
let settleTimer = 0;
function saveWidgets() {
  clearTimeout(settleTimer);
  if (sharedView || widgetsHeld || !widgetsRestored) return;
  const widgets = widgetSnapshots();
  if (!widgets) return;
  const text = JSON.stringify(widgets);
  if (text === widgetsSaved || (text === '{}' && widgetsSaved === null)) return;   // nothing changed
  if (text.length > (np.limits?.shared_state_bytes ?? Infinity)) {
    console.warn(`the figures of "${lesson}" are too large to keep (${text.length} bytes)`);
    return;
  }
  if (platformKeeps) {
    widgetsSaved = text;
    np.events.dispatchEvent(new CustomEvent('widgets-kept', { detail: { widgets } }));
    return;
  }
  const s = store();
  if (!s) return;
  try {
    if (text === '{}') s.removeItem(WIDGETS_KEY);
    else s.setItem(WIDGETS_KEY, JSON.stringify({ version: VERSION, lesson, saved: new Date().toISOString(), widgets }));
    widgetsSaved = text;
  } catch (error) {
    // Full or blocked: the stored value stays as it was; the next change tries again.
    console.warn(`the figures of "${lesson}" were not kept: ${error && error.name}`);
    return;
  }
  np.events.dispatchEvent(new CustomEvent('widgets-kept', { detail: { widgets } }));
}
// After the learner's input ends, or the engine reports a change: once things settle.
function saveSoon() {
  clearTimeout(settleTimer);
  if (pointersDown > 0) return;   // a drag: saved when the pointer is lifted
  settleTimer = setTimeout(saveWidgets, SETTLE_MS);
}

function restoreWidgets() {
  widgetsRestored = true;
  if (sharedView || platformKeeps) return;
  // A late arrival (each module runs once it has arrived): what the learner changed before this
  // script listened is saved too. Nothing is written when nothing changed.
  saveSoon();
  const found = readWidgets();
  if (found.status === 'unreadable') {
    let copied = false;
    try {
      const copyKey = KEPT_WIDGETS_PREFIX + new Date().toISOString();
      store().setItem(copyKey, found.raw);
      copied = store().getItem(copyKey) === found.raw;
    } catch { /* no room for the copy */ }
    widgetsHeld = !copied;
    console.warn(`the kept figures of "${lesson}" could not be read (${found.why}); ${copied ? 'copied aside' : 'left as they are'}`);
    return;
  }
  if (found.status !== 'ok') return;
  widgetsSaved = JSON.stringify(found.widgets);
  if (!Object.keys(found.widgets).length) return;
  try {
    const reply = np.command({ type: 'restoreSnapshot', widgets: found.widgets });
    for (const dropped of reply.dropped || []) console.warn(`figure ${dropped.widget || ''} not restored: ${dropped.error || JSON.stringify(dropped)}`);
  } catch (error) {
    console.warn(`the kept figures of "${lesson}" were not restored: ${error.message}`);
  }
}

np.onLessonLoaded(restoreWidgets);
window.addEventListener('pointerdown', () => { pointersDown++; clearTimeout(settleTimer); }, true);
for (const type of ['pointerup', 'pointercancel']) {
  window.addEventListener(type, () => { pointersDown = Math.max(0, pointersDown - 1); saveSoon(); }, true);
}
window.addEventListener('keyup', saveSoon, true);
for (const type of ['progress', 'section', 'trained', 'lmTrained', 'generated', 'kvRace', 'costRun', 'playback'])
  np.events.addEventListener(type, saveSoon);
np.events.addEventListener('shared-view-end', saveSoon);
// Hidden or closing (a reload too): now, whatever the pointer does.
document.addEventListener('visibilitychange', () => { if (document.hidden) { pointersDown = 0; saveWidgets(); } });
window.addEventListener('pagehide', () => { pointersDown = 0; saveWidgets(); });

// For hosts and tests on the same page: what is stored, and where.
export const storage = Object.freeze({
  key,
  keptPrefix,
  widgetsKey: WIDGETS_KEY,
  status: () => (holdSaving || sharedView ? 'held' : saveStatus),
  read: () => readRecord(),
  readWidgets: () => readWidgets(),
  saveWidgets: () => saveWidgets(),
});
