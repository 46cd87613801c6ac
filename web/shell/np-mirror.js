// The text version: a DOM mirror of the lesson the canvas draws, for screen readers, keyboards,
// and anyone who reads text better than a picture. Headings, prose, equations as readable text,
// knowledge checks as real buttons, reveals, widget summaries and playback controls. Every
// control acts through window.neuralpath, so the canvas follows; feedback and narration are
// announced through the page's live region.
//
// How it sits with the canvas: the panel is always in the accessibility tree. It is shown
// beside the canvas (below it on narrow screens) when the "Text version" toggle is on, and it
// opens by itself as soon as keyboard focus enters it (the skip link, or Tab past the canvas),
// so keyboard users always see where they are. Closed, it is visually hidden, not removed.
//
// Safety: every string from the lesson or the engine is written with textContent or as a Text
// node; never as HTML. Links open only http(s) and mailto addresses.
//
// Exports for the other feature modules: toolbar() (where controls in the page chrome go) and
// noteSlot() (where short visible status notes go).
//
// [SECTION] Helpers
// [SECTION] Chrome: skip link, toolbar, the panel
// [SECTION] Rendering the lesson
// [SECTION] Knowledge checks
// [SECTION] Reveals
// [SECTION] Widgets and playback
// [SECTION] Following the engine

import { countKey } from './np-strings.js';
import { progressSummary, transportOf } from './np-protocol.js';

const np = window.neuralpath;
const root = document.documentElement;
const embedded = np.params.embed;
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

// [SECTION] Helpers ------------------------------------------------------------------------------

// el('p', {class: 'x', onclick: f}, 'text', child): strings become Text nodes, never markup.
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

let idCounter = 0;
const uid = prefix => `np-m-${prefix}-${++idCounter}`;

// Every word comes from the engine's string catalogue (lessons/strings/<lang>.strings, "mirror"
// and "widgets" sections) and every number from its formats (the widgets' summaries and tables
// arrive printed in state()), so the text version and the canvas never disagree and a
// translation is a file, not code.
const t = (key, args) => np.text(key, args);

// The chrome below exists before the engine runs (and so before the catalogue): its words are
// filled in on 'engine-ready', and the visible controls stay hidden until then.
// Other page modules made before the engine runs (np-storage.js's buttons) use it as chromeText.
const chromeWords = [];
let chromeFilled = false;
const fillWords = ({ node, key, attribute }) => {
  if (attribute) node.setAttribute(attribute, t(key)); else node.textContent = t(key);
};
function words(node, key, attribute = null) {
  chromeWords.push({ node, key, attribute });
  if (chromeFilled) fillWords({ node, key, attribute });
  return node;
}
export { words as chromeText };
function fillChromeWords() {
  chromeFilled = true;
  for (const entry of chromeWords) fillWords(entry);
  toggle.hidden = false;
  skip.hidden = false;
}

function sameSite(href) {
  try {
    const target = new URL(href, location.href);
    return target.origin === location.origin && target.pathname.startsWith(new URL('./', location.href).pathname);
  } catch { return false; }
}

