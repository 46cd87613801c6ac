// The course playback in Chromium: the board advances step by step with its captions, pause
// stops it, step back returns the previous caption, and the narrator speaks exactly the caption
// text (speech synthesis replaced by a recording fake, installed before any page script).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, lessonReady, screenshotPath, settled, pauseClock, resumeClock } from './harness.mjs';

const LESSON = 'course-playback';

let env, shared;  // shared: the voice=off page the first, second and last tests use
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

// A speechSynthesis that records every speak() and reports the end of an utterance after
// window.__speechMs (an utterance cancelled before then reports 'interrupted', as Chrome does).
function fakeSpeech({ voices }) {
  const spoken = [];
  let current = null, timer = 0;
  // voices: true (one English voice), false (none at all), or a language tag (one voice, in it)
  const lang = typeof voices === 'string' ? voices : 'en-US';
  const voiceList = voices ? [{ name: 'Test Voice', lang, default: true, localService: true, voiceURI: 'test' }] : [];
  window.__speech = { spoken, cancels: 0 };
  window.__speechMs = 250;
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.rate = 1; this.voice = null; } };
  const synth = {
    get speaking() { return !!current; },
    get pending() { return false; },
    getVoices: () => voiceList,
    speak(utterance) {
      spoken.push({ text: utterance.text, rate: utterance.rate, voice: utterance.voice?.name ?? null });
      current = utterance;
      timer = setTimeout(() => {
        if (current !== utterance) return;
        current = null;
        utterance.onend?.({});
      }, window.__speechMs);
    },
    cancel() {
      window.__speech.cancels++;
      clearTimeout(timer);
      const utterance = current;
      current = null;
      utterance?.onerror?.({ error: 'interrupted' });
    },
    pause() {}, resume() {},
    addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
}

