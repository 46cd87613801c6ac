// A course site embeds a lesson from another origin with one <script> tag: the frame fits its
// content, the site hears answers with xAPI statements, and only a site the lesson site allows
// (--allow-origin) can frame it, drive it and hear about the learner; a framer's allow= narrows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, screenshotPath, siteDir } from './harness.mjs';
import { hostSite, waitForLesson, answerKey, LESSON } from './embed-kit.mjs';
import { startServer } from '../../web/serve.mjs';
import { cropColumns, decodePng, inkAgainstBackground } from './png.mjs';

// env: the browser (and a lesson server that allows no other site); lessons: the lesson site
// serving the same files with the course site allowed (./neuralpath serve --allow-origin);
// host: the course site; other: a site the lesson site does not allow.
let env, host, other, lessons, lessonOrigin;

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

// A site the lesson site does not allow, framing the lesson by hand and allowing itself.
const uninvitedPage = (lessonOrigin, selfOrigin) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Uninvited</title><link rel="icon" href="data:,"></head><body>
<iframe id="frame" title="lesson" style="width: 900px; height: 700px; border: 0"
  src="${lessonOrigin}/lesson.html?lesson=${LESSON}&embed=1&allow=${encodeURIComponent(selfOrigin)}"></iframe>
<script>
  window.received = [];
  addEventListener('message', e => { if (e.data && e.data.source === 'neuralpath') received.push(e.data); });
</script></body></html>`;

// The course site's author framing the lesson by hand, with no embed.js to size the frame.
const handMadePage = lessonOrigin => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>By hand</title><link rel="icon" href="data:,"></head>
<body style="margin: 0; padding: 1rem"><h1>Week 3</h1>
<iframe id="frame" title="lesson" style="width: 900px; height: 600px; border: 0"
  src="${lessonOrigin}/lesson.html?lesson=${LESSON}&embed=1"></iframe><p>The end.</p></body></html>`;

before(async () => {
  env = await launch();
  host = await hostSite({});
  other = await hostSite({});
  lessons = await startServer({ root: siteDir, port: 0, allowOrigins: [host.origin] });
  lessonOrigin = `http://127.0.0.1:${lessons.address().port}`;
  writeFileSync(join(host.root, 'course.html'), hostPage(lessonOrigin));
  writeFileSync(join(host.root, 'stranger.html'), strangerPage(lessonOrigin));
  writeFileSync(join(host.root, 'by-hand.html'), handMadePage(lessonOrigin));
  writeFileSync(join(other.root, 'uninvited.html'), uninvitedPage(lessonOrigin, other.origin));
});
after(async () => {
  await host?.close();
  await other?.close();
  await new Promise(done => (lessons ? lessons.close(done) : done()));
  await env?.close();
});

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