function safeHref(link) {
  try {
    const url = new URL(String(link), location.href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch { return null; }
}

// Inline runs -> nodes: <strong>, <em>, <code>, <s>, maths as text, links, line breaks.
function runNodes(runs, fallbackText = '') {
  if (!Array.isArray(runs) || runs.length === 0) return fallbackText ? [document.createTextNode(fallbackText)] : [];
  return runs.map(run => {
    if (run.break) return el('br');
    let node = document.createTextNode(String(run.text ?? ''));
    if (run.code) node = el('code', {}, node);
    if (run.math) node = el('span', { class: 'np-m-math' }, node);
    if (run.strike) node = el('s', {}, node);
    if (run.italic) node = el('em', {}, node);
    if (run.bold) node = el('strong', {}, node);
    if (run.link) {
      const href = safeHref(run.link);
      // Another page of this site (a lesson) opens in this tab, as on the canvas (np-app.js).
      if (href && sameSite(href) && !embedded) node = el('a', { href }, node);
      else if (href) node = el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, node,
        el('span', { class: 'np-sr-only', text: ` ${t('mirror.new_tab')}` }));
    }
    return node;
  });
}

// Sets text only when it changed, so screen readers are not disturbed by identical rewrites.
function setText(node, text) {
  const value = String(text ?? '');
  if (node.textContent !== value) node.textContent = value;
}

function scrollIntoViewGently(node) {
  node.scrollIntoView({ block: 'nearest', behavior: reducedMotion.matches ? 'auto' : 'smooth' });
}

// [SECTION] Chrome: skip link, toolbar, the panel -------------------------------------------------

const stage = document.getElementById('np-stage');
const chrome = document.querySelector('.np-chrome');

// Controls other modules add (reset progress, ...) live in the chrome's toolbar; in embed mode,
// where the chrome is gone, in a slim bar above the lesson.
const tools = words(el('div', { class: 'np-tools', role: 'group' }), 'mirror.tools', 'aria-label');
const notes = el('div', { class: 'np-notes' });
if (embedded || !chrome) {
  const bar = el('div', { class: 'np-embed-bar' }, tools, notes);
  stage.before(bar);
} else {
  chrome.append(tools);
  stage.append(notes);   // a small note floating at the bottom of the stage
}
export const toolbar = () => tools;
export const noteSlot = () => notes;

const panel = el('aside', { id: 'np-mirror', class: 'np-mirror', 'aria-labelledby': 'np-m-title', tabindex: '-1' });
const panelHead = el('div', { class: 'np-m-head' });
const kicker = words(el('p', { class: 'np-m-kicker' }), 'mirror.kicker');
const titleHeading = words(el('h1', { id: 'np-m-title', tabindex: '-1' }), 'mirror.lesson');
const progressLine = el('p', { class: 'np-m-progress' });
const closeButton = words(el('button', { type: 'button', class: 'np-m-close',
  onclick: () => { setOpen(false, { remember: true }); toggle.focus(); } }), 'mirror.hide');
const sectionNav = words(el('nav', { class: 'np-m-toc' }), 'mirror.sections', 'aria-label');
const body = el('div', { class: 'np-m-body' });
panelHead.append(kicker, titleHeading, progressLine, closeButton);
panel.append(panelHead, sectionNav, body);
// In embed mode the frame grows to fit, so the panel goes above the (tall) canvas where it is
// seen at once; on the full page it sits after the canvas, beside it when open.
if (embedded) stage.before(panel); else stage.after(panel);

const toggle = words(el('button', { type: 'button', class: 'np-tool', 'aria-pressed': 'false',
  'aria-controls': 'np-mirror', hidden: true,
  onclick: () => setOpen(!isOpen(), { remember: true, focus: !isOpen() }) }), 'mirror.toggle');
tools.prepend(toggle);

const skip = words(el('a', { class: 'np-skip', href: '#np-mirror', hidden: true,
  onclick: event => { event.preventDefault(); setOpen(true, { focus: true }); } }), 'mirror.skip');
document.body.prepend(skip);

// Three states. 'available' (the default): out of sight but read by screen readers, and shown
// as soon as keyboard focus enters it. 'open': shown. 'hidden': the reader closed it, so it
// leaves the tab order too (Tab then goes on to the canvas); the toggle brings it back.
// An explicit choice is remembered for the next visit.
const choiceKey = 'neuralpath:v1:text-version';
function rememberChoice(mode) {
  try { localStorage.setItem(choiceKey, mode); } catch { /* a preference only */ }
}
function rememberedChoice() {
  try { return localStorage.getItem(choiceKey) || 'available'; } catch { return 'available'; }
}

const isOpen = () => document.body.classList.contains('np-mirror-open');
function setMode(mode, { remember = false, focus = false } = {}) {
  const open = mode === 'open';
  document.body.classList.toggle('np-mirror-open', open);
  panel.classList.toggle('np-mirror-closed', !open);
  panel.hidden = mode === 'hidden';
  toggle.setAttribute('aria-pressed', String(open));
  if (remember) rememberChoice(mode);
  if (open && focus) titleHeading.focus();
  window.dispatchEvent(new Event('np-layout'));  // np-host re-measures the page
}
const setOpen = (open, options) => setMode(open ? 'open' : 'hidden', options);
setMode(['open', 'hidden'].includes(rememberedChoice()) ? rememberedChoice() : 'available');
// Keyboard focus entering the unseen panel shows it: a sighted keyboard user must see it.
panel.addEventListener('focusin', () => { if (!isOpen()) setMode('open'); });
if (embedded && document.getElementById('canvas')) words(document.getElementById('canvas'), 'mirror.canvas_embedded', 'aria-label');
np.onEngineReady(fillChromeWords);

// [SECTION] Rendering the lesson --------------------------------------------------------------------

// Everything the live updates need to find again, keyed by check / reveal id and widget.
const views = { checks: new Map(), reveals: new Map(), widgets: [], sections: new Map(), nav: new Map() };
let documentData = null;

// The lesson as plain data from the engine (np_document); older engines without it give a
// mirror built from state() alone: section titles and the checks.
function loadDocument(state) {
  try {
    const doc = window.neuralpath.document();
    if (doc && Array.isArray(doc.sections)) return doc;
  } catch (error) {
    console.warn(`text version: the engine gave no document (${error.message}); showing a shorter one`);
  }
  const checks = Array.isArray(state?.checks) ? state.checks : [];
  return {
    title: state?.title || '', intro: [],
    sections: (state?.sections || []).map((section, index) => ({
      anchor: section.anchor, title: section.title, level: section.level || '',
      blocks: index === 0 ? checks.map(check => ({ kind: 'check', id: check.id, question: check.question,
        text: check.question, multiple: !!check.multiple, predict: check.kind === 'predict',
        options: (check.options || []).map(option => ({ text: String(option) })), hint: '' })) : [],
    })),
  };
}

function render(state) {
  documentData = loadDocument(state);
  views.checks.clear(); views.reveals.clear(); views.widgets = []; views.sections.clear(); views.nav.clear();
  setText(titleHeading, documentData.title || state?.title || np.params.lesson);

  const errors = Array.isArray(state?.errors) ? state.errors : [];
  const content = [];
  if (errors.length) {
    content.push(el('div', { class: 'np-m-errors', role: 'alert' },
      el('p', { text: t('mirror.problems') }),
      el('ul', {}, ...errors.map(message => el('li', { text: String(message) })))));
  }
  if (documentData.summary) content.push(el('p', { class: 'np-m-summary', text: documentData.summary }));
  content.push(...renderBlocks(documentData.intro || [], ''));

  const navList = el('ol');
  for (const section of documentData.sections) {
    const headingId = `np-m-sec-${section.anchor}`;
    // A space between title and level, so the heading reads "Queries (Medium)" aloud and copied.
    const heading = el('h2', { id: headingId, tabindex: '-1' }, section.title, section.level ? ' ' : null,
      section.level ? el('span', { class: 'np-m-level', text: t('mirror.level', { level: t(`levels.${section.level}`) }) }) : null);
    const region = el('section', { class: 'np-m-section', 'aria-labelledby': headingId, 'data-anchor': section.anchor },
      heading, ...renderBlocks(section.blocks || [], section.anchor));
    views.sections.set(section.anchor, { region, heading });
    content.push(region);
    const link = el('a', { href: `#${headingId}`, text: section.title, onclick: event => {
      event.preventDefault();
      // Beside the canvas, the canvas goes there too. Embedded, the text sits above the canvas
      // in the host's page: moving the canvas would scroll the host away from the reader.
      if (!embedded) act(() => np.goto(section.anchor));
      heading.focus();
      scrollIntoViewGently(heading);
    } });
    views.nav.set(section.anchor, link);
    navList.append(el('li', {}, link));
  }
  sectionNav.replaceChildren(el('h2', { class: 'np-m-toc-title', text: t('mirror.sections') }), navList);
  sectionNav.hidden = documentData.sections.length < 2;
  body.replaceChildren(...content);
  update(state);
}

function renderBlocks(blocks, anchor) {
  return blocks.map(block => renderBlock(block, anchor)).filter(Boolean);
}

function renderBlock(block, anchor) {
  switch (block.kind) {
    case 'paragraph': return el('p', {}, ...runNodes(block.runs, block.text));
    case 'heading': {
      const level = Math.min(6, Math.max(3, Number(block.level) || 3));
      return el(`h${level}`, {}, ...runNodes(block.runs, block.text));
    }
    case 'list': {
      const list = el(block.ordered ? 'ol' : 'ul', block.ordered && block.start !== 1 ? { start: block.start } : {});
      for (const item of block.items || []) list.append(el('li', {}, ...renderBlocks(item, anchor)));
      return list;
    }
    case 'quote': return el('blockquote', {}, ...renderBlocks(block.blocks || [], anchor));
    case 'rule': return el('hr');
    case 'table': return renderTable(block);
    case 'equation': return renderEquation(block);
    case 'code': return renderCode(block);
    case 'callout': return renderCallout(block, anchor);
    case 'check': return renderCheck(block);
    case 'reveal': return renderReveal(block, anchor);
    case 'widget': return renderWidget(block, anchor);
    default: return block.text ? el('p', { text: block.text }) : null;
  }
}

function renderTable(block) {
  const table = el('table');
  if (block.header?.length) {
    table.append(el('thead', {}, el('tr', {}, ...block.header.map(cell =>
      el('th', { scope: 'col' }, ...runNodes(cell.runs, cell.text))))));
  }
  table.append(el('tbody', {}, ...(block.rows || []).map(row =>
    el('tr', {}, ...row.map(cell => el('td', {}, ...runNodes(cell.runs, cell.text)))))));
  // A wide table scrolls sideways inside a focusable, labelled region (keyboard can scroll it).
  return el('div', { class: 'np-m-table', role: 'region', tabindex: '0', 'aria-label': t('mirror.table') }, table);
}

function renderEquation(block) {
  const figure = el('figure', { class: 'np-m-equation' },
    el('p', {}, el('span', { class: 'np-sr-only', text: `${t('mirror.equation')} ` }), el('span', { class: 'np-m-math', text: block.text })));
  if (block.caption) figure.append(el('figcaption', {}, ...runNodes(block.caption_runs, block.caption)));
  return figure;
}

function renderCode(block) {
  const label = block.file || (block.language ? t('mirror.code_in', { language: block.language }) : t('mirror.code'));
  const figure = el('figure', { class: 'np-m-code' }, el('figcaption', { text: label }),
    el('pre', {}, el('code', { text: (block.lines || []).join('\n') })));
  if (block.caption) figure.append(el('p', { class: 'np-m-caption', text: block.caption }));
  return figure;
}

function renderCallout(block, anchor) {
  const name = t(`mirror.callout.${['tip', 'mistake', 'note'].includes(block.callout) ? block.callout : 'note'}`);
  return el('div', { class: `np-m-callout np-m-callout-${block.callout || 'note'}`, role: 'note' },
    el('p', { class: 'np-m-callout-title' }, el('strong', { text: `${name}${block.title ? ': ' : ''}` }),
      ...runNodes(block.title_runs, block.title)),
    ...renderBlocks(block.blocks || [], anchor));
}

// Runs a command; a refusal is shown to the learner (announced) and logged, never thrown.
function act(run, where) {
  try {
    const reply = run();
    refreshSoon();
    return reply;
  } catch (error) {
    const message = String(error.message || error);
    if (where) { setText(where, message); where.hidden = false; where.dataset.error = 'true'; }
    np.announce(message);
    console.warn(`text version: ${message}`);  // for developers: not translated
    return null;
  }
}

// [SECTION] Knowledge checks -------------------------------------------------------------------------
// Single answer: each option is a button that answers at once. Several answers: options are
// toggle buttons (aria-pressed) and "Check answer" grades the ticked set.

function renderCheck(block) {
  const questionId = uid('q');
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const view = { block, pending: new Set(), buttons: [], feedback: null, hint: null, hintButton: null, lastAnnounced: '' };
  const options = el('ul', { class: 'np-m-options' });
  (block.options || []).forEach((option, index) => {
    const button = el('button', { type: 'button', class: 'np-m-option', 'aria-pressed': 'false',
      'data-option': index,
      onclick: () => {
        if (block.predict) {   // a guess is chosen, then locked in with its own button
          if (view.committed) return;
          view.pending = new Set([index]);
          view.buttons.forEach((b, i) => b.setAttribute('aria-pressed', String(i === index)));
        } else if (block.multiple) {
          if (view.pending.has(index)) view.pending.delete(index); else view.pending.add(index);
          button.setAttribute('aria-pressed', String(view.pending.has(index)));
        } else {
          act(() => np.answer(block.id, index), view.feedback);
        }
      } },
    el('span', { class: 'np-m-letter', 'aria-hidden': 'true', text: `${letters[index] || index + 1}` }),
    el('span', { class: 'np-m-option-text' }, ...runNodes(option.runs, option.text), el('span', { class: 'np-m-mark' })));
    view.buttons.push(button);
    options.append(el('li', {}, button));
  });
  view.list = options;
  view.order = (block.options || []).map((_, index) => index);
  view.feedback = el('p', { class: 'np-m-feedback', hidden: true });
  const group = el('div', { class: 'np-m-check', role: 'group', 'aria-labelledby': questionId, 'data-check': block.id },
    el('p', { class: 'np-m-question', id: questionId },
      el('span', { class: 'np-m-label', text: `${t(block.predict ? 'mirror.predict' : 'mirror.check')} ` }),
      ...runNodes(block.runs, block.question)),
    el('p', { class: 'np-m-instructions',
      text: t(block.predict ? 'mirror.predict_instructions' : block.multiple ? 'mirror.choose_several' : 'mirror.choose_one') }),
    options);
  const actions = el('div', { class: 'np-m-actions' });
  if (block.predict) {
    // Predict-then-reveal: nothing about the answer is on the page until the guess is locked in.
    view.commitButton = el('button', { type: 'button', class: 'np-m-submit', text: t('mirror.predict_commit'), onclick: () => {
      if (view.pending.size === 0) { np.announce(t('mirror.select_first')); return; }
      act(() => np.answer(block.id, [...view.pending][0]), view.feedback);
    } });
    actions.append(view.commitButton);
  } else if (block.multiple) {
    actions.append(el('button', { type: 'button', class: 'np-m-submit', text: t('mirror.check_answer'), onclick: () => {
      if (view.pending.size === 0) { np.announce(t('mirror.select_first')); return; }
      act(() => np.answer(block.id, [...view.pending].sort((a, b) => a - b)), view.feedback);
    } }));
  }
  if (block.hint) {
    view.hint = el('p', { class: 'np-m-hint', hidden: true },
      el('strong', { text: `${t('mirror.hint')} ` }), ...runNodes(block.hint_runs, block.hint));
    view.hintButton = el('button', { type: 'button', class: 'np-m-hint-button', 'aria-expanded': 'false',
      text: t('mirror.show_hint'), onclick: () => {
        const opening = view.hint.hidden;
        if (opening) {
          try { np.command({ type: 'hint', check: block.id }); } catch { /* the canvas may not show hints */ }
          np.announce(t('mirror.hint_said', { hint: block.hint }));
        }
        view.hint.hidden = !opening;
        view.hintButton.setAttribute('aria-expanded', String(opening));
        setText(view.hintButton, t(opening ? 'mirror.hide_hint' : 'mirror.show_hint'));
      } });
    actions.append(view.hintButton);
  }
  // After an attempt, as on the canvas, the learner may ask for the answer (a prediction shows
  // it with the committed guess).
  view.answerButton = el('button', { type: 'button', class: 'np-m-answer-button', hidden: true, text: t('mirror.show_answer'),
    onclick: () => {
      if (!act(() => np.command({ type: 'reveal', id: block.id }), view.feedback)) return;
      requestAnimationFrame(() => {
        const found = (np.state()?.checks || []).find(c => c.id === block.id);
        const answer = (found?.answer || []).map(i => block.options[i]?.text).filter(Boolean);
        if (answer.length) np.announce(t('mirror.answer_said', { answer: answer.join('; ') }));
      });
    } });
  actions.append(view.answerButton);
  group.append(actions);
  if (view.hint) group.append(view.hint);
  group.append(view.feedback);
  views.checks.set(block.id, view);
  return group;
}

// The options in the order the canvas shows this learner (state's check.order: option indices,
// top to bottom), lettered A, B, C from the top; each button keeps its option's index.
function orderOptions(view, order) {
  const n = view.buttons.length;
  if (!Array.isArray(order) || order.length !== n || new Set(order).size !== n ||
      !order.every(i => Number.isInteger(i) && i >= 0 && i < n) || order.join() === view.order.join()) return;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  view.order = [...order];
  view.list.append(...order.map(i => view.buttons[i].parentElement));
  order.forEach((i, place) => setText(view.buttons[i].querySelector('.np-m-letter'), letters[place] || String(place + 1)));
}

function updateCheck(view, check) {
  orderOptions(view, check.order);
  if (view.block.predict) { updatePrediction(view, check); return; }
  const chosen = new Set(Array.isArray(check.chosen) ? check.chosen : []);
  const graded = check.correct === true || check.correct === false;
  view.buttons.forEach((button, index) => {
    const picked = view.block.multiple && !graded ? view.pending.has(index) : chosen.has(index);
    button.setAttribute('aria-pressed', String(picked));
    const mark = button.querySelector('.np-m-mark');
    const answer = Array.isArray(check.answer) && check.answer.includes(index);
    setText(mark, [graded && chosen.has(index) ? t('mirror.your_answer') : '', answer ? t('mirror.right_answer') : '']
      .filter(Boolean).join(' · '));
  });
  if (graded && view.block.multiple) view.pending = new Set(chosen);
  view.answerButton.hidden = !graded || !!check.revealed;
  if (!graded) { if (!view.feedback.dataset.error) view.feedback.hidden = true; return; }
  delete view.feedback.dataset.error;
  const verdict = t(check.correct ? 'mirror.correct' : 'mirror.not_quite');
  view.feedback.hidden = false;
  view.feedback.classList.toggle('np-m-right', !!check.correct);
  view.feedback.classList.toggle('np-m-wrong', !check.correct);
  if (view.feedback.textContent !== [verdict, check.feedback].filter(Boolean).join(' '))
    view.feedback.replaceChildren(el('strong', { text: verdict }), check.feedback ? ` ${check.feedback}` : '');
}

// A predict block: the guess is marked as the learner's, then the right option, the verdict, the
// explanation and the engine's measured value (state().checks[].measured.text) appear with it.
function updatePrediction(view, check) {
  const chosen = new Set(Array.isArray(check.chosen) ? check.chosen : []);
  view.committed = !!check.committed;
  view.buttons.forEach((button, index) => {
    const picked = view.committed ? chosen.has(index) : view.pending.has(index);
    button.setAttribute('aria-pressed', String(picked));
    if (view.committed) button.setAttribute('aria-disabled', 'true');
    const answer = Array.isArray(check.answer) && check.answer.includes(index);
    setText(button.querySelector('.np-m-mark'), [view.committed && chosen.has(index) ? t('mirror.your_answer') : '',
      answer ? t('mirror.right_answer') : ''].filter(Boolean).join(' · '));
  });
  view.answerButton.hidden = true;
  if (view.commitButton) view.commitButton.hidden = view.committed;
  if (!view.committed) { if (!view.feedback.dataset.error) view.feedback.hidden = true; return; }
  delete view.feedback.dataset.error;
  const parts = [t('mirror.predict_locked'), t(check.correct ? 'mirror.correct' : 'mirror.not_quite'), check.feedback,
    check.explanation];
  if (check.measured?.text) parts.push(t('mirror.measured_now', { label: check.measured.label, value: check.measured.text }));
  const text = parts.filter(Boolean).join(' ');
  view.feedback.hidden = false;
  view.feedback.classList.toggle('np-m-right', !!check.correct);
  view.feedback.classList.toggle('np-m-wrong', !check.correct);
  if (view.feedback.textContent !== text) setText(view.feedback, text);
}

// [SECTION] Reveals ----------------------------------------------------------------------------------

function renderReveal(block, anchor) {
  const contentId = uid('reveal');
  const content = el('div', { id: contentId, class: 'np-m-reveal-body', hidden: true }, ...renderBlocks(block.blocks || [], anchor));
  const button = el('button', { type: 'button', class: 'np-m-reveal', 'aria-expanded': 'false', 'aria-controls': contentId,
    onclick: () => {
      const open = content.hidden;
      // The engine keeps reveals in the learner's progress; if it refuses, the text still opens.
      try { np.command({ type: 'reveal', id: block.id, open }); } catch (error) {
        console.warn(`text version: reveal ${block.id}: ${error.message}`);
      }
      showReveal(view, open);
      refreshSoon();
    } }, ...runNodes(block.runs, block.label || t('mirror.show_more')));
  const view = { button, content };
  views.reveals.set(block.id, view);
  return el('div', { class: 'np-m-reveal-box', 'data-reveal': block.id }, button, content);
}

function showReveal(view, open) {
  view.content.hidden = !open;
  view.button.setAttribute('aria-expanded', String(open));
}

// [SECTION] Widgets and playback ---------------------------------------------------------------------
// Each widget shows a sentence a listener can take in, its numbers as a table a screen reader
// can walk, and buttons for what the canvas lets a mouse do (other sentences, the BERT switch,
// the mask stages, sequence lengths, playback). Numbers are printed the way the canvas prints
// them (engine/text/format.h), so the two never disagree.

// Every widget the same way, from what its kind's registry entry exported (document_export.h):
// its title, its choices as buttons, a sentence form and playback controls when it takes them.
function renderWidget(block, anchor) {
  const titleId = uid('w');
  const view = { block, anchor, stateId: null, controls: [], play: null,
    summary: el('p', { class: 'np-m-widget-summary', text: block.transport ? '' : t('mirror.widget_loading') }),
    details: el('div', { class: 'np-m-widget-details' }), error: el('p', { class: 'np-m-error', hidden: true }) };
  const figure = el('div', { class: 'np-m-widget', role: 'group', 'aria-labelledby': titleId, 'data-widget': block.widget },
    el('p', { class: 'np-m-widget-title', id: titleId }, el('strong', { text: block.title || t('mirror.widget') }),
      block.caption ? `: ${block.caption}` : ''),
    view.summary);
  const send = message => act(() => np.command(withWidget(view, message)), view.error);
  if (block.transport) figure.append(renderPlayback(view));
  const choices = block.choices;
  if (choices && Array.isArray(choices.items) && choices.items.length) {
    figure.append(el('div', { class: 'np-m-actions', role: 'group', 'aria-label': choices.label || '' },
      ...choices.items.map(item => {
        const button = el('button', { type: 'button', 'aria-pressed': 'false', onclick: () => send(item.command) }, item.label);
        const when = Object.entries(item.when || {});
        view.controls.push({ button, isOn: w => when.length > 0 && when.every(([key, value]) => w[key] === value) });
        return button;
      })));
  }
  if (block.takes_sentence) figure.append(renderSentenceForm(view));
  figure.append(view.error, view.details);
  view.figure = figure;
  views.widgets.push(view);
  return figure;
}

// Commands name the widget they are for, so the engine routes them there.
function withWidget(view, message) {
  const id = view.block.id || view.stateId;
  return id ? { ...message, widget: id } : message;
}

function renderSentenceForm(view) {
  const inputId = uid('sentence');
  // As long as the engine takes a sentence (neuralpath.limits, in bytes; a longer non-ASCII one
  // is refused by the engine with its own message).
  const input = el('input', { id: inputId, type: 'text', maxlength: String(np.limits?.sentence_bytes ?? 200),
    autocomplete: 'off', spellcheck: 'false' });
  return el('form', { class: 'np-m-sentence', onsubmit: event => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) { np.announce(t('mirror.type_first')); input.focus(); return; }
    view.error.hidden = true;
    const reply = act(() => np.command(withWidget(view, { type: 'setSentence', text })), view.error);
    if (reply) np.announce(t('mirror.now_showing', { sentence: text }));
  } }, el('label', { for: inputId, text: t('mirror.your_sentence') }), input, el('button', { type: 'submit', text: t('mirror.show') }));
}

