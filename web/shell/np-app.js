// NeuralPath lesson page: loads the WebAssembly engine, hands it the lesson, keeps the canvas
// sized to its box at the screen's pixel ratio, and exposes window.neuralpath.
//
//   URL parameters: lesson=ID, section=ANCHOR, embed=1, theme=light|dark, voice=on|off,
//                   lang=CODE (np-lang.js: else the learner's choice, the browser's, English),
//                   s=STATE (a shared view, np-share.js)
//
// Feature modules (speech, the DOM mirror, storage, the embedding host) are separate files that
// lesson.html loads after this one. They use only window.neuralpath:
//   neuralpath.params            the page's URL parameters (lesson, section, embed, theme, voice,
//                                shared, platform) and lang, the page's language once chosen
//   neuralpath.provide(name, fn) a feature module supplies share/exportPng/exportCsv (np-share.js)
//   neuralpath.events            an EventTarget: 'engine-ready', 'lesson-loaded', and every
//                                event the engine emits ('section', 'answered', 'progress',
//                                'completed', 'caption', ...), each a CustomEvent whose
//                                `detail` is the event object
//   neuralpath.onEngineReady(fn) fn() when the engine runs, in the page's language: now, if it
//                                already does (the same reason as onLessonLoaded, below).
//   neuralpath.onLessonLoaded(fn) fn(state) when the lesson has loaded: now, if it already has.
//                                The page's other modules use it rather than a 'lesson-loaded'
//                                listener: each module script runs when it has arrived, and on a
//                                slow machine the lesson could load before a late one listened
//                                (np-storage then never restored, and never saved, the figures)
//   neuralpath.command(object)   runs an engine command; returns the reply, throws on refusal
//   neuralpath.announce(text)    speaks text to screen readers through the live region
//   neuralpath.format(kind, v)   a number printed by the engine's own formats (engine/text/format.h):
//                                'number', 'percent', 'count', 'bytes', 'seconds', 'tiny'
//   neuralpath.text(key, args)   words from the engine's string catalogue (lessons/strings/),
//                                {name} placeholders filled from args
//   neuralpath.document()        the lesson as plain data, for the text version (np-mirror.js)
//   neuralpath.input             press(key, mods), type(text), pending(), fingerDown(): the
//                                learner's keys, text and fingers, as np-input.js hands them over
//   neuralpath.lessonText()      the lesson text the engine loaded; trainInWorkers() sends the
//                                train widgets' training to Web Workers (np-train.js)
//   neuralpath.limits            the engine's limits on what it is handed (engine/ui/page_limits.h:
//                                lesson_bytes, command_bytes, record_bytes, sentence_bytes,
//                                json_depth, shared_state_chars, shared_state_bytes), once the
//                                engine runs; null before
//
// [SECTION] Page parameters
// [SECTION] Messages on the page (loading, errors)
// [SECTION] Loading the engine (with download progress)
// [SECTION] Canvas size and WebGL context loss
// [SECTION] window.neuralpath

import { fillPage, loadStrings, words } from './np-strings.js';
import { chooseLanguage, lessonPath } from './np-lang.js';
import { SHAPES, validate } from './np-protocol.js';
import { readAll } from './np-bytes.js';

// [SECTION] Page parameters ---------------------------------------------------------------------
// Performance marks along the way to `ready` (np:strings, np:engine-script, np:wasm-compiled,
// np:main, np:lesson-parsed, np:fonts-built and np:first-frame from web/main.cpp, np:ready), for
// the bench and for anyone profiling a slow start (tests/bench/page-metrics.mjs prints them).
const mark = name => performance.mark(`np:${name}`);
mark('app-start');
const params = new URLSearchParams(location.search);
const events = new EventTarget();
const emit = (type, detail) => events.dispatchEvent(new CustomEvent(type, { detail }));
const lessonId = params.get('lesson') || 'self-attention';
let lang = 'en';   // chosen before the engine starts (np-lang.js); English until then
const embedded = params.get('embed') === '1';
const theme = params.get('theme') === 'dark' ||
  (params.get('theme') !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches) ? 'dark' : 'light';
document.documentElement.dataset.theme = theme;
if (embedded) document.documentElement.classList.add('np-embed');

const canvas = document.getElementById('canvas');
const overlay = document.getElementById('np-overlay');
const statusLine = document.getElementById('np-status');
const progressBar = document.querySelector('.np-progress');

// [SECTION] Messages on the page (loading, errors) ------------------------------------------------
function setProgress(fraction, text) {
  const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
  progressBar.querySelector('.np-bar').style.width = percent + '%';
  progressBar.setAttribute('aria-valuenow', String(percent));
  if (text) statusLine.textContent = text;
}

