// A course site embeds a lesson from another origin with one <script> tag: the frame fits its
// content, the site hears answers with xAPI statements, and only the site it was embedded for
// can drive it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, screenshotPath } from './harness.mjs';
import { hostSite, waitForLesson, LESSON } from './embed-kit.mjs';

let env, host;

const hostPage = lessonOrigin => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A course site</title><link rel="icon" href="data:,"></head>
<body style="margin: 0 auto; max-width: 60rem; padding: 1rem; font-family: sans-serif">
<main><h1>Week 3: attention</h1><p>Work through the lesson below.</p>
<div id="lesson" data-neuralpath-lesson="${LESSON}"><a href="${lessonOrigin}/lesson.html?lesson=${LESSON}">Open the lesson</a></div>
<p id="after">The end of the page.</p></main>
<script src="${lessonOrigin}/embed.js"></script>
<script>
  window.received = [];
  for (const type of ['ready', 'resize', 'section', 'answered', 'progress', 'completed'])
    document.getElementById('lesson').addEventListener('neuralpath:' + type, e => received.push(e.detail));
</script></body></html>`;

// A site the lesson was NOT embedded for: it frames the lesson by hand, allowing another origin.
const strangerPage = lessonOrigin => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another site</title><link rel="icon" href="data:,"></head><body>
<iframe id="frame" title="lesson" style="width: 900px; height: 700px; border: 0"
  src="${lessonOrigin}/lesson.html?lesson=${LESSON}&embed=1&allow=${encodeURIComponent('https://course.example.org')}"></iframe>
</body></html>`;

before(async () => {
  env = await launch();
  host = await hostSite({ 'course.html': hostPage(env.origin), 'stranger.html': strangerPage(env.origin) });
});
after(async () => { await host?.close(); await env?.close(); });

async function openHost(path, { width = 1280, height = 900 } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const problems = [], warnings = [];
  page.on('console', m => {
    if (m.type() === 'error') problems.push(m.text());
    if (m.type() === 'warning') warnings.push(m.text());
  });
  page.on('pageerror', e => problems.push(e.message));
  await page.goto(host.origin + path);
  return { page, context, problems, warnings };
}

const lessonFrame = page => page.frames().find(f => f.url().includes('/lesson.html'));
const received = (page, type) => page.evaluate(t => window.received.filter(m => m.type === t), type);

async function openEmbedded(options) {
  const opened = await openHost('/course.html', options);
  await opened.page.waitForFunction(() => window.received.some(m => m.type === 'ready'), null, { timeout: 60_000 });
  const frame = lessonFrame(opened.page);
  await waitForLesson(frame);
  return { ...opened, frame };
}

