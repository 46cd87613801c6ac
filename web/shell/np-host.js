// The lesson inside a course site's iframe: talks to the embedding page with postMessage.
//
//   to the parent   {source: "neuralpath", type, ...}
//     ready      {lesson, title, sections: [{anchor, title, level}], height}
//     resize     {height}                 CSS pixels of the whole page; sent whenever it changes
//     section    {section, title}
//     answered   {check, option, correct, score, attempts, statement}
//     progress   {progress, completed_checks, total_checks, statement}   (progress: the saved
//                record, for the host's LMS to store and pass back with "restore")
//     completed  {score, success, statement}
//   statements are xAPI-shaped (actor left to the host): verbs answered / progressed / completed
//   (ADL verb IRIs), the lesson or check as an Activity with a URL id, and a result.
//
//   from the parent {target: "neuralpath", type, ...}, obeyed only from an allowed origin (see
//   below) and only in these shapes:
//     goto {section}   play {}   pause {}   setSentence {text, widget?}   restore {progress}
//   Anything else is ignored with a console warning; it is never run.
//   Layout (same origin rule): viewport {top, height}, the part of this frame on the host's
//   screen (embed.js sends it as the host scrolls); the lesson may answer with
//   scroll {top}: please scroll the frame so that this offset is at the top of the screen.
//
// Allowed origins are set by the site that serves the lessons, never by the framer: this site's
// own origin plus the ones in its site-config.json (`./neuralpath serve|dist --allow-origin`).
// A framer's allow= parameter (comma-separated origins) can only narrow that list. Learner data
// (answers, progress, completion) goes only to allowed origins; ready, resize and section go to
// any parent, so a page that frames the lesson uninvited can size the frame and learns nothing
// about the learner. (The server's frame-ancestors policy keeps uninvited framers out as well.)
//
// In embed mode (embed=1) the page sizes its canvas to the lesson's content height (the
// engine's state().content_height), so the frame shows it all with no inner scrollbar.
//
// [SECTION] Parameters and allowed origins
// [SECTION] Sending
// [SECTION] xAPI statements
// [SECTION] Receiving commands
// [SECTION] Content height (embed mode)
// [SECTION] Engine events -> messages

import { checkInteraction, xapiInteraction } from './np-interactions.js';

const np = window.neuralpath;
const framed = window.parent !== window;
const embedded = np.params.embed;

// [SECTION] Parameters and allowed origins ------------------------------------------------------

function parseAllowed(value) {
  const origins = [];
  for (const entry of String(value || '').split(',').map(s => s.trim()).filter(Boolean).slice(0, 20)) {
    let url = null;
    try { url = new URL(entry); } catch { /* reported below */ }
    if (url && (url.protocol === 'https:' || url.protocol === 'http:') && url.origin !== 'null') origins.push(url.origin);
    else console.warn(`neuralpath: allow= entry "${entry.slice(0, 80)}" is not an http(s) origin; ignored`);
  }
  return origins;
}
const allowParam = new URLSearchParams(location.search).get('allow');
const framerAllowed = allowParam === null ? null : parseAllowed(allowParam);
let siteAllowed = null;    // the serving site's list (with its own origin), once read
let allowed = [];          // siteAllowed, narrowed by allow=: who gets learner data and may command

// Fetched fresh each time (no-cache): a site that changes its list takes effect on the next load.
const siteConfig = fetch('site-config.json', { cache: 'no-cache' })
  .then(response => (response.ok ? response.json() : {}))
  .catch(() => ({}))
  .then(config => {
    const listed = Array.isArray(config?.allowOrigins) ? config.allowOrigins.map(String) : [];
    siteAllowed = [...new Set([location.origin, ...parseAllowed(listed.join(','))])];
    allowed = framerAllowed ? siteAllowed.filter(o => framerAllowed.includes(o)) : siteAllowed;
    for (const origin of framerAllowed || [])
      if (!siteAllowed.includes(origin))
        console.warn(`neuralpath: allow= names ${origin}, which this lesson site does not allow ` +
          '(the site sets that list: ./neuralpath serve|dist --allow-origin); it gets no learner data');
  });

// [SECTION] Sending -------------------------------------------------------------------------------

const heldBack = [];   // learner data posted before the site's list was read (sent in order after)
siteConfig.then(() => { for (const [type, fields] of heldBack.splice(0)) post(type, fields, { personal: true }); });