function renderPlayback(view) {
  const command = type => extra => act(() => np.command(withWidget(view, { type, ...extra })), view.error);
  const playButton = el('button', { type: 'button', class: 'np-m-play', text: t('mirror.play'), onclick: () =>
    command(playButton.dataset.playing === 'true' ? 'pause' : 'play')() });
  view.play = {
    button: playButton,
    status: el('p', { class: 'np-m-step' }),
    caption: el('p', { class: 'np-m-caption' }),
  };
  return el('div', { class: 'np-m-playback' },
    el('div', { class: 'np-m-actions', role: 'group', 'aria-label': t('mirror.playback') },
      el('button', { type: 'button', text: t('mirror.previous_step'), onclick: () => command('step')({ n: -1 }) }),
      playButton,
      el('button', { type: 'button', text: t('mirror.next_step'), onclick: () => command('step')({ n: 1 }) }),
      el('button', { type: 'button', text: t('mirror.restart'), onclick: () => command('restart')() })),
    view.play.status, view.play.caption);
}

// Finds a block's live numbers in state().widgets: by id, else the k-th widget of the same kind
// in the same section, else by reading order.
function matchWidget(view, widgets, kindCounts) {
  const { block } = view;
  if (block.id) {
    const byId = widgets.find(w => w.id === block.id);
    if (byId) return byId;
  }
  const key = `${view.anchor}|${block.widget}`;
  const k = kindCounts.get(key) || 0;
  kindCounts.set(key, k + 1);
  const sameKind = widgets.filter(w => w.kind === block.widget && (w.section === undefined || w.section === view.anchor));
  return sameKind[k] || widgets[block.widget_index] || null;
}

