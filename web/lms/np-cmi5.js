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
//   answered      each answer to a check: choices, response, correct pattern, success
//   achieved / interacted / experienced
//                 the simulation actions of np-interactions.js's list (docs/lms.md)
// "launched" is the platform's statement (it sends it before opening this page), not ours.
// Only a Normal launch sends passed/failed/completed; Browse and Review send none of them.
//
// The learner's record and what was already sent are kept in the LRS's State API (stateId
// below, per registration), so a relaunch resumes and never repeats a once-only statement.
// Whatever the platform and its LRS hand this page is checked first (np-lms-inputs.js).
import { launchedLesson, note, openLesson } from './np-lms-frame.js';
import { keptState, webAddress } from './np-lms-inputs.js';
import { lessonOutcome } from './np-lms-record.js';
import { checkInteraction, simulationStatement, SIMULATION_EVENTS, xapiInteraction } from './np-interactions.js';
import { loadWords, say } from './np-lms-words.js';

const STATE_ID = 'urn:neuralpath:state:progress';
const exitButton = () => document.getElementById('np-lms-exit');

async function launch() {
  let lang = await loadWords();
  const lessonId = launchedLesson();
  if (!lessonId) { note(say('no_lesson')); return; }
  const Cmi5 = window.Cmi5;
  if (!Cmi5 || !Cmi5.isCmiAvailable) {
    note(say('cmi5_no_platform'));
    openLesson(lessonId, { lang, onReady() {} });
    return;
  }
  const launchParameters = new URLSearchParams(location.search);
  if (!webAddress(launchParameters.get('endpoint')) || !webAddress(launchParameters.get('fetch'))) {
    note(say('cmi5_bad_endpoint'));
    openLesson(lessonId, { lang, onReady() {} });
    return;
  }
  const cmi5 = new Cmi5();
  try {
    await cmi5.initialize();
  } catch (error) {
    // A cmi5 launch link works once: a reloaded page lands here too.
    note(say('cmi5_refused', { reason: error.message }));
    openLesson(lessonId, { lang, onReady() {} });
    return;
  }
  // The platform's language for this learner (cmi5 11.0: the learner preferences) comes first.
  const wish = cmi5.getLearnerPreferences()?.languagePreference;
  if (typeof wish === 'string' && wish) lang = await loadWords(wish);
  const params = cmi5.getLaunchParameters();
  const launchData = cmi5.getLaunchData();
  const normal = launchData.launchMode === 'Normal';
  const mastery = Number.isFinite(launchData.masteryScore) ? 100 * launchData.masteryScore : null;   // on the 0..100 scale
  const where = { agent: params.actor, activityId: params.activityId, stateId: STATE_ID, registration: params.registration };

  // [SECTION] The kept state: the learner's record and the once-only statements sent ----------
  let kept = { record: null, sent: {}, widgets: null };
  try {
    const stored = (await cmi5.xapi.getState(where)).data;
    kept = keptState(typeof stored === 'string' ? JSON.parse(stored) : stored);
  } catch (error) {
    if (error?.response?.status !== 404) console.warn(`neuralpath: the kept state could not be read: ${error.message}`);
  }
  let saving = Promise.resolve();
  const save = () => {
    const state = { record: kept.record, sent: kept.sent, widgets: kept.widgets };
    saving = saving.then(() => cmi5.xapi.setState({ ...where, state }))
      .catch(error => console.warn(`neuralpath: state not saved: ${error.message}`));
  };

  // [SECTION] Statements in order ----------------------------------------------------------------
  // One at a time, so the LRS receives them in the order the learner caused them. Each statement
  // is built when it happens (the library's builders run with its POST held back: `building`),
  // and `waiting` holds those not yet answered. The first one is on its way, or waiting to be
  // tried again:
  //   - no answer, a timeout, 408, 429 or a 5xx: tried again after RETRY_MS[try] (the same
  //     statement, same id, so an LRS that stored it the first time stores nothing twice);
  //   - any other refusal (400, 403, 409...): that statement alone is given up (the console says
  //     which and why; the note line counts them) and the next one goes.
  // So a platform that rejects one statement never loses the others. A closing page cannot wait
  // for them: its pagehide handler (below) sends those waiting and terminated in one request.
  const RETRY_MS = [500, 2000, 8000, 30000];
  const waiting = [];             // {what, statement, tries, done}
  let sending = false;            // the pump works on waiting[0]
  let onItsWay = false;           // ... and its request has no answer yet
  let terminated = false;         // terminated is sent or waiting: nothing may follow it
  let closing = false;            // the page is closing: pagehide sent what waited
  let building = null;            // while a builder runs: the statements it made
  let refused = 0;
  const libraryPost = cmi5.sendXapiStatement.bind(cmi5);
  cmi5.sendXapiStatement = (statement, options) => {
    const built = options && typeof options.transform === 'function' ? options.transform(statement) : statement;
    if (building) { building.push(built); return Promise.resolve([built.id]); }
    return libraryPost(built);
  };
  const build = call => {
    const made = building = [];
    try { call(); } finally { building = null; }
    return made;
  };
  const retryable = error => {
    const status = error?.response?.status;
    return !status || status === 408 || status === 429 || status >= 500;
  };
  const pause = ms => new Promise(done => setTimeout(done, ms));
  async function pump() {
    if (sending || closing || !waiting.length) return;
    sending = true;
    const next = waiting[0];
    for (;;) {
      onItsWay = true;
      let failure = null;
      try { await libraryPost(next.statement); } catch (error) { failure = error; }
      onItsWay = false;
      if (closing) { sending = false; return; }   // pagehide took the rest; this one had gone
      if (!failure) break;
      const status = failure?.response?.status;
      if (retryable(failure) && next.tries < RETRY_MS.length) {
        console.warn(`neuralpath: '${next.what}' not answered (${status || failure.message}); trying again`);
        await pause(RETRY_MS[next.tries++]);
        if (closing) { sending = false; return; }   // sent with the closing request instead
        continue;
      }
      refused++;
      console.warn(`neuralpath: the platform did not accept '${next.what}' (${status || failure.message}); going on without it`);
      note(say('cmi5_not_recorded', { n: refused }));
      break;
    }
    waiting.shift();
    sending = false;
    next.done();
    pump();
  }
  // Resolves once the statements are answered (or given up: a warning says so).
  const send = (what, call) => {
    if (terminated) return Promise.resolve();
    let statements;
    try { statements = build(call); } catch (error) {
      console.warn(`neuralpath: '${what}' not sent: ${error.message}`);
      return Promise.resolve();
    }
    return Promise.all(statements.map(statement => new Promise(done => {
      waiting.push({ what, statement, tries: 0, done });
      pump();
    })));
  };

  // [SECTION] What the learner does: checks answered, simulation actions (np-interactions.js)
  const newId = () => (crypto.randomUUID ? crypto.randomUUID() : ([1e7] + -1e3 + -4e3 + -8e3 + -1e11)
    .replace(/[018]/g, c => (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16)));
  // A statement of ours with the context cmi5 asks of every statement in a session (the launch
  // data's context template, the registration), as the library builds its own.
  const allowedStatement = body => ({ id: newId(), actor: params.actor, timestamp: new Date().toISOString(),
    context: { ...launchData.contextTemplate, registration: params.registration }, ...body });
  function reportAnswer(np, answered) {
    let check = null;
    try { check = np.state().checks.find(c => c.id === answered.check) || null; } catch { /* answered anyway */ }
    const interaction = checkInteraction(check, answered);
    const { definition, response, success } = xapiInteraction(interaction, lang);
    send('answered', () => cmi5.interaction(lessonId, encodeURIComponent(interaction.id), response, definition, success));
  }
  const playbackEnded = new Map();   // widget -> its last 'playback' event said finished
  function reportAction(np, event) {
    if (event.type === 'playback') {   // once per time it reaches its end, not on every pause there
      const was = playbackEnded.get(event.widget);
      playbackEnded.set(event.widget, event.finished === true);
      if (was === true) return;
    }
    const body = simulationStatement(event, { activityId: params.activityId, lang, title: np.state()?.title || lessonId });
    if (body) send(event.type, () => cmi5.sendXapiStatement(allowedStatement(body)));
  }

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
    // After terminated (Exit, or back from the history) nothing is sent, so nothing is marked
    // sent either: the next launch sends what the learner earned since.
    if (normal && outcome.completed && !terminated) {
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
    lang,
    platform: true,
    onReady(np) {
      let restored = false;
      if (kept.record) {
        try { np.command({ type: 'restore', progress: kept.record }); restored = true; } catch (error) {
          note(say('not_restored', { reason: error.message }));
        }
      }
      if (!restored) {   // this browser's own copy is not this learner's
        try { np.command({ type: 'reset' }); } catch (error) { console.warn(`neuralpath: reset refused: ${error.message}`); }
      }
      // The figures (trained models, sentences...) this learner left, kept with the platform.
      if (kept.widgets) {
        try {
          const reply = np.command({ type: 'restoreSnapshot', widgets: kept.widgets });
          for (const dropped of reply.dropped || []) console.warn(`neuralpath: figure ${dropped.widget || ''} not restored`);
        } catch (error) { console.warn(`neuralpath: the figures were not restored: ${error.message}`); }
      }
      np.events.addEventListener('widgets-kept', event => {
        kept.widgets = event.detail?.widgets || null;
        save();
      });
      np.events.addEventListener('progress', event => report(np, event.detail));
      np.events.addEventListener('answered', event => reportAnswer(np, event.detail));
      for (const type of SIMULATION_EVENTS) np.events.addEventListener(type, event => reportAction(np, event.detail));
    },
  });

  // [SECTION] Leaving ------------------------------------------------------------------------------
  // Exit: terminated through the library, then back to the platform (returnURL) if it gave one.
  // Closing or navigating away (pagehide): the page cannot wait for replies, so the statements
  // still waiting go out with terminated in one request with fetch's keepalive, which outlives
  // the page, and the kept state in another.
  // - A statement already on its way (sent, no reply yet) is not sent again: xAPI lets an LRS
  //   answer a known statement id with 409, and a strict one would then refuse the whole request,
  //   terminated and all. Sent before the closing request, it nearly always arrives first.
  // - Chromium gives a closing tab's pagehide handler one second: a page busy for longer is
  //   closed without it, and the platform marks the session abandoned, as cmi5 expects.
  const exit = exitButton();
  exit.textContent = say('cmi5_exit');
  exit.hidden = false;
  exit.addEventListener('click', async () => {
    exit.disabled = true;
    const sent = send('terminated', () => cmi5.terminate());
    terminated = true;
    await sent;
    await saving;
    const back = webAddress(launchData.returnURL);
    if (back) window.location.assign(back);
    else {
      if (launchData.returnURL) console.warn('neuralpath: returnURL is not a web address; not followed');
      note(say(launchData.returnURL ? 'cmi5_left_no_return' : 'cmi5_left'));
    }
  });
  const endpoint = webAddress(params.endpoint).replace(/\/?$/, '/');
  const keepalive = (path, method, body) => fetch(`${endpoint}${path}`, {
    method, keepalive: true, body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Authorization: `Basic ${cmi5.getAuthToken()}`,
      'X-Experience-API-Version': '1.0.3' },
  }).catch(() => {});
  window.addEventListener('pagehide', () => {
    if (closing) return;
    closing = true;
    // The waiting statements, less the one on its way (if one is) and, of the progress reports,
    // all but the last, which says it all (keepalive requests are limited to 64 KiB).
    const left = waiting.splice(0);
    if (sending && onItsWay) left.shift()?.done();
    const lastProgress = left.findLastIndex(next => next.what === 'progressed');
    const statements = left.filter((next, i) => next.what !== 'progressed' || i === lastProgress).map(next => next.statement);
    for (const next of left) next.done();
    if (!terminated) {
      terminated = true;
      try { statements.push(...build(() => cmi5.terminate())); } catch (error) { console.warn(`neuralpath: terminated not sent: ${error.message}`); }
    }
    if (statements.length) keepalive('statements', 'POST', statements);
    const query = new URLSearchParams({ activityId: where.activityId, agent: JSON.stringify(where.agent),
      stateId: where.stateId, registration: where.registration });
    keepalive(`activities/state?${query}`, 'PUT', { record: kept.record, sent: kept.sent, widgets: kept.widgets });
  });
  // Back to this page from the browser's history (its back-forward cache): the session ended
  // with terminated when the page was left, and what the learner does now is not recorded.
  window.addEventListener('pageshow', event => {
    if (!event.persisted || !closing) return;
    exit.disabled = true;
    note(say('cmi5_ended'));
  });
}

launch().catch(error => note(say('cmi5_failed_start', { reason: error.message })));