function post(type, fields = {}, { personal = false } = {}) {
  if (!framed) return;
  if (personal && !siteAllowed) { heldBack.push([type, fields]); return; }
  const message = { source: 'neuralpath', type, lesson: np.params.lesson, ...fields };
  // postMessage delivers only when targetOrigin matches the parent, so learner data goes to the
  // parent's origin where the browser tells it (location.ancestorOrigins: Chromium, Safari) and
  // that origin is allowed; elsewhere once per allowed origin (only the parent's own arrives, and
  // the browser logs an error for each of the others). The rest goes to any parent.
  const parentOrigin = location.ancestorOrigins?.[0];
  const targets = !personal ? ['*'] : parentOrigin ? allowed.filter(origin => origin === parentOrigin) : allowed;
  for (const origin of targets) {
    try { window.parent.postMessage(message, origin); } catch (error) {
      console.warn(`neuralpath: could not post '${type}' to ${origin}: ${error.message}`);
    }
  }
}

// [SECTION] xAPI statements -------------------------------------------------------------------------

const VERBS = {
  answered: 'http://adlnet.gov/expapi/verbs/answered',
  progressed: 'http://adlnet.gov/expapi/verbs/progressed',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
};
// cmi5's progress extension: percent complete, an integer 0..100.
const PROGRESS_EXTENSION = 'https://w3id.org/xapi/cmi5/result/extensions/progress';

