// Sharing what the learner sees, and saving a figure (issue #14). Uses window.neuralpath only.
//
//   neuralpath.share()             a URL that reopens this lesson at this section with every
//                                  changed figure as it is now (sentence, mask, stage, selected
//                                  cell, length, playback step...): the engine's "snapshot",
//                                  deflated and base64url-encoded into ?s=, no server needed
//   neuralpath.exportPng(id)       a PNG data URL of figure `id` at the device pixel ratio, with
//                                  a caption: the lesson, the figure's sentence, the link
//   neuralpath.exportCsv(id)       the heatmap's weights as CSV text
//   Share button (tool bar)        copies share() to the clipboard (or shows it to copy)
//   "Save image" / "Numbers (CSV)" the engine draws them under each figure; their 'export'
//                                  event downloads the file
//   opening ?s=                    restores the shared section and figures; np-storage.js does
//                                  not save while a shared view is shown (params.shared), so the
//                                  learner's own saved progress is untouched until they choose
//                                  "Save my progress from here"
//
// [SECTION] Encoding a state into a link
// [SECTION] Share
// [SECTION] Opening a shared link
// [SECTION] Pictures and numbers of a figure
// [SECTION] Buttons and notes

import { toolbar, noteSlot } from './np-mirror.js';
import { languageSwitch } from './np-lang.js';
import { words } from './np-strings.js';
import { nestingOver } from './np-json.js';
import { readAll } from './np-bytes.js';
import { transportOf } from './np-protocol.js';

const np = window.neuralpath;
const t = (key, args) => np.text(key, args);

// A picture of a figure copies the canvas some frames after the engine drew it; WebGL keeps
// the drawn pixels that long only with preserveDrawingBuffer. The engine's context is created
// after this module runs (np-app.js loads lesson.js once the catalogue is in), so asking here
// is in time; the page draws only when something changes, so keeping the buffer costs little.
const stage = document.getElementById('canvas');
const ownGetContext = stage.getContext.bind(stage);
stage.getContext = (type, attributes = {}) =>
  ownGetContext(type, /^webgl/.test(type) ? { ...attributes, preserveDrawingBuffer: true } : attributes);

// [SECTION] Encoding a state into a link ---------------------------------------------------------
// "z" + base64url(deflate-raw(JSON)) where the browser compresses, else "j" + base64url(JSON);
// whichever is shorter. Version 1 of the payload: {v: 1, s: section, w: {id: snapshot}, p: step}.
// A link is read only as far as the engine's limits allow (neuralpath.limits: its characters,
// the JSON's bytes once unpacked and how deep it nests), each checked before the next step: a
// 13 KB link once inflated to 5M nested arrays and froze the tab for a minute.
const PAYLOAD_VERSION = 1;

const toBase64Url = bytes => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromBase64Url = text => {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, c => c.charCodeAt(0));
};
async function through(stream, bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

export async function encodeState(payload) {
  const json = new TextEncoder().encode(JSON.stringify(payload));
  const plain = 'j' + toBase64Url(json);
  if (typeof CompressionStream !== 'function') return plain;
  try {
    const packed = 'z' + toBase64Url(await through(new CompressionStream('deflate-raw'), json));
    return packed.length < plain.length ? packed : plain;
  } catch { return plain; }
}

// Inflates at most `limit` bytes; more is refused (TooBig) without reading on.
class TooBig extends Error {}
async function inflate(bytes, limit) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return readAll(stream, { limit, tooBig: () => new TooBig(t('share.too_big_unpacked')) });
}