// Replaces the canvas with a readable message. Text only (never HTML), so nothing a lesson or
// a URL says can inject markup.
function showFatal(title, detail) {
  overlay.hidden = false;
  const box = overlay.querySelector('.np-overlay-box');
  box.classList.add('np-error');
  box.replaceChildren();
  const heading = document.createElement('h2');
  heading.textContent = title;
  const body = document.createElement('p');
  body.textContent = detail;
  box.append(heading, body);
  overlay.setAttribute('role', 'alert');
  readyReject(new Error(`${title}: ${detail}`));
}

let readyResolve, readyReject;
const ready = new Promise((resolve, reject) => { readyResolve = resolve; readyReject = reject; });
ready.catch(() => {});  // a page that failed to load reports it on screen, not as an unhandled rejection

// [SECTION] Loading the engine (with download progress) -----------------------------------------
// A browser without WebGL2 at all is told at once. One that has it but cannot make a context
// (blocklisted, out of GPU memory) is told by the engine itself (web/main.cpp calls
// Module.onNoWebGL when its window gets no context): a throwaway context made here to ask would
// cost as much as the engine's own, 100-200 ms of the main thread with software WebGL.
function webgl2Available() {
  return typeof WebGL2RenderingContext === 'function';
}

// The engine's files as the page's np-engine.js named them: preload links for the one engine,
// of the site's several, that holds the widget kinds of this lesson (web/CMakeLists.txt). Their
// downloads start while the browser reads the HTML, not after this module, its imports and
// asset-names.json have each taken a round trip. Each carries its plain name (what the glue asks
// for) and its raw byte count for the progress bar. null in a page without them (a site
// assembled by hand): then asset-names.json and asset-sizes.json say, for the engine with every
// kind.
const ENGINE_FILE = /^(lesson(?:-[a-z]+)?)\.(js|wasm|data)$/;
const HASHED_ENGINE_FILE = /^lesson(?:-[a-z]+)?\.[0-9a-f]{16}\.(js|wasm|data)$/;
function preloadedAssets() {
  const names = {}, sizes = {}, engine = {};
  for (const link of document.querySelectorAll('link[data-np-asset]')) {
    const plain = link.dataset.npAsset, hashed = link.getAttribute('href');
    const match = ENGINE_FILE.exec(plain);
    if (!match || !HASHED_ENGINE_FILE.test(hashed) || engine[match[2]]) continue;
    engine[match[2]] = plain;
    names[plain] = hashed;
    sizes[plain] = Number(link.dataset.npBytes) || 0;
  }
  return engine.js && engine.wasm && engine.data ? { names, sizes, engine } : null;
}

// The SHA-256 (hex) of every lesson text the site's build ran the engine's checks on and found
// sound (web/ship_trained_weights.cmake), written into lesson.html by the site's assembly. The
// engine skips those checks for a text whose digest is listed (82% of opening a lesson): the
// same text, checked by the same engine. Any other text (an edited copy, a lesson the author
// server serves, a page without the list or without crypto.subtle) is checked in full.
const buildChecked = new Set((document.querySelector('meta[name="np-checked-lessons"]')?.content || '')
  .split(/\s+/).filter(digest => /^[0-9a-f]{64}$/.test(digest)));
async function checkedByBuild(bytes) {
  if (buildChecked.size === 0 || !globalThis.crypto?.subtle) return false;
  try {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return buildChecked.has(Array.from(digest, b => b.toString(16).padStart(2, '0')).join(''));
  } catch { return false; }
}

// Byte counts of the downloads, written at build time (a compressed response's Content-Length
// would understate them).
async function assetSizes() {
  try { return await (await fetch('asset-sizes.json')).json(); } catch { return {}; }
}

// The engine's files under their content-hashed names (cached for good by the server), written
// at site assembly; the plain names when the list is missing (a site assembled by hand). Only
// for a page without np-engine.js's links: the engine with every kind, which runs any lesson.
const EVERY_KIND = { js: 'lesson.js', wasm: 'lesson.wasm', data: 'lesson.data' };
async function assetNames() {
  const plain = Object.fromEntries(Object.values(EVERY_KIND).map(name => [name, name]));
  try {
    const names = await (await fetch('asset-names.json')).json();
    for (const name of Object.keys(plain))
      if (typeof names[name] === 'string' && HASHED_ENGINE_FILE.test(names[name])) plain[name] = names[name];
  } catch { /* plain names */ }
  return plain;
}

// Calls onBytes(received so far) as `response`'s body arrives, until it ends, keeping nothing.
async function countBytes(response, onBytes) {
  const reader = response.body.getReader();
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    received += value.length;
    onBytes(received);
  }
}

