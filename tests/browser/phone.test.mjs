// The course playback on a phone (#15 items 1 and 3), as a learner's thumb uses it: 375×740 with
// touch. The board is a fixed frame whose caption, buttons and timeline stay on screen at every
// step; seek segments are wide enough for a finger; a tap on a matrix shows its numbers; the
// sentence field takes a phone keyboard's Backspace, select-all, cursor keys and Enter, refuses
// emoji with a note, and an empty sentence says so. One shared page; reduced motion, so a step
// is complete in the frame that shows it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, lessonReady, engineFrames, screenshotPath, settled, siteDir } from './harness.mjs';
import { hostSite } from './embed-kit.mjs';
import { comparePixels, decodePng } from './png.mjs';
import { startServer } from '../../web/serve.mjs';

let env, page, context;
const problems = [];

before(async () => {
  env = await launch();
  context = await env.browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true,
    reducedMotion: 'reduce' });
  page = await context.newPage();
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(`${env.origin}/lesson.html?lesson=course-playback&voice=off`);
  await lessonReady(page);
});
after(async () => { await env?.close(); });

const board = () => page.evaluate(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback'));
const canvasBox = () => page.locator('#canvas').boundingBox();
// Waits until the engine has run `n` frames since frame `start` (what a command changed is then drawn).
async function frames(n = 2, start) {
  start ??= await engineFrames(page);
  await page.waitForFunction(([s, k]) => window.Module._np_engine_frames() >= s + k, [start, n], { timeout: 10_000 });
}
// Counted from before the command: the few frames a command wakes can all run before its reply
// is back in the test (seen at load 8), and the engine then idles.
async function command(c) {
  const start = await engineFrames(page);
  await page.evaluate(c => window.neuralpath.command(c), c);
  await frames(2, start);
}
// The centre of a layout rectangle ([x, y, w, h], CSS px from the canvas's top left), on the page.
async function centre(rect) {
  const box = await canvasBox();
  return { x: box.x + rect[0] + rect[2] / 2, y: box.y + rect[1] + rect[3] / 2 };
}
async function tap(rect) {
  const { x, y } = await centre(rect);
  await page.touchscreen.tap(x, y);
  await settled(page);
}
// Scrolls so the board's frame starts at the top of the canvas (or, for a photograph, just
// under the phone's top bars, which cover the canvas's top).
async function showBoard({ underBars = false } = {}) {
  const state = await page.evaluate(() => window.neuralpath.state());
  const rect = state.widgets.find(w => w.kind === 'playback').rect;
  const top = underBars ? state.layout.column[1] + 4 : 8;
  await command({ type: 'scroll', to: state.layout.scroll + rect[1] - top });
}

test('at 375 px the board keeps one height and its caption, buttons and timeline stay on screen at every step', async () => {
  await showBoard();
  const { height } = await canvasBox();
  const steps = (await board()).steps;
  const heights = new Set();
  for (let k = 0; k < steps; k++) {
    await command({ type: 'seek', step: k });
    const b = await board();
    assert.equal(b.step, k);
    heights.add(Math.round(b.rect[3]));
    const { frame, caption, controls, segments } = b.layout;
    const top = frame[1];
    const onScreen = r => r[1] >= top && r[1] + r[3] <= top + height;
    assert.ok(frame[3] <= height, `step ${k}: the frame (${frame[3]} px) fits the ${height} px canvas`);
    assert.ok(onScreen(caption), `step ${k}: the caption is on screen`);
    for (const name of ['restart', 'back', 'play', 'next']) assert.ok(onScreen(controls[name]), `step ${k}: ${name}`);
    assert.ok(segments.every(onScreen), `step ${k}: the timeline`);
    if (k === 4) await page.screenshot({ path: screenshotPath('phone-board-step-4') });
  }
  assert.equal(heights.size, 1, `one board height at every step (saw ${[...heights].join(', ')} px)`);
  assert.deepEqual(problems, []);
});

test('every seek segment is at least 24 px wide and a tap on one goes to that step', async () => {
  const b = await board();
  assert.equal(b.layout.segments.length, b.steps);
  for (const s of b.layout.segments) assert.ok(s[2] >= 24, `segment ${s[2].toFixed(1)} px wide`);
  await tap(b.layout.segments[b.steps - 2]);
  assert.equal((await board()).step, b.steps - 2);
  await tap(b.layout.controls.back);
  assert.equal((await board()).step, b.steps - 3, 'the back button steps back');
});

test('a tap on a matrix without numbers shows it alone with its numbers, and a tap goes back', async () => {
  let b = await board();
  let k = 0;
  while (b.step_kind !== 'project_q') { await command({ type: 'seek', step: ++k }); b = await board(); }
  const small = b.layout.matrices.find(m => !m.numbers);
  assert.ok(small, 'at 375 px some matrix of Q = X·W_Q is too small for its numbers');
  await tap(small.rect);
  b = await board();
  assert.ok(b.layout.unzoom, `${small.name} is shown alone`);
  assert.equal(b.layout.matrices, undefined);
  await page.screenshot({ path: screenshotPath('phone-board-zoom') });
  await tap(b.layout.unzoom);
  assert.ok((await board()).layout.matrices, 'back to the whole step');
});

test('the sentence field takes a phone keyboard: Backspace, select-all, cursor keys, Enter, and refuses emoji', async () => {
  await command({ type: 'seek', step: 0 });
  // The field is under the frame: scroll it to the middle of the screen.
  const scroll = await page.evaluate(() => window.neuralpath.state().layout.scroll);
  await command({ type: 'scroll', to: scroll + (await board()).layout.sentence[1] - 300 });
  let b = await board();
  await tap(b.layout.sentence);
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'np-keyboard-stand-in',
    'a tap on the field gives the keyboard a DOM field');
  // Backspace as a hardware key and as the input events an on-screen keyboard sends.
  await page.keyboard.press('End');
  for (let i = 0; i < 'Future'.length - 1; i++) await page.keyboard.press('Backspace');
  await page.evaluate(() => {
    const field = document.activeElement;
    field.dispatchEvent(new InputEvent('beforeinput', { inputType: 'deleteContentBackward', cancelable: true, bubbles: true }));
  });
  await page.keyboard.type('Tomorrow');
  await page.keyboard.press('Home');
  await page.keyboard.type('The ');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback').sentence !== 'AI Agents Build Future',
    null, { timeout: 10_000 });
  b = await board();
  assert.equal(b.sentence, 'The AI Agents Build Tomorrow');
  assert.equal(b.error, '');

  // Enter ran the sentence and closed the keyboard, as a phone's "Go" does: tap the field again,
  // where it is once the new sentence's board is laid out (a fifth word can move it down).
  await settled(page);
  b = await board();
  await tap(b.layout.sentence);
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'np-keyboard-stand-in');
  // Emoji cannot be drawn: left out, with a note, never a "?".
  await page.keyboard.press('End');
  await page.keyboard.insertText(' 🙂');
  await page.waitForFunction(() => { const n = document.querySelector('.np-typing-note'); return n && !n.hidden; });
  assert.match(await page.locator('.np-typing-note').textContent(), /🙂/);

  // Select all, delete, Enter: the board says to type a sentence first and keeps its own.
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback').error !== '',
    null, { timeout: 10_000 });
  b = await board();
  assert.match(b.error, /Type a sentence first/);
  assert.equal(b.sentence, 'The AI Agents Build Tomorrow');
  // The field stays empty beside the message (it went back to the old sentence).
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback').layout.field === '',
    null, { timeout: 10_000 });
  assert.deepEqual(problems, []);
});