// `limits`: the engine's (neuralpath.limits); the decoder never reads past them.
export async function decodeState(text, limits = np.limits) {
  if (typeof text !== 'string' || text.length < 2 || !/^[jz][A-Za-z0-9_-]+$/.test(text))
    throw new Error(words('share.bad_state'));
  if (!limits) throw new Error(words('share.not_ready'));
  if (text.length > limits.shared_state_chars)
    throw new Error(t('share.too_long', { n: np.format('count', text.length), max: np.format('count', limits.shared_state_chars) }));
  let bytes;
  try { bytes = fromBase64Url(text.slice(1)); } catch { throw new Error(t('share.damaged')); }
  if (text[0] === 'z') {
    if (typeof DecompressionStream !== 'function') throw new Error(words('share.cannot_unpack'));
    try { bytes = await inflate(bytes, limits.shared_state_bytes); } catch (error) {
      throw error instanceof TooBig ? error : new Error(t('share.damaged'));   // not the stream's "Failed to fetch"
    }
  }
  if (bytes.length > limits.shared_state_bytes) throw new Error(t('share.too_big_unpacked'));
  let json;
  try { json = new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch { throw new Error(t('share.damaged')); }
  if (nestingOver(json, limits.json_depth)) throw new Error(words('share.bad_state'));
  let payload;
  try { payload = JSON.parse(json); } catch { throw new Error(t('share.damaged')); }
  if (!payload || typeof payload !== 'object' || payload.v !== PAYLOAD_VERSION) throw new Error(words('share.bad_version'));
  return payload;
}

// [SECTION] Share -------------------------------------------------------------------------------
// The board the learner plays through (any kind with a transport), when it is past its start.
function playbackOf(state) {
  const board = transportOf(state);
  return board && Number.isInteger(board.step) && board.step > 0 ? { id: board.id, step: board.step } : null;
}

async function share() {
  const state = np.state();
  if (!state) throw new Error(words('share.not_ready'));
  const snap = np.command({ type: 'snapshot' });
  const payload = { v: PAYLOAD_VERSION, s: snap.section || '' };
  if (snap.widgets && Object.keys(snap.widgets).length) payload.w = snap.widgets;
  const board = playbackOf(state);
  if (board) payload.p = [board.id, board.step];
  // The lesson page itself, whatever frame or theme this one has: the link is for a person.
  const url = new URL('lesson.html', location.href);
  url.search = '';
  url.searchParams.set('lesson', np.params.lesson);
  if (payload.s) url.searchParams.set('section', payload.s);
  if (payload.w || payload.p) {
    const encoded = await encodeState(payload);
    // Never a link the decoder (or a web server) would refuse.
    if (encoded.length > np.limits.shared_state_chars) throw new Error(t('share.view_too_big'));
    url.searchParams.set('s', encoded);
  }
  url.hash = '';
  return url.href;
}

// [SECTION] Opening a shared link ---------------------------------------------------------------
// The section is in ?section= (np-app.js goes there itself); the figures follow once decoded.
async function openShared() {
  const raw = new URLSearchParams(location.search).get('s');
  if (!raw) return;   // "?s=" with nothing in it is no shared view (np-app.js: params.shared is false)
  await np.ready;   // the notes below need the catalogue
  let payload;
  try { payload = await decodeState(raw); } catch (error) {
    showNote(t('share.shared_bad', { error: error.message }));
    resumeSaving();   // nothing shared was shown: the learner's own page, saved as usual
    return;
  }
  let partly = false;
  if (payload.w && typeof payload.w === 'object') {
    try {
      const reply = np.command({ type: 'restoreSnapshot', widgets: payload.w });
      partly = Array.isArray(reply.dropped) && reply.dropped.length > 0;
    } catch { partly = true; }
  }
  if (Array.isArray(payload.p) && typeof payload.p[0] === 'string' && Number.isInteger(payload.p[1])) {
    try { np.command({ type: 'seek', step: payload.p[1], widget: payload.p[0] }); } catch { partly = true; }
  }
  if (typeof payload.s === 'string' && payload.s) {
    try { np.goto(payload.s); } catch { partly = true; }
  }
  showSharedNote(partly);
}

function resumeSaving() {
  np.events.dispatchEvent(new CustomEvent('shared-view-end', { detail: {} }));
}

// [SECTION] Pictures and numbers of a figure ----------------------------------------------------
const frame = () => new Promise(resolve => requestAnimationFrame(() => resolve()));

function widgetOf(state, id) {
  const widget = (state.widgets || []).find(w => w.id === id);
  if (!widget) throw new Error(t('share.no_such_widget', { id }));
  return widget;
}

// Where the engine's page begins on the canvas (CSS px): under its 48 px top bar on a phone, at
// 0 on a desk (layout.column's top). A figure scrolled to the canvas's very top sits under that
// bar, and the bar's pixels were saved in its place (#15: the heatmap's rotated "down" read
// "dowr" in the saved image).
const pageTop = state => (Array.isArray(state.layout?.column) ? state.layout.column[1] : 0);

// Scrolls the engine's page so that row `offset` of figure `id` (CSS px from its top) is at the
// top of the page's view, as near as the page's ends allow; resolves to the state once drawn
// and still. Parts of the page above may change height as they come into view, moving the
// figure after the scroll: it scrolls again until the figure stays put.
async function scrollFigure(id, offset) {
  let state = np.state();
  if (!Array.isArray(widgetOf(state, id).rect) && widgetOf(state, id).section) {
    np.goto(widgetOf(state, id).section);   // a figure in a closed part of the page: open it first
    await frame();
    await frame();
    state = np.state();
  }
  let last = null;
  for (let attempt = 0; attempt < 8; ++attempt) {
    const rect = widgetOf(state, id).rect;
    if (!Array.isArray(rect)) throw new Error(t('share.not_visible', { id }));
    const off = rect[1] + offset - pageTop(state);
    const still = last && Math.abs(last[1] - rect[1]) < 0.5 && Math.abs(last[3] - rect[3]) < 0.5;
    if (still && (Math.abs(off) <= 1 || (off > 0 && state.layout.scroll >= state.layout.scroll_max - 0.5) ||
                  (off < 0 && state.layout.scroll <= 0.5))) return state;
    if (Math.abs(off) > 1) np.command({ type: 'scroll', to: Math.max(0, state.layout.scroll + off) });
    last = rect;
    await frame();
    await frame();
    state = np.state();
  }
  return state;
}

// The figure's pixels, whole. A figure taller than the view (the mask walkthrough on a phone)
// is drawn whole in one frame: the canvas's drawing buffer is made tall enough for it for the
// frames the copy takes, under a still picture of what the learner sees, then given back its
// size. Copied a screenful at a time instead, its pieces met with a seam (#34: a garbled line, a
// doubled "Show" button): Dear ImGui places a figure's parts a pixel apart once its top is
// above the screen. Returns a canvas of the figure at the device pixel ratio; the page is left
// with the figure's top under the bar.
async function captureFigure(id) {
  const canvas = document.getElementById('canvas');
  const ratio = canvas.width / Math.max(1, canvas.clientWidth);   // device pixels per CSS pixel
  let state = await scrollFigure(id, 0);
  const [x, y, w, h] = widgetOf(state, id).rect;
  const sx = Math.max(0, Math.round(x * ratio));
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.min(canvas.width - sx, Math.round(w * ratio)));
  out.height = Math.max(1, Math.round(h * ratio));
  const copy = figureState => {
    const top = Math.round(widgetOf(figureState, id).rect[1] * ratio);
    if (top < Math.floor(pageTop(figureState) * ratio) - 1 || top + out.height > canvas.height) throw new Error(t('share.not_visible', { id }));
    out.getContext('2d').drawImage(canvas, sx, top, out.width, out.height, 0, 0, out.width, out.height);
  };
  if (y + h <= canvas.clientHeight + 0.5) {
    copy(state);
    return out;
  }
  const box = canvas.getBoundingClientRect();
  const still = document.createElement('canvas');
  still.width = canvas.width;
  still.height = canvas.height;
  still.getContext('2d').drawImage(canvas, 0, 0);
  still.style.cssText = `position:absolute;left:${canvas.offsetLeft}px;top:${canvas.offsetTop}px;` +
    `width:${box.width}px;height:${box.height}px;pointer-events:none;z-index:4`;
  canvas.after(still);
  const setViewport = height => window.Module._np_set_viewport(Math.max(1, box.width), height, ratio);
  try {
    setViewport(Math.ceil(y + h + 2));
    for (let wait = 0; wait < 8; ++wait) {   // drawn at the new size, and still
      await frame();
      await frame();
      state = np.state();
      if (canvas.height >= Math.round((y + h) * ratio) && Math.abs(widgetOf(state, id).rect[3] - h) < 0.01) break;
    }
    state = await scrollFigure(id, 0);
    copy(state);
  } finally {
    setViewport(Math.max(1, box.height));
    await frame();
    await frame();
    still.remove();
  }
  return out;
}