// The engine's WebAssembly, compiled while it downloads (compileStreaming needs the server's
// application/wasm, which serve.mjs sends); a clone of the response counts the bytes for the
// progress bar. The response itself goes to the compiler, so the browser may keep the compiled
// code for the next visit. A server with another type gets the compile after the download.
// It starts as soon as the response does (the end of this file), not once lesson.js has run
// and asked for it: the compile overlaps the words, the lesson and the glue script.
async function compileEngine(request, expectedBytes, onBytes) {
  const response = await request;
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
  const streams = typeof WebAssembly.compileStreaming === 'function' &&
    /^application\/wasm\b/.test(response.headers.get('content-type') || '');
  let module;
  if (streams) {
    if (expectedBytes && response.body) countBytes(response.clone(), onBytes).catch(() => {});
    module = await WebAssembly.compileStreaming(response);
  } else {
    const bytes = await response.arrayBuffer();
    onBytes(bytes.byteLength);
    module = await WebAssembly.compile(bytes);
  }
  mark('wasm-compiled');
  return module;
}

// The font package (lesson.data), fetched beside the WebAssembly and handed to the glue through
// its getPreloadedPackage hook: left to itself the glue asks for it only once it runs, a round
// trip after everything else. Its bytes count for the progress bar as they arrive.
async function fetchFontPackage(request, onBytes) {
  const response = await request;
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
  if (!response.body) return response.arrayBuffer();
  return (await readAll(response.body, { onBytes })).buffer;
}

// Download progress, counted from the first byte; shown once the words are in (start()).
const downloaded = { wasm: 0, data: 0, total: 0, shown: false };
function reportDownload() {
  const { wasm, data, total, shown } = downloaded;
  if (!shown || !total) return;
  setProgress((wasm + data) / total, words('app.loading', { done: Math.round((wasm + data) / 1024), total: Math.round(total / 1024) }));
}

// Limits on text handed to the engine are the engine's own (web/main.cpp's np_limits,
// engine/ui/page_limits.h), read once it runs: a lesson's bytes as `neuralpath-cli check` caps a
// file, a command's (a sentence, a stored record), a record's, a sentence's, a link's.
let limits = null;
let limitsKnown;
const limitsReady = new Promise(resolve => { limitsKnown = resolve; });
const megabytes = bytes => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

const lessonNamePattern = /^[a-z0-9][a-z0-9-]{0,63}$/;

// `request`: the fetch of lessons/ID.md, already on its way (see the end of this file). Its body
// is read once the engine says how much it takes, and no further than that.
async function fetchLesson(id, request) {
  if (!lessonNamePattern.test(id)) throw new Error(words('app.bad_lesson_name', { id }));
  const response = await request;
  if (!response.ok) throw new Error(words('app.no_lesson', { id, status: response.status }));
  const { lesson_bytes: limit } = await limitsReady;
  const declared = Number(response.headers.get('content-length'));
  const tooLarge = bytes => new Error(words('app.lesson_too_large', { size: megabytes(bytes), limit: megabytes(limit) }));
  // Content-Length counts compressed bytes when the server compresses, so it is only a first check.
  if (!response.headers.get('content-encoding') && declared > limit) throw tooLarge(declared);
  return readAll(response.body, { limit, tooBig: tooLarge });
}

// Calls an np_* export with each of `texts` copied into a heap buffer as UTF-8 (pointer, byte
// length each), never onto the 4 MB stack as ccall's 'string' arguments are: a million
// characters there overwrote the engine's memory for good (#35). `what` names the text in
// errors (a catalogue key: app.what_lesson, ...).
const utf8 = new TextEncoder();
function withHeapTexts(texts, limit, what, call) {
  const M = window.Module;
  const encoded = texts.map(text => (typeof text === 'string' ? utf8.encode(text) : text));
  for (const bytes of encoded)
    if (bytes.length > limit)
      throw new Error(words('app.text_too_large', { what: words(what), size: megabytes(bytes.length), limit: megabytes(limit) }));
  const pointers = [];
  try {
    for (const bytes of encoded) {
      const pointer = M._np_alloc(bytes.length);
      if (!pointer) throw new Error(words('app.text_no_memory', { what: words(what), size: megabytes(bytes.length) }));
      pointers.push(pointer);
    }
    const args = [];
    encoded.forEach((bytes, i) => {
      M.HEAPU8.set(bytes, pointers[i]);   // HEAPU8 is read after the allocations: growing the heap replaces it
      M.HEAPU8[pointers[i] + bytes.length] = 0;
      args.push(pointers[i], bytes.length);
    });
    return call(...args);
  } finally {
    for (const pointer of pointers) M._np_free(pointer);
  }
}
const withHeapText = (text, limit, what, call) => withHeapTexts([text], limit, what, call);

let engine = null;  // the np_* exports, once the module runs
let engineCalls = 0, stateKey = '', stateText = '';   // engine.state()'s memo
let restoreListeners = () => {};