test('a refused sentence stays in the field beside the message about it: empty, emoji, too long, then one that runs', async () => {
  const kept = (await board()).sentence;
  // Refused: the message, and then the field drawn with `field` (the frames a command wakes may
  // already have run when the refusal comes back, so the field is waited for, not a frame count).
  const refuse = async (text, message, field) => {
    await assert.rejects(page.evaluate(t => window.neuralpath.command({ type: 'setSentence', text: t }), text), message);
    await page.waitForFunction(f => window.neuralpath.state().widgets.find(w => w.kind === 'playback').layout.field === f,
      field, { timeout: 10_000 }).catch(() => {});
    return board();
  };
  let b = await refuse('', /Type a sentence first/, '');
  assert.match(b.error, /Type a sentence first/);
  assert.equal(b.layout.field, '', 'the field is empty, as the message says');
  b = await refuse('AI 🙂 Agents', /cannot be drawn/, 'AI Agents');
  assert.equal(b.field, 'AI 🙂 Agents');
  assert.equal(b.layout.field, 'AI Agents', 'the field shows the sentence without what it cannot draw, never a "?"');
  const long = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen';
  b = await refuse(long, /17 tokens; the board shows at most 16/, long);
  assert.equal(b.layout.field, long);
  assert.equal(b.sentence, kept, 'the board keeps its own sentence meanwhile');
  await command({ type: 'scroll', to: (await page.evaluate(() => window.neuralpath.state().layout.scroll)) + b.layout.sentence[1] - 300 });
  await page.screenshot({ path: screenshotPath('phone-board-refused-long') });
  await command({ type: 'setSentence', text: 'AI Agents Build Future' });
  b = await board();
  assert.equal(b.error, '');
  assert.equal(b.layout.field, 'AI Agents Build Future');
  assert.equal(b.draft, '');
  assert.deepEqual(problems, []);
});

