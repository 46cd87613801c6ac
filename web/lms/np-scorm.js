// SCORM 1.2 launch page: finds the learning platform's API, opens the lesson, reports what the
// learner does and resumes where they left off.
//
//   reads    cmi.core.lesson_status, cmi.core.lesson_mode, cmi.suspend_data,
//            cmi.core.lesson_location, cmi.student_data.mastery_score
//   writes   cmi.core.lesson_status   incomplete -> passed | failed (np-lms-record.js)
//            cmi.core.score.raw/min/max   0..100, the share of checks answered right
//            cmi.core.lesson_location     the section the learner is in
//            cmi.suspend_data             the learner's record, packed into 4,096 characters
//            cmi.core.session_time, cmi.core.exit ("suspend": the learner may come back)
//            cmi.interactions.n.*         each answered check (normal mode): id, type "choice",
//                                         student_response, correct_responses.0.pattern, result,
//                                         time (np-interactions.js; docs/lms.md)
//   LMSCommit after each change the learner makes; LMSFinish when the page goes away.
import { launchedLesson, note, openLesson } from './np-lms-frame.js';
import { lessonOutcome, packRecord, unpackRecord } from './np-lms-record.js';
import { checkInteraction, scormInteraction } from './np-interactions.js';
import { loadWords, say } from './np-lms-words.js';

// [SECTION] Finding the API ---------------------------------------------------------------------
// SCORM 1.2: the platform puts an object called API on a window above the content: a parent
// (frames) or the opener (a popup) or one of their parents. Cross-origin windows are skipped.
function apiAbove(start) {
  for (let win = start, hops = 0; win && hops < 10; hops++) {
    try { if (win.API && typeof win.API.LMSInitialize === 'function') return win.API; } catch { /* cross-origin */ }
    if (win.parent === win) break;
    win = win.parent;
  }
  return null;
}
const findApi = () => apiAbove(window) || apiAbove(window.opener);

// [SECTION] Talking to the platform -------------------------------------------------------------
// Every call is guarded: a platform's API that throws (a bug, a session it closed) left a blank
// page. What failed is said in the console, and the lesson goes on as if the call had failed.
function platform(api) {
  let thrown = '';
  const call = (name, ...args) => {
    try {
      thrown = '';
      return api[name](...args);
    } catch (error) {
      thrown = String(error?.message || error);
      console.warn(`neuralpath: ${name} threw (${thrown})`);
      return undefined;
    }
  };
  const error = () => {
    if (thrown) return thrown;
    const code = call('LMSGetLastError');
    return `${code}: ${call('LMSGetErrorString', code)}`;
  };
  return {
    get(name) { const value = call('LMSGetValue', name); return value === null || value === undefined ? '' : String(value); },
    set(name, value) {
      if (String(call('LMSSetValue', name, String(value))) !== 'true') console.warn(`neuralpath: ${name} was not accepted (${error()})`);
    },
    commit() { if (String(call('LMSCommit', '')) !== 'true') console.warn(`neuralpath: LMSCommit failed (${error()})`); },
    finish() { call('LMSFinish', ''); },
    start() { return String(call('LMSInitialize', '')) === 'true' ? null : error(); },
  };
}

// cmi.core.lesson_location as this page writes it: a section's anchor (SCORM 1.2 holds 255
// characters). Anything else is ignored: a 1 MB one went into the lesson frame's URL (a 414).
const sectionAnchor = text => (/^[a-z0-9][a-z0-9-]{0,254}$/.test(text) ? text : '');

// CMITimespan: HHHH:MM:SS.SS
function timespan(ms) {
  const s = Math.max(0, ms) / 1000;
  const hours = Math.min(9999, Math.floor(s / 3600));
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = (s % 60).toFixed(2).padStart(5, '0');
  return `${String(hours).padStart(4, '0')}:${String(minutes).padStart(2, '0')}:${seconds}`;
}

