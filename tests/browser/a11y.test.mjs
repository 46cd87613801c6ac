// The lesson for keyboard and screen-reader users: a keyboard alone completes every check
// through the text version, focus is always visible, axe-core finds nothing serious, and the
// text follows the reader's zoom and motion preferences.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, pauseClock, screenshotPath, settled } from './harness.mjs';
import { answerKey, answerKeyOf, axeProblems, waitForLesson, LESSON } from './embed-kit.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const PATH = `/lesson.html?lesson=${LESSON}`;

async function openLesson(options) {
  const opened = await openPage(env, PATH, options);
  await waitForLesson(opened.page);
  return opened;
}

// What has keyboard focus, described from the page (reading is fine; only keys act).
const focused = page => page.evaluate(() => {
  const el = document.activeElement;
  const check = el.closest('.np-m-check');
  const style = getComputedStyle(el);
  return {
    tag: el.tagName, text: (el.textContent || '').trim().slice(0, 60), inMirror: !!el.closest('#np-mirror'),
    check: check?.dataset.check || null, option: el.dataset.option !== undefined ? Number(el.dataset.option) : null,
    submit: el.classList.contains('np-m-submit'), pressed: el.getAttribute('aria-pressed'),
    outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    visible: (() => { const r = el.getBoundingClientRect(); return r.width > 4 && r.height > 4; })(),
  };
});

// A lesson whose right answers are never the first option, with a several-answers check.
const KEYBOARD_LESSON = `---
id: keyboard-walk
title: A walk by keyboard
level: Beginner
summary: Checks whose right answers are not the first ones.
---
## Beginner: Scores

Attention scores compare a **query** with every **key**.

\`\`\`check
id: pick-second
question: Which vector asks the question?
options:
  - text: The value
    feedback: Values are what gets mixed.
  - text: The query
    correct: yes
    feedback: Right.
  - text: The key
    feedback: Keys are what is asked about.
\`\`\`

## Medium: Masks

\`\`\`check
id: pick-two
question: Which of these models use a causal mask?
answer: multiple
options:
  - text: BERT
    feedback: No, BERT reads in both directions.
  - text: GPT-2
    correct: yes
    feedback: Yes, it predicts the next word.
  - text: Llama
    correct: yes
    feedback: Yes, also a decoder.
\`\`\`
`;

async function keyboardWalk(page, key) {
  const byId = new Map(key.map(k => [k.id, k]));
  const done = new Set();
  const ticked = new Map();   // several-answer checks: options pressed so far

  await page.keyboard.press('Tab');
  const first = await focused(page);
  assert.match(first.text, /Skip to the text version/, 'the first Tab reaches the skip link');
  assert.ok(first.visible, 'the skip link is visible when focused');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#np-mirror').isVisible(), true, 'the text version opens');

  for (let presses = 0; presses < 1500 && done.size < key.length; presses++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.inMirror) {
      assert.ok(f.outline, `focus is visible on ${f.tag} "${f.text}"`);
      assert.ok(f.visible, `the focused ${f.tag} "${f.text}" is on screen`);
    }
    const k = f.check && byId.get(f.check);
    if (!k || done.has(k.id)) continue;
    if (!k.multiple && f.option !== null && k.correct.includes(f.option)) {
      await page.keyboard.press('Enter');
      done.add(k.id);
    } else if (k.multiple && f.option !== null && k.correct.includes(f.option) && f.pressed !== 'true') {
      await page.keyboard.press('Space');
      ticked.set(k.id, (ticked.get(k.id) || 0) + 1);
    } else if (k.multiple && f.submit && ticked.get(k.id) === k.correct.length) {
      await page.keyboard.press('Enter');
      done.add(k.id);
    }
  }
  await page.waitForTimeout(200);
  const checks = await page.evaluate(() => window.neuralpath.state().checks);
  assert.equal(checks.length, key.length);
  for (const c of checks) assert.equal(c.correct, true, `check ${c.id} answered correctly by keyboard`);
  // The feedback of the last answer went to the live region, for screen readers. It arrives with
  // the engine's next events and 30 ms after the region is cleared (np-app.js's announce): on a
  // loaded machine that is more than the 200 ms above, so it is waited for.
  await page.waitForFunction(() => /Correct\./.test(document.getElementById('np-live').textContent), null,
    { timeout: 10_000 }).catch(() => {});
  assert.match(await page.locator('#np-live').textContent(), /Correct\./);
}

test('a keyboard alone (Tab, Enter, Space) completes checks whose answers are not first, several-answer ones too', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(/\/lessons\/keyboard-walk\.md$/, route =>
    route.fulfill({ status: 200, contentType: 'text/markdown; charset=utf-8', body: KEYBOARD_LESSON }));
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(e.message));
  await page.goto(`${env.origin}/lesson.html?lesson=keyboard-walk`);
  await waitForLesson(page);
  assert.deepEqual(await page.evaluate(() => window.neuralpath.state().errors), []);
  await keyboardWalk(page, answerKeyOf(KEYBOARD_LESSON));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a keyboard alone (Tab, Enter, Space) walks the whole lesson and completes every check', async () => {
  const { page, problems, context } = await openLesson();
  const key = answerKey();
  assert.ok(key.length >= 2, 'the lesson has knowledge checks');
  await keyboardWalk(page, key);
  await page.screenshot({ path: screenshotPath('text-version-desktop') });
  assert.deepEqual(problems, []);
  await context.close();
});