test('a 16-token sentence at 375 px: at every step the row labels stay apart and none is under 8 px', async () => {
  await command({ type: 'setSentence', text: 'The quick brown fox jumps over the lazy dog while the old cat sleeps on mats' });
  const steps = (await board()).steps;
  for (let k = 0; k < steps; k++) {
    await command({ type: 'seek', step: k });
    const b = await board();
    for (const m of b.layout.matrices ?? []) {
      assert.ok(m.label_size >= 8 - 1e-3, `step ${k} ${m.name}: labels ${m.label_size.toFixed(1)} px`);
      const rows = [...m.row_labels].sort((x, y) => x[1] - y[1]);
      for (let i = 1; i < rows.length; i++)
        assert.ok(rows[i][1] >= rows[i - 1][1] + rows[i - 1][3] - 0.5,
          `step ${k} (${b.step_kind}) ${m.name}: label ${i} starts at ${rows[i][1].toFixed(1)}, ` +
          `the one above ends at ${(rows[i - 1][1] + rows[i - 1][3]).toFixed(1)}`);
      if (m.rect[3] > 0 && m.row_labels.length) assert.ok(m.row_labels.length >= 2, `step ${k} ${m.name}: some rows are named`);
    }
    if (b.step_kind === 'softmax' || b.step_kind === 'feed_forward') {
      await showBoard({ underBars: true });
      await page.screenshot({ path: screenshotPath(`phone-board-long-${b.step_kind}`) });
    }
  }
  await command({ type: 'setSentence', text: 'AI Agents Build Future' });
  assert.deepEqual(problems, []);
});

// [SECTION] A finger that starts on a widget (#15 item 4) -------------------------------------------
// Touch events through the DevTools protocol, as a phone's browser sends them; a frame between
// each, so the engine sees the finger land, move and lift.
async function fingerAt(target, cdp, type, x, y) {
  const start = await engineFrames(target);
  await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  await target.waitForFunction(s => window.Module._np_engine_frames() >= s + 2, start, { timeout: 10_000 });
}
async function swipe(target, cdp, from, to, steps = 8) {
  await fingerAt(target, cdp, 'touchStart', from.x, from.y);
  for (let i = 1; i <= steps; i++)
    await fingerAt(target, cdp, 'touchMove', from.x + (to.x - from.x) * i / steps, from.y + (to.y - from.y) * i / steps);
  await fingerAt(target, cdp, 'touchEnd', to.x, to.y);
  await settled(target);
}