// Opens the lesson with the fake speech installed; captions the engine emits are collected in
// window.__captions.
// `clock` installs Playwright's clock (time flows until a test pauses it).
async function open(query, { voices = true, width = 1280, height = 900, clock = false } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  if (clock) await context.clock.install();
  await context.addInitScript(fakeSpeech, { voices });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('console', m => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  await page.goto(`${env.origin}/lesson.html?lesson=${LESSON}&${query}`);
  await lessonReady(page);
  await page.evaluate(() => {
    window.__captions = [];
    window.neuralpath.events.addEventListener('caption', e => window.__captions.push(e.detail));
  });
  return { page, context, problems };
}

const board = page => page.evaluate(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback'));
const playback = page => page.evaluate(() => window.neuralpath.state().playback);

// Scrolls the page so the board's top is near the top of the reading column (for the screenshots).
async function showBoard(page) {
  const state = await page.evaluate(() => window.neuralpath.state());
  const rect = state.widgets.find(w => w.kind === 'playback').rect;
  const top = (state.layout.column?.[1] ?? 0) + 4;  // under a phone's bars
  await page.evaluate(to => window.neuralpath.command({ type: 'scroll', to }), state.layout.scroll + rect[1] - top);
  await settled(page);
}

test('the lesson has a playback board over the whole block of AI Agents Build Future', async () => {
  shared = await open('voice=off', { clock: true });
  const { page, problems } = shared;
  const b = await board(page);
  assert.equal(b.sentence, 'AI Agents Build Future');
  assert.deepEqual(b.tokens, ['AI', 'Agents', 'Build', 'Future']);
  assert.equal(b.step, 0);
  assert.equal(b.step_kind, 'tokens');
  assert.equal(b.heads, 2);
  assert.ok(b.steps > 20, `${b.steps} steps`);
  assert.equal(b.playing, false);
  assert.deepEqual(problems, []);
});

test('play advances steps and captions, pause stops, step back returns the previous caption', async () => {
  const { page, problems } = shared;
  await page.evaluate(() => window.neuralpath.command({ type: 'speed', rate: 2 }));
  await page.evaluate(() => window.neuralpath.play());
  // The caption events reach the page a frame after the step changes: wait for them, not the step.
  await page.waitForFunction(() => window.__captions.length >= 2, null, { timeout: 30_000 });
  const captions = await page.evaluate(() => window.__captions);
  assert.ok(captions.length >= 2, 'a caption event for each step');
  assert.deepEqual(captions.slice(0, 2).map(c => c.step), [1, 2]);
  for (const c of captions) assert.ok(c.text.length > 10, `caption ${c.step} has a sentence`);

  await page.evaluate(() => window.neuralpath.pause());
  const paused = await playback(page);
  assert.equal(paused.playing, false);
  await pauseClock(page);
  await page.clock.runFor(4000);  // longer than a step at 2x, in page time
  await resumeClock(page);
  const still = await playback(page);
  assert.equal(still.step, paused.step, 'a paused board stays where it is');
  assert.equal(still.caption, paused.caption);

  await page.evaluate(() => window.neuralpath.step(1));
  const forward = await playback(page);
  assert.equal(forward.step, paused.step + 1);
  await page.evaluate(() => window.neuralpath.step(-1));
  const back = await playback(page);
  assert.equal(back.step, paused.step);
  assert.equal(back.caption, paused.caption, 'step back returns the previous caption');
  // Its caption event comes a frame later (under load that frame may not have run yet).
  await page.waitForFunction(text => window.__captions.at(-1)?.text === text, paused.caption, { timeout: 10_000 })
    .catch(() => {});
  const last = await page.evaluate(() => window.__captions.at(-1));
  assert.equal(last.text, paused.caption, 'and announces it again');

  // Captions go to the screen readers' live region too.
  await page.waitForFunction(text => document.getElementById('np-live').textContent === text, paused.caption,
    { timeout: 5000 });
  // No voice: the speech synthesis was never asked to speak.
  assert.equal(await page.evaluate(() => window.__speech.spoken.length), 0);
  assert.deepEqual(problems, []);
});

test('with the voice on the narrator speaks exactly each caption and the board moves on when it ends', async () => {
  const { page, context, problems } = await open('voice=on');
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback').voice === true,
    null, { timeout: 10_000 });
  await page.evaluate(() => window.neuralpath.play());
  // Utterances of 250 ms: far quicker than the timed advance (several seconds a step).
  await page.waitForFunction(() => window.neuralpath.state().playback.step >= 3, null, { timeout: 8_000 });
  const { spoken, captions, state } = await page.evaluate(() => ({
    spoken: window.__speech.spoken, captions: window.__captions, state: window.neuralpath.state().playback }));
  const initial = await page.evaluate(() => window.neuralpath.state().playback.steps);
  assert.ok(initial > 3);
  // The first utterance is step 0's caption (spoken on play); then one per caption event.
  assert.ok(spoken.length >= 3, `${spoken.length} utterances`);
  for (const c of captions.filter(c => c.step <= state.step && c.step >= 1)) {
    assert.ok(spoken.some(s => s.text === c.text), `caption ${c.step} was spoken word for word`);
  }
  for (const s of spoken) assert.ok(captions.some(c => c.text === s.text) || s === spoken[0],
    `nothing but captions is spoken: ${s.text}`);
  assert.equal(spoken[0].voice, 'Test Voice');

  // Pause stops the voice at once and the board stays.
  // The next utterance runs long. Wait until it has begun: a 250 ms one still speaking could end
  // on its own just before pause, and then there is nothing left to cancel.
  const spokenBefore = await page.evaluate(() => { window.__speechMs = 60_000; return window.__speech.spoken.length; });
  await page.waitForFunction(n => window.__speech.spoken.length > n && window.speechSynthesis.speaking, spokenBefore,
    { timeout: 5000 });
  const cancelsBefore = await page.evaluate(() => window.__speech.cancels);
  await page.evaluate(() => window.neuralpath.pause());
  await page.waitForFunction(() => !window.speechSynthesis.speaking, null, { timeout: 2000 });
  assert.ok(await page.evaluate(() => window.__speech.cancels) > cancelsBefore, 'speechSynthesis.cancel() was called');
  const pausedAt = (await playback(page)).step;
  await page.waitForTimeout(1000);
  assert.equal((await playback(page)).step, pausedAt);
  assert.deepEqual(problems, []);
  await context.close();
});

test('without any voice the board falls back to a timed advance and says so', async () => {
  const { page, context } = await open('voice=on', { voices: false });
  await page.waitForTimeout(2000);  // the narrator waits for voices before giving up
  const b = await board(page);
  assert.equal(b.voice, false, 'the engine was told the voice is off');
  await page.evaluate(() => window.neuralpath.command({ type: 'speed', rate: 2 }));
  await page.evaluate(() => window.neuralpath.play());
  await page.waitForFunction(() => window.neuralpath.state().playback.step >= 1, null, { timeout: 15_000 });
  assert.equal(await page.evaluate(() => window.__speech.spoken.length), 0);
  await context.close();
});

test('with voices only in another language, the voice box says there is none in the page\'s, and asking for it shows a note', async () => {
  // #34: the box was greyed out with a tooltip a touch screen never shows, saying "no speech
  // voice" of a browser that had voices, just none that reads English.
  const { page, context, problems } = await open('voice=off', { voices: 'fr-FR' });
  await page.waitForFunction(() => document.querySelector('.np-voice-missing')?.textContent, null, { timeout: 10_000 });
  assert.match(await page.locator('.np-voice-missing').textContent(), /none in English/);
  assert.equal(await page.locator('#np-voice').isDisabled(), true);
  // The board's own Voice button (a phone's only one): the engine is told no, and a note says why.
  await page.evaluate(() => window.neuralpath.command({ type: 'voice', on: true }));
  await page.waitForFunction(() => { const n = document.querySelector('.np-voice-note'); return n && !n.hidden; }, null, { timeout: 10_000 });
  assert.match(await page.locator('.np-voice-note').textContent(), /no English voice/);
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback').voice === false,
    null, { timeout: 5000 });
  await page.screenshot({ path: screenshotPath('playback-no-voice-note') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the learner\'s voice choice is remembered across a reload', async () => {
  const { page, context } = await open('voice=off');
  assert.equal((await board(page)).voice, false);
  await page.locator('#np-voice').check();
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback').voice === true,
    null, { timeout: 5000 });
  await page.reload();
  await lessonReady(page);
  await page.waitForFunction(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback').voice === true,
    null, { timeout: 10_000 });
  assert.equal(await page.locator('#np-voice').isChecked(), true);
  await context.close();
});

test('every stage\'s name is whole and inside its room, at 375 and 1440 px, in English and Spanish', async () => {
  // On a phone the lit stage's name sat after the dots and was cut ("Tokens + posi"); it now
  // goes under them when the longest name would not fit there. A desk shows every name in a box.
  for (const [width, phone] of [[375, true], [1440, false]])
    for (const lang of ['en', 'es']) {
      const context = await env.browser.newContext({ viewport: { width, height: phone ? 740 : 900 },
        hasTouch: phone, isMobile: phone, deviceScaleFactor: phone ? 2 : 1, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${env.origin}/lesson.html?lesson=${LESSON}&lang=${lang}&voice=off`);
      await lessonReady(page);
      const steps = (await board(page)).steps;
      const seen = new Set();
      for (let k = 0; k < steps; k++) {
        await page.evaluate(step => window.neuralpath.command({ type: 'seek', step }), k);
        // The layout is the last frame's: wait for the frame that drew step k (or fail below).
        await page.waitForFunction(() => {
          const w = window.neuralpath.state().widgets.find(x => x.kind === 'playback');
          return w.layout.stage_labels?.some(l => l.text === w.stage);
        }, null, { timeout: 10_000 }).catch(() => {});
        const b = await board(page);
        const labels = b.layout.stage_labels;
        assert.ok(labels?.length, `${lang} ${width}: step ${k} names its stage`);
        for (const { text, text_rect: t, room: r } of labels) {
          assert.ok(t[0] >= r[0] - 0.5 && t[0] + t[2] <= r[0] + r[2] + 0.5,
            `${lang} ${width}: '${text}' (${t[0].toFixed(1)}..${(t[0] + t[2]).toFixed(1)}) inside ${r[0].toFixed(1)}..${(r[0] + r[2]).toFixed(1)}`);
          assert.ok(t[0] + t[2] <= b.layout.frame[0] + b.layout.frame[2], `${lang} ${width}: '${text}' inside the board`);
        }
        assert.ok(labels.some(l => l.text === b.stage), `${lang} ${width}: the lit stage '${b.stage}' is named whole`);
        seen.add(b.stage);
      }
      assert.ok(seen.size >= 8, `${lang} ${width}: ${seen.size} stages visited`);
      if (phone) {  // the longest name, on a phone
        await page.evaluate(step => window.neuralpath.command({ type: 'seek', step }), steps - 4);
        await showBoard(page);
        await page.screenshot({ path: screenshotPath(`playback-stage-name-${lang}-${width}`) });
      }
      await context.close();
    }
});

test('three moments of playback look right (screenshots)', async () => {
  const { page, context } = shared;
  await page.setViewportSize({ width: 1280, height: 1000 });
  const steps = await page.evaluate(() => window.neuralpath.state().widgets.find(w => w.kind === 'playback').steps);
  const kinds = [];
  for (let k = 0; k < steps; k++) {
    await page.evaluate(step => window.neuralpath.command({ type: 'seek', step }), k);
    kinds.push((await board(page)).step_kind);
  }
  await showBoard(page);

  // 1. The scores of head 1 while they are being computed (cells filling in).
  await page.evaluate(step => window.neuralpath.command({ type: 'seek', step }), kinds.indexOf('score'));
  await page.waitForTimeout(700);
  await page.screenshot({ path: screenshotPath('playback-1-scores-filling') });

  // 2. The softmax of head 2, complete, played to from the step before.
  await page.evaluate(step => window.neuralpath.command({ type: 'seek', step }), kinds.lastIndexOf('softmax'));
  await page.evaluate(() => window.neuralpath.command({ type: 'head', head: 1 }));
  await settled(page);  // the step's animation has finished
  await page.screenshot({ path: screenshotPath('playback-2-softmax-head2') });

  // 3. The next-token probabilities at the end, on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(step => window.neuralpath.command({ type: 'seek', step }), kinds.indexOf('next_token'));
  await showBoard(page);
  await settled(page);
  await page.screenshot({ path: screenshotPath('playback-3-next-token-phone') });
  assert.equal((await board(page)).step_kind, 'next_token');
  await context.close();
});