// GLFW's Emscripten port listens for keys on the whole window and cancels Tab and Backspace
// everywhere, which would take the keyboard away from the rest of the page (the text version,
// a host's own inputs) and trap keyboard users inside the canvas. While the engine starts, we
// wrap the listeners it registers: keys reach it only while the canvas has focus, and Tab
// never does, so Tab always moves focus on as the browser means it to.
// Only the engine's own (registered from its script, `engineScript`): a page module that arrives
// while the engine starts (each runs once it has arrived; under load, np-storage.js did) keeps
// its listeners as they are. Wrapped, np-storage's keyup never ran without the canvas focused,
// and a learner's change waited for some other event to be saved (CI, reload.test).
function routeKeysToCanvasOnly(engineScript) {
  const original = window.addEventListener;
  // A browser that gives no stack: every key listener is taken for the engine's, as before.
  const fromEngine = () => { const stack = new Error().stack; return !stack || stack.includes(engineScript); };
  window.addEventListener = function (type, listener, options) {
    if (/^key(down|up|press)$/.test(type) && typeof listener === 'function' && fromEngine()) {
      const routed = event => {
        if (document.activeElement === canvas && event.key !== 'Tab') listener.call(this, event);
      };
      return original.call(this, type, routed, options);
    }
    return original.call(this, type, listener, options);
  };
  return () => { window.addEventListener = original; };
}

async function start(requests) {
  if (!webgl2Available()) {
    showFatal(words('app.no_webgl'), words('app.no_webgl_detail'));
    return;
  }
  const [sizes, names] = await Promise.all([requests.sizes, requests.names]);
  downloaded.total = (sizes[engineFiles.wasm] || 0) + (sizes[engineFiles.data] || 0);
  downloaded.shown = true;
  reportDownload();
  // The font package, if it came (else the glue fetches it itself, as it would anyway).
  const fontPackage = await requests.data.catch(() => null);
  const lessonText = fetchLesson(lessonId, requests.lesson);
  lessonText.catch(() => {});  // reported once the engine is up (or the engine's failure wins)

  window.Module = {
    canvas,
    // The .wasm was asked for as soon as its name was known (requests.wasm, at the end of this
    // file); Emscripten's own fetch would wait for lesson.js.
    instantiateWasm(imports, receive) {
      requests.engine
        .then(async module => {
          const instance = await WebAssembly.instantiate(module, imports);
          mark('wasm-instantiated');
          receive(instance, module);
        })
        .catch(error => showFatal(words('app.engine_failed'), String(error.message || error)));
      return {};
    },
    // The font package (lesson.data) under its hashed name, already fetched (requests.data).
    locateFile: path => (Object.hasOwn(names, path) ? names[path] : path),
    getPreloadedPackage: (name, bytes) =>
      (fontPackage && name === names[engineFiles.data] && fontPackage.byteLength === bytes ? fontPackage : null),
    // Emscripten reports the font package's download as "Downloading data... (a/b)" when it
    // fetches it itself.
    setStatus(text) {
      const match = /\((\d+)\/(\d+)\)/.exec(text || '');
      if (match) { downloaded.data = Number(match[1]); reportDownload(); }
    },
    print: text => console.log(text),
    printErr: text => console.warn(text),
    onAbort: what => showFatal(words('app.engine_stopped'), String(what)),
    onEngineReady: () => engineReady(lessonText),
    onNoWebGL: () => { restoreListeners(); showFatal(words('app.no_webgl'), words('app.no_webgl_detail')); },
    // A text field in the canvas took or left the keyboard: np-input.js stands a DOM field in.
    onTextInput: wanted => emit('text-field', { wanted }),
    onAnimationFrame: () => drainAfterFrame(),
  };
  // np-input.js stops the browser's own wheel, touch and key events where GLFW listens (the
  // canvas, the window) and passes on corrected ones, so its listeners must be there first.
  // The page lists it right after this module, but on a loaded machine it may arrive after the
  // engine has started: then GLFW saw both, and a wheel notch down scrolled 300 notches up.
  await import('./np-input.js').catch(() => {});  // without it the page still works, uncorrected
  await Promise.all(pageParts);
  restoreListeners = routeKeysToCanvasOnly(names[engineFiles.js]);
  const script = document.createElement('script');
  mark('engine-script');
  script.src = names[engineFiles.js];
  script.onerror = () => showFatal(words('app.engine_failed'), words('app.script_failed'));
  document.body.appendChild(script);
}

// Lets the browser paint and handle input before the next step of opening the lesson: each
// step (fonts, the lesson, its first state) is a task of its own, so no single task holds the
// page for their sum (#33: tasks of 0.5-1.2 s froze the page before it was ready).
const nextTask = () => (globalThis.scheduler && typeof scheduler.yield === 'function'
  ? scheduler.yield() : new Promise(resolve => setTimeout(resolve, 0)));