const lessonIri = `${location.origin}${location.pathname}?lesson=${encodeURIComponent(np.params.lesson)}`;

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();   // secure contexts only
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map(x => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// Names are in the page's language (an xAPI language map keyed by it: {"es": ...}).
const pageLang = () => np.params.lang || 'en';

function lessonActivity(state) {
  return { objectType: 'Activity', id: lessonIri, definition: {
    type: 'http://adlnet.gov/expapi/activities/lesson',
    name: { [pageLang()]: state?.title || np.params.lesson } } };
}

// A check and its answer as the learning platforms get them (np-interactions.js, docs/lms.md):
// the choices as letters in the lesson's order, the right ones as the correct pattern, and the
// learner's response in the same letters, whatever order this learner saw them in.
function checkAnswer(state, answered) {
  const check = (state?.checks || []).find(c => c.id === answered.check) || null;
  const { definition, response, success } = xapiInteraction(checkInteraction(check, answered), pageLang());
  return { object: { objectType: 'Activity', id: `${lessonIri}#check-${encodeURIComponent(answered.check)}`, definition },
    result: { success, response } };
}

function statement(verb, object, result, state) {
  const s = {
    id: uuid(),
    timestamp: new Date().toISOString(),
    verb: { id: VERBS[verb], display: { 'en-US': verb } },
    object,
    result,
  };
  if (object.id !== lessonIri) s.context = { contextActivities: { parent: [lessonActivity(state)] } };
  return s;
}

// Scores are clamped to xAPI's scaled range; a missing one is left out rather than invented.
const scaled = value => (Number.isFinite(value) ? { scaled: Math.max(-1, Math.min(1, value)) } : undefined);

// [SECTION] Receiving commands ------------------------------------------------------------------------

const str = (min, max) => v => typeof v === 'string' && v.length >= min && v.length <= max;
const progressValue = v => {
  if (typeof v === 'string') return v.length > 0 && v.length <= 100_000;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  try { return JSON.stringify(v).length <= 100_000; } catch { return false; }
};
// type -> {field: validator}, required fields first; fields ending in "?" are optional.
const SHAPES = {
  goto: { section: str(1, 128) },
  play: {},
  pause: {},
  setSentence: { text: str(1, 500), 'widget?': str(1, 64) },
  restore: { progress: progressValue },
  // Layout, not learning: which part of this frame the host shows (embed.js sends it on scroll).
  viewport: { top: v => Number.isFinite(v) && Math.abs(v) <= 1e7, height: v => Number.isFinite(v) && v > 0 && v <= 1e5 },
};

const warned = new Map();
function ignore(origin, reason) {
  const count = (warned.get(reason) || 0) + 1;
  warned.set(reason, count);
  if (count <= 3) console.warn(`neuralpath: ignored a message from ${origin}: ${reason}`);
}

// Returns the command to run, or why the message is refused.
function validate(data) {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { error: 'not an object' };
  if (data.target !== 'neuralpath') return { error: 'not addressed to neuralpath (target)' };
  const shape = Object.hasOwn(SHAPES, data.type) ? SHAPES[data.type] : null;
  if (!shape) return { error: `unknown type ${JSON.stringify(String(data.type)).slice(0, 40)}` };
  const command = { type: data.type };
  const known = new Set(['target', 'type']);
  for (const [spec, check] of Object.entries(shape)) {
    const optional = spec.endsWith('?');
    const name = optional ? spec.slice(0, -1) : spec;
    known.add(name);
    if (!Object.hasOwn(data, name) || data[name] === undefined) {
      if (optional) continue;
      return { error: `'${data.type}' needs '${name}'` };
    }
    if (!check(data[name])) return { error: `'${data.type}': '${name}' has the wrong type or length` };
    command[name] = data[name];
  }
  const extra = Object.keys(data).filter(k => !known.has(k));
  if (extra.length) return { error: `'${data.type}' does not take ${extra.slice(0, 3).join(', ')}` };
  return { command };
}

let engineReady = false;
const waiting = [];   // commands that came before the lesson was ready (at most a few)

function run(command, origin) {
  if (command.type === 'goto') lastAsked = gotoAsked = performance.now();
  if (command.type === 'restore') restoring = true;   // the progress it causes is not the learner's
  try {
    const reply = np.command(command);
    if (Array.isArray(reply?.dropped) && reply.dropped.length)
      console.warn(`neuralpath: '${command.type}' from ${origin} used part of the record; left out: ${reply.dropped.join('; ')}`);
  } catch (error) {
    console.warn(`neuralpath: '${command.type}' from ${origin} was refused: ${error.message}`);
  }
}

const early = [];   // messages that came before the site's list was read (at most a few)
siteConfig.then(() => { for (const event of early.splice(0)) receive(event); });

window.addEventListener('message', event => {
  if (event.source === window) return;   // our own posts (none expected), never commands
  if (!siteAllowed) { if (early.length < 16) early.push(event); return; }
  receive(event);
});

function receive(event) {
  if (!allowed.includes(event.origin)) {
    ignore(event.origin, !siteAllowed.includes(event.origin)
      ? 'its origin is not one this lesson site allows (./neuralpath serve|dist --allow-origin)'
      : 'its origin is not in allow=');
    return;
  }
  if (event.source !== window.parent) { ignore(event.origin, 'it did not come from the embedding page'); return; }
  const { command, error } = validate(event.data);
  if (error) { ignore(event.origin, error); return; }
  if (command.type === 'viewport') { hostViewport(command); return; }
  if (engineReady) run(command, event.origin);
  else if (waiting.length < 16) waiting.push([command, event.origin]);
  else ignore(event.origin, 'too many commands before the lesson was ready');
}

// [SECTION] Content height (embed mode) -----------------------------------------------------------------
// The page is as tall as the lesson (the engine's layout.content_height), so the host scrolls it
// like any other content: no inner scrollbar, nothing cut off; its total height goes to the
// parent in 'resize'.
//
// A canvas that tall would pass WebGL's largest drawing buffer (8192 device px on many GPUs)
// and draw far more than anyone sees. So when the host says which part of the frame is on
// screen ('viewport', sent by embed.js as its page scrolls), the canvas covers just that part
// and a margin (a "window"), and the engine's page is scrolled to the window's top: the learner
// sees one long page. When the engine scrolls by itself (a link in its contents, goto), the
// window follows and the host is asked to scroll there ('scroll' message).
// Without viewport messages (a hand-made iframe) the canvas is as tall as WebGL allows and the
// engine scrolls what is left inside it.

const stage = document.getElementById('np-stage');
const canvas = document.getElementById('canvas');
let lastHeight = 0;
let stageHeight = 0;
let engineScrolls = true;   // the engine's page scrolls inside the canvas (wheel goes to it)
let view = null;            // the host's viewport in frame coordinates {top, height}
let win = null;             // the canvas window {top, height} in stage coordinates, when following
let movedAt = 0;            // when the window last moved (the engine catches up a frame later)
let lastEngineScroll = null;
let lastAsked = -Infinity;  // when the learner last clicked or typed in the lesson, or the host sent goto
let gotoAsked = -Infinity;  // when a goto came that the host's page has not followed yet
for (const type of ['pointerdown', 'keydown']) window.addEventListener(type, () => { lastAsked = performance.now(); }, true);
np.events.addEventListener('goto', () => { lastAsked = gotoAsked = performance.now(); });   // the page's own API

function maxCanvasCss() {
  let limit = 8192;
  try {
    const gl = canvas.getContext('webgl2');   // the engine's context (same canvas, same type)
    if (gl) limit = Math.min(gl.getParameter(gl.MAX_RENDERBUFFER_SIZE), gl.getParameter(gl.MAX_VIEWPORT_DIMS)[1]);
  } catch { /* keep the conservative limit */ }
  return Math.floor(limit / (window.devicePixelRatio || 1));
}

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

// Through the stylesheet, not canvas.style: Emscripten resets the canvas's inline size.
function setWindowStyle() {
  document.documentElement.style.setProperty('--np-canvas-top', `${win.top}px`);
  document.documentElement.style.setProperty('--np-canvas-height', `${win.height}px`);
}

// "placed": the canvas moved over another part of the page, which is no scroll of the learner's
// (a section a goto went to stays the current one).
function scrollEngine(top) {
  try { np.command({ type: 'scroll', to: top, placed: true }); } catch (error) { console.warn(`neuralpath: ${error.message}`); }
}

// The engine reads the current section from the band of the canvas the learner sees (the host's
// viewport), not from the canvas's top, which lies a margin above it (#15: at the foot of a
// host's page the last section never became current, so an embedded lesson read to its end
// never completed). A band that moved on the page while the host was not asked to scroll is the
// learner scrolling the host's page: it ends a goto's hold on the section.
let hostScrollAskedAt = -Infinity;  // when the host was last asked to scroll (a goto, a contents link)
let lastBand = null;
function tellVisible() {
  if (!view || !win || !engineReady || stageHeight <= 0) return;
  const { visTop, visBottom } = visiblePart();
  const band = { top: Math.round(visTop - win.top), height: Math.round(visBottom - visTop), at: Math.round(visTop) };
  if (lastBand && band.top === lastBand.top && band.height === lastBand.height && band.at === lastBand.at) return;
  const learner = lastBand !== null && Math.abs(band.at - lastBand.at) >= 2 && performance.now() - hostScrollAskedAt > 1500;
  lastBand = band;
  try { np.command({ type: 'visible', top: band.top, height: band.height, learner }); } catch (error) {
    console.warn(`neuralpath: ${error.message}`);
  }
}

// The part of the stage inside the host's viewport, in stage coordinates.
function visiblePart() {
  const offset = stage.getBoundingClientRect().top + window.scrollY;
  return { visTop: clamp(view.top - offset, 0, stageHeight), visBottom: clamp(view.top + view.height - offset, 0, stageHeight) };
}

// Puts the canvas over the visible part of the stage (plus a margin), moving it only when the
// visible part leaves it, so most scrolling moves nothing at all.
function placeWindow() {
  if (!view || !win || stageHeight <= 0) return;
  // A goto the window has not followed yet: moving the window now would scroll the engine back
  // from where the goto took it (followEngine brings the window and the host's page there).
  if (performance.now() - gotoAsked < 3000) return;
  const { visTop, visBottom } = visiblePart();
  const height = Math.min(stageHeight, maxCanvasCss(), Math.max(480, Math.ceil(view.height * 1.6)));
  let top = win.top;
  if (height !== win.height || visTop < top || visBottom > top + height || top + height > stageHeight)
    top = clamp(Math.round(visTop - (height - (visBottom - visTop)) / 2), 0, stageHeight - height);
  if (top === win.top && height === win.height) return;
  win = { top, height };
  setWindowStyle();
  movedAt = performance.now();
  scrollEngine(top);   // the engine's page scrolled to the window's top: content stays in place
}

// The engine scrolled itself (its contents, goto): once it settles, the window goes there and
// the host is asked to bring that place into view. Right after a window move the engine may lag
// a frame (its scroll range follows the canvas size), so the window's own position is re-sent.
function followEngine(state) {
  const scroll = Number(state?.layout?.scroll);
  if (!win || !Number.isFinite(scroll) || Math.abs(scroll - win.top) < 1) { lastEngineScroll = null; return; }
  // ...unless the learner or the host asked the engine to go somewhere since the window moved:
  // re-sending then would undo that goto's glide, and the host page would never follow it.
  // A goto not yet followed is never undone, even when the window moved since (the host's page
  // shifting a little as the frame resizes moved it, and the goto was lost).
  const goingTo = performance.now() - gotoAsked < 3000;
  if (!goingTo && performance.now() - movedAt < 400 && lastAsked < movedAt) { scrollEngine(win.top); return; }
  if (lastEngineScroll === null || Math.abs(lastEngineScroll - scroll) >= 1) { lastEngineScroll = scroll; return; }
  lastEngineScroll = null;
  // Only the learner (a click or key in the lesson) or the host (goto) may move the host's
  // page; anything else (a restored position, say) leaves the page where the learner put it.
  if (performance.now() - lastAsked > 3000) { scrollEngine(win.top); return; }
  const top = clamp(Math.round(scroll), 0, Math.max(0, stageHeight - win.height));
  win = { top, height: win.height };
  setWindowStyle();
  movedAt = performance.now();
  if (Math.abs(top - scroll) >= 1) scrollEngine(top);
  const offset = stage.getBoundingClientRect().top + window.scrollY;
  hostScrollAskedAt = performance.now();
  gotoAsked = -Infinity;
  post('scroll', { top: Math.round(offset + scroll) });
  tellVisible();
}

function hostViewport({ top, height }) {
  view = { top, height };
  if (!embedded) return;
  if (!win) {   // from now on the canvas follows the host's viewport
    win = { top: -1, height: 0 };
    document.documentElement.classList.add('np-follow');
    engineScrolls = false;
    // The host's page scrolls now, with its own scrollbar: the engine draws no thumb of its own.
    try { np.command({ type: 'scrollThumb', shown: false }); } catch (error) { console.warn(`neuralpath: ${error.message}`); }
    fitStage(engineReady ? np.state() : null);
  }
  placeWindow();
  tellVisible();
}

// Until a host says which part of the frame is on screen (embed.js's 'viewport'), the frame may
// be a hand-made iframe of fixed height with nobody to resize it: the stage is then no taller
// than the frame's own window, and the engine scrolls the lesson inside it, as on its own page
// (#15 walk: a stage as tall as the lesson left all past the canvas's 8192 px out of reach).
// The height reported to the host is still the whole lesson's, so that embed.js can size the
// frame to it, and from then on the stage is as tall as the frame.
let contentHeight = 0;
function fitStage(state) {
  const content = Number(state?.layout?.content_height ?? state?.content_height);
  if (!win) engineScrolls = Number(state?.layout?.scroll_max) > 1;
  if (!Number.isFinite(content) || content <= 0) return;
  contentHeight = Math.ceil(content);
  // Framed, the stage is at most the frame's window less what sits above it (the lesson tools),
  // so the frame's own page does not scroll as well. Opened on its own, not framed, the embed
  // page grows with the lesson and scrolls as a page.
  const above = stage.getBoundingClientRect().top + window.scrollY;
  const frameRoom = framed ? Math.floor((window.innerHeight || 0) - above) : Infinity;
  const height = Math.max(240, win ? contentHeight : Math.min(contentHeight, maxCanvasCss(), frameRoom));
  if (Math.abs(height - stageHeight) >= 2) {
    stageHeight = height;
    document.documentElement.style.setProperty('--np-stage-height', `${height}px`);
  }
  if (win) { placeWindow(); followEngine(state); tellVisible(); }
}

function pageHeight() {
  return Math.ceil(Math.max(document.body.scrollHeight, document.body.getBoundingClientRect().height));
}

// The frame's page as tall as it would be with the whole lesson on the stage.
function frameHeight() {
  return pageHeight() + (embedded && framed && !win && stageHeight > 0 ? Math.max(0, contentHeight - stageHeight) : 0);
}

function reportHeight() {
  const height = frameHeight();
  if (height === lastHeight) return;
  lastHeight = height;
  post('resize', { height });
}

let measureQueued = false;
function measure() {
  if (measureQueued) return;
  measureQueued = true;
  requestAnimationFrame(() => {
    measureQueued = false;
    if (embedded && engineReady) fitStage(np.state());
    reportHeight();
  });
}

// A wheel turned over the canvas scrolls the host page, as over any other content. GLFW
// cancels every wheel event on the canvas, so unless the engine scrolls inside the canvas the
// event is stopped on its way down (capture phase on the stage) and the browser scrolls as usual.
if (embedded) {
  stage.addEventListener('wheel', event => { if (!engineScrolls) event.stopPropagation(); }, { capture: true });
}

if (framed || embedded) {
  new ResizeObserver(measure).observe(document.body);
  window.addEventListener('np-layout', measure);
  window.addEventListener('resize', measure);
  if (document.fonts) document.fonts.ready.then(measure);
  // The engine lays text out a frame after a change (fonts, reveals, a new sentence) and may
  // scroll by itself: check a few times a second, once it has drawn since the last look (an idle
  // page does no work; without the engine's count, always).
  let framesSeen = NaN;
  setInterval(() => {
    if (document.visibilityState !== 'visible') return;
    const frames = window.Module?._np_engine_frames?.() ?? NaN;
    if (frames === framesSeen) return;
    framesSeen = frames;
    measure();
  }, 250);
}

// [SECTION] Engine events -> messages ----------------------------------------------------------------------

const sectionTitle = (state, anchor) => (state?.sections || []).find(s => s.anchor === anchor)?.title || '';

np.ready.then(() => {
  engineReady = true;
  const state = np.state();
  // What the learner had when the lesson opened (a record restored from this browser) is no news.
  if (reportedPercent === null) reportedPercent = Number(state?.progress?.summary?.percent ?? 0);
  if (embedded) fitStage(state);
  lastHeight = frameHeight();
  post('ready', { title: state?.title || '', frameTitle: np.text('embed.frame_title', { title: state?.title || np.params.lesson }), sections: (state?.sections || []).map(({ anchor, title, level }) => ({ anchor, title, level })),
    section: state?.section || '', height: lastHeight });
  post('resize', { height: lastHeight });
  for (const [command, origin] of waiting.splice(0)) run(command, origin);
  measure();
}, () => { measure(); });

np.events.addEventListener('section', event => {
  const state = np.state();
  post('section', { section: event.detail.section, title: sectionTitle(state, event.detail.section) });
  measure();
});

np.events.addEventListener('answered', event => {
  const d = event.detail;
  const state = np.state();
  const { object, result } = checkAnswer(state, d);
  const score = scaled(d.score);
  if (score) result.score = score;
  post('answered', { check: d.check, option: d.option, correct: !!d.correct, score: d.score, attempts: d.attempts,
    statement: statement('answered', object, result, state) }, { personal: true });
  measure();
});

// Progress is one unit per section visited and per check answered (the engine's percent,
// rounded down): 100 exactly when the lesson is completed. Every change of the record goes to
// the host (to keep), but a 'progressed' statement only when the percent moves: reading back
// and forth, a restore, or a new answer to an answered check send none.
let restoring = false;
let reportedPercent = null;   // the percent of the last statement (or of the record at load)
np.events.addEventListener('progress', event => {
  const d = event.detail;
  const state = np.state();
  const percent = Math.max(0, Math.min(100, Math.floor(Number(d.percent))));
  const completed = d.completed === true;
  const fields = { progress: d.progress, completed_checks: d.completed_checks, total_checks: d.total_checks,
    percent, completed };
  const fromRestore = restoring;
  restoring = false;
  if (Number.isFinite(percent) && percent !== reportedPercent && reportedPercent !== null && !fromRestore) {
    fields.statement = statement('progressed', lessonActivity(state),
      { completion: completed, extensions: { [PROGRESS_EXTENSION]: percent } }, state);
  }
  if (Number.isFinite(percent)) reportedPercent = percent;
  post('progress', fields, { personal: true });
  measure();
});

np.events.addEventListener('completed', event => {
  const d = event.detail;
  const state = np.state();
  const checks = state?.checks || [];
  const success = typeof d.success === 'boolean' ? d.success : checks.every(c => c.correct === true);
  const result = { completion: true, success };
  const score = scaled(d.score);
  if (score) result.score = score;
  post('completed', { score: d.score, success, statement: statement('completed', lessonActivity(state), result, state) },
    { personal: true });
});

np.events.addEventListener('caption', measure);
np.onLessonLoaded(measure);