function sentenceOf(widget) {
  for (const key of ['sentence', 'text']) if (typeof widget[key] === 'string' && widget[key]) return widget[key];
  if (Array.isArray(widget.tokens) && widget.tokens.length) return widget.tokens.join(' ');
  return '';
}

// Wraps `text` to lines no wider than `width` in the context's current font; a word longer
// than a line (a shared link's state) is cut where the line ends (#34: the title and the link
// ran off the picture's right edge).
function wrap(ctx, text, width) {
  const lines = [];
  let line = '';
  const fits = s => ctx.measureText(s).width <= width;
  for (let word of String(text).split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next)) { line = next; continue; }
    if (line) lines.push(line);
    while (!fits(word) && word.length > 1) {
      let cut = 1;
      while (cut < word.length && fits(word.slice(0, cut + 1))) cut++;
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
    }
    line = word;
  }
  if (line) lines.push(line);
  return lines;
}

async function exportPng(id) {
  await np.ready;
  const figure = await captureFigure(String(id));
  const state = np.state();
  const widget = widgetOf(state, String(id));
  const canvas = document.getElementById('canvas');
  const ratio = canvas.width / Math.max(1, canvas.clientWidth);   // device pixels per CSS pixel
  const sw = figure.width, sh = figure.height;
  const link = await share();

  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');
  const pad = Math.round(12 * ratio);
  const body = Math.round(14 * ratio), small = Math.round(12 * ratio);
  const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
  const sentence = sentenceOf(widget);
  ctx.font = `${small}px ${family}`;
  const linkLines = wrap(ctx, t('share.caption_link', { url: link }).replace(/([/?&=])/g, '$1 '), sw - 2 * pad)
    .map(l => l.replace(/([/?&=]) /g, '$1'));
  const lines = [];
  const font = (size, bold) => `${bold ? 'bold ' : ''}${size}px ${family}`;
  ctx.font = font(body, true);
  for (const l of wrap(ctx, state.title || np.params.lesson, sw - 2 * pad)) lines.push({ text: l, size: body, bold: true });
  ctx.font = font(body, false);
  if (sentence) for (const l of wrap(ctx, t('share.caption_sentence', { sentence }), sw - 2 * pad)) lines.push({ text: l, size: body });
  for (const l of linkLines) lines.push({ text: l, size: small, muted: true });
  const lineHeight = size => Math.round(size * 1.35);
  const captionHeight = pad * 2 + lines.reduce((sum, l) => sum + lineHeight(l.size), 0);
  out.width = sw;
  out.height = sh + captionHeight;
  const styles = getComputedStyle(document.documentElement);
  const dark = document.documentElement.dataset.theme === 'dark';
  ctx.fillStyle = styles.getPropertyValue('--np-bg').trim() || (dark ? '#15171c' : '#ffffff');
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(figure, 0, 0);
  let top = sh + pad;
  for (const l of lines) {
    ctx.font = `${l.bold ? 'bold ' : ''}${l.size}px ${family}`;
    ctx.fillStyle = styles.getPropertyValue('--np-fg').trim() || (dark ? '#e8e8ea' : '#1d1d1f');
    ctx.globalAlpha = l.muted ? 0.7 : 1;
    ctx.textBaseline = 'top';
    ctx.fillText(l.text, pad, top);
    ctx.globalAlpha = 1;
    top += lineHeight(l.size);
  }
  return out.toDataURL('image/png');
}