// A task ahead of the page's others (input and rendering still come first).
const urgentTask = run => (globalThis.scheduler && typeof scheduler.postTask === 'function'
  ? scheduler.postTask(run, { priority: 'user-blocking' }) : setTimeout(run, 0));

// The engine and this page disagree on a field the shell reads (np-protocol.js): said on the
// console for whoever changed one side; tests/protocol/protocol.test.mjs fails on it first.
function warnUnlike(shape, value, what) {
  const problems = validate(shape, value, what);
  if (problems.length) console.warn(`np-protocol: the engine's ${what} lacks what the page reads:\n${problems.join('\n')}`);
}

function engineReady(lessonText) {
  mark('main');
  limits = Object.freeze(JSON.parse(window.Module.ccall('np_limits', 'string', [], [])));
  warnUnlike(SHAPES.limits, limits, 'limits');
  limitsKnown(limits);
  openLesson(lessonText).catch(error => showFatal(words('app.lesson_failed'), String(error && error.message || error)));
}

async function openLesson(lessonText) {
  restoreListeners();  // GLFW has registered its key listeners by now
  const M = window.Module;
  const loadLesson = M.cwrap('np_load_lesson', 'number', ['string', 'number', 'number', 'number']);
  const command = M.cwrap('np_command', 'string', ['number', 'number']);
  const npUseLanguage = M.cwrap('np_use_language', 'string', ['number', 'number', 'number', 'number']);
  const npFormat = M.cwrap('np_format', 'string', ['number', 'number', 'number']);
  const npText = M.cwrap('np_text', 'string', ['number', 'number', 'number', 'number']);
  const commandBytes = limits.command_bytes;
  const npState = M.cwrap('np_state', 'string', []);
  // Every call that can change what state() says is counted, for state()'s memo below.
  const changes = call => (...args) => { engineCalls++; return call(...args); };
  engine = {
    setViewport: changes(M.cwrap('np_set_viewport', null, ['number', 'number', 'number'])),
    setTheme: changes(M.cwrap('np_set_theme', null, ['number'])),
    useLanguage: changes((code, file) => withHeapTexts([code, file], commandBytes, 'app.what_strings', npUseLanguage)),
    // The id is a checked short name (fetchLesson), so it may go on the stack.
    loadLesson: changes((id, bytes, checkedByBuild) => withHeapText(bytes, limits.lesson_bytes, 'app.what_lesson',
      (pointer, length) => loadLesson(id, pointer, length, checkedByBuild ? 1 : 0))),
    lessonText: M.cwrap('np_lesson_text', 'string', []),
    // Only the engines with the train kind have it (web/train_exports.cpp).
    trainInWorkers: () => { if (!M._np_train_in_workers) return false; M._np_train_in_workers(1); return true; },
    // The engine's state as JSON text, built again only once something can have changed it: an
    // engine frame (np_engine_frames counts them) or a call into the engine. Each listener of
    // an event asks for it, and a burst of events (2000 answers in one frame: 4000 events) had
    // the engine build the same text thousands of times, 7 ms each: 15 s of frozen tab (#35).
    state: () => {
      const key = `${M._np_engine_frames()}:${engineCalls}`;
      if (stateKey !== key) { stateText = npState(); stateKey = key; }
      return stateText;
    },
    command: changes(json => withHeapText(json, commandBytes, 'app.what_command', command)),
    takeEvents: M.cwrap('np_take_events', 'string', []),
    contextLost: changes(M.cwrap('np_gl_context_lost', null, [])),
    contextRestored: changes(M.cwrap('np_gl_context_restored', null, [])),
    buildFonts: M.cwrap('np_build_fonts', null, []),
    buildWidgets: M.cwrap('np_build_widgets', 'number', ['number']),
    format: (kind, value) => withHeapText(kind, commandBytes, 'app.what_command', (p, n) => npFormat(p, n, value)),
    text: (key, args) => withHeapTexts([key, args], commandBytes, 'app.what_command', npText),
    document: M.cwrap('np_document', 'string', []),
    keyPress: changes(M.cwrap('np_key_press', 'number', ['number', 'number'])),
    keysPending: M.cwrap('np_keys_pending', 'number', []),
    fingerDown: M.cwrap('np_finger_down', null, []),
    // ccall copies a string argument onto the stack, which is small: 1024 UTF-16 units at a time
    textInput: changes(M.cwrap('np_text_input', 'string', ['string'])),
  };
  engine.setTheme(theme === 'dark' ? 1 : 0);
  if (lang !== 'en') {
    // The language's catalogue over the engine's English (a key it lacks stays English).
    try {
      const response = await fetch(`lessons/strings/${lang}.strings`);
      if (response.ok) engine.useLanguage(lang, await response.text());
    } catch (error) { console.warn(`lang=${lang}: ${error.message}`); }
  }
  followCanvasSize();
  engineRunning = true;
  emit('engine-ready', {});
  setProgress(1, words('app.opening'));
  // The font atlas for the canvas's pixel ratio, in a task of its own (the first frame would
  // otherwise build it, on top of drawing the whole page).
  // Hashed while the fonts are built: a text the site's build checked skips the engine's checks.
  const checked = lessonText.then(checkedByBuild, () => false);
  await nextTask();
  engine.buildFonts();
  await nextTask();
  let text;
  try { text = await lessonText; } catch (error) {
    showFatal(words('app.lesson_failed'), String(error.message || error));
    return;
  }
  const checkedText = await checked;
  // Anything that escapes the engine here (a trap, an exception, a limit) is shown on the page:
  // never "Opening the lesson…" for good.
  const crashed = error => {
    console.warn(`the lesson did not open: ${error && error.message || error}`);
    showFatal(words('app.lesson_failed'), words('app.lesson_crashed',
      { id: lessonId, error: String(error && error.message || error).slice(0, 300) }));
  };
  try {
    mark('lesson-text');
    if (engine.loadLesson(lessonId, text, checkedText) !== 0) throw new Error(words('app.lesson_larger_than_engine'));
    mark('lesson-parsed');
    // The widgets, one per task: each computes its first numbers as it is made (the train
    // widget's session alone was a third of opening the lesson).
    while (engine.buildWidgets(1) > 0) await nextTask();
    mark('widgets-built');
  } catch (error) {
    crashed(error);
    return;
  }
  await nextTask();  // its state (every widget's numbers) and the listeners of lesson-loaded: another task
  let state;
  try {
    state = JSON.parse(engine.state());
  } catch (error) {
    crashed(error);
    return;
  }
  loadedState = state;
  warnUnlike(SHAPES.state, state, 'state');
  emit('lesson-loaded', state);
  const section = params.get('section');
  if (section) {
    const reply = JSON.parse(engine.command(JSON.stringify({ type: 'goto', section })));
    if (!reply.ok) console.warn(`section=${section}: ${reply.error}`);
  }
  drainEvents();  // what opening the lesson (and the section above) said; then after each frame
  if (state.title) {
    document.title = `${state.title} · NeuralPath`;
    document.getElementById('np-lesson-title').textContent = state.title;
  }
  // Resolve `ready` once a frame with the lesson has been drawn: the engine's main loop runs in
  // the next animation frame, before this callback (its own was asked for first), and a task
  // queued here runs once that frame's rendering is done. (A second animation frame, as before,
  // waited for another engine frame, 70-170 ms of software WebGL, #33.) The task goes first in
  // line: a plain setTimeout waited behind the page's other tasks and the next frame (200 ms in a
  // traced visit, #33).
  requestAnimationFrame(() => urgentTask(() => {
    overlay.hidden = true;
    mark('ready');
    readyResolve();
  }));
}