// ImGui 1.86 reads each key once per frame, so a key pressed and let go between two frames used
// to be lost (np-input.js now queues it). With the page's clock paused no frame runs while the
// keys go down and up, which is the slowest page there is.
test('with the canvas focused, every key press counts, several between two frames too, and Tab still leaves it', async () => {
  const { page, problems, context } = await openLesson({ clock: true });
  await page.emulateMedia({ reducedMotion: 'reduce' });  // a scroll lands at once: one press, one step
  const scroll = () => page.evaluate(() => window.neuralpath.state().layout.scroll);
  await page.locator('#canvas').focus();
  await pauseClock(page);
  await settled(page);
  assert.equal(await scroll(), 0);
  await page.keyboard.press('ArrowDown');
  await settled(page);
  const step = await scroll();
  assert.ok(step > 0, 'an arrow scrolls the page');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await settled(page);
  assert.equal(await scroll(), 5 * step, 'four presses between two frames scroll four steps');
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+Space');
  await page.keyboard.press('Home');
  await settled(page);
  assert.equal(await scroll(), 0, 'Space, Shift+Space and Home each arrived, in order');
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.id), 'canvas', 'Tab moves focus on');
  assert.deepEqual(problems, []);
  await context.close();
});

test('axe-core finds no serious or critical problem on the lesson page, text version closed or open', async () => {
  const { page, context } = await openLesson();
  const closed = await axeProblems(page);
  assert.deepEqual(closed, []);
  await page.getByRole('button', { name: 'Text version', exact: true }).click();
  // Open every reveal and hint so their content is checked too.
  for (const button of await page.locator('#np-mirror .np-m-reveal, #np-mirror .np-m-hint-button').all()) await button.click();
  const open = await axeProblems(page);
  assert.deepEqual(open, []);
  await context.close();
});

test('axe-core finds no serious or critical problem in embed mode or in the dark theme', async () => {
  for (const path of [`${PATH}&embed=1`, `${PATH}&theme=dark`]) {
    const { page, context } = await openPage(env, path);
    await waitForLesson(page);
    await page.getByRole('button', { name: 'Text version', exact: true }).click();
    assert.deepEqual(await axeProblems(page), [], path);
    await context.close();
  }
});

test('the text version is readable on a phone and its text follows the reader\'s font size', async () => {
  const { page, context, problems } = await openLesson({ width: 390, height: 844 });
  // Below 30em the tools sit behind the Menu button (np-toolbar.js): a reader on a phone opens it.
  assert.equal(await page.getByRole('button', { name: 'Text version', exact: true }).isVisible(), false);
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('button', { name: 'Text version', exact: true }).click();
  const panel = page.locator('#np-mirror');
  const box = await panel.boundingBox();
  assert.ok(box.width >= 380 && box.width <= 390, `the panel takes the phone's width (${box.width})`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
  assert.equal(wide, false, 'no sideways scrolling on a phone');
  await page.screenshot({ path: screenshotPath('text-version-phone') });
  const size = () => page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('#np-mirror .np-m-body p')).fontSize));
  const normal = await size();
  await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; });
  assert.ok(await size() >= normal * 1.9, 'text scales with the root font size (rem units)');
  assert.deepEqual(problems, []);
  await context.close();
});

test('with reduced motion asked for, the text version does not animate', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(env.origin + PATH);
  await waitForLesson(page);
  await page.getByRole('button', { name: 'Text version', exact: true }).click();
  const durations = await page.evaluate(() => [...document.querySelectorAll('#np-mirror button, .np-skip')]
    .map(el => getComputedStyle(el).transitionDuration));
  assert.ok(durations.every(d => d.split(',').every(x => parseFloat(x) === 0)), durations.join(' '));
  await context.close();
});

test('lesson text reaches the page only as text, never as markup', async () => {
  const { page, context } = await openLesson();
  // Whatever the lesson says, the text version holds no element the mirror did not make.
  const foreign = await page.evaluate(() => [...document.querySelectorAll('#np-mirror *')]
    .filter(el => !['ASIDE', 'DIV', 'P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'SPAN', 'STRONG', 'EM', 'CODE', 'S', 'A', 'BR',
      'UL', 'OL', 'LI', 'BLOCKQUOTE', 'HR', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'CAPTION', 'FIGURE',
      'FIGCAPTION', 'PRE', 'BUTTON', 'FORM', 'LABEL', 'INPUT', 'NAV', 'SECTION'].includes(el.tagName))
    .map(el => el.tagName));
  assert.deepEqual(foreign, []);
  const links = await page.evaluate(() => [...document.querySelectorAll('#np-mirror a[href]')].map(a => a.href));
  for (const href of links) assert.match(href, /^(https?:|mailto:)/);
  await context.close();
});
