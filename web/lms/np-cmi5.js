// cmi5 launch page (an "AU"): reads the launch parameters the platform put on the URL
// (endpoint, fetch, actor, registration, activityId), fetches the auth token, and sends the
// cmi5 statements to the platform's LRS with the learner as actor, through @xapi/cmi5 (npm,
// bundled into the package as lms/vendor/cmi5.umd.js, which defines window.Cmi5).
//
//   initialized   once the session starts (Cmi5.initialize also reads LMS.LaunchData)
//   progressed    when the share of finished work changes (result extension: percent)
//   passed        at completion with every answer right (or the score at the mastery score
//   / failed      the platform set), with the score; one of them per session, passed once per
//                 registration, never failed after passed
//   completed     every section visited and every check answered; once per registration
//   terminated    when the learner leaves (Exit, closing, navigating away)
// "launched" is the platform's statement (it sends it before opening this page), not ours.
// Only a Normal launch sends passed/failed/completed; Browse and Review send none of them.
//
// The learner's record and what was already sent are kept in the LRS's State API (stateId
// below, per registration), so a relaunch resumes and never repeats a once-only statement.
import { launchedLesson, note, openLesson } from './np-lms-frame.js';
import { lessonOutcome } from './np-lms-record.js';
import { say } from './np-lms-words.js';

const STATE_ID = 'urn:neuralpath:state:progress';
const exitButton = () => document.getElementById('np-lms-exit');

async function launch() {
  const lessonId = launchedLesson();
  if (!lessonId) { note(say('launch.no-lesson')); return; }
  const Cmi5 = window.Cmi5;
  if (!Cmi5 || !Cmi5.isCmiAvailable) {
    note(say('cmi5.no-platform'));
    openLesson(lessonId, { onReady() {} });
    return;
  }
  const cmi5 = new Cmi5();
  try {
    await cmi5.initialize();
  } catch (error) {
    // A cmi5 launch link works once: a reloaded page lands here too.
    note(say('cmi5.refused', { reason: error.message }));
    openLesson(lessonId, { onReady() {} });
    return;
  }
  const params = cmi5.getLaunchParameters();
  const launchData = cmi5.getLaunchData();
  const normal = launchData.launchMode === 'Normal';
  const mastery = Number.isFinite(launchData.masteryScore) ? 100 * launchData.masteryScore : null;   // on the 0..100 scale
  const where = { agent: params.actor, activityId: params.activityId, stateId: STATE_ID, registration: params.registration };

  // [SECTION] The kept state: the learner's record and the once-only statements sent ----------
  let kept = { record: null, sent: {} };
  try {
    const stored = (await cmi5.xapi.getState(where)).data;
    const value = typeof stored === 'string' ? JSON.parse(stored) : stored;
    if (value && typeof value === 'object') kept = { record: value.record ?? null, sent: value.sent || {} };
  } catch (error) {
    if (error?.response?.status !== 404) console.warn(`neuralpath: the kept state could not be read: ${error.message}`);
  }
  let saving = Promise.resolve();
  const save = () => {
    const state = { record: kept.record, sent: kept.sent };
    saving = saving.then(() => cmi5.xapi.setState({ ...where, state }))
      .catch(error => console.warn(`neuralpath: state not saved: ${error.message}`));
  };

  // [SECTION] Statements in order ----------------------------------------------------------------
  // One queue, so the LRS receives them in the order the learner caused them.
  let queue = Promise.resolve();
  let terminated = false;
  // Closing the page sends terminated at once (it cannot wait for the queue); a statement still
  // waiting in the queue then is dropped, so nothing reaches the LRS after terminated.
  let closing = false;
  const send = (what, call) => {
    if (terminated) return queue;
    queue = queue.then(() => (closing ? undefined : call()))
      .catch(error => console.warn(`neuralpath: '${what}' not sent: ${error.message}`));
    return queue;
  };
  let lastPercent = -1;
  let judgedThisSession = false;   // passed or failed sent in this session
  function report(np, progress) {
    kept.record = progress.progress;
    // Share of the work done: sections visited and checks answered (right or not); the engine's
    // own figure when its event carries one.
    let percent = Number(progress.percent);
    if (!Number.isFinite(percent)) {
      const summary = np.state()?.progress?.summary || {};
      const parts = (Number(summary.sections) || 0) + (Number(summary.checks) || 0);
      const done = (Number(summary.visited) || 0) + (Number(summary.answered) || 0);
      percent = parts > 0 ? (100 * done) / parts : 0;
    }
    percent = progress.completed ? 100 : Math.max(0, Math.min(99, Math.round(percent)));
    if (percent !== lastPercent && !progress.completed) {
      lastPercent = percent;
      send('progressed', () => cmi5.progress(percent));
    }
    const outcome = lessonOutcome(progress, { masteryScore: mastery });
    if (normal && outcome.completed) {
      const score = { scaled: outcome.score / 100, raw: outcome.score, min: 0, max: 100 };
      // cmi5 9.3: one of passed/failed per session, passed once per registration, no failed
      // after passed. A retry that turns a failed lesson into a pass is sent at the next launch.
      if (!judgedThisSession && !kept.sent.passed && outcome.status === 'passed') {
        judgedThisSession = kept.sent.passed = true;
        send('passed', () => cmi5.pass(score));
      } else if (!judgedThisSession && !kept.sent.passed && outcome.status === 'failed') {
        judgedThisSession = true;
        send('failed', () => cmi5.fail(score));
      }
      if (!kept.sent.completed) {
        kept.sent.completed = true;
        lastPercent = 100;
        send('completed', () => cmi5.complete());
      }
    }
    save();
  }

  openLesson(lessonId, {
    onReady(np) {
      let restored = false;
      if (kept.record) {
        try { np.command({ type: 'restore', progress: kept.record }); restored = true; } catch (error) {
          note(say('launch.not-restored', { reason: error.message }));
        }
      }
      if (!restored) {   // this browser's own copy is not this learner's
        try { np.command({ type: 'reset' }); } catch (error) { console.warn(`neuralpath: reset refused: ${error.message}`); }
      }
      np.events.addEventListener('progress', event => report(np, event.detail));
    },
  });

  // [SECTION] Leaving ------------------------------------------------------------------------------
  // Exit: terminated through the library, then back to the platform (returnURL) if it gave one.
  // Closing or navigating away: the page cannot wait for the library's request, so the same
  // statement (built by the library) goes out with fetch's keepalive, which outlives the page.
  const exit = exitButton();
  exit.textContent = say('cmi5.exit');
  exit.hidden = false;
  let exiting = false;   // Exit's terminated is on its way: closing the page must not send a second
  exit.addEventListener('click', async () => {
    exit.disabled = true;
    exiting = true;
    await send('terminated', () => cmi5.terminate());
    terminated = true;
    await saving;
    if (launchData.returnURL) window.location.assign(launchData.returnURL);
    else note(say('cmi5.left'));
  });
  window.addEventListener('pagehide', () => {
    if (terminated || exiting) return;
    terminated = true;
    closing = true;
    const endpoint = params.endpoint.replace(/\/?$/, '/');
    cmi5.sendXapiStatement = statement => fetch(`${endpoint}statements`, {
      method: 'POST', keepalive: true, body: JSON.stringify(statement),
      headers: { 'Content-Type': 'application/json', Authorization: `Basic ${cmi5.getAuthToken()}`,
        'X-Experience-API-Version': '1.0.3' },
    });
    cmi5.terminate().catch(() => {});
  });
}

launch().catch(error => note(say('cmi5.failed-start', { reason: error.message })));