// [SECTION] The launch ----------------------------------------------------------------------------
async function launch() {
  let lang = await loadWords();
  const lessonId = launchedLesson();
  if (!lessonId) { note(say('no_lesson')); return; }
  const api = findApi();
  if (!api) {
    note(say('scorm_no_platform'));
    openLesson(lessonId, { lang, onReady() {} });
    return;
  }
  const lms = platform(api);
  const failed = lms.start();
  if (failed) {
    note(say('scorm_refused', { reason: failed }));
    openLesson(lessonId, { lang, onReady() {} });
    return;
  }
  // The platform's language for this learner, when it keeps one (cmi.student_preference.language).
  const wish = lms.get('cmi.student_preference.language');
  if (wish) lang = await loadWords(wish);
  const started = Date.now();
  // lesson_mode "browse" (a look before taking it) or "review" (after): the learner's record and
  // place are kept, but status and score are not the lesson's to change (SCORM 1.2 RTE 3.4.4).
  const mode = lms.get('cmi.core.lesson_mode') || 'normal';
  const judged = mode === 'normal';
  let status = lms.get('cmi.core.lesson_status');
  if (!status || status === 'not attempted') {
    status = judged ? 'incomplete' : mode === 'browse' ? 'browsed' : status;
    if (status) { lms.set('cmi.core.lesson_status', status); lms.commit(); }
  }
  const mastery = lms.get('cmi.student_data.mastery_score');
  const masteryScore = mastery === '' ? null : Number(mastery);
  const saved = unpackRecord(lms.get('cmi.suspend_data'), lessonId);
  const stored = lms.get('cmi.core.lesson_location');
  const location = sectionAnchor(stored);
  if (stored && !location) console.warn('neuralpath: cmi.core.lesson_location is not a section of this lesson; ignored');
  // A record this page cannot use is left in the platform until the learner changes something.
  let keepStored = !!saved.error;
  if (saved.error) {
    note(say('scorm_unreadable', { reason: saved.error }));
    console.warn(`neuralpath: cmi.suspend_data ignored: ${saved.error}`);
  }

  // The record to give the lesson when its frame (re)opens it: the stored one, then the latest.
  let current = saved.record || null;
  // The figures' state (trained models, sentences...) as the lesson keeps it (np-storage.js's
  // 'widgets-kept'), stored beside the record in suspend_data and given back on a relaunch.
  let widgets = saved.widgets || null;
  function storeRecord() {
    if (!current) return false;
    const packed = packRecord(current, undefined, widgets);
    if (packed.error) console.warn(`neuralpath: progress not stored: ${packed.error}`);
    else if (!keepStored) {
      if (packed.dropped.length) console.warn(`neuralpath: cmi.suspend_data is limited to 4096 characters; left out: ${packed.dropped.join(', ')}`);
      lms.set('cmi.suspend_data', packed.data);
      return true;
    }
    return false;
  }
  function report(progress) {
    const record = typeof progress.progress === 'string' ? progress.progress : JSON.stringify(progress.progress);
    current = record;
    storeRecord();
    let section = '';
    try { section = JSON.parse(record).section || ''; } catch { /* no section then */ }
    if (section) lms.set('cmi.core.lesson_location', section.slice(0, 255));
    if (judged) {
      const outcome = lessonOutcome(progress, { previous: status, masteryScore });
      status = outcome.status;
      lms.set('cmi.core.lesson_status', status);
      lms.set('cmi.core.score.min', '0');
      lms.set('cmi.core.score.max', '100');
      lms.set('cmi.core.score.raw', String(outcome.score));
    }
    lms.commit();
  }

  // Each answer is an interaction of its own (SCORM 1.2 keeps a journal: n counts up, never
  // rewrites): a learner's retries show as they happened. Only in normal mode: browse and review
  // change nothing the platform records.
  let interactions = Number.parseInt(lms.get('cmi.interactions._count'), 10);
  if (!Number.isInteger(interactions) || interactions < 0) interactions = 0;
  function reportAnswer(np, answered) {
    if (!judged) return;
    let check = null;
    try { check = np.state().checks.find(c => c.id === answered.check) || null; } catch { /* answered anyway */ }
    for (const [element, value] of scormInteraction(checkInteraction(check, answered), interactions)) lms.set(element, value);
    interactions++;
    lms.commit();
  }

  openLesson(lessonId, {
    lang,
    platform: true,
    section: saved.record ? '' : location,
    onReady(np) {
      let restored = false;
      if (current) {
        try { np.command({ type: 'restore', progress: current }); restored = true; } catch (error) {
          keepStored = true;
          note(say('not_restored', { reason: error.message }));
        }
      }
      if (!restored) {
        // A first visit (or an unusable record): what this browser kept from another visit is
        // not this learner's.
        try { np.command({ type: 'reset' }); } catch (error) { console.warn(`neuralpath: reset refused: ${error.message}`); }
        if (location) { try { np.goto(location); } catch { /* a section that no longer exists */ } }
      }
      if (keepStored) {
        // The learner's first own step (a click, a key, an answer) ends the keeping.
        const release = () => { keepStored = false; };
        const win = document.getElementById('np-lms-lesson')?.contentWindow;
        for (const type of ['pointerdown', 'keydown']) win?.addEventListener(type, release, { capture: true, once: true });
        np.events.addEventListener('answered', release, { once: true });
      }
      if (restored && widgets) {
        try {
          const reply = np.command({ type: 'restoreSnapshot', widgets });
          for (const dropped of reply.dropped || []) console.warn(`neuralpath: figure ${dropped.widget || ''} not restored`);
        } catch (error) { console.warn(`neuralpath: the figures were not restored: ${error.message}`); }
      }
      np.events.addEventListener('widgets-kept', event => {
        widgets = event.detail?.widgets || null;
        if (storeRecord()) lms.commit();
      });
      np.events.addEventListener('answered', event => reportAnswer(np, event.detail));
      np.events.addEventListener('progress', event => report(event.detail));
    },
  });

  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    lms.set('cmi.core.session_time', timespan(Date.now() - started));
    lms.set('cmi.core.exit', 'suspend');
    lms.commit();
    lms.finish();
  };
  window.addEventListener('pagehide', finish);
  window.addEventListener('beforeunload', finish);
}

launch().catch(error => note(String(error?.message || error)));
