// A lesson's SCORM 1.2 package in a real SCORM runtime: scorm-again (npm) is the learning
// platform's API on the page that frames the package's launch page, as an LMS does. One
// learner: launch, answer a check, close; relaunch and find everything where it was; finish
// the lesson and see it recorded as passed with its score.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { anotherPersonsVisit, browserStorage, buildPackages, repo, serve, startBrowser, unzip, watchProblems } from './scorm-kit.mjs';
import { screenshotPath } from './harness.mjs';

const LESSON = 'self-attention';

// The platform: a page holding scorm-again's Scorm12API as window.API and the package's launch
// page in a frame. Between launches it keeps what an LMS keeps (the learner's cmi.core and
// suspend_data), and gives it back with entry "resume" after an exit of "suspend".
const LMS_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Test LMS</title><link rel="icon" href="data:,"></head><body>
<script src="scorm12.js"></script>
<script>
  window.launches = [];
  window.launch = function (kept, page = 'pkg/scorm-${LESSON}.html') {
    const api = new Scorm12API({ logLevel: 5, autocommit: false });
    if (kept) api.loadFromJSON(kept);
    api.on('LMSFinish', () => { window.finished = api.renderCMIToJSONObject(); });
    window.finished = null;
    window.API = api;
    const frame = document.createElement('iframe');
    frame.id = 'sco';
    frame.style.cssText = 'width: 1000px; height: 700px; border: 0';
    frame.src = page;
    document.body.append(frame);
  };
  // What an LMS does when the learner closes the content: the frame goes, LMSFinish arrives.
  window.closeContent = function () { document.getElementById('sco').remove(); return window.finished?.cmi; };