// [SECTION] Canvas size and WebGL context loss -----------------------------------------------------
function followCanvasSize() {
  // Only a real change reaches the engine: each call resizes the canvas's backing store, which
  // reallocates and clears the WebGL drawing buffer (the first ResizeObserver call repeats the
  // size apply() just set, and cost a second reallocation at start).
  let last = '';
  const apply = () => {
    const box = canvas.getBoundingClientRect();
    const size = [Math.max(1, box.width), Math.max(1, box.height), window.devicePixelRatio || 1];
    if (size.join() === last) return;
    last = size.join();
    engine.setViewport(...size);
  };
  new ResizeObserver(apply).observe(canvas);
  // devicePixelRatio changes (zoom, moving to another screen) do not resize the box.
  const watchRatio = () => matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`)
    .addEventListener('change', () => { apply(); watchRatio(); }, { once: true });
  watchRatio();
  apply();
}

canvas.addEventListener('webglcontextlost', event => {
  event.preventDefault();  // tells the browser we will restore, so it may give the context back
  if (engine) engine.contextLost();
  overlay.hidden = false;
  setProgress(0, words('app.context_lost'));
});
canvas.addEventListener('webglcontextrestored', () => {
  if (engine) engine.contextRestored();
  overlay.hidden = true;
});

// [SECTION] window.neuralpath ---------------------------------------------------------------------
// Engine events are drained after the engine's animation frames and re-dispatched on
// neuralpath.events.
// Of several 'progress' events in one batch only the last goes out: each carries the learner's
// whole record, so the last says it all, and every listener (storage, the host, a learning
// platform) would otherwise save and send each of them (2000 answers in one frame: 2000 records).
function drainEvents() {
  if (!engine || !loadedState) return;
  const events = JSON.parse(engine.takeEvents());
  const lastProgress = events.findLastIndex(event => event.type === 'progress');
  events.forEach((event, i) => {
    if (event.type === 'progress' && i !== lastProgress) return;
    if (event.type === 'openLink') openLink(event.url);
    emit(event.type, event);
  });
}
// After each of the engine's animation frames (web/main.cpp's animation_frame), once its frame
// has returned: a listener may call into the engine. The engine stops asking for animation
// frames while nothing changes, and so does this: an idle page does no work at all.
let drainQueued = false;
function drainAfterFrame() {
  if (drainQueued) return;
  drainQueued = true;
  queueMicrotask(() => { drainQueued = false; drainEvents(); });
}
// Hidden or closing (a reload too): what the engine said since the last frame goes out now, so
// that an answer given just before a reload reaches np-storage.js (and a platform) before the
// page is gone. This file runs before the feature modules, so its listeners come first, and
// theirs (np-storage.js saves the figures on the same events) see what was drained.
document.addEventListener('visibilitychange', () => { if (document.hidden) drainEvents(); });
window.addEventListener('pagehide', drainEvents);

// Links in lesson prose: another page of this site (a lesson, the list of lessons) opens in
// this tab, as a course's next page does (#34); anything else in a new tab. Only web and mail
// addresses, never javascript: URLs.
function openLink(url) {
  let target;
  try { target = new URL(String(url), location.href); } catch { return; }
  if (!['http:', 'https:', 'mailto:'].includes(target.protocol)) {
    console.warn(`not opening a link with protocol ${target.protocol}`);
    return;
  }
  const site = new URL('./', location.href);
  if (!embedded && target.origin === location.origin && target.pathname.startsWith(site.pathname)) location.assign(target.href);
  else window.open(target.href, '_blank', 'noopener,noreferrer');
}

const liveRegion = document.getElementById('np-live');
function announce(text) {
  // Clearing first makes screen readers repeat an identical message.
  liveRegion.textContent = '';
  setTimeout(() => { liveRegion.textContent = String(text); }, 30);
}

// A command is an object ({type: ...}); anything else (undefined, a string, a cyclic object) is
// refused with the engine's own words, never a TypeError from inside this file.
function run(command) {
  if (!engine) throw new Error(words('app.not_ready'));
  if (!command || typeof command !== 'object' || Array.isArray(command)) throw new Error(engineText('commands.not_a_command'));
  let json;
  try { json = JSON.stringify(command); } catch { throw new Error(engineText('commands.not_a_command')); }
  const reply = JSON.parse(engine.command(json));
  if (!reply.ok) throw new Error(reply.error);
  return reply;
}

// Words from the engine's catalogue; the key itself when the arguments cannot be sent.
function engineText(key, args = {}) {
  let json = '{}';
  try { json = JSON.stringify(args) ?? '{}'; } catch { /* no arguments then */ }
  try { return engine.text(String(key), json); } catch { return String(key); }
}

let loadedState = null;   // the state at 'lesson-loaded', for modules that run later
let engineRunning = false;  // 'engine-ready' has been sent, for modules that run later
window.neuralpath = {
  ready,
  onEngineReady: fn => {
    if (engineRunning) fn();
    else events.addEventListener('engine-ready', () => fn(), { once: true });
  },
  onLessonLoaded: fn => {
    if (loadedState) fn(loadedState);
    else events.addEventListener('lesson-loaded', event => fn(event.detail), { once: true });
  },
  params: Object.freeze({ lesson: lessonId, section: params.get('section'), embed: embedded,
    theme, voice: params.get('voice'),
    // An empty ?s= shares nothing: it once turned shared mode on, with no note, and nothing was saved.
    shared: !!params.get('s'),
    // Launched by a learning platform (web/lms/): it keeps the learner's record, and nothing this
    // browser keeps is restored or written (np-storage.js, np-lm.js, np-finish.js).
    platform: params.get('platform') === '1',
    get lang() { return lang; } }),
  events,
  command: run,
  announce,
  state: () => (engine ? Object.assign(JSON.parse(engine.state()), { lang }) : null),
  // Said as an event too: embedded, a goto asked for through this API moves the host's page
  // (np-host.js), as one from the host does; the engine's own scrolling does not.
  goto: section => {
    events.dispatchEvent(new CustomEvent('goto', { detail: { section } }));
    return run({ type: 'goto', section });
  },
  answer: (check, option) => run({ type: 'answer', check, option }),
  setSentence: text => run({ type: 'setSentence', text }),
  play: () => run({ type: 'play' }),
  pause: () => run({ type: 'pause' }),
  step: n => run({ type: 'step', n }),
  // Before the engine runs there is no catalogue: the key (or the bare number) shows instead.
  format: (kind, value) => {
    if (!engine) return String(value);
    try { return engine.format(String(kind), Number(value)); } catch { return String(value); }
  },
  text: (key, args = {}) => (engine ? engineText(key, args) : String(key)),
  // The lesson as plain data (np_document): sections, blocks, each widget's description; what
  // the text version writes. null before the engine runs.
  document: () => (engine ? JSON.parse(engine.document() || 'null') : null),
  // The learner's input that np-input.js hands over (a phone's keyboard, an IME, a finger):
  // press(key, mods) a GLFW key code, 1 when the engine took it; type(text) characters, '' or
  // the words of a refusal (a character the page cannot draw); pending() keys the engine has not
  // yet read; fingerDown() says the next press is a finger's (the engine's touch gestures).
  input: Object.freeze({
    press: (key, mods = 0) => (engine ? engine.keyPress(key, mods) : 0),
    type: text => {  // every piece is typed; what each refused is said together
      let refused = '';
      for (let at = 0; engine && at < text.length; at += 1024) refused += engine.textInput(text.slice(at, at + 1024)) || '';
      return refused;
    },
    pending: () => (engine ? engine.keysPending() : 0),
    fingerDown: () => engine?.fingerDown(),
  }),
  // The train widgets' trainer workers (np-train.js): the text the engine loaded (a worker
  // builds the same model from it; null before), and trainInWorkers(), which sends training to
  // them from now on (false: this engine has no train widget).
  lessonText: () => (engine ? engine.lessonText() : null),
  trainInWorkers: () => (engine ? engine.trainInWorkers() : false),
  get limits() { return limits; },
  share: (...args) => feature('share')(...args),
  exportPng: (...args) => feature('exportPng')(...args),
  exportCsv: (...args) => feature('exportCsv')(...args),
  provide: (name, fn) => { if (name in features && typeof fn === 'function' && !features[name]) features[name] = fn; },
};
// Filled in once by a feature module (np-share.js); calling one it did not provide says so.
const features = { share: null, exportPng: null, exportCsv: null };
function feature(name) {
  if (!features[name]) throw new Error(words('share.not_available', { name }));
  return features[name];
}
Object.freeze(window.neuralpath);

// Everything the first frame needs is asked for at once: the words (which the messages on the
// way need first), the engine's file names and sizes, the lesson, and the engine's WebAssembly
// as soon as its name is in (its compile is the longest wait). One after the other, each
// waited for a round trip and the page's scripts before the engine's download could start.
// The language comes first for the words and the lesson (np-lang.js; no round trip when the
// browser prefers English and no other language was chosen).
const chosen = chooseLanguage(params).then(code => {
  lang = code;
  document.documentElement.lang = code;
  return code;
});
const preloaded = preloadedAssets();
const engineFiles = preloaded ? preloaded.engine : EVERY_KIND;  // {js, wasm, data}: the plain names
// The page's parts that only some pages use, imported only there, and before the engine starts
// (start() waits for them), so none misses an event: the embedding page's messages (np-host.js)
// in a frame or in embed mode, and the language models' downloads and trainers (np-models.js,
// np-lm.js) with an engine that holds a kind which runs one (its meta says data-models; a page
// without the metas runs the engine with every kind). A direct visit to a lesson of attention
// downloads neither.
const engineMeta = [...document.querySelectorAll('meta[name="np-engine"]')]
  .find(meta => `${meta.dataset.npEngine}.js` === engineFiles.js);
const pageParts = [
  ...(window.parent !== window || embedded ? [import('./np-host.js')] : []),
  ...(!engineMeta || engineMeta.dataset.models === 'yes' ? [import('./np-models.js'), import('./np-lm.js')] : []),
  import('./np-train.js'),  // small; on an engine without the train kind it does nothing
].map(part => part.catch(error => console.warn(`neuralpath: a part of the page did not load: ${error.message}`)));
const names = preloaded ? Promise.resolve(preloaded.names) : assetNames();
const requests = {
  sizes: preloaded ? Promise.resolve(preloaded.sizes) : assetSizes(),
  names,
  wasm: names.then(found => fetch(found[engineFiles.wasm])),
  data: names.then(found => fetchFontPackage(fetch(found[engineFiles.data]), n => { downloaded.data = n; reportDownload(); })),
  lesson: lessonNamePattern.test(lessonId) ? chosen.then(async code => fetch((await lessonPath(lessonId, code)).path)) : null,
};
requests.lesson?.catch(() => {});  // a failed fetch is reported by fetchLesson, once the words are in
requests.wasm.catch(() => {});    // ... and the engine's by compileEngine
requests.data.catch(() => {});    // the glue fetches the fonts itself then
// The compile starts with the download; its bytes count once the sizes are known.
requests.engine = Promise.all([requests.sizes, requests.wasm]).then(([sizes, response]) =>
  compileEngine(response, sizes[engineFiles.wasm], n => { downloaded.wasm = n; reportDownload(); }));
requests.engine.catch(() => {});  // reported when the glue asks for it (instantiateWasm)
chosen.then(code => loadStrings(code)).then(() => { mark('strings'); fillPage(); return start(requests); })
  .catch(error => showFatal(words('app.start_failed'), String(error.message || error)));