// The numbers as a table a screen reader can walk, as the widget's model wrote it
// (state().widgets[i].table: {caption, columns, rows: [{header, cells}]}): rows are the words
// that look, columns the words looked at.
function numbersTable(table) {
  if (!table || !Array.isArray(table.rows) || !Array.isArray(table.columns)) return null;
  return el('table', { class: 'np-m-weights' },
    el('caption', { text: table.caption || '' }),
    el('thead', {}, el('tr', {}, ...table.columns.map((column, c) =>
      (c === 0 && !column ? el('td') : el('th', { scope: 'col', text: column }))))),
    el('tbody', {}, ...table.rows.map(row => el('tr', {}, el('th', { scope: 'row', text: row.header }),
      ...(row.cells || []).map(cell => el('td', { text: cell }))))));
}

function updateWidget(view, w, playback) {
  if (w?.id) view.stateId = w.id;
  // The playback's own status line and caption say what a summary would.
  const summary = view.play ? '' : (w ? w.summary || w.error || '' : t('mirror.widget_waiting'));
  setText(view.summary, summary);
  for (const { button, isOn } of view.controls) button.setAttribute('aria-pressed', String(!!(w && isOn(w))));
  const signature = w ? JSON.stringify(w.table || null) : '';
  if (view.details.dataset.signature !== signature) {
    view.details.dataset.signature = signature;
    const table = w ? numbersTable(w.table) : null;
    view.details.replaceChildren(...(table ? [el('div', { class: 'np-m-table', role: 'region', tabindex: '0',
      'aria-label': table.querySelector('caption')?.textContent || t('mirror.numbers') }, table)] : []));
  }
  if (view.play) {
    // The page's transport (state().playback) is this widget's when it names it.
    const p = playback && (!w || w.id === playback.id) ? { ...playback, ...(w || {}) } : (w || playback || {});
    const playing = !!p.playing;
    view.play.button.dataset.playing = String(playing);
    setText(view.play.button, t(playing ? 'mirror.pause' : 'mirror.play'));
    setText(view.play.status, Number.isFinite(p.step) && Number.isFinite(p.steps) ? t('mirror.step', { n: p.step + 1, total: p.steps }) : '');
    setText(view.play.caption, p.caption || '');
  }
}

