// The page side of `./neuralpath author FILE.md` (web/author/author-server.mjs adds this script to
// lesson.html). On every save the server checks the files and says so over server-sent events:
//   - the lesson passed the checker: its new text goes into the engine in place of the old one
//     (no page reload), and the reader keeps their place: the open section and the scroll
//     within it, the contents drawer, every answer and reveal (the progress record), and each
//     widget's state where a widget of the same kind still has that id (the share link's
//     snapshot: the block's id, else its kind and position, "heatmap-2");
//   - it did not: a banner at the place the first problem is about, with each problem as
//     `file:line:col: error: message`; the last good version stays on screen under it.
// Uses window.neuralpath and the engine's exported np_load_lesson, nothing private of np-app.js.
//
// [SECTION] Swapping the lesson text in the engine
// [SECTION] The banner
// [SECTION] Live updates

const np = window.neuralpath;
const t = (key, args) => np.text(key, args);
let file = '';          // the lesson's path as the author gave it
let shownVersion = -1;  // the server's version the page shows (or showed problems for)
let lastGood = null;    // the text in the engine now, { lang, text }

// [SECTION] Swapping the lesson text in the engine ------------------------------------------------

// The lesson text into the engine, through the heap (as np-app.js hands it over: never on the stack).
function engineLoad(text) {
  const M = window.Module;
  const bytes = new TextEncoder().encode(text);
  if (np.limits && bytes.length > np.limits.lesson_bytes) throw new Error(`${bytes.length} bytes > ${np.limits.lesson_bytes}`);
  const pointer = M._np_alloc(bytes.length);
  if (!pointer) throw new Error('no memory');
  try {
    M.HEAPU8.set(bytes, pointer);
    M.HEAPU8[pointer + bytes.length] = 0;
    return M.ccall('np_load_lesson', 'number', ['string', 'number', 'number', 'number'], [np.params.lesson, pointer, bytes.length, 0]);
  } finally { M._np_free(pointer); }
}

const frames = n => new Promise(done => {
  const next = () => (n-- <= 0 ? done() : requestAnimationFrame(next));
  next();
});
const tryCommand = command => { try { return np.command(command); } catch { return null; } };

// What the reader has now, to be put back after the swap.
function takePlace() {
  const state = np.state();
  if (!state || state.errors.length || !state.sections.length) return null;
  const snapshot = tryCommand({ type: 'snapshot' }) || { widgets: {} };
  const progress = state.progress ? { ...state.progress } : null;
  if (progress) delete progress.summary;
  const section = state.sections.find(s => s.anchor === state.section);
  return {
    progress, section: state.section, contents: state.layout.contents_open,
    scroll: state.layout.scroll, sectionTop: section && typeof section.top === 'number' ? section.top : null,
    widgets: snapshot.widgets || {},
    kinds: Object.fromEntries(state.widgets.map(w => [w.id, w.kind])),
  };
}

function putBack(place) {
  if (!place) return;
  if (place.progress) tryCommand({ type: 'restore', progress: place.progress });
  // A widget's state goes back where a widget of the same kind has its id.
  const kinds = Object.fromEntries(np.state().widgets.map(w => [w.id, w.kind]));
  const widgets = {};
  for (const [id, snap] of Object.entries(place.widgets))
    if (kinds[id] && kinds[id] === place.kinds[id]) widgets[id] = snap;
  if (Object.keys(widgets).length) tryCommand({ type: 'restoreSnapshot', widgets });
  if (place.contents) tryCommand({ type: 'contents', open: true });
}

// The scroll within the open section, once the new page is laid out (its sections' tops known):
// text added above the reader moves their section down, and they stay with it.
async function putBackScroll(place) {
  if (!place) return;
  await frames(2);
  const state = np.state();
  const section = state.sections.find(s => s.anchor === place.section);
  let to = place.scroll;
  if (section && typeof section.top === 'number' && place.sectionTop !== null) to = section.top + (place.scroll - place.sectionTop);
  tryCommand({ type: 'scroll', to: Math.max(0, to) });
}

// Swaps `text` in; false (and the old text back) when the engine refuses what the checker passed.
async function swapIn(text, lang) {
  const place = takePlace();
  // Larger than the engine takes: nothing was loaded, the last good version is still there.
  let loaded;
  try { loaded = engineLoad(text); } catch (error) { loaded = error; }
  if (loaded !== 0) return { ok: false, errors: [`${file}: ${t('app.lesson_larger_than_engine')}`] };
  // A command that needs a lesson says whether it loaded (and makes state() read afresh).
  if (!tryCommand({ type: 'snapshot' })) {
    const errors = np.state().errors.slice();
    if (lastGood) { engineLoad(lastGood.text); putBack(place); await putBackScroll(place); }
    return { ok: false, errors };
  }
  putBack(place);
  lastGood = { text, lang };
  hideProblems();
  const state = np.state();
  if (state.title) {
    document.title = `${state.title} · NeuralPath`;
    const crumb = document.getElementById('np-lesson-title');
    if (crumb) crumb.textContent = state.title;
  }
  np.events.dispatchEvent(new CustomEvent('lesson-reloaded', { detail: state }));
  await putBackScroll(place);
  return { ok: true };
}