</script>
</body></html>`;

let env;
before(async () => {
  const packages = buildPackages('scorm');
  const root = mkdtempSync(join(tmpdir(), 'neuralpath-lms-'));
  unzip(packages.zips[LESSON], join(root, 'pkg'));
  unzip(packages.zips.all, join(root, 'all'));
  copyFileSync(join(repo, 'node_modules/scorm-again/dist/scorm12.js'), join(root, 'scorm12.js'));
  writeFileSync(join(root, 'lms.html'), LMS_PAGE);
  const http = await serve(root);
  const browser = await startBrowser();
  env = { packages, root, http, browser };
});
after(async () => {
  await env?.browser.close();
  await env?.http.close();
  env?.packages.cleanup();
  if (env) rmSync(env.root, { recursive: true, force: true });
});

// The lesson's window.neuralpath two frames down: LMS page > launch page > lesson.
async function lessonReady(page) {
  await page.waitForFunction(() => {
    const sco = document.getElementById('sco')?.contentWindow;
    const lesson = sco?.document.getElementById('np-lms-lesson')?.contentWindow;
    return !!lesson?.neuralpath;
  }, null, { timeout: 60_000 });
  await page.evaluate(() => document.getElementById('sco').contentWindow.document.getElementById('np-lms-lesson')
    .contentWindow.neuralpath.ready);
}
// Runs fn(neuralpath) inside the lesson frame.
const inLesson = (page, fn, arg) => page.evaluate(([source, a]) => {
  const np = document.getElementById('sco').contentWindow.document.getElementById('np-lms-lesson').contentWindow.neuralpath;
  return new Function('np', 'arg', `return (${source})(np, arg);`)(np, a);
}, [fn.toString(), arg]);
const cmi = (page, element) => page.evaluate(name => window.API.LMSGetValue(name), element);

// The right options of a check, from its revealed answer.
async function rightAnswer(page, check) {
  return inLesson(page, (np, id) => {
    np.command({ type: 'reveal', id });
    return np.state().checks.find(c => c.id === id).answer;
  }, check);
}

// Waits until the launch page has reported what the lesson just did (events reach it a frame later).
const settle = (page, element, expected) => page.waitForFunction(([name, value]) =>
  window.API.LMSGetValue(name) === value, [element, expected], { timeout: 10_000 });

test('launch, answer, close, relaunch and resume, finish: passed with its score', async t => {
  const page = await env.browser.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.http.origin}/lms.html`);

  // First launch: a fresh learner.
  await page.evaluate(() => window.launch(null));
  await lessonReady(page);
  await settle(page, 'cmi.core.lesson_status', 'incomplete');
  const state = await inLesson(page, np => np.state());
  const checks = state.checks.map(c => c.id);
  const sections = state.sections.map(s => s.anchor);
  assert.ok(checks.length >= 2 && sections.length >= 3, `${checks.length} checks, ${sections.length} sections`);

  const first = await rightAnswer(page, checks[0]);
  await inLesson(page, (np, [id, option]) => np.answer(id, option), [checks[0], first.length === 1 ? first[0] : first]);
  const middle = sections[Math.floor(sections.length / 2)];
  await inLesson(page, (np, anchor) => np.goto(anchor), middle);
  await settle(page, 'cmi.core.lesson_location', middle);
  const partScore = String(Math.round(100 / checks.length));
  await settle(page, 'cmi.core.score.raw', partScore);
  assert.equal(await cmi(page, 'cmi.core.score.min'), '0');
  assert.equal(await cmi(page, 'cmi.core.score.max'), '100');
  assert.equal(await cmi(page, 'cmi.core.lesson_status'), 'incomplete');
  const suspend = await cmi(page, 'cmi.suspend_data');
  assert.match(suspend, /^np1:\{/);
  assert.ok(suspend.length <= 4096 && suspend.includes(checks[0]), suspend);

  // Close: the content reports its session and finishes.
  const firstSession = await page.evaluate(() => window.closeContent());
  assert.ok(firstSession, 'LMSFinish was called when the content closed');
  assert.equal(firstSession.core.exit, 'suspend');
  assert.match(firstSession.core.session_time, /^\d{2,4}:\d\d:\d\d(\.\d{1,2})?$/);
  assert.equal(firstSession.suspend_data, suspend);

  // Relaunch with what the platform kept: the lesson resumes where it was.
  const kept = { core: { lesson_status: firstSession.core.lesson_status, lesson_location: firstSession.core.lesson_location,
    score: firstSession.core.score, entry: 'resume' }, suspend_data: firstSession.suspend_data };
  await page.evaluate(k => window.launch(k), kept);
  await lessonReady(page);
  await page.waitForFunction(([id]) => {
    const np = document.getElementById('sco').contentWindow.document.getElementById('np-lms-lesson').contentWindow.neuralpath;
    return np.state().checks.find(c => c.id === id).chosen.length > 0;
  }, [checks[0]], { timeout: 10_000 });
  const resumed = await inLesson(page, np => np.state());
  assert.deepEqual(resumed.checks.find(c => c.id === checks[0]).chosen, first);
  assert.equal(resumed.checks.find(c => c.id === checks[0]).correct, true);
  assert.equal(resumed.section, middle);
  assert.equal(await cmi(page, 'cmi.core.score.raw'), partScore);

  // Finish the lesson: every section, every check right.
  for (const anchor of sections) await inLesson(page, (np, a) => np.goto(a), anchor);
  for (const id of checks.slice(1)) {
    const right = await rightAnswer(page, id);
    await inLesson(page, (np, [check, option]) => np.answer(check, option), [id, right.length === 1 ? right[0] : right]);
  }
  await settle(page, 'cmi.core.lesson_status', 'passed');
  assert.equal(await cmi(page, 'cmi.core.score.raw'), '100');
  const secondSession = await page.evaluate(() => window.closeContent());
  assert.equal(secondSession.core.lesson_status, 'passed');
  t.diagnostic(`suspend_data with the lesson finished: ${secondSession.suspend_data.length} of 4096 characters`);
  assert.equal(secondSession.core.score.raw, '100');
  assert.equal(secondSession.core.lesson_location, sections.at(-1));
  assert.deepEqual(problems, []);
  await page.close();
});

