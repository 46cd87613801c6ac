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
  if (!holdSaving) removeRecord();
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

np.events.addEventListener('lesson-loaded', () => {
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
  if (holdSaving || sharedView) return;   // an unreadable original without a copy, or a shared view
  save(progress);
});

// For hosts and tests on the same page: what is stored, and where.
export const storage = Object.freeze({
  key,
  keptPrefix,
  status: () => (holdSaving || sharedView ? 'held' : saveStatus),
  read: () => readRecord(),
});