// Waits (at most 10 s) until console messages matching every pattern have come, then two more
// of the lesson's frames: a message the lesson ignores says so when it handles it, so by then
// everything sent before has been handled, and a command wrongly taken would show in state().
// Faster, and on a busy machine surer, than waiting a fixed time.
async function handled(frame, messages, patterns) {
  for (let waited = 0; waited < 10_000 && !patterns.every(p => messages.some(m => p.test(m))); waited += 50)
    await new Promise(done => setTimeout(done, 50));
  await frame.evaluate(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))));
}
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
  assert.equal(src.origin, lessonOrigin);
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
  await check.locator('.np-m-option[data-option="0"]').click();  // the lesson's first option, wherever this learner's order shows it
  await page.waitForFunction(() => window.received.some(m => m.type === 'answered'), null, { timeout: 10_000 });
  const [answered] = await received(page, 'answered');
  assert.equal(answered.check, checkId);
  assert.equal(typeof answered.correct, 'boolean');
  const s = answered.statement;
  assert.equal(s.actor, undefined, 'the actor is left to the host');
  assert.equal(s.verb.id, 'http://adlnet.gov/expapi/verbs/answered');
  assert.equal(s.object.objectType, 'Activity');
  assert.ok(s.object.id.startsWith(`${lessonOrigin}/lesson.html?lesson=${LESSON}`), s.object.id);
  assert.match(s.object.id, new RegExp(`check-${checkId}$`));
  assert.equal(s.object.definition.interactionType, 'choice');
  // As learning platforms get it (docs/lms.md): choices as letters in the lesson's order, the right
  // ones as the correct pattern, the question and options in the page's language.
  const shown = await frame.evaluate(id => {
    window.neuralpath.command({ type: 'reveal', id });   // its right options, for the pattern
    return window.neuralpath.state().checks.find(c => c.id === id);
  }, checkId);
  assert.deepEqual(s.object.definition.choices, shown.options.map((text, i) => ({ id: 'abcdefghij'[i], description: { en: text } })));
  assert.deepEqual(s.object.definition.name, { en: shown.question });
  assert.deepEqual(s.object.definition.correctResponsesPattern, [shown.answer.map(i => 'abcdefghij'[i]).join('[,]')]);
  assert.equal(s.result.success, answered.correct);
  assert.equal(s.result.response, 'a');
  assert.equal(typeof s.result.score.scaled, 'number');
  assert.equal(s.context.contextActivities.parent[0].id, `${lessonOrigin}/lesson.html?lesson=${LESSON}`);
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
  await context.route(/\/(lessons\/[\w-]+\.md|lesson(\.[0-9a-f]{16})?\.data)$/, async route => {
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
  // Read to the foot of the host's page, the last section is the current one (and so visited:
  // an embedded lesson read to its end can complete).
  const last = await frame.evaluate(() => window.neuralpath.state().sections.at(-1).anchor);
  await frame.waitForFunction(a => window.neuralpath.state().section === a, last, { timeout: 5_000 });
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
  // The reader scrolls the host page a little and the host's goto comes right after, while the
  // lesson is still moving its canvas window to the new viewport: the goto must win.
  await page.evaluate(anchor => {
    scrollTo(0, 1200);
    setTimeout(() => document.getElementById('lesson').neuralpath.goto(anchor), 30);
  }, target);
  await frame.waitForFunction(anchor => window.neuralpath.state().section === anchor, target, { timeout: 10_000 });
  await page.waitForFunction(anchor => window.received.some(m => m.type === 'section' && m.section === anchor), target);
  // The host's page scrolled to show that section (the frame is as tall as the lesson).
  const top = await frame.evaluate(anchor => window.neuralpath.state().sections.find(s => s.anchor === anchor).top, target);
  await page.waitForFunction(y => scrollY > y * 0.5, top, { timeout: 10_000 });
  // Answer, take the record the host received, reset, and pass the record back in.
  const first = await frame.evaluate(() => window.neuralpath.state().checks[0].id);
  await frame.evaluate(id => window.neuralpath.answer(id, 1), first);
  // The record that holds this answer: progress messages also come for the section visited and
  // each playback step, so the newest one may still be from before the answer.
  await page.waitForFunction(id => window.received.some(m => m.type === 'progress' &&
    JSON.parse(m.progress).answers?.[id]?.[0] === 1), first);
  const record = await page.evaluate(id => window.received.filter(m => m.type === 'progress' &&
    JSON.parse(m.progress).answers?.[id]?.[0] === 1).at(-1).progress, first);
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
  }, [lessonOrigin, target]);
  await handled(frame, warnings, [/ignored a message from .*its origin is not in allow=/]);
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
  }, [lessonOrigin, anchors.at(-1)]);
  const reasons = [/'goto': 'section' has the wrong type/, /'goto' does not take extra/, /unknown type "answer"/,
    /'setSentence': 'text' has the wrong type or length/, /not addressed to neuralpath/];
  await handled(allowed.frame, allowed.warnings, reasons);
  const state = await allowed.frame.evaluate(() => window.neuralpath.state());
  assert.notEqual(state.section, anchors.at(-1));
  for (const reason of reasons)
    assert.ok(allowed.warnings.some(w => reason.test(w)), `warned: ${reason}`);
  await allowed.context.close();
});