// RFC 4180: commas between cells, '.' decimals whatever the page's language, a cell holding a
// comma, a line break or a double quote quoted, its quotes doubled.
const QUOTE = String.fromCharCode(34);
function csvCell(value) {
  const text = typeof value === 'number' ? String(value) : String(value ?? '');
  if (!/[,\n\r]/.test(text) && !text.includes(QUOTE)) return text;
  return QUOTE + text.split(QUOTE).join(QUOTE + QUOTE) + QUOTE;
}

function exportCsv(id) {
  const state = np.state();
  if (!state) throw new Error(words('share.not_ready'));
  const widget = widgetOf(state, String(id));
  if (widget.kind !== 'heatmap' || !Array.isArray(widget.tokens) || !Array.isArray(widget.weights))
    throw new Error(t('share.no_csv'));
  const rows = [[t('widgets.grid_corner'), ...widget.tokens]];
  widget.weights.forEach((row, i) => rows.push([widget.tokens[i], ...row.map(v => Number(v.toFixed(6)))]));
  return rows.map(r => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function download(name, href) {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

np.events.addEventListener('export', async event => {
  const { widget, format } = event.detail || {};
  if (typeof widget !== 'string') return;
  const base = `${np.params.lesson}-${widget}`.replace(/[^A-Za-z0-9_-]/g, '-');
  try {
    if (format === 'csv') {
      const url = URL.createObjectURL(new Blob([exportCsv(widget)], { type: 'text/csv' }));
      download(`${base}.csv`, url);
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      np.announce(t('share.saved_csv'));
    } else {
      download(`${base}.png`, await exportPngInTurn(widget));
      np.announce(t('share.saved_image'));
    }
  } catch (error) {
    np.announce(t('share.export_failed', { error: error.message }));
  }
});

// [SECTION] Buttons and notes -------------------------------------------------------------------
let note = null;
let noteTimer = 0;
// A confirmation ("Link copied") goes by itself after a few seconds, so it does not stay over
// the lesson or pile up with the page's other notes (#34); a note asking something stays.
const CONFIRMATION_MS = 4000;
function showConfirmation(text) {
  showNote(text);
  noteTimer = setTimeout(() => { note.hidden = true; }, CONFIRMATION_MS);
}
function showNote(text, ...controls) {
  clearTimeout(noteTimer);
  if (!note) {
    note = document.createElement('div');
    note.className = 'np-note np-note-info np-share-note';
    note.setAttribute('role', 'status');
    noteSlot().append(note);
  }
  const p = document.createElement('span');
  p.textContent = text;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'np-note-dismiss';
  close.setAttribute('aria-label', t('widgets.close'));
  close.textContent = '×';
  close.addEventListener('click', () => { note.hidden = true; });
  note.replaceChildren(p, ...controls, close);
  note.hidden = false;
  return note;
}

function showSharedNote(partly) {
  const keep = document.createElement('button');
  keep.type = 'button';
  keep.textContent = t('share.shared_keep');
  keep.addEventListener('click', () => {
    resumeSaving();
    showConfirmation(t('share.shared_kept'));
    np.announce(t('share.shared_kept'));
  });
  showNote(t('share.shared_note') + (partly ? ` ${t('share.shared_partly')}` : ''), keep);
}

async function copyLink() {
  const url = await share();
  try {
    await navigator.clipboard.writeText(url);
    showConfirmation(t('share.copied'));
    np.announce(t('share.copied'));
  } catch {
    // No clipboard (an insecure origin, a refused permission): the link to copy by hand.
    const field = document.createElement('input');
    field.type = 'text';
    field.readOnly = true;
    field.value = url;
    field.className = 'np-share-link';
    field.setAttribute('aria-label', t('share.copy_here'));
    showNote(t('share.copy_here'), field);
    field.select();
  }
}

const shareButton = document.createElement('button');
shareButton.type = 'button';
shareButton.className = 'np-tool';
shareButton.hidden = true;   // until the catalogue can name it
shareButton.addEventListener('click', () => copyLink().catch(error => np.announce(t('share.export_failed', { error: error.message }))));
toolbar().append(shareButton);

np.onEngineReady(async () => {
  shareButton.textContent = t('share.share');
  shareButton.title = t('share.share_tip');
  shareButton.hidden = false;
  const current = () => { try { return np.state().section || null; } catch { return null; } };
  toolbar().append(await languageSwitch(np.params.lang, t('language.choose'), current));
});

// One picture at a time: each scrolls the page to its figure and copies the canvas, so two at
// once moved each other's figure away and both failed (#35).
let exporting = Promise.resolve();
function exportPngInTurn(id) {
  const turn = exporting.then(() => exportPng(id));
  exporting = turn.catch(() => {});
  return turn;
}

np.provide('share', share);
np.provide('exportPng', exportPngInTurn);
np.provide('exportCsv', exportCsv);
openShared().catch(error => console.warn(`shared link: ${error.message}`));