test('without a platform the lesson still opens and says nothing is recorded', async () => {
  const page = await env.browser.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.http.origin}/pkg/scorm-${LESSON}.html`);
  await page.waitForFunction(() => document.getElementById('np-lms-lesson')?.contentWindow?.neuralpath, null, { timeout: 60_000 });
  await page.evaluate(() => document.getElementById('np-lms-lesson').contentWindow.neuralpath.ready);
  assert.match(await page.locator('#np-lms-note').textContent(), /No learning platform was found.*nothing is recorded/);
  assert.deepEqual(problems, []);
  await page.close();
});

// A stored record this version cannot read is named on the page and left in place until the
// learner's own work replaces it.
test('an unreadable suspend_data is reported and not overwritten by the launch itself', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.http.origin}/lms.html`);
  await page.evaluate(() => window.launch({ core: { lesson_status: 'incomplete', entry: 'resume' }, suspend_data: 'np1:{"answers":' }));
  await lessonReady(page);
  await page.waitForFunction(() => document.getElementById('sco').contentWindow.document.getElementById('np-lms-note')?.hidden === false);
  const noteText = await page.evaluate(() => document.getElementById('sco').contentWindow.document.getElementById('np-lms-note').textContent);
  assert.match(noteText, /could not be read \(the stored record is cut short or damaged\)/);
  await page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await cmi(page, 'cmi.suspend_data'), 'np1:{"answers":');
  await page.close();
});

// lesson_mode "review": the platform shows a finished lesson again; the learner's answers come
// back, and nothing they do changes the recorded status or score.
test('a review launch restores the record and leaves status and score alone', async () => {
  const page = await env.browser.newPage();
  await page.goto(`${env.http.origin}/lms.html`);
  const record = 'np1:{"v":1,"section":"","visited":[],"answers":{},"reveals":[],"step":0}';
  await page.evaluate(r => window.launch({ core: { lesson_status: 'failed', lesson_mode: 'review', entry: 'resume',
    score: { raw: '50', min: '0', max: '100' } }, suspend_data: r }), record);
  await lessonReady(page);
  const { checks, sections } = await inLesson(page, np => np.state());
  for (const s of sections) await inLesson(page, (np, a) => np.goto(a), s.anchor);
  for (const c of checks) {
    const right = await rightAnswer(page, c.id);
    await inLesson(page, (np, [id, option]) => np.answer(id, option), [c.id, right.length === 1 ? right[0] : right]);
  }
  await page.waitForFunction(id => window.API.LMSGetValue('cmi.suspend_data').includes(id), checks.at(-1).id);
  await settle(page, 'cmi.core.lesson_location', sections.at(-1).anchor);
  assert.equal(await cmi(page, 'cmi.core.lesson_status'), 'failed');
  assert.equal(await cmi(page, 'cmi.core.score.raw'), '50');
  await page.close();
});