// [SECTION] The banner ----------------------------------------------------------------------------
// Above the canvas, at the top of the section the first problem is in (or the page's top), and
// held inside the view when that place is scrolled away. Text only, never HTML.

const stage = document.getElementById('np-stage') || document.body;
const banner = document.createElement('section');
banner.className = 'np-author-banner';
banner.setAttribute('role', 'alert');
banner.hidden = true;
stage.append(banner);
let bannerPlace = null;   // {anchor, title} of the section the first problem is in

function sectionFor(place) {
  const state = np.state();
  if (!state || !place) return null;
  return state.sections.find(s => (place.anchor ? s.anchor === place.anchor : s.title === place.title)) || null;
}

function showProblems(problems) {
  banner.replaceChildren();
  const heading = document.createElement('p');
  heading.className = 'np-author-heading';
  heading.textContent = t('author.problem_title', { file });
  const list = document.createElement('ul');
  for (const problem of problems.slice(0, 20)) {
    const item = document.createElement('li');
    item.textContent = problem.text;
    list.append(item);
  }
  const buttons = document.createElement('div');
  buttons.className = 'np-author-buttons';
  const first = problems.find(p => p.section || p.blocks?.length);
  bannerPlace = first ? { anchor: first.section?.anchor ?? null, title: first.section?.title ?? null,
    sectionLine: first.section?.line ?? 0, blocks: first.blocks || [] } : null;
  if (bannerPlace && sectionFor(bannerPlace)) {
    const show = document.createElement('button');
    show.type = 'button';
    show.textContent = t('author.show_place');
    // Brings the place to a third of the view (the section's heading when no block of it shows).
    show.addEventListener('click', () => {
      if (placeY !== null) tryCommand({ type: 'scroll', by: placeY - document.getElementById('canvas').clientHeight / 3 });
      else { const s = sectionFor(bannerPlace); if (s) tryCommand({ type: 'goto', section: s.anchor }); }
    });
    buttons.append(show);
  }
  const hide = document.createElement('button');
  hide.type = 'button';
  hide.textContent = t('author.hide');
  hide.addEventListener('click', () => { banner.hidden = true; });
  buttons.append(hide);
  banner.append(heading, list, buttons);
  banner.hidden = false;
  placeBanner(true);
}

function hideProblems() {
  banner.hidden = true;
  banner.replaceChildren();
  bannerPlace = null;
}

// Follows the page's scroll: only when the engine drew a frame since the last look.
let placedAt = '';
let placeY = null;   // where the place is, CSS px from the canvas's top (before holding it in view)
function placeBanner(force = false) {
  if (!banner.hidden) {
    // Placed again after an engine frame (the page scrolled or changed) or a resize.
    const canvas = document.getElementById('canvas');
    const key = `${window.Module?._np_engine_frames?.()}:${canvas.clientWidth}x${canvas.clientHeight}`;
    if (force || key !== placedAt) {
      placedAt = key;
      const state = np.state();
      const box = canvas.getBoundingClientRect(), stageBox = stage.getBoundingClientRect();
      // Its width first: the height it is measured at below depends on it.
      const column = state.layout.column;   // [x, y, width, height] in the canvas, CSS px
      const left = column && column[2] > 200 ? column[0] : 8;
      const width = column && column[2] > 200 ? column[2] : box.width - 16;
      banner.style.left = `${box.left - stageBox.left + left}px`;
      banner.style.width = `${width}px`;
      const section = sectionFor(bannerPlace);
      let y = section && typeof section.top === 'number' ? section.top - state.layout.scroll : 0;
      // Closer than the section: the block the problem is in (its top), else the last block
      // before it that the page shows (its bottom), when that block is in the same section.
      const rects = new Map([...state.widgets, ...state.checks, ...state.reveals].filter(b => b.rect).map(b => [b.id, b.rect]));
      for (const block of bannerPlace?.blocks || []) {
        const rect = rects.get(block.id);
        if (!rect) continue;
        if (block.line >= bannerPlace.sectionLine) {
          // Just above the block the problem is in (so it stays readable), or just below the
          // block before the place (a block the last good version does not have).
          y = block.inside ? rect[1] - banner.offsetHeight - 6 : rect[1] + rect[3] + 4;
          banner.dataset.block = block.id;
        }
        break;
      }
      placeY = section || banner.dataset.block ? y : null;
      const room = Math.max(0, box.height - banner.offsetHeight - 8);
      y = Math.min(Math.max(8, y), room);
      banner.style.top = `${box.top - stageBox.top + y}px`;
      banner.dataset.section = section ? section.anchor : '';
      if (!bannerPlace?.blocks?.some(b => rects.has(b.id))) delete banner.dataset.block;
    }
  }
  requestAnimationFrame(() => placeBanner());
}