test('a finger swiping up from the timeline scrolls the lesson without seeking; a sideways drag scrubs', async () => {
  await command({ type: 'seek', step: 0 });
  await showBoard();
  const cdp = await context.newCDPSession(page);
  let b = await board();
  const scrollOf = () => page.evaluate(() => window.neuralpath.state().layout.scroll);
  const before = await scrollOf();
  const from = await centre(b.layout.segments[2]);
  await swipe(page, cdp, from, { x: from.x + 5, y: from.y - 260 });
  assert.ok(await scrollOf() > before + 200, `the page scrolled (${before} -> ${await scrollOf()})`);
  assert.equal((await board()).step, 0, 'no seek');

  await showBoard();
  b = await board();
  const a = await centre(b.layout.segments[0]), z = await centre(b.layout.segments[5]);
  await swipe(page, cdp, a, z);
  assert.equal((await board()).step, 5, 'the sideways drag scrubbed to the segment under the finger');
  assert.deepEqual(problems, []);
});

test('at 1440 px the board keeps one height and its controls stay on screen', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await settled(page);
  await command({ type: 'setSentence', text: 'AI Agents Build Future' });
  await showBoard();
  const { height } = await canvasBox();
  const heights = new Set();
  const steps = (await board()).steps;
  for (let k = 0; k < steps; k += 3) {
    await command({ type: 'seek', step: k });
    const b = await board();
    heights.add(Math.round(b.rect[3]));
    const { frame, controls } = b.layout;
    assert.ok(controls.play[1] + controls.play[3] <= frame[1] + height, `step ${k}: play is on screen`);
    for (const s of b.layout.segments) assert.ok(s[2] >= 24);
  }
  assert.equal(heights.size, 1, `one board height (saw ${[...heights].join(', ')} px)`);
  assert.deepEqual(problems, []);
});

// [SECTION] The spotlight on a phone (#15 items 2 and 4) ---------------------------------------------
test('on the spotlight a finger swiping up scrolls the lesson, a tap picks a word, and no beam covers a percentage', async () => {
  const phone = await env.browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true,
    reducedMotion: 'reduce' });
  const lesson = await phone.newPage();
  lesson.on('pageerror', e => problems.push(`page error: ${e.message}`));
  await lesson.goto(`${env.origin}/lesson.html?lesson=self-attention&section=spotlight&voice=off`);
  await lessonReady(lesson);
  const cdp = await phone.newCDPSession(lesson);
  const spotlight = () => lesson.evaluate(() => window.neuralpath.state().widgets.find(w => w.id === 'it-spotlight'));
  const scrollOf = () => lesson.evaluate(() => window.neuralpath.state().layout.scroll);
  const onPage = async rect => {
    const box = await lesson.locator('#canvas').boundingBox();
    return { x: box.x + rect[0] + rect[2] / 2, y: box.y + rect[1] + rect[3] / 2 };
  };
  await lesson.evaluate(() => {
    const s = window.neuralpath.state();
    window.neuralpath.command({ type: 'scroll', to: s.layout.scroll + s.widgets.find(w => w.id === 'it-spotlight').rect[1] - 150 });
  });
  await settled(lesson);

  let s = await spotlight();
  assert.equal(s.tokens[1], 'animal');
  const before = await scrollOf();
  const from = await onPage(s.layout.chips[1]);
  await swipe(lesson, cdp, from, { x: from.x, y: from.y - 250 });
  assert.ok(await scrollOf() > before + 200, `the page scrolled (${before} -> ${await scrollOf()})`);
  assert.equal((await spotlight()).query, 'it', 'the swipe did not pick the word under it');

  await lesson.evaluate(() => {
    const s = window.neuralpath.state();
    window.neuralpath.command({ type: 'scroll', to: s.layout.scroll + s.widgets.find(w => w.id === 'it-spotlight').rect[1] - 150 });
  });
  await settled(lesson);
  s = await spotlight();
  const at = await onPage(s.layout.chips[1]);
  await lesson.touchscreen.tap(at.x, at.y);
  await settled(lesson);
  assert.equal((await spotlight()).query, 'animal', 'a tap picks the word');
  await lesson.evaluate(() => window.neuralpath.command({ type: 'setQuery', query: 'it', widget: 'it-spotlight' }));

  // Every preset: the beam to each word and from "it" stays off both words' percentages.
  const outside = (r, x, y) => Math.hypot(Math.max(r[0] - x, 0, x - r[0] - r[2]), Math.max(r[1] - y, 0, y - r[1] - r[3]));
  for (let k = 0; k < s.sentences.length; k++) {
    await lesson.evaluate(k => window.neuralpath.command({ type: 'chooseSentence', index: k, widget: 'it-spotlight' }), k);
    await settled(lesson);
    s = await spotlight();
    for (const beam of s.layout.beams)
      for (const end of [beam.to, beam.from]) {
        const label = s.layout.labels[end];
        for (const [x, y] of beam.points)
          assert.ok(outside(label, x, y) > beam.width / 2, `sentence ${k}: the beam to ${s.tokens[beam.to]} touches ${s.tokens[end]}'s percentage`);
        assert.ok(outside(label, beam.dot[0], beam.dot[1]) > beam.dot[2], `sentence ${k}: a dot on ${s.tokens[end]}'s percentage`);
      }
    if (k === 1) await lesson.screenshot({ path: screenshotPath('phone-spotlight-wide') });
  }
  assert.deepEqual(problems, []);
  await phone.close();
});