// The package of every lesson: each SCO's launch page opens its own lesson and reports it.
test('in the package of every lesson, another lesson\'s SCO reports that lesson', async () => {
  const other = JSON.parse(readFileSync(join(env.root, 'all/lessons/index.json'), 'utf8')).map(l => l.id).find(id => id !== LESSON);
  assert.ok(other, 'the package of every lesson holds a second lesson');
  const page = await env.browser.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.http.origin}/lms.html`);
  await page.evaluate(([p]) => window.launch(null, p), [`all/scorm-${other}.html`]);
  await lessonReady(page);
  assert.equal(await inLesson(page, np => np.params.lesson), other);
  const anchor = (await inLesson(page, np => np.state())).sections.at(-1).anchor;
  await inLesson(page, (np, a) => np.goto(a), anchor);
  await settle(page, 'cmi.core.lesson_location', anchor);
  assert.equal(await cmi(page, 'cmi.core.lesson_status'), 'incomplete');
  assert.deepEqual(problems, []);
  await page.close();
});

// [SECTION] A platform that misbehaves (#35) ---------------------------------------------------------

const scoNote = page => page.evaluate(() => {
  const note = document.getElementById('sco').contentWindow.document.getElementById('np-lms-note');
  return { text: note.textContent, hidden: note.hidden };
});

// An API call that threw left a blank page: the launch page stopped before it opened the lesson.
test('a platform whose API calls throw: the lesson opens and works, and a refused start is said on the page', async () => {
  for (const broken of [['LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSGetLastError', 'LMSGetErrorString', 'LMSFinish'],
    ['LMSInitialize']]) {
    const page = await env.browser.newPage();
    const problems = watchProblems(page);
    await page.goto(`${env.http.origin}/lms.html`);
    await page.evaluate(names => {
      window.launch(null);
      for (const name of names) window.API[name] = () => { throw new Error(`platform bug in ${name}`); };
    }, broken);
    await lessonReady(page);
    const { checks } = await inLesson(page, np => np.state());
    await inLesson(page, (np, id) => np.answer(id, 0), checks[0].id);
    assert.deepEqual(await inLesson(page, (np, id) => np.state().checks.find(c => c.id === id).chosen, checks[0].id), [0]);
    if (broken[0] === 'LMSInitialize') {
      const note = await scoNote(page);
      assert.equal(note.hidden, false);
      assert.match(note.text, /refused to start this session \(platform bug in LMSInitialize\)/, note.text);
    }
    await page.evaluate(() => window.closeContent());
    assert.deepEqual(problems, [], broken.join(', '));
    await page.close();
  }
});

// A 1 MB cmi.core.lesson_location went into the lesson frame's URL: the server answered 414.
test('a lesson_location that is no section (1 MB of it) is ignored: the lesson opens at its start', async () => {
  const page = await env.browser.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.http.origin}/lms.html`);
  await page.evaluate(() => {
    window.launch({ core: { lesson_status: 'incomplete', entry: 'resume', lesson_location: 'x'.repeat(255) }, suspend_data: '' });
    const api = window.API;
    const get = api.LMSGetValue.bind(api);
    api.LMSGetValue = name => (name === 'cmi.core.lesson_location' ? 'q'.repeat(1024 * 1024) : get(name));
  });
  await lessonReady(page);
  const src = await page.evaluate(() => document.getElementById('sco').contentWindow.document.getElementById('np-lms-lesson').src);
  assert.ok(src.length < 300, src.slice(0, 120));
  assert.ok((await inLesson(page, np => np.state())).sections.length > 0);
  assert.deepEqual(problems, []);
  await page.close();
});

// [SECTION] Every answer as an interaction (#32) -------------------------------------------------------

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const choices = indices => indices.map(i => LETTERS[i]).join(',');

test('each answer is a cmi.interactions entry scorm-again accepts: id, choice, response, correct pattern, result, time', async t => {
  const page = await env.browser.newPage();
  const problems = watchProblems(page);
  const refusals = [];
  page.on('console', m => { if (/was not accepted|LMSCommit failed/.test(m.text())) refusals.push(m.text()); });
  await page.goto(`${env.http.origin}/lms.html`);
  await page.evaluate(() => window.launch(null));
  await lessonReady(page);
  const { checks } = await inLesson(page, np => np.state());
  // The first check wrong, then retried right; the others right.
  const answers = [];
  for (const [i, c] of checks.entries()) {
    const right = await rightAnswer(page, c.id);
    if (i === 0) {
      const wrong = [c.options.findIndex((_, k) => !right.includes(k))];
      await inLesson(page, (np, [id, option]) => np.answer(id, option), [c.id, c.multiple ? wrong : wrong[0]]);
      answers.push({ id: c.id, response: wrong, right, correct: false });
      await inLesson(page, (np, id) => np.command({ type: 'retry', check: id }), c.id);
    }
    await inLesson(page, (np, [id, option]) => np.answer(id, option), [c.id, c.multiple ? right : right[0]]);
    answers.push({ id: c.id, response: right, right, correct: true });
  }
  await page.waitForFunction(n => Number(window.API.LMSGetValue('cmi.interactions._count')) >= n, answers.length, { timeout: 10_000 });
  const written = Object.values(await page.evaluate(() => window.API.renderCMIToJSONObject().cmi.interactions || {}));
  assert.equal(written.length, answers.length, 'one interaction per answer, a retry too');
  for (const [n, expected] of answers.entries()) {
    const got = written[n];
    assert.equal(got.id, expected.id);
    assert.equal(got.type, 'choice');
    assert.equal(got.student_response, choices(expected.response), `${n}: ${JSON.stringify(got)}`);
    const patterns = Object.values(got.correct_responses || {}).map(r => r.pattern);
    assert.deepEqual(patterns, [choices(expected.right)]);
    assert.equal(got.result, expected.correct ? 'correct' : 'wrong');
    assert.match(got.time, /^\d\d:\d\d:\d\d$/);
  }
  assert.deepEqual(refusals, [], 'scorm-again accepted every value');
  t.diagnostic(`interactions: ${written.map(w => `${w.id}=${w.student_response}/${w.result}`).join(' ')}`);

  // A relaunch journals on after the ones already there (SCORM 1.2: interactions are never rewritten).
  const session = await page.evaluate(() => window.closeContent());
  await page.evaluate(k => window.launch(k), { core: { lesson_status: session.core.lesson_status, entry: 'resume' },
    suspend_data: session.suspend_data, interactions: session.interactions });
  await lessonReady(page);
  await page.waitForFunction(() => Number(window.API.LMSGetValue('cmi.interactions._count')) > 0, null, { timeout: 10_000 });
  const before = Number(await cmi(page, 'cmi.interactions._count'));
  await inLesson(page, (np, id) => np.command({ type: 'retry', check: id }), checks[1].id);
  const right = await rightAnswer(page, checks[1].id);
  await inLesson(page, (np, [id, option]) => np.answer(id, option), [checks[1].id, right.length === 1 ? right[0] : right]);
  await page.waitForFunction(n => Number(window.API.LMSGetValue('cmi.interactions._count')) === n + 1, before, { timeout: 10_000 });
  const all = Object.values(await page.evaluate(() => window.API.renderCMIToJSONObject().cmi.interactions));
  assert.equal(all.at(-1).id, checks[1].id);
  assert.equal(all[0].id, answers[0].id, 'the first session\'s interactions are still there');
  assert.deepEqual(refusals, []);
  assert.deepEqual(problems, []);
  await page.close();
});