// [SECTION] Following the engine ----------------------------------------------------------------------

function update(state) {
  if (!state) return;
  for (const check of state.checks || []) {
    const view = views.checks.get(check.id);
    if (view) updateCheck(view, check);
  }
  for (const reveal of state.reveals || []) {
    const view = views.reveals.get(reveal.id);
    if (view && typeof reveal.open === 'boolean') showReveal(view, reveal.open);
  }
  const widgets = Array.isArray(state.widgets) ? state.widgets : [];
  const kindCounts = new Map();
  for (const view of views.widgets) updateWidget(view, matchWidget(view, widgets, kindCounts), transportOf(state));
  markSection(state.section);
  const summary = progressSummary(state) || {};
  const done = summary.correct, total = summary.checks;
  setText(progressLine, Number.isFinite(done) && Number.isFinite(total) && total > 0
    ? t(countKey('mirror.progress', total), { done, total }) : '');
}

function markSection(anchor) {
  for (const [key, link] of views.nav) {
    if (key === anchor) link.setAttribute('aria-current', 'location'); else link.removeAttribute('aria-current');
  }
  const target = views.sections.get(anchor);
  // Follow the canvas's reading position, but never pull the view away from a keyboard user.
  if (target && isOpen() && !panel.contains(document.activeElement) && panel.dataset.section !== anchor) {
    panel.dataset.section = anchor;
    const top = target.region.offsetTop - panel.offsetTop;
    if (panel.scrollHeight > panel.clientHeight) panel.scrollTo({ top, behavior: reducedMotion.matches ? 'auto' : 'smooth' });
  }
}