// [SECTION] Embedded in a course page (#15 item 6) --------------------------------------------------
// The frame is as tall as the lesson and the host page scrolls: a finger's upright swipe on the
// lesson's canvas must move the host page with the finger, as it moves (before, the engine took
// the swipe inside its canvas and the host page jumped only after the finger lifted), and a tap
// must still answer.
test('embedded in a course page on a phone, a swipe up the lesson scrolls the host page and a tap still answers', async () => {
  const host = await hostSite({});
  const lessons = await startServer({ root: siteDir, port: 0, allowOrigins: [host.origin] });
  const lessonOrigin = `http://127.0.0.1:${lessons.address().port}`;
  writeFileSync(join(host.root, 'course.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Course</title><link rel="icon" href="data:,"></head>
<body style="margin: 0; padding: 0.5rem; font-family: sans-serif"><h1>Week 3</h1>
<div id="lesson" data-neuralpath-lesson="self-attention"></div><p>The end.</p>
<script src="${lessonOrigin}/embed.js"></script></body></html>`);
  const phone = await env.browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true,
    reducedMotion: 'reduce' });
  const course = await phone.newPage();
  course.on('pageerror', e => problems.push(`page error: ${e.message}`));
  try {
    await course.goto(`${host.origin}/course.html`);
    await course.waitForFunction(() => document.querySelector('#lesson iframe'));
    let frame;
    for (let i = 0; i < 600 && !frame; i++, await course.waitForTimeout(100))
      frame = course.frames().find(f => f.url().includes('/lesson.html'));
    await lessonReady(frame);
    await course.waitForFunction(() => document.querySelector('#lesson iframe').getBoundingClientRect().height > 2000);
    await course.evaluate(() => scrollTo(0, document.querySelector('#lesson iframe').getBoundingClientRect().top + scrollY + 600));
    await settled(frame);
    const cdp = await phone.newCDPSession(course);
    const scrollY = () => course.evaluate(() => scrollY);
    const before = await scrollY();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 190, y: 560 }] });
    const during = [];
    for (let i = 1; i <= 10; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 190, y: 560 - 30 * i }] });
      await course.evaluate(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))));
      during.push(await scrollY());
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await settled(frame);
    assert.ok(during[9] > before + 200, `the host page followed the finger while it moved (${before} -> ${during.join(' ')})`);

    // A tap on a check's option answers it: bring the first check to the middle of the screen.
    const first = () => frame.evaluate(() => window.neuralpath.state().checks[0]);
    const optionAt = async k => {
      const box = await frame.locator('#canvas').boundingBox();
      const r = (await first()).option_rects[k];
      return r && { x: box.x + r[0] + r[2] / 2, y: box.y + r[1] + r[3] / 2 };
    };
    await frame.evaluate(() => window.neuralpath.goto(window.neuralpath.state().checks[0].section));
    await settled(frame);
    for (let i = 0; i < 4; i++) {
      const at = await optionAt(1);
      if (at && at.y > 100 && at.y < 640) break;
      const box = await frame.locator('#canvas').boundingBox();
      const rect = (await first()).rect || [0, 0, 0, 0];
      await course.evaluate(dy => scrollBy(0, dy), (rect[1] + box.y) - 300);
      await settled(frame);
    }
    const at = await optionAt(1);
    assert.ok(at && at.y > 0 && at.y < 740, 'the option is on screen');
    await course.touchscreen.tap(at.x, at.y);
    await frame.waitForFunction(() => window.neuralpath.state().checks[0].chosen.length > 0, null, { timeout: 10_000 });
    assert.deepEqual((await first()).chosen, [1]);
    await course.screenshot({ path: screenshotPath('phone-embedded') });
    assert.deepEqual(problems, []);
  } finally {
    await phone.close();
    await host.close();
    await new Promise(done => lessons.close(done));
  }
});

// [SECTION] "Save image" on a phone (#15 item 5) ------------------------------------------------------
// The page starts under the engine's 48 px top bar: the saved heatmap is the heatmap as seen
// below the bar (its rotated "down" whole, no bar pixels), and a figure taller than the screen
// (the mask walkthrough) is saved whole, not refused.
test('at 375 px "Save image" saves the heatmap as it is seen, and the whole mask walkthrough', async () => {
  const phone = await env.browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true,
    reducedMotion: 'reduce' });
  const lesson = await phone.newPage();
  lesson.on('pageerror', e => problems.push(`page error: ${e.message}`));
  await lesson.goto(`${env.origin}/lesson.html?lesson=self-attention&section=causal-mask&voice=off`);
  await lessonReady(lesson);
  const figure = id => lesson.evaluate(id => window.neuralpath.state().widgets.find(w => w.id === id), id);
  const pngOf = url => decodePng(Buffer.from(url.split(',')[1], 'base64'));

  // The heatmap in full view, well below the bar: what a learner sees.
  await lesson.evaluate(() => {
    const s = window.neuralpath.state();
    window.neuralpath.command({ type: 'scroll', to: s.layout.scroll + s.widgets.find(w => w.id === 'causal-grid').rect[1] - 80 });
  });
  await settled(lesson);
  const grid = await figure('causal-grid');
  const box = await lesson.locator('#canvas').boundingBox();
  assert.ok(grid.rect[1] > 48 && grid.rect[1] + grid.rect[3] < 740, 'the heatmap fits under the bar');
  const seen = decodePng(await lesson.screenshot({ clip: { x: box.x + Math.round(grid.rect[0]), y: box.y + Math.round(grid.rect[1]),
    width: Math.round(grid.rect[2]), height: Math.round(grid.rect[3]) } }));
  const saved = pngOf(await lesson.evaluate(() => window.neuralpath.exportPng('causal-grid')));
  assert.equal(saved.width, seen.width);
  // Rows [1, h-1) of each, the saved one shifted by up to a pixel (the figure's top is at a half
  // pixel, rounded either way); a figure under the bar, or a bar in the picture, differs far more.
  const rows = (image, from, n) => ({ width: image.width, height: n,
    data: image.data.subarray(from * image.width * 4, (from + n) * image.width * 4) });
  const n = seen.height - 2;
  const ratios = [0, 1, 2].map(from => {
    const { differing, total } = comparePixels(rows(saved, from, n), rows(seen, 1, n), 40);
    return differing / total;
  });
  assert.ok(Math.min(...ratios) < 0.02, `the saved heatmap is the one on screen (${ratios.map(r => (100 * r).toFixed(1)).join(', ')}% of pixels differ)`);

  const walk = await figure('mask-walkthrough');
  const url = await lesson.evaluate(() => window.neuralpath.exportPng('mask-walkthrough'));
  const whole = pngOf(url);
  assert.ok(whole.height > Math.round(walk.rect[3]), `the whole walkthrough (${walk.rect[3]} px tall) and its caption: ${whole.height} px`);
  assert.deepEqual(problems, []);
  await phone.close();
});

// [SECTION] Issue #34: a learner's walk on a phone ------------------------------------------------------
async function phonePage(path) {
  const phone = await env.browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true,
    deviceScaleFactor: 2, reducedMotion: 'reduce' });
  const lesson = await phone.newPage();
  lesson.on('pageerror', e => problems.push(`page error: ${e.message}`));
  await lesson.goto(`${env.origin}${path}`);
  await lessonReady(lesson);
  await settled(lesson);
  return { phone, lesson, cdp: await phone.newCDPSession(lesson) };
}
async function onCanvas(target, rect) {
  const box = await target.locator('#canvas').boundingBox();
  return { x: box.x + rect[0] + rect[2] / 2, y: box.y + rect[1] + rect[3] / 2 };
}

test('the contents drawer scrolls by finger to its last section and the checks bar', async () => {
  const { phone, lesson, cdp } = await phonePage('/lesson.html?lesson=self-attention&voice=off');
  await lesson.evaluate(() => window.neuralpath.command({ type: 'contents', open: true }));
  await settled(lesson);
  const before = await lesson.evaluate(() => window.neuralpath.state().layout);
  assert.equal(before.contents_open, true);
  await swipe(lesson, cdp, { x: 150, y: 650 }, { x: 150, y: 200 });
  await swipe(lesson, cdp, { x: 150, y: 650 }, { x: 150, y: 200 });
  const after = await lesson.evaluate(() => window.neuralpath.state().layout);
  assert.equal(after.contents_open, true, 'the swipe left the drawer open');
  assert.ok(after.contents_scroll > before.contents_scroll + 200, `the list scrolled (${before.contents_scroll} -> ${after.contents_scroll})`);
  assert.equal(after.scroll, before.scroll, 'the page under the drawer stayed');
  await lesson.screenshot({ path: screenshotPath('phone-contents-scrolled') });
  assert.deepEqual(problems, []);
  await phone.close();
});

test('a tapped number\'s derivation scrolls away with its figure, and the next tap (the BERT switch) works', async () => {
  const { phone, lesson, cdp } = await phonePage('/lesson.html?lesson=self-attention&section=causal-mask&voice=off');
  const widget = id => lesson.evaluate(id => window.neuralpath.state().widgets.find(w => w.id === id), id);
  // The mask walkthrough's grid just under the bar; a tap on one of its numbers explains it.
  await lesson.evaluate(() => {
    const s = window.neuralpath.state();
    window.neuralpath.command({ type: 'scroll', to: s.layout.scroll + s.widgets.find(w => w.id === 'causal-grid').rect[1] - 70 });
  });
  await settled(lesson);
  let grid = await widget('causal-grid');
  const cells = grid.layout.grid;
  const cell = await onCanvas(lesson, [cells[0] + cells[2] * 0.3, cells[1] + cells[3] * 0.85, 4, 4]);
  await lesson.touchscreen.tap(cell.x, cell.y);
  await settled(lesson);
  // A row-sum number explains itself in a popup; then the page is scrolled by finger.
  grid = await widget('causal-grid');
  const sum = await onCanvas(lesson, [cells[0] + cells[2] - 20, cells[1] + cells[3] - 12, 4, 4]);
  await lesson.touchscreen.tap(sum.x, sum.y);
  await settled(lesson);
  grid = await widget('causal-grid');
  assert.equal(grid.explained.open, true, 'a tap on a row sum explains it');
  const popupTop = grid.explained.popup[1], gridTop = grid.rect[1];
  await swipe(lesson, cdp, { x: 300, y: 500 }, { x: 300, y: 400 });
  grid = await widget('causal-grid');
  const moved = gridTop - grid.rect[1];
  assert.ok(moved > 50, `the page scrolled (${moved} px)`);
  if (grid.explained.open) assert.ok(Math.abs(grid.explained.popup[1] - (popupTop - moved)) < 1.5, 'the popup moved with its figure');
  // The BERT switch, at the card's top: one tap flips it.
  await lesson.evaluate(() => {
    const s = window.neuralpath.state();
    window.neuralpath.command({ type: 'scroll', to: s.layout.scroll + s.widgets.find(w => w.id === 'causal-grid').rect[1] - 120 });
  });
  await settled(lesson);
  grid = await widget('causal-grid');
  const causal = grid.causal;
  const button = await onCanvas(lesson, [grid.rect[0] + grid.rect[2] * 0.75, grid.rect[1] + 30, 4, 4]);
  await lesson.touchscreen.tap(button.x, button.y);
  await settled(lesson);
  grid = await widget('causal-grid');
  assert.notEqual(grid.causal, causal, 'the first tap on the switch flipped it');
  assert.equal(grid.explained.open, false);
  await lesson.screenshot({ path: screenshotPath('phone-popup-then-switch') });
  assert.deepEqual(problems, []);
  await phone.close();
});

test('a shared link to a section lands on its heading, and a reload comes back to it', async () => {
  for (const section of ['cost', 'pytorch']) {
    const { phone, lesson } = await phonePage(`/lesson.html?lesson=self-attention&section=${section}&voice=off`);
    const off = () => lesson.evaluate(a => {
      const s = window.neuralpath.state();
      return s.layout.scroll - s.sections.find(x => x.anchor === a).top;
    }, section);
    await lesson.waitForTimeout(500);
    await settled(lesson);
    assert.ok(Math.abs(await off()) < 2, `${section}: the heading is at the top (${await off()} px off)`);
    await lesson.reload();
    await lessonReady(lesson);
    await settled(lesson);
    assert.ok(Math.abs(await off()) < 2, `${section} after a reload: ${await off()} px off`);
    await phone.close();
  }
  assert.deepEqual(problems, []);
});

test('a figure taller than a phone is saved without seams, and its caption fits the picture', async () => {
  // The same figure at the same width, on a screen tall enough to take it in one piece: the
  // picture saved a screenful at a time must be the same, row for row (#34: a garbled line and
  // a doubled "Show" button where the pieces met).
  const pictures = [];
  for (const height of [740, 2400]) {
    const context = await env.browser.newContext({ viewport: { width: 375, height }, hasTouch: true, isMobile: true,
      deviceScaleFactor: 2, reducedMotion: 'reduce' });
    const lesson = await context.newPage();
    await lesson.goto(`${env.origin}/lesson.html?lesson=self-attention&section=causal-mask&voice=off`);
    await lessonReady(lesson);
    await settled(lesson);
    const url = await lesson.evaluate(() => window.neuralpath.exportPng('mask-walkthrough'));
    const picture = decodePng(Buffer.from(url.split(',')[1], 'base64'));
    picture.figure = Math.round(2 * (await lesson.evaluate(() => window.neuralpath.state().widgets.find(w => w.id === 'mask-walkthrough').rect[3])));
    pictures.push(picture);
    if (height === 740) writeFileSync(screenshotPath('phone-saved-walkthrough'), Buffer.from(url.split(',')[1], 'base64'));
    await context.close();
  }
  const [stitched, whole] = pictures;
  assert.equal(stitched.width, whole.width);
  assert.equal(stitched.height, whole.height);
  // Row by row, the figure (the caption under it names the page's address, which differs).
  const rows = (image, n) => ({ width: image.width, height: n, data: image.data.subarray(0, n * image.width * 4) });
  assert.ok(stitched.figure > 1480, `the walkthrough (${stitched.figure} px) is taller than the phone's screen`);
  const figureRows = Math.min(stitched.figure, whole.figure) - 2;
  const { differing, total } = comparePixels(rows(stitched, figureRows), rows(whole, figureRows), 24);
  assert.ok(differing / total < 0.002, `${differing} of ${total} pixels differ from the one-piece picture`);
  // The caption's lines end inside the picture: its last column is the page colour in every row.
  const last = stitched.width - 1;
  const background = [...stitched.data.subarray((stitched.height - 1) * stitched.width * 4, (stitched.height - 1) * stitched.width * 4 + 3)];
  for (let y = stitched.figure + 4; y < stitched.height; y++) {
    const at = (y * stitched.width + last) * 4;
    assert.ok([0, 1, 2].every(c => Math.abs(stitched.data[at + c] - background[c]) < 24), `caption row ${y} reaches the right edge`);
  }
});