// [SECTION] The launch page's language (#32) -----------------------------------------------------------

// The platform's language for the learner comes first; without one, the browser's. The note line
// and the lesson in the frame both speak it. Screenshots at a phone's width and a desk's.
test('the launch page speaks the platform\'s language (Spanish), and the lesson in its frame does too', async t => {
  for (const [lang, locale, width, height] of [['es', 'en-US', 375, 740], ['es', 'en-US', 1440, 900], ['en', 'es-ES', 1440, 900],
    ['en', 'en-US', 375, 740]]) {
    const context = await env.browser.newContext({ locale, viewport: { width, height }, isMobile: width < 400, hasTouch: width < 400 });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${env.http.origin}/lms.html`);
    // A platform that keeps the learner's language, and a record this page cannot read, so the
    // note line shows.
    await page.evaluate(([l, w, h]) => {
      document.body.style.margin = '0';
      window.launch({ core: { lesson_status: 'incomplete', entry: 'resume' }, suspend_data: 'np1:{"answers":',
        student_preference: { language: l } });
      const frame = document.getElementById('sco');
      frame.style.width = `${w}px`;
      frame.style.height = `${h}px`;
    }, [lang, width, height]);
    await lessonReady(page);
    const sco = () => page.evaluate(() => {
      const doc = document.getElementById('sco').contentWindow.document;
      return { lang: doc.documentElement.lang, note: doc.getElementById('np-lms-note').textContent,
        frameTitle: doc.getElementById('np-lms-lesson').title };
    });
    await page.waitForFunction(() => !document.getElementById('sco').contentWindow.document.getElementById('np-lms-note').hidden);
    const shown = await sco();
    const lessonLang = await inLesson(page, np => np.state().lang);
    assert.equal(shown.lang, lang, `${locale} browser, platform ${lang}`);
    assert.equal(lessonLang, lang, 'the lesson in the frame speaks it too');
    if (lang === 'es') assert.match(shown.note, /No se pudo leer el punto donde lo dejaste \(el registro guardado está cortado o dañado\)/, shown.note);
    else assert.match(shown.note, /could not be read \(the stored record is cut short or damaged\)/, shown.note);
    await page.waitForTimeout(500);
    await page.screenshot({ path: screenshotPath(`scorm-launch-${lang}-${width}`) });
    t.diagnostic(`${lang} at ${width} px: ${shown.note.slice(0, 60)}…`);
    assert.deepEqual(problems, []);
    await context.close();
  }
  // Without a platform's wish: the browser's language (a Spanish browser).
  const context = await env.browser.newContext({ locale: 'es-ES', viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`${env.http.origin}/pkg/scorm-${LESSON}.html`);
  await page.waitForFunction(() => document.getElementById('np-lms-lesson')?.contentWindow?.neuralpath, null, { timeout: 60_000 });
  await page.evaluate(() => document.getElementById('np-lms-lesson').contentWindow.neuralpath.ready);
  assert.match(await page.locator('#np-lms-note').textContent(), /No se encontró ninguna plataforma de aprendizaje/);
  await page.screenshot({ path: screenshotPath('scorm-launch-no-platform-es-375') });
  await context.close();
});

// A shared computer: someone used the lesson here outside the platform. A learner's first launch
// shows none of their figures and overwrites none of this browser's storage; the learner's own
// figures travel in suspend_data and come back on the next launch.
test('on a shared computer a first launch neither shows nor overwrites what this browser kept', async () => {
  const page = await env.browser.newPage();
  const problems = watchProblems(page);
  const { heatmapId, theirs, stored: storedBefore } = await anotherPersonsVisit(page, env.http.origin, LESSON);

  await page.goto(`${env.http.origin}/lms.html`);
  await page.evaluate(() => window.launch(null));
  await lessonReady(page);
  await settle(page, 'cmi.core.lesson_status', 'incomplete');
  const sentence = () => inLesson(page, (np, id) => np.state().widgets.find(w => w.id === id).sentence, heatmapId);
  assert.notEqual(await sentence(), theirs, "the other person's figure is not shown");
  // The lesson's way on (the next lesson, or the list) stays in the platform's launch.
  await page.waitForFunction(() => document.getElementById('sco').contentWindow.document.getElementById('np-lms-lesson')
    .contentWindow.neuralpath.state().finish?.next_href, null, { timeout: 10_000 });
  assert.match(await inLesson(page, np => np.state().finish.next_href), /[?&]platform=1(&|$)/);
  const mine = 'The learner wrote this one';
  await inLesson(page, (np, [id, text]) => np.command({ widget: id, type: 'setSentence', text }), [heatmapId, mine]);
  // A key's release ends the learner's input, and the figures are kept once things settle: 600 ms
  // after the last key (np-storage.js SETTLE_MS). The release must reach the lesson's frame, two
  // frames down, which the learner typing there has focused; the test focuses it too. Each press
  // then waits past the settling: pressing every 500 ms put the save off for good (failed in two
  // fresh clones, and every time on a quiet machine).
  const kept = () => page.evaluate(text => window.API.LMSGetValue('cmi.suspend_data').includes(text), mine);
  const focusLesson = () => page.evaluate(() =>
    document.getElementById('sco').contentWindow.document.getElementById('np-lms-lesson').contentWindow.focus());
  for (let press = 0; press < 3 && !(await kept()); press++) {
    await focusLesson();
    await page.keyboard.press('Shift');
    for (let waited = 0; waited < 3000 && !(await kept()); waited += 200) await page.waitForTimeout(200);
  }
  assert.ok(await kept(), "the learner's figure is kept in the platform's suspend_data");
  const session = await page.evaluate(() => window.closeContent());
  assert.deepEqual(await browserStorage(page), storedBefore,
    "this browser's storage is exactly as the other person left it");

  await page.evaluate(k => window.launch(k), { core: { lesson_status: session.core.lesson_status,
    lesson_location: session.core.lesson_location, entry: 'resume' }, suspend_data: session.suspend_data });
  await lessonReady(page);
  await page.waitForFunction(([id, text]) => document.getElementById('sco').contentWindow.document.getElementById('np-lms-lesson')
    .contentWindow.neuralpath.state().widgets.find(w => w.id === id).sentence === text, [heatmapId, mine], { timeout: 10_000 });
  assert.deepEqual(problems, []);
  await page.close();
});
