// `./neuralpath author FILE.md` end to end (#32): the author server (web/author/author-server.mjs)
// on a lesson in a temporary folder, the page open in Chromium, and the author's loop: edit and
// save (the new version shows, with the reader's place, answers and widget state kept), save a
// broken file (a banner with file:line:col at the place, the last good version still there),
// fix it (the banner goes), and the saves editors make: emptied, half written, deleted and
// written again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumArgs, lessonReady, screenshotPath, siteDir } from './harness.mjs';
import { startAuthor } from '../../web/author/author-server.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = process.env.NEURALPATH_CLI || join(repo, 'build/native/engine/cli/neuralpath-cli');
const template = readFileSync(join(repo, 'web/author/new-lesson.md'), 'utf8').replace(/^id: new-lesson$/m, 'id: demo-author');

let dir, file, server, browser, origin;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'np-author-'));
  file = join(dir, 'demo-author.md');
  writeFileSync(file, template);
  server = await startAuthor({ lesson: file, cli, root: siteDir, port: 0 });
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: chromiumArgs });
});
after(async () => {
  await browser?.close();
  await new Promise(done => (server ? server.close(done) : done()));
  rmSync(dir, { recursive: true, force: true });
});

async function open({ width = 1280, height = 800, touch = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, ...(touch ? { hasTouch: true, isMobile: true } : {}) });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', error => problems.push(`page error: ${error.message}`));
  page.on('console', message => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  await page.goto(`${origin}/`);   // the author server sends / to this lesson
  await lessonReady(page);
  // np-author.js has connected once it shows its status line.
  await page.waitForFunction(() => document.querySelector('.np-author-chip')?.dataset.kind === 'author.live');
  return { page, problems, context };
}
const state = page => page.evaluate(() => window.neuralpath.state());
const save = text => writeFileSync(file, text);
const bannerShown = page => page.evaluate(() => { const b = document.querySelector('.np-author-banner'); return !!b && !b.hidden; });
// An author server of the test's own (startAuthor's options) for `run(origin, own)`, closed
// afterwards and `folder` (when given) removed, whatever the test did.
async function withOwnServer(options, folder, run) {
  const own = await startAuthor({ cli, root: siteDir, port: 0, ...options });
  try {
    await run(`http://127.0.0.1:${own.address().port}`, own);
  } finally {
    await new Promise(done => own.close(done));
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}
// A 1024 × 768 page in a context of its own at `url`, its lesson ready.
async function openAt(url) {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  await page.goto(url);
  await lessonReady(page);
  return { context, page };
}
const bannerText = page => page.evaluate(() => document.querySelector('.np-author-banner').textContent);

test('a save shows in the open page within a second, keeping the section, scroll, answers, reveals and widget state', async () => {
  const { page, problems, context } = await open();
  assert.equal((await state(page)).title, 'New lesson');
  // The engine with every kind, whatever the lesson's id: the author may add any widget.
  assert.equal(await page.evaluate(() => document.querySelector('link[data-np-asset$=".wasm"]')?.dataset.npAsset), 'lesson.wasm');
  // The reader's place and work: an answer, an open reveal, a widget's own sentence, a section.
  await page.evaluate(() => {
    const np = window.neuralpath;
    np.answer('first-check', 0);
    np.command({ type: 'reveal', id: 'first-reveal', open: true });
    np.command({ type: 'setSentence', text: 'The animal was too tired', widget: 'heatmap-1' });
    np.goto('see-it');
  });
  await page.waitForTimeout(300);
  await page.evaluate(() => window.neuralpath.command({ type: 'scroll', by: 120 }));   // into the section
  await page.waitForTimeout(300);
  const before = await state(page);
  assert.equal(before.section, 'see-it');
  const heatmap = before.widgets.find(w => w.id === 'heatmap-1');
  assert.equal(heatmap.tokens.length, 5, 'the heatmap runs the sentence the reader typed');

  // The edit: a new title, and a new paragraph above the reader (their section moves down).
  const edited = template.replace('title: New lesson', 'title: Edited lesson')
    .replace('Prose is ordinary Markdown', 'A paragraph written in the second save.\n\nProse is ordinary Markdown');
  const saved = Date.now();
  save(edited);
  await page.waitForFunction(() => window.neuralpath.state().title === 'Edited lesson', null, { timeout: 10_000 });
  const took = Date.now() - saved;
  console.log(`save to page: ${took} ms (load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]})`);
  await page.waitForTimeout(400);   // the scroll is put back once the new page is laid out
  const after = await state(page);
  assert.deepEqual(after.errors, []);
  assert.equal(after.section, before.section);
  assert.deepEqual(after.checks.find(c => c.id === 'first-check').chosen, [0]);
  assert.equal(after.reveals.find(r => r.id === 'first-reveal').open, true);
  assert.deepEqual(after.widgets.find(w => w.id === 'heatmap-1').tokens, heatmap.tokens, "the heatmap keeps the reader's sentence");
  // The reader stays at the same place in their section: the section moved down by the new
  // paragraph and the scroll followed it.
  const top = s => s.sections.find(x => x.anchor === 'see-it').top;
  assert.ok(top(after) > top(before), 'the new paragraph pushed the section down');
  assert.ok(Math.abs((after.layout.scroll - top(after)) - (before.layout.scroll - top(before))) <= 2,
    `scroll within the section: ${before.layout.scroll - top(before)} before, ${after.layout.scroll - top(after)} after`);
  // The text version (the DOM mirror) has the new paragraph too, and the page says it updated.
  await page.waitForFunction(() => document.body.textContent.includes('A paragraph written in the second save.'));
  assert.equal(await page.evaluate(() => document.querySelector('.np-author-chip').dataset.kind), 'author.updated');
  assert.equal(await page.evaluate(() => document.title), 'Edited lesson · NeuralPath');
  assert.ok(took < 5_000, `the save showed after ${took} ms`);

  // A broken save: a banner with file:line:col at the section it is in; the last good version stays.
  const broken = edited.replace('## Medium: Check yourself', '```check\nid: half-done\n```\n\n## Medium: Check yourself');
  save(broken);
  await page.waitForFunction(() => { const b = document.querySelector('.np-author-banner'); return b && !b.hidden; }, null, { timeout: 10_000 });
  const line = broken.split('\n').indexOf('id: half-done');   // 1-based line of the ```check above it
  const text = await bannerText(page);
  assert.match(text, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${line}:4: error: the check block needs 'question:'`));
  assert.match(text, /needs 'options:'/);
  // At the place: in the section 'see-it', just below the heatmap the broken block follows.
  const place = await page.evaluate(() => ({ ...document.querySelector('.np-author-banner').dataset }));
  assert.equal(place.section, 'see-it');
  assert.equal(place.block, 'heatmap-1');
  const below = await page.evaluate(() => {
    const rect = window.neuralpath.state().widgets.find(w => w.id === 'heatmap-1').rect;
    const canvas = document.getElementById('canvas').getBoundingClientRect();
    const banner = document.querySelector('.np-author-banner').getBoundingClientRect();
    return { heatmapBottom: canvas.top + rect[1] + rect[3], bannerTop: banner.top,
      room: canvas.bottom - banner.height - 8 + 0.5 };
  });
  assert.ok(Math.abs(below.bannerTop - Math.min(below.heatmapBottom + 4, below.room)) < 2, JSON.stringify(below));
  const kept = await state(page);
  assert.equal(kept.title, 'Edited lesson');
  assert.deepEqual(kept.errors, []);
  assert.ok(kept.sections.length >= 3);
  assert.deepEqual(kept.checks.find(c => c.id === 'first-check').chosen, [0]);
  // The banner is inside the canvas's box, where it can be read.
  const box = await page.evaluate(() => {
    const b = document.querySelector('.np-author-banner').getBoundingClientRect();
    const c = document.getElementById('canvas').getBoundingClientRect();
    return { top: b.top, bottom: b.bottom, canvasTop: c.top, canvasBottom: c.bottom };
  });
  assert.ok(box.top >= box.canvasTop && box.bottom <= box.canvasBottom, JSON.stringify(box));
  await page.screenshot({ path: screenshotPath('author-banner-1280') });

  // Fixed: the banner goes and the fix shows.
  save(edited.replace('A paragraph written in the second save.', 'A paragraph written in the fourth save.'));
  await page.waitForFunction(() => document.querySelector('.np-author-banner').hidden, null, { timeout: 10_000 });
  await page.waitForFunction(() => document.body.textContent.includes('A paragraph written in the fourth save.'));
  assert.deepEqual((await state(page)).checks.find(c => c.id === 'first-check').chosen, [0]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('bad saves never break the page: emptied, half written, deleted and written again', async () => {
  save(template);
  const { page, problems, context } = await open({ width: 375, height: 740, touch: true });
  await page.waitForFunction(() => window.neuralpath.state().title === 'New lesson', null, { timeout: 10_000 });
  const good = async () => {
    const s = await state(page);
    assert.deepEqual(s.errors, []);
    assert.equal(s.title, 'New lesson');
    assert.ok(s.sections.length >= 3);
  };

  // A lesson whose task trains its weights: the server trains them as the site's build does,
  // so the page shows it (it never trains while a lesson opens, and refused it without them).
  const trained = template.replace(/\n## Beginner: See it[\s\S]*$/, '\n') + [
    '```task', 'id: corpus', 'objective: next-word', 'steps: 50', 'lesson-weights: trained', '---', 'people build tools.', '```', '',
    '```vocabulary', 'features: [who, action, what]', 'words:', '  people: [1, 0, 0]', '  build: [0, 1, 0]', '  tools: [0, 0, 1]',
    '  ".": [0]', '```', '', '```weights', 'attention:', '  heads: 1', '```', ''].join('\n');
  save(trained);
  await page.waitForFunction(() => window.neuralpath.state().sections.length === 1, null, { timeout: 10_000 });
  assert.deepEqual((await state(page)).errors, []);
  assert.equal(await bannerShown(page), false);
  save(template);
  await page.waitForFunction(() => window.neuralpath.state().sections.length >= 3, null, { timeout: 10_000 });

  save('');   // emptied
  await page.waitForFunction(() => /1:1: error:/.test(document.querySelector('.np-author-banner')?.textContent || '') &&
    !document.querySelector('.np-author-banner').hidden, null, { timeout: 10_000 });
  assert.match(await bannerText(page), /demo-author\.md:1:1: error: a lesson starts with front matter/);
  await good();
  await page.screenshot({ path: screenshotPath('author-banner-375') });

  save(template.slice(0, template.indexOf('question:')));   // half written: cut inside a block
  await page.waitForFunction(() => /needs 'question:'/.test(document.querySelector('.np-author-banner').textContent), null, { timeout: 10_000 });
  await good();

  save('---\nid: demo-author\ntitle: [oops\n');   // does not parse
  await page.waitForFunction(() => /demo-author\.md:\d+:\d+: error:/.test(document.querySelector('.np-author-banner').textContent) &&
    !/needs 'question:'/.test(document.querySelector('.np-author-banner').textContent), null, { timeout: 10_000 });
  await good();

  // Deleted, then written again under the same name (how many editors save).
  unlinkSync(file);
  await page.waitForFunction(() => /cannot be read/.test(document.querySelector('.np-author-banner').textContent), null, { timeout: 10_000 });
  await good();
  writeFileSync(`${file}.tmp`, template.replace('title: New lesson', 'title: Written again'));
  renameSync(`${file}.tmp`, file);
  await page.waitForFunction(() => window.neuralpath.state().title === 'Written again', null, { timeout: 10_000 });
  assert.equal(await bannerShown(page), false);
  assert.deepEqual(problems, []);
  await context.close();

  // A page opened while the file has never passed the checker shows the engine's error panel
  // and the banner; the first good save replaces both with the lesson.
  const fresh = join(dir, 'never-good.md');
  writeFileSync(fresh, '---\nid: never-good\n');
  await withOwnServer({ lesson: fresh }, null, async base => {
    const { context: other, page: late } = await openAt(`${base}/`);
    await late.waitForFunction(() => { const b = document.querySelector('.np-author-banner'); return b && !b.hidden; }, null, { timeout: 10_000 });
    assert.ok((await state(late)).errors.length > 0, "the engine's own error panel");
    writeFileSync(fresh, template.replace(/^id: demo-author$/m, 'id: never-good'));
    await late.waitForFunction(() => window.neuralpath.state().title === 'New lesson', null, { timeout: 10_000 });
    assert.deepEqual((await state(late)).errors, []);
    assert.equal(await bannerShown(late), false);
    await other.close();
  });
});

test('a translation beside the lesson is watched and shown in its language, its problems under its own path', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'np-author-es-'));
  const original = join(folder, 'demo-es.md');
  const translation = join(folder, 'es', 'demo-es.md');
  const english = template.replace(/^id: demo-author$/m, 'id: demo-es');
  writeFileSync(original, english);
  mkdirSync(join(folder, 'es'));
  const spanish = text => english.replace('title: New lesson', `title: ${text}`);
  writeFileSync(translation, spanish('Lección nueva'));
  await withOwnServer({ lesson: original }, folder, async (base, own) => {
    assert.deepEqual(own.author.status().languages.sort(), ['en', 'es']);
    const list = await (await fetch(`${base}/lessons/es/index.json`)).json();
    assert.ok(list.some(entry => entry.id === 'demo-es'), 'the Spanish list names the lesson');
    const { context, page } = await openAt(`${base}/lesson.html?lesson=demo-es&lang=es`);
    await page.waitForFunction(() => document.querySelector('.np-author-chip')?.dataset.kind === 'author.live');
    assert.equal((await state(page)).title, 'Lección nueva');
    writeFileSync(translation, spanish('Lección editada'));
    await page.waitForFunction(() => window.neuralpath.state().title === 'Lección editada', null, { timeout: 10_000 });
    // A translation that drops a check: the checker's line names the translation's file.
    writeFileSync(translation, spanish('Lección rota').replace(/```check\n[\s\S]*?\n```\n/, ''));
    await page.waitForFunction(() => { const b = document.querySelector('.np-author-banner'); return b && !b.hidden; }, null, { timeout: 10_000 });
    assert.match(await bannerText(page), /es\/demo-es\.md:\d+:\d+: error: .*first-check/);
    assert.equal((await state(page)).title, 'Lección editada');
    await context.close();
  });
});