// The canvas follows the reader: when keyboard focus reaches a check, reveal or widget in the
// text version (shown beside the canvas), the canvas scrolls it into view, or to its section.
// Embedded pages show the whole canvas, so there is nothing to scroll there.
function followFocus(target) {
  if (embedded || !isOpen()) return;
  const state = np.state();
  const layout = state?.layout;
  if (!layout) return;
  const checkId = target.closest('[data-check]')?.dataset.check;
  const revealId = target.closest('[data-reveal]')?.dataset.reveal;
  const widgetView = views.widgets.find(v => v.figure?.contains(target));
  let rect = null;
  if (checkId) rect = (state.checks || []).find(c => c.id === checkId)?.rect;
  else if (revealId) rect = (state.reveals || []).find(r => r.id === revealId)?.rect;
  else if (widgetView) rect = (state.widgets || []).find(w => w.id === (widgetView.block.id || widgetView.stateId))?.rect;
  if (Array.isArray(rect) && rect.length === 4) {
    // Rectangles are where the canvas drew them this frame; the page scrolls below the top bar.
    const top = layout.column?.[1] ?? 0;
    const view = document.getElementById('canvas').getBoundingClientRect().height;
    if (rect[1] >= top && rect[1] + Math.min(rect[3], view - top) <= view) return;   // already in view
    const pageY = rect[1] - top + (layout.scroll || 0);
    try { np.command({ type: 'scroll', to: Math.max(0, pageY - 16) }); } catch { /* an older engine: no scroll */ }
    return;
  }
  const anchor = target.closest('.np-m-section')?.dataset.anchor;
  if (anchor && anchor !== state.section) { try { np.goto(anchor); } catch { /* unknown section */ } }
}
panel.addEventListener('focusin', event => followFocus(event.target));