test('a site the lesson site does not allow cannot frame it; served without that header, it still hears nothing of the learner and cannot drive it', async () => {
  // With the server's frame-ancestors policy, the browser refuses to show the lesson there.
  const blocked = { context: await env.browser.newContext({ viewport: { width: 1280, height: 900 } }) };
  const blockedPage = await blocked.context.newPage();
  await blockedPage.goto(`${other.origin}/uninvited.html`);
  await blockedPage.waitForTimeout(1500);
  const framedLesson = blockedPage.frames().find(f => f.url().startsWith(`${lessonOrigin}/lesson.html`));
  const hasLesson = framedLesson ? await framedLesson.evaluate(() => !!window.neuralpath).catch(() => false) : false;
  assert.equal(hasLesson, false, 'the lesson did not load inside the uninvited site');
  await blocked.context.close();

  // A static host that sends no such header: the page itself still refuses to share.
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(`${lessonOrigin}/lesson.html*`, async route => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['content-security-policy'];
    await route.fulfill({ response, headers });
  });
  const page = await context.newPage();
  const warnings = [];
  page.on('console', m => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.goto(`${other.origin}/uninvited.html`);
  let frame = null;
  for (let i = 0; i < 100 && !frame; i++) { frame = lessonFrame(page); if (!frame) await page.waitForTimeout(100); }
  await waitForLesson(frame);
  const first = await frame.evaluate(() => window.neuralpath.state().checks[0].id);
  await frame.evaluate(id => window.neuralpath.answer(id, 0), first);   // the learner answers
  const target = await frame.evaluate(() => window.neuralpath.state().sections.at(-1).anchor);
  await page.evaluate(([origin, anchor]) => document.getElementById('frame').contentWindow
    .postMessage({ target: 'neuralpath', type: 'goto', section: anchor }, origin), [lessonOrigin, target]);
  await page.waitForTimeout(1000);
  const types = await page.evaluate(() => window.received.map(m => m.type));
  assert.ok(types.includes('ready'), `it may size the frame (${types})`);
  for (const personal of ['answered', 'progress', 'completed'])
    assert.ok(!types.includes(personal), `no '${personal}' reached the uninvited site`);
  assert.notEqual(await frame.evaluate(() => window.neuralpath.state().section), target, 'its goto was ignored');
  assert.ok(warnings.some(w => /allow= names http:\/\/127\.0\.0\.1:\d+, which this lesson site does not allow/.test(w)),
    warnings.join(' | '));
  assert.ok(warnings.some(w => /its origin is not one this lesson site allows/.test(w)), warnings.join(' | '));
  await context.close();
});

test('progress statements: one per change of the percent, 100 only with completion, completed once every section is visited and every check answered', async () => {
  const { page, context, frame, problems } = await openEmbedded();
  const key = answerKey();
  for (const check of key)
    await frame.evaluate(([id, answer]) => window.neuralpath.answer(id, answer), [check.id, check.multiple ? check.correct : check.correct[0]]);
  await page.waitForTimeout(500);
  const statements = async () => (await received(page, 'progress')).filter(m => m.statement).map(m => ({
    percent: m.statement.result.extensions['https://w3id.org/xapi/cmi5/result/extensions/progress'],
    completion: m.statement.result.completion }));
  const sections = await frame.evaluate(() => window.neuralpath.state().sections.map(s => s.anchor));
  let seen = await statements();
  assert.ok(seen.length >= 1, 'answering sends progress');
  const allAnswered = seen.at(-1);
  if (sections.length > 1) {
    assert.ok(allAnswered.percent < 100 && allAnswered.completion === false,
      `every check answered but not every section read: ${JSON.stringify(allAnswered)}`);
    assert.equal((await received(page, 'completed')).length, 0, 'not completed yet');
  }
  for (const anchor of sections) {
    await frame.evaluate(a => window.neuralpath.goto(a), anchor);
    await frame.waitForFunction(a => window.neuralpath.state().section === a, anchor);
  }
  await page.waitForFunction(() => window.received.some(m => m.type === 'completed'), null, { timeout: 10_000 });
  seen = await statements();
  assert.deepEqual(seen.at(-1), { percent: 100, completion: true });
  for (const s of seen) assert.equal(s.percent === 100, s.completion, `a statement says ${JSON.stringify(s)}`);
  for (let i = 1; i < seen.length; i++) assert.notEqual(seen[i].percent, seen[i - 1].percent, 'each statement is a change');
  // Reading back and forth changes nothing: no more statements, though the record is still sent to keep.
  const before = seen.length;
  const records = (await received(page, 'progress')).length;
  for (let i = 0; i < 6; i++) {
    const anchor = sections[i % 2 ? 0 : sections.length - 1];
    await frame.evaluate(a => window.neuralpath.goto(a), anchor);
    await frame.waitForFunction(a => window.neuralpath.state().section === a, anchor);
  }
  // The record still goes to the host (waited for: on a busy machine it comes a few frames later).
  await page.waitForFunction(n => window.received.filter(m => m.type === 'progress').length > n, records,
    { timeout: 10_000 });
  await page.waitForTimeout(400);
  assert.equal((await statements()).length, before, 'no progressed statement for reading back and forth');
  assert.equal((await received(page, 'completed')).length, 1, 'completed once');
  assert.deepEqual(problems, []);
  await context.close();
});