test('an edit of the word catalogue shows in the open page', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'np-author-strings-'));
  const strings = join(folder, 'strings');
  mkdirSync(strings);
  for (const name of ['en.strings', 'es.strings'])
    writeFileSync(join(strings, name), readFileSync(join(repo, 'lessons/strings', name)));
  const lesson = join(folder, 'demo-strings.md');
  writeFileSync(lesson, template.replace(/^id: demo-author$/m, 'id: demo-strings'));
  await withOwnServer({ lesson, strings }, folder, async base => {
    const { context, page } = await openAt(`${base}/`);
    await page.waitForFunction(() => document.querySelector('.np-author-chip')?.dataset.kind === 'author.live');
    const english = readFileSync(join(strings, 'en.strings'), 'utf8');
    assert.match(english, /\nhide = Hide\n/);
    writeFileSync(join(strings, 'en.strings'), english.replace('\nhide = Hide\n', '\nhide = Hide this banner\n'));
    await page.waitForFunction(() => window.neuralpath.text('author.hide') === 'Hide this banner', null, { timeout: 10_000 });
    assert.equal((await state(page)).title, 'New lesson', 'the lesson stays');
    await context.close();
  });
});

test('a lesson whose task trains its weights opens as the site would show it (the weights trained as the build does)', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'np-author-trained-'));
  const lesson = join(folder, 'course-playback.md');
  const text = readFileSync(join(repo, 'lessons/course-playback.md'), 'utf8');
  assert.match(text, /^lesson-weights: trained$/m);
  writeFileSync(lesson, text);
  await withOwnServer({ lesson }, folder, async base => {
    const { context, page } = await openAt(`${base}/`);
    const opened = await state(page);
    assert.deepEqual(opened.errors, [], 'no "lacks the weights" error');
    assert.ok(opened.widgets.length > 0 && opened.widgets.every(w => !w.error), JSON.stringify(opened.widgets.map(w => w.error)));
    // An edit keeps it so: the weights are trained again for the new text.
    writeFileSync(lesson, text.replace(/^title: .*$/m, 'title: A playback, edited'));
    await page.waitForFunction(() => window.neuralpath.state().title === 'A playback, edited', null, { timeout: 20_000 });
    assert.deepEqual((await state(page)).errors, []);
    await context.close();
  });
});