test('one script tag turns the div into a titled, lazy iframe of the lesson in embed mode', async () => {
  const { page, context, frame, problems } = await openEmbedded();
  const iframe = page.locator('#lesson iframe');
  assert.equal(await iframe.count(), 1);
  assert.equal(await iframe.getAttribute('loading'), 'lazy');
  assert.match(await iframe.getAttribute('title'), /\S/);
  const src = new URL(await iframe.getAttribute('src'));
  assert.equal(src.origin, env.origin);
  assert.equal(src.searchParams.get('embed'), '1');
  assert.equal(src.searchParams.get('allow'), host.origin);
  assert.equal(await frame.evaluate(() => document.documentElement.classList.contains('np-embed')), true);
  assert.equal(await frame.locator('.np-chrome').isVisible(), false, 'the site chrome is dropped');
  const [ready] = await received(page, 'ready');
  assert.equal(ready.source, 'neuralpath');
  assert.equal(ready.lesson, LESSON);
  assert.ok(ready.sections.length > 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('answering a check in the text version sends the host an answered message with an xAPI statement', async () => {
  const { page, context, frame, problems } = await openEmbedded();
  await frame.locator('.np-embed-bar button', { hasText: 'Text version' }).click();
  const check = frame.locator('#np-mirror .np-m-check').first();
  const checkId = await check.getAttribute('data-check');
  await check.locator('.np-m-option').first().click();
  await page.waitForFunction(() => window.received.some(m => m.type === 'answered'), null, { timeout: 10_000 });
  const [answered] = await received(page, 'answered');
  assert.equal(answered.check, checkId);
  assert.equal(typeof answered.correct, 'boolean');
  const s = answered.statement;
  assert.equal(s.actor, undefined, 'the actor is left to the host');
  assert.equal(s.verb.id, 'http://adlnet.gov/expapi/verbs/answered');
  assert.equal(s.object.objectType, 'Activity');
  assert.ok(s.object.id.startsWith(`${env.origin}/lesson.html?lesson=${LESSON}`), s.object.id);
  assert.match(s.object.id, new RegExp(`check-${checkId}$`));
  assert.equal(s.object.definition.interactionType, 'choice');
  assert.equal(s.result.success, answered.correct);
  assert.equal(s.result.response, '0');
  assert.equal(typeof s.result.score.scaled, 'number');
  assert.equal(s.context.contextActivities.parent[0].id, `${env.origin}/lesson.html?lesson=${LESSON}`);
  assert.match(s.timestamp, /^\d{4}-\d\d-\d\dT/);
  // The learner's record follows, for the host's LMS to keep.
  await page.waitForFunction(() => window.received.some(m => m.type === 'progress'), null, { timeout: 10_000 });
  const progress = (await received(page, 'progress')).at(-1);
  assert.ok(progress.progress, 'progress carries the saved record');
  assert.equal(progress.statement.verb.id, 'http://adlnet.gov/expapi/verbs/progressed');
  // The canvas follows the text version: the engine recorded the answer.
  const state = await frame.evaluate(id => window.neuralpath.state().checks.find(c => c.id === id), checkId);
  assert.deepEqual(state.chosen, [0]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the iframe is exactly as tall as the lesson inside it, also after the text grows', async () => {
  const { page, context, frame } = await openEmbedded();
  const fits = async () => {
    await page.waitForTimeout(300);
    await page.waitForFunction(() => {
      const iframe = document.querySelector('#lesson iframe');
      return window.received.filter(m => m.type === 'resize').at(-1)?.height === Math.round(iframe.getBoundingClientRect().height);
    }, null, { timeout: 10_000 });
    const outer = await page.evaluate(() => document.querySelector('#lesson iframe').getBoundingClientRect().height);
    const inner = await frame.evaluate(() => ({ body: document.body.scrollHeight, scroll: document.documentElement.scrollHeight,
      client: document.documentElement.clientHeight }));
    assert.ok(Math.abs(outer - inner.body) <= 1, `iframe ${outer}px, page ${inner.body}px`);
    assert.ok(inner.scroll <= inner.client + 1, `no inner scrollbar (${inner.scroll} > ${inner.client})`);
    return outer;
  };
  const closed = await fits();
  const canvasHeight = await frame.evaluate(() => document.getElementById('canvas').getBoundingClientRect().height);
  assert.ok(canvasHeight > 400, `the canvas shows the lesson (${canvasHeight}px)`);
  await frame.locator('.np-embed-bar button', { hasText: 'Text version' }).click();
  const open = await fits();
  assert.ok(open > closed + 200, `the frame grew with the text version (${closed} -> ${open})`);
  await page.screenshot({ path: screenshotPath('embed-host-desktop'), fullPage: false });
  await context.close();
});

test('a lesson and fonts that arrive late still leave the frame exactly its content\'s height', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 800 } });
  // Hold the lesson text and the engine's font package back for two seconds.
  await context.route(/\/(lessons\/[\w-]+\.md|lesson\.data)$/, async route => {
    await new Promise(done => setTimeout(done, 2000));
    await route.continue();
  });
  const page = await context.newPage();
  await page.goto(`${host.origin}/course.html`);
  const early = await page.evaluate(() => document.querySelector('#lesson iframe').getBoundingClientRect().height);
  await page.waitForFunction(() => window.received.some(m => m.type === 'ready'), null, { timeout: 60_000 });
  const frame = lessonFrame(page);
  await waitForLesson(frame);
  await page.waitForTimeout(1000);
  const outer = await page.evaluate(() => document.querySelector('#lesson iframe').getBoundingClientRect().height);
  const inner = await frame.evaluate(() => document.body.scrollHeight);
  const content = await frame.evaluate(() => window.neuralpath.state().layout.content_height);
  assert.ok(outer > early, `the frame grew once the lesson came (${early} -> ${outer})`);
  assert.ok(Math.abs(outer - inner) <= 1, `iframe ${outer}px, page ${inner}px`);
  assert.ok(inner >= content, `the page holds the lesson's ${content}px`);
  await context.close();
});

