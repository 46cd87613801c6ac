// Spanish, end to end (issue #14): every lesson walked with ?lang=es, every section visited,
// every check answered, the playback stepped; nothing English left in the text version or in
// what the engine reports (state(): summaries, captions, feedback), checked against the
// catalogue: no phrase of an English string that Spanish words differently, and no English
// section title of the original lesson. Numbers in Spanish format. Without ?lang the browser's
// languages pick; the language menu switches and is remembered. Screenshots at 375 and 1440 px
// (build/screenshots/spanish-*.png) for a person to look at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseStrings } from '../../web/shell/np-strings.js';
import { launchWithLesson, lessonReady, screenshotPath, settled } from './harness.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const english = parseStrings(readFileSync(join(repo, 'lessons/strings/en.strings'), 'utf8'));
const spanish = parseStrings(readFileSync(join(repo, 'lessons/strings/es.strings'), 'utf8'));

// Phrases of English catalogue strings that the Spanish catalogue words differently: the
// fixed text between placeholders, at least two words and 10 characters, and not also a
// phrase of the Spanish string (technical words such as "Softmax" stay).
const englishPhrases = (() => {
  const phrases = new Set();
  for (const [key, value] of english) {
    const es = spanish.get(key);
    if (es === undefined || es === value) continue;
    for (const part of value.split(/\{[A-Za-z0-9_]+\}/)) {
      const phrase = part.trim().replace(/^[\s.,;:()“”'"-]+|[\s.,;:()“”'"-]+$/g, '');
      if (phrase.length >= 10 && /\s/.test(phrase) && !es.includes(phrase)) phrases.add(phrase);
    }
  }
  return [...phrases];
})();

// Whole English values that Spanish words differently ("Share", "Voice").
const englishValues = new Set([...english].filter(([key, value]) => spanish.has(key) && spanish.get(key) !== value &&
  /[A-Za-z]{3,}/.test(value)).map(([, value]) => value));

// The original lessons' section titles: none may show in the Spanish page.
function englishTitles(id) {
  return [...readFileSync(join(repo, `lessons/${id}.md`), 'utf8').matchAll(/^## (?:(?:Beginner|Medium|Advanced): )?(.*?)(?: \{#[a-z0-9-]+\})?$/gm)]
    .map(m => m[1]);
}

function englishIn(text) {
  return englishPhrases.filter(phrase => text.includes(phrase));
}

// Every string in a JSON value (state() holds numbers too).
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach(v => strings(v, out));
  else if (value && typeof value === 'object') Object.entries(value).forEach(([k, v]) => { if (k !== 'errors') strings(v, out); });
  return out;
}

let env, es;
before(async () => {
  ({ env, opened: es } = await launchWithLesson('/lesson.html?lesson=self-attention&lang=es', { width: 1440, height: 900 }));
});
after(async () => { await env?.close(); });

const state = page => page.evaluate(() => window.neuralpath.state());
// The text version (np-mirror.js), and everything else the page shows in its DOM: the tool
// bar, notes, labels (aria-label and title count: a screen reader speaks them).
const mirrorText = page => page.evaluate(() => document.querySelector('.np-m-panel, #np-mirror, [data-np-mirror]')?.textContent
  ?? document.body.textContent);
const pageText = page => page.evaluate(() => [document.body.innerText,
  ...[...document.querySelectorAll('[aria-label], [title]')].flatMap(n => [n.getAttribute('aria-label') || '', n.getAttribute('title') || ''])]
  .join('\n'));

async function walk(page, id) {
  const s = await state(page);
  assert.equal(s.lang, 'es');
  assert.deepEqual(s.errors, []);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  const seen = [];
  for (const section of s.sections) {
    await page.evaluate(anchor => window.neuralpath.goto(anchor), section.anchor);
    await settled(page);
  }
  for (const check of s.checks) {
    await page.evaluate(id => window.neuralpath.answer(id, 0), check.id);
  }
  if (s.widgets.some(w => w.kind === 'playback')) {
    await page.evaluate(() => { window.neuralpath.step(1); window.neuralpath.step(1); window.neuralpath.step(1); });
  }
  await settled(page);
  const after = await state(page);
  seen.push(...strings(after));
  const texts = [seen.join('\n'), await mirrorText(page), await pageText(page), await page.evaluate(() => document.title)];
  const all = texts.join('\n');
  const found = englishIn(all);
  assert.deepEqual(found, [], `${id}: English phrases on the page`);
  for (const title of englishTitles(id)) assert.ok(!all.includes(title), `${id}: the English title "${title}" is on the page`);
  // Short labels (one word: "Voice", "Share") are whole English catalogue values on a control.
  const labels = await page.evaluate(() => [...document.querySelectorAll('button, label, summary, a, [role="button"]')]
    .map(n => n.textContent.trim()).filter(Boolean));
  assert.deepEqual(labels.filter(label => englishValues.has(label)), [], `${id}: English labels on the page`);
  return after;
}

test('self-attention in Spanish: no English left, numbers with a decimal comma', async () => {
  const s = await walk(es.page, 'self-attention');
  assert.match(s.title, /autoatención/);
  const heat = s.widgets.find(w => w.kind === 'heatmap');
  assert.ok(heat.summary, 'the heatmap has a summary');
  assert.match(heat.summary, /\d+,\d\u00a0%/, 'a percentage as «35,8 %»: a decimal comma, a no-break space');
  assert.doesNotMatch(heat.summary, /\d\.\d/, 'no decimal point');
  const cost = s.widgets.find(w => w.kind === 'cost-explorer');
  assert.match(JSON.stringify(cost), /1\.000/, 'thousands with a point');
  const text = await mirrorText(es.page);
  assert.match(text, /Comprueba lo aprendido/);
  assert.match(await pageText(es.page), /frase en inglés/, 'the box to type in says the model reads English');
  for (const width of [375, 1440]) {
    await es.page.setViewportSize({ width, height: width === 375 ? 740 : 900 });
    for (const section of ['mystery-pronoun', 'spotlight', 'causal-mask']) {
      await es.page.evaluate(a => window.neuralpath.goto(a), section);
      await settled(es.page);
      await es.page.screenshot({ path: screenshotPath(`spanish-self-attention-${width}-${section}`) });
    }
  }
  assert.deepEqual(es.problems, []);
});

// Another lesson in Spanish on the shared page, at 1440 px, walked as `walk` does.
async function walkInSpanish(id) {
  await es.page.setViewportSize({ width: 1440, height: 900 });
  await es.page.goto(`${env.origin}/lesson.html?lesson=${id}&lang=es`);
  await lessonReady(es.page);
  return walk(es.page, id);
}

test('course-playback in Spanish: the narration speaks Spanish', async () => {
  const s = await walkInSpanish('course-playback');
  const board = s.widgets.find(w => w.kind === 'playback');
  assert.ok(board && board.step >= 1, 'the board stepped');
  const caption = s.playback?.caption ?? board.caption ?? '';
  assert.ok(caption.length > 0, 'a caption is shown');
  assert.deepEqual(englishIn(caption), []);
  assert.match(caption, /[áéíóúñ]|la |el |de /i, `a Spanish caption: ${caption}`);
  // The step titles on the board (they came from the engine's core in English) and the quotes
  // around tokens in the captions.
  for (const [step, title] of [[6, 'Puntuaciones (cabeza 1)'], [18, 'Residual: x + atención'], [23, 'Siguiente token']]) {
    await es.page.evaluate(n => window.neuralpath.command({ widget: 'block-playback', type: 'seek', step: n }), step);
    const at = (await state(es.page)).widgets.find(w => w.kind === 'playback');
    assert.equal(at.title, title);
    assert.doesNotMatch(at.caption, /'[A-Za-z]+'/, `tokens in Spanish quotes: ${at.caption}`);
    assert.match(at.caption, /«[A-Za-z]+»/, `tokens in Spanish quotes: ${at.caption}`);
  }
  // Every caption, as a Spanish speaker hears it (#30): the features in Spanish, no comma beside a
  // number with a decimal comma, no '....', no raw keyword; step 17 names the column the board
  // shows (concat[Future, 3]).
  const captions = [];
  for (let step = 0; step < board.steps; ++step) {
    await es.page.evaluate(n => window.neuralpath.command({ widget: 'block-playback', type: 'seek', step: n }), step);
    captions.push((await state(es.page)).widgets.find(w => w.kind === 'playback').caption);
  }
  assert.equal(captions.length, 24);
  for (const c of captions) {
    assert.doesNotMatch(c, /\b(thing|agent|action|time|tech|function|punctuation|quality)\b/, `an English feature name: ${c}`);
    assert.doesNotMatch(c, /\d,\d+,|,\s-?\d+,\d/, `a comma beside a decimal-comma number: ${c}`);
    assert.ok(!c.includes('...') && !c.includes('(none)'), c);
  }
  assert.equal(captions[16], 'Las salidas de las 2 cabezas se colocan una junto a otra: la componente 3 del vector unido ' +
    'de «Future» vale 1,09 y es la componente 3 de la cabeza 1.');
  assert.match(captions[23], /un 35,8\u00a0%: la softmax/);
  for (const width of [375, 1440]) {
    await es.page.setViewportSize({ width, height: width === 375 ? 740 : 900 });
    await es.page.evaluate(() => window.neuralpath.goto('overview'));
    await settled(es.page);
    await es.page.screenshot({ path: screenshotPath(`spanish-course-playback-${width}`) });
  }
  assert.deepEqual(es.problems, []);
});

test('multi-head in Spanish: no English left, the heads’ figures in Spanish format', async () => {
  const s = await walkInSpanish('multi-head');
  assert.match(s.title, /cabezas/);
  assert.equal(s.checks.length, 2);
  const heads = s.widgets.find(w => w.kind === 'head-view');
  assert.ok(heads?.summary, 'the head view has a summary');
  assert.match(heads.summary, /cabezas/);
  const text = await mirrorText(es.page);
  assert.match(text, /0,50 bits/, 'the lesson’s own figures with a decimal comma');
  assert.match(text, /1\.050\.624 parámetros/, 'and a thousands point (the cost readout)');
  assert.doesNotMatch(text, /\b0\.\d\d\b/, 'no decimal point in the text version');
  assert.deepEqual(es.problems, []);
});

test('the index lists the lessons in Spanish', async () => {
  await es.page.goto(`${env.origin}/?lang=es`);
  await es.page.waitForSelector('#np-lessons a');
  const text = await es.page.locator('#np-lessons').textContent();
  assert.match(text, /La autoatención/);
  assert.match(text, /Inicial/);
  assert.match(text, /Muchas cabezas/, 'the multi-head lesson in Spanish too');
  assert.ok(!text.includes('Self-attention, or how words look at each other'));
  const href = await es.page.locator('#np-lessons a').first().getAttribute('href');
  assert.match(href, /lang=es/);
});

test('without ?lang the browser picks; the language menu switches and is remembered', async () => {
  const context = await env.browser.newContext({ locale: 'es-MX', viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention&section=causal-mask`);
  await lessonReady(page);
  assert.equal((await state(page)).lang, 'es');
  const menu = page.locator('select.np-lang');
  await menu.waitFor();
  await Promise.all([page.waitForURL(/lang=en/), menu.selectOption('en')]);
  await lessonReady(page);
  const s = await state(page);
  assert.equal(s.lang, 'en');
  assert.equal(s.section, 'causal-mask', 'the switch keeps the section');
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention`);   // no ?lang: the choice wins over es-MX
  await lessonReady(page);
  assert.equal((await state(page)).lang, 'en');
  await context.close();
  const french = await env.browser.newContext({ locale: 'fr-FR' });
  const other = await french.newPage();
  await other.goto(`${env.origin}/lesson.html?lesson=self-attention`);
  await lessonReady(other);
  assert.equal((await state(other)).lang, 'en', 'a language the site lacks falls back to English');
  await french.close();
});
