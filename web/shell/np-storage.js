// Saved progress: the learner's position, answers, reveals and voice settings, kept in this
// browser's localStorage per lesson, restored when the lesson opens, and reset from the page.
//
//   key    neuralpath:v1:progress:<lesson id>
//   value  {"version": 1, "lesson": ID, "saved": ISO time, "progress": <the engine's record>}
//
// The engine owns the record (lesson::Progress, serialised); this file only stores what the
// 'progress' event carries and hands it back with the 'restore' command. Storage that is
// missing (blocked cookies, some private modes, sandboxed frames), full, or holding something
// unreadable never stops the lesson: a small visible note says progress is not being saved.
import { toolbar, noteSlot } from './np-mirror.js';

const np = window.neuralpath;
const VERSION = 1;
const key = `neuralpath:v${VERSION}:progress:${np.params.lesson}`;

// [SECTION] Storage access, each step guarded ---------------------------------------------------

function store() {
  try {
    const s = window.localStorage;   // the getter itself throws where storage is blocked
    return s || null;
  } catch { return null; }
}

function readRecord() {
  const s = store();
  if (!s) return { status: 'unavailable' };
  let raw;
  try { raw = s.getItem(key); } catch { return { status: 'unavailable' }; }
  if (raw === null) return { status: 'empty' };
  try {
    const record = JSON.parse(raw);
    const valid = record && typeof record === 'object' && record.version === VERSION &&
      record.lesson === np.params.lesson && (typeof record.progress === 'string' ||
      (record.progress && typeof record.progress === 'object'));
    return valid ? { status: 'ok', progress: record.progress } : { status: 'corrupt' };
  } catch { return { status: 'corrupt' }; }
}

function writeRecord(progress) {
  const s = store();
  if (!s) return 'unavailable';
  try {
    s.setItem(key, JSON.stringify({ version: VERSION, lesson: np.params.lesson, saved: new Date().toISOString(), progress }));
    return 'ok';
  } catch (error) {
    // QuotaExceededError (full) vs SecurityError and the like (not allowed).
    return error && (error.name === 'QuotaExceededError' || error.code === 22) ? 'full' : 'unavailable';
  }
}

function removeRecord() {
  try { store()?.removeItem(key); } catch { /* nothing stored, nothing to remove */ }
}

// [SECTION] The visible note and the reset control ----------------------------------------------

const note = document.createElement('p');
note.className = 'np-note';
note.setAttribute('role', 'status');
note.hidden = true;
const noteText = document.createElement('span');
const undoButton = document.createElement('button');
undoButton.type = 'button';
undoButton.textContent = 'Undo reset';
undoButton.hidden = true;
// The note can be put away (it covers the canvas's corner); it comes back if things change.
const dismissButton = document.createElement('button');
dismissButton.type = 'button';
dismissButton.className = 'np-note-dismiss';
dismissButton.setAttribute('aria-label', 'Dismiss this note');
dismissButton.textContent = '×';
dismissButton.addEventListener('click', () => { note.hidden = true; undoButton.hidden = true; });
note.append(noteText, undoButton, dismissButton);
noteSlot().append(note);

const messages = {
  unavailable: 'This browser is not letting the lesson save your progress; it will be lost when you leave.',
  full: 'Your browser’s storage is full, so your progress is not being saved.',
  corrupt: 'Saved progress for this lesson could not be read, so the lesson starts fresh.',
};
let saveStatus = 'ok';
function showNote(kind) {
  if (kind === 'ok' || kind === 'empty') {
    if (!undoButton.hidden) return;   // keep the "Undo" offer until it is used or replaced
    note.hidden = true;
    return;
  }
  note.classList.toggle('np-note-info', kind === 'reset');
  noteText.textContent = kind === 'reset' ? 'Progress reset.' : messages[kind];
  undoButton.hidden = kind !== 'reset';
  note.hidden = false;
}

const resetButton = document.createElement('button');
resetButton.type = 'button';
resetButton.className = 'np-tool';
resetButton.textContent = 'Reset progress';
toolbar().append(resetButton);

let lastProgress = null;   // what the engine last reported, for "Undo reset"
let undoProgress = null;
resetButton.addEventListener('click', () => {
  undoProgress = lastProgress;
  removeRecord();
  try { np.command({ type: 'reset' }); } catch (error) {
    np.announce(`Could not reset: ${error.message}`);
    return;
  }
  showNote('reset');
  np.announce('Progress reset. Every answer and reveal of this lesson is cleared.');
});
undoButton.addEventListener('click', () => {
  const progress = undoProgress;
  undoButton.hidden = true;
  showNote(saveStatus);
  if (!progress) return;
  try {
    np.command({ type: 'restore', progress });
    np.announce('Your progress is back.');
  } catch (error) { np.announce(`Could not undo: ${error.message}`); }
});

// [SECTION] Restore on load, save on every change -------------------------------------------------

np.events.addEventListener('lesson-loaded', () => {
  const found = readRecord();
  if (found.status === 'ok') {
    try {
      np.command({ type: 'restore', progress: found.progress });
    } catch (error) {
      // The engine refused it (another lesson version, hand-edited...): start fresh, say so.
      console.warn(`saved progress ignored: ${error.message}`);
      saveStatus = 'corrupt';
      showNote('corrupt');
      return;
    }
  } else if (found.status !== 'empty') {
    saveStatus = found.status;
    showNote(found.status);
  }
});

np.events.addEventListener('progress', event => {
  const progress = event.detail?.progress;
  if (progress === undefined || progress === null) return;
  lastProgress = progress;
  const status = writeRecord(progress);
  // A note that the saved record was unreadable stays up for this visit (the save just made
  // replaced that record); a note that saving fails goes as soon as a save works again.
  if (status === 'ok' && saveStatus === 'corrupt') return;
  if (status !== saveStatus || status !== 'ok') {
    saveStatus = status;
    showNote(status);
  }
});

// For hosts and tests on the same page: what is stored, and where.
export const storage = Object.freeze({
  key,
  status: () => saveStatus,
  read: () => readRecord(),
});