test('a long lesson is shown whole: scrolling the host page brings every part of it onto the canvas', async () => {
  const { page, context, frame, problems } = await openEmbedded({ width: 1280, height: 900 });
  const content = await frame.evaluate(() => window.neuralpath.state().layout.content_height);
  const frameHeight = await page.evaluate(() => document.querySelector('#lesson iframe').getBoundingClientRect().height);
  assert.ok(frameHeight >= content, `the frame (${frameHeight}px) holds the whole lesson (${content}px)`);
  // Wherever the host scrolls, the part of the frame on screen is covered by the canvas, and
  // the engine shows that part of its page.
  for (const fraction of [0.35, 0.7, 1]) {
    await page.evaluate(f => scrollTo(0, f * (document.documentElement.scrollHeight - innerHeight)), fraction);
    await page.waitForTimeout(700);
    const seen = await frame.evaluate(() => {
      const canvas = document.getElementById('canvas').getBoundingClientRect();
      const stage = document.getElementById('np-stage').getBoundingClientRect();
      return { canvasTop: canvas.top, canvasBottom: canvas.bottom, stageTop: stage.top, scroll: window.neuralpath.state().layout.scroll };
    });
    const frameTop = await page.evaluate(() => document.querySelector('#lesson iframe').getBoundingClientRect().top);
    const visibleTop = Math.max(0, -frameTop), visibleBottom = Math.min(frameHeight, 900 - frameTop);
    assert.ok(seen.canvasTop <= Math.max(visibleTop, seen.stageTop) + 1 && seen.canvasBottom >= visibleBottom - 1,
      `the canvas (${seen.canvasTop}..${seen.canvasBottom}) covers what is on screen (${visibleTop}..${visibleBottom})`);
    assert.ok(Math.abs(seen.scroll - (seen.canvasTop - seen.stageTop)) <= 1,
      `the engine's page is scrolled to the canvas's place (${seen.scroll} vs ${seen.canvasTop - seen.stageTop})`);
  }
  await page.screenshot({ path: screenshotPath('embed-host-scrolled-desktop') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the host page looks right on a phone: the frame fits the width and its content', async () => {
  const { page, context, frame } = await openEmbedded({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  const box = await page.locator('#lesson iframe').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `iframe width ${box.width}`);
  const inner = await frame.evaluate(() => document.body.scrollHeight);
  assert.ok(Math.abs(box.height - inner) <= 1, `iframe ${box.height}px, page ${inner}px`);
  await page.screenshot({ path: screenshotPath('embed-host-phone') });
  await frame.locator('.np-embed-bar button', { hasText: 'Text version' }).click();
  await page.waitForTimeout(500);
  await page.evaluate(() => scrollTo(0, document.querySelector('#lesson iframe').getBoundingClientRect().top + scrollY));
  await page.waitForTimeout(300);
  await page.screenshot({ path: screenshotPath('embed-text-version-phone') });
  await context.close();
});

test('the host drives the lesson, and gets the learner record back in to restore it', async () => {
  const { page, context, frame } = await openEmbedded();
  const sections = await frame.evaluate(() => window.neuralpath.state().sections.map(s => s.anchor));
  const target = sections[2] || sections[1];
  await page.evaluate(anchor => document.getElementById('lesson').neuralpath.goto(anchor), target);
  await frame.waitForFunction(anchor => window.neuralpath.state().section === anchor, target, { timeout: 10_000 });
  await page.waitForFunction(anchor => window.received.some(m => m.type === 'section' && m.section === anchor), target);
  // The host's page scrolled to show that section (the frame is as tall as the lesson).
  const top = await frame.evaluate(anchor => window.neuralpath.state().sections.find(s => s.anchor === anchor).top, target);
  await page.waitForFunction(y => scrollY > y * 0.5, top, { timeout: 10_000 });
  // Answer, take the record the host received, reset, and pass the record back in.
  const first = await frame.evaluate(() => window.neuralpath.state().checks[0].id);
  await frame.evaluate(id => window.neuralpath.answer(id, 1), first);
  await page.waitForFunction(() => window.received.some(m => m.type === 'progress'));
  const record = await page.evaluate(() => window.received.filter(m => m.type === 'progress').at(-1).progress);
  await frame.evaluate(() => window.neuralpath.command({ type: 'reset' }));
  await frame.waitForFunction(id => window.neuralpath.state().checks.find(c => c.id === id).chosen.length === 0, first);
  await page.evaluate(r => document.getElementById('lesson').neuralpath.restore(r), record);
  await frame.waitForFunction(id => window.neuralpath.state().checks.find(c => c.id === id).chosen[0] === 1, first,
    { timeout: 10_000 });
  await context.close();
});

test('commands from an origin that was not allowed, or in the wrong shape, are ignored with a warning', async () => {
  const { page, context, warnings, problems } = await openHost('/stranger.html');
  const frame = await (async () => {
    await page.waitForFunction(() => document.getElementById('frame').contentWindow, null);
    for (let i = 0; i < 100 && !lessonFrame(page); i++) await page.waitForTimeout(100);
    return lessonFrame(page);
  })();
  await waitForLesson(frame);
  const before = await frame.evaluate(() => window.neuralpath.state());
  const target = before.sections.at(-1).anchor;
  assert.notEqual(before.section, target);
  await page.evaluate(([origin, anchor]) => {
    const w = document.getElementById('frame').contentWindow;
    w.postMessage({ target: 'neuralpath', type: 'goto', section: anchor }, origin);
    w.postMessage({ target: 'neuralpath', type: 'restore', progress: '{}' }, origin);
  }, [env.origin, target]);
  await page.waitForTimeout(800);
  const after = await frame.evaluate(() => window.neuralpath.state());
  assert.equal(after.section, before.section, 'the stranger could not move the lesson');
  assert.ok(warnings.some(w => /ignored a message from http:\/\/127\.0\.0\.1:\d+: its origin is not in allow=/.test(w)),
    `a console warning says why (${warnings.join(' | ')})`);
  assert.deepEqual(problems, [], 'a warning, not an error');
  await context.close();

  // From the allowed site: wrong shapes are refused too, the documented one runs.
  const allowed = await openEmbedded();
  const anchors = await allowed.frame.evaluate(() => window.neuralpath.state().sections.map(s => s.anchor));
  await allowed.page.evaluate(([origin, anchor]) => {
    const w = document.querySelector('#lesson iframe').contentWindow;
    const send = m => w.postMessage(m, origin);
    send({ target: 'neuralpath', type: 'goto', section: 42 });                        // wrong type
    send({ target: 'neuralpath', type: 'goto', section: anchor, extra: '<script>' });  // unknown field
    send({ target: 'neuralpath', type: 'answer', check: 'x', option: 0 });             // not offered to hosts
    send({ target: 'neuralpath', type: 'setSentence', text: 'x'.repeat(5000) });       // too long
    send({ type: 'goto', section: anchor });                                          // no target
  }, [env.origin, anchors.at(-1)]);
  await allowed.page.waitForTimeout(800);
  const state = await allowed.frame.evaluate(() => window.neuralpath.state());
  assert.notEqual(state.section, anchors.at(-1));
  for (const reason of [/'goto': 'section' has the wrong type/, /'goto' does not take extra/, /unknown type "answer"/,
    /'setSentence': 'text' has the wrong type or length/, /not addressed to neuralpath/])
    assert.ok(allowed.warnings.some(w => reason.test(w)), `warned: ${reason}`);
  await allowed.context.close();
});