// Pixels in the canvas's rightmost 14 px that differ from the strip's most common colour (the
// page background): the engine's scroll thumb, when it is drawn.
function edgeInk(png) {
  const image = decodePng(png);
  const strip = Math.min(14, image.width);
  return inkAgainstBackground(cropColumns(image, image.width - strip, strip));
}

test('embedded, the page draws no scroll thumb of its own (the host page scrolls); on its own page it does', async () => {
  const { page, context, frame } = await openEmbedded({ width: 1280, height: 900 });
  await page.evaluate(() => scrollTo(0, 0.4 * (document.documentElement.scrollHeight - innerHeight)));
  await page.waitForTimeout(700);
  const embeddedInk = edgeInk(await frame.locator('#canvas').screenshot());
  assert.ok(await frame.evaluate(() => window.neuralpath.state().layout.scroll_max > 0), 'the engine page is taller than the canvas');
  assert.ok(embeddedInk < 20, `no thumb in the frame (${embeddedInk} px of ink at the edge)`);
  // The same check sees the thumb on the lesson's own page.
  const own = await context.newPage();
  await own.goto(`${lessonOrigin}/lesson.html?lesson=${LESSON}`);
  await waitForLesson(own);
  await own.evaluate(() => window.neuralpath.command({ type: 'scroll', by: 600 }));
  await own.waitForTimeout(300);
  const ownInk = edgeInk(await own.locator('#canvas').screenshot());
  assert.ok(ownInk >= 100, `the thumb shows on the lesson's own page (${ownInk} px)`);
  await context.close();
});

// #15 walk: in a hand-made iframe the stage was as tall as the lesson, the canvas stopped at
// WebGL's 8192 px, and the rest of the lesson could not be reached. The lesson now scrolls inside
// the frame, as on its own page: the learner's wheel over it reaches the last section.
test('framed by hand with embed=1 and no embed.js, the wheel over the lesson reaches its end', async () => {
  const { page, context, problems } = await openHost('/by-hand.html', { width: 1280, height: 900 });
  let frame = null;
  for (let i = 0; i < 100 && !frame; i++) { frame = lessonFrame(page); if (!frame) await page.waitForTimeout(100); }
  await waitForLesson(frame);
  const stage = await frame.evaluate(() => document.getElementById('np-stage').getBoundingClientRect().height);
  assert.ok(stage <= 600, `the stage (${stage} px) fits the 600 px frame`);
  const box = await page.locator('#frame').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const layout = () => frame.evaluate(() => window.neuralpath.state().layout);
  assert.ok((await layout()).scroll_max > 8192, 'the lesson is longer than any canvas');
  for (let i = 0; i < 200; i++) {
    const { scroll, scroll_max } = await layout();
    if (scroll >= scroll_max - 1) break;
    await page.mouse.wheel(0, 4000);
    await frame.evaluate(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))));
  }
  const end = await layout();
  assert.ok(end.scroll >= end.scroll_max - 1, `the wheel reached the end (${end.scroll} of ${end.scroll_max})`);
  const last = await frame.evaluate(() => window.neuralpath.state().sections.at(-1).anchor);
  await frame.waitForFunction(a => window.neuralpath.state().section === a, last, { timeout: 5_000 });
  assert.equal(await page.evaluate(() => scrollY), 0, 'the host page stayed where it was');
  await page.screenshot({ path: screenshotPath('embed-by-hand-end') });
  assert.deepEqual(problems, []);
  await context.close();
});