const chip = document.createElement('p');
chip.className = 'np-author-chip';
chip.setAttribute('aria-live', 'polite');
stage.append(chip);
// Shown for a few seconds, then faded (on a phone it would cover the lesson's last lines);
// a stopped server stays said.
let quiet = 0;
function say(key) {
  chip.textContent = t(key, { file });
  chip.dataset.kind = key;
  chip.classList.remove('np-author-quiet');
  clearTimeout(quiet);
  if (key !== 'author.stopped') quiet = setTimeout(() => chip.classList.add('np-author-quiet'), 4000);
}

// [SECTION] Live updates --------------------------------------------------------------------------

async function textFor(status) {
  const lang = np.params.lang;
  const own = lang !== 'en' && status.languages.includes(lang);
  const response = await fetch(own ? `lessons/${lang}/${status.id}.md` : `lessons/${status.id}.md`, { cache: 'no-store' });
  if (!response.ok) return null;
  return { text: await response.text(), lang: own ? lang : 'en' };
}

let catalogues = 0;
async function reloadCatalogue() {
  const lang = np.params.lang;
  const response = await fetch(`lessons/strings/${lang}.strings`, { cache: 'no-store' });
  if (!response.ok) return;
  const text = await response.text();
  const M = window.Module;
  const encode = s => new TextEncoder().encode(s);
  // English is compiled into the engine and np_use_language('en') goes back to that copy; the
  // author's edited English goes over it under a private-use tag of English instead.
  const code = lang === 'en' ? 'en-x-live' : lang;
  const parts = [encode(code), encode(text)].map(bytes => {
    const pointer = M._np_alloc(bytes.length);
    M.HEAPU8.set(bytes, pointer);
    M.HEAPU8[pointer + bytes.length] = 0;
    return [pointer, bytes.length];
  });
  try { M.ccall('np_use_language', 'string', ['number', 'number', 'number', 'number'], parts.flat()); }
  finally { for (const [pointer] of parts) M._np_free(pointer); }
}

let busy = Promise.resolve();
function onUpdate(status) {
  busy = busy.then(async () => {
    file = status.file;
    if (status.version === shownVersion) return;
    shownVersion = status.version;
    if (status.catalogues !== catalogues) {
      catalogues = status.catalogues;
      await reloadCatalogue().catch(error => console.warn(`author: catalogue: ${error.message}`));
    }
    const mine = status.problems.filter(p => p.lang === null || p.lang === 'en' || p.lang === np.params.lang);
    if (mine.length) { showProblems(mine); return; }
    const next = await textFor(status);
    if (!next) return;
    if (lastGood && next.text === lastGood.text && next.lang === lastGood.lang) { hideProblems(); return; }
    const result = await swapIn(next.text, next.lang);
    if (!result.ok) {
      // The engine refused what the checker passed (a limit of the page): its own lines, named
      // after the author's file.
      showProblems(result.errors.map(text => ({ text: text.replace(/^lessons\/[a-z0-9-]+\.md/, file), section: null })));
      return;
    }
    hideProblems();
    say('author.updated');
  }).catch(error => console.warn(`author: ${error.message}`));
}

np.ready.catch(() => {}).then(async () => {
  const state = np.state();
  // The page opened the server's text; the first update names the version it was.
  const first = await fetch('author/status', { cache: 'no-store' }).then(r => r.json());
  file = first.file;
  const opened = state && !state.errors.length && state.sections.length ? await textFor(first) : null;
  if (opened) { lastGood = opened; shownVersion = first.version; }
  catalogues = first.catalogues;
  if (first.problems.length) { shownVersion = -1; }
  say('author.live');
  placeBanner();
  const events = new EventSource('author/events');
  events.addEventListener('update', event => onUpdate(JSON.parse(event.data)));
  events.addEventListener('error', () => say('author.stopped'));   // the browser tries again every half second
  events.addEventListener('open', () => { if (chip.dataset.kind === 'author.stopped') say('author.live'); });
});