let refreshQueued = false;
function refreshSoon() {
  if (refreshQueued) return;
  refreshQueued = true;
  requestAnimationFrame(() => { refreshQueued = false; update(np.state()); });
}

// Built once the first frame with the lesson is up (neuralpath.ready): the text version costs
// 50-130 ms of DOM work plus a layout, which the canvas need not wait for.
np.onLessonLoaded(() => np.ready.then(() => render(np.state()), () => {}));
// `./neuralpath author` swapped a new version of the lesson in (web/author/np-author.js).
np.events.addEventListener('lesson-reloaded', () => render(np.state()));
for (const type of ['section', 'progress', 'caption', 'completed', 'ready']) np.events.addEventListener(type, refreshSoon);

np.events.addEventListener('answered', event => {
  const { check } = event.detail || {};
  refreshSoon();
  // Feedback is read out whichever side (canvas or text) the answer came from.
  requestAnimationFrame(() => {
    const state = np.state();
    const found = (state?.checks || []).find(c => c.id === check);
    if (!found) return;
    np.announce([t(found.correct ? 'mirror.correct' : 'mirror.not_quite'), found.feedback].filter(Boolean).join(' '));
  });
});

// Narration (each playback caption) reaches the live region through np-speech.js, which owns
// it for the canvas and this text alike; here the caption is only shown.

// Widgets change without events too (a drag on the canvas): keep their summaries current.
setInterval(() => {
  if (documentData && document.visibilityState === 'visible') update(np.state());
}, 1000);
