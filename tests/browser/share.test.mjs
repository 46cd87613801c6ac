// Sharing and saving figures (issue #14). A learner changes figures and shares: the link is
// short enough for a chat message, and a fresh browser (another context: no storage, no
// cache) opening it shows the same section and the same figures; a learner with progress of
// their own keeps it untouched until they choose to save from the shared view. "Save image"
// gives a real PNG of the figure (decoded here: its size at the device pixel ratio, the
// figure's pixels above a caption) and the heatmap's numbers come out as CSV.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchWithLesson, lessonReady, screenshotPath, settled } from './harness.mjs';
import { decodePng, lumaVariance } from './png.mjs';

let env, sharer;
before(async () => {
  ({ env, opened: sharer } = await launchWithLesson('/lesson.html?lesson=self-attention&lang=es', { width: 1280, height: 900, scale: 2 }));
});
after(async () => { await env?.close(); });

const state = page => page.evaluate(() => window.neuralpath.state());
const widget = (s, id) => s.widgets.find(w => w.id === id);
// Where a figure and its parts are drawn (rect, the spotlight's layout) depends on the window, not the state.
const comparable = w => { const { rect, layout, ...rest } = w; return rest; };

// Opens a shared link in a fresh browser (no storage, Spanish locale) and waits until the
// playback board has come back to `step`.
async function openAtPlaybackStep(url, step) {
  const fresh = await env.browser.newContext({ locale: 'es-ES' });
  const other = await fresh.newPage();
  await other.goto(url);
  await lessonReady(other);
  await other.waitForFunction(s => window.neuralpath.state().widgets.find(w => w.kind === 'playback').step === s,
    step, { timeout: 20_000 });
  return { fresh, other };
}

let link, shared;
test('share() gives a short link that a fresh browser opens at the same section and figures', async () => {
  const { page } = sharer;
  await page.evaluate(() => {
    const np = window.neuralpath;
    np.goto('causal-mask');
    np.command({ type: 'setMask', mask: 'none', widget: 'causal-grid' });
    np.command({ type: 'stage', stage: 'masked', widget: 'mask-walkthrough' });
    np.command({ type: 'setQuery', query: 'street', widget: 'it-spotlight' });
  });
  await settled(page);
  shared = await state(page);
  link = await page.evaluate(() => window.neuralpath.share());
  assert.ok(link.length < 400, `short enough for a chat message: ${link.length} characters`);
  assert.match(link, /[?&]s=[jz][A-Za-z0-9_-]+/);
  assert.match(link, /section=causal-mask/);

  const fresh = await env.browser.newContext({ viewport: { width: 1024, height: 800 }, locale: 'es-ES' });
  const page2 = await fresh.newPage();
  const problems = [];
  page2.on('pageerror', e => problems.push(e.message));
  await page2.goto(link);
  await lessonReady(page2);
  await page2.waitForFunction(() => document.querySelector('.np-share-note') && !document.querySelector('.np-share-note').hidden);
  await settled(page2);
  const opened = await state(page2);
  assert.equal(opened.section, 'causal-mask');
  for (const id of ['causal-grid', 'mask-walkthrough', 'it-spotlight'])
    assert.deepEqual(comparable(widget(opened, id)), comparable(widget(shared, id)), id);
  assert.deepEqual(problems, []);
  await fresh.close();
});

test('opening a shared link never overwrites the learner’s own saved progress without asking', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1024, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention&lang=es&section=qkv`);
  await lessonReady(page);
  await page.evaluate(() => window.neuralpath.answer('first-product', 0));
  await settled(page);
  const key = 'neuralpath:v1:progress:self-attention';
  const own = await page.evaluate(k => localStorage.getItem(k), key);
  assert.ok(own && own.includes('first-product'), 'the learner has saved progress');

  await page.goto(link);
  await lessonReady(page);
  await page.waitForFunction(() => document.querySelector('.np-share-note') && !document.querySelector('.np-share-note').hidden);
  await page.evaluate(() => window.neuralpath.goto('cost'));   // moving around in the shared view
  await settled(page);
  assert.equal(await page.evaluate(k => localStorage.getItem(k), key), own, 'nothing saved over it');
  assert.equal((await state(page)).checks.find(c => c.id === 'first-product').correct, true, 'their answers are shown');

  await page.locator('.np-share-note button:not(.np-note-dismiss)').click();   // "Save my progress from here"
  await page.evaluate(() => window.neuralpath.goto('recipe'));
  await settled(page);
  const saved = await page.evaluate(k => localStorage.getItem(k), key);
  assert.notEqual(saved, own, 'saving resumes when the learner asks');
  assert.ok(saved.includes('first-product'), 'and keeps their answers');
  await context.close();
});

test('a broken shared link says so and opens the lesson as usual', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention&lang=es&s=zNOT-A-STATE`);
  await lessonReady(page);
  await page.waitForFunction(() => document.querySelector('.np-share-note') && !document.querySelector('.np-share-note').hidden);
  assert.match(await page.locator('.np-share-note').textContent(), /No se pudo leer este enlace compartido/);
  await context.close();
});

test('exportPng gives a real picture of the figure with a caption; the heatmap gives CSV', async () => {
  const { page } = sharer;
  const url = await page.evaluate(() => window.neuralpath.exportPng('causal-grid'));
  assert.match(url, /^data:image\/png;base64,/);
  const png = decodePng(Buffer.from(url.split(',')[1], 'base64'));
  const grid = widget(await state(page), 'causal-grid');
  const [, , w, h] = grid.rect;
  assert.equal(png.width, Math.round(w * 2), 'the figure\'s width at devicePixelRatio 2');
  assert.ok(png.height > Math.round(h * 2), 'the figure\'s height plus a caption');
  assert.ok(png.height < Math.round(h * 2) + 400, 'a caption of a few lines');
  // The figure's part has content (cells, words), not a blank rectangle.
  const top = { width: png.width, height: Math.round(h * 2), data: png.data.subarray(0, png.width * Math.round(h * 2) * 4) };
  assert.ok(lumaVariance(top) > 50, `the figure has content (variance ${lumaVariance(top)})`);

  const csv = await page.evaluate(() => window.neuralpath.exportCsv('causal-grid'));
  const rows = csv.trim().split('\r\n').map(r => r.split(','));
  assert.equal(rows.length, grid.tokens.length + 1);
  assert.deepEqual(rows[0].slice(1), grid.tokens);
  for (let i = 0; i < grid.tokens.length; ++i) {
    const sum = rows[i + 1].slice(1).reduce((a, v) => a + Number(v), 0);
    assert.ok(Math.abs(sum - 1) < 1e-3, `row ${i} sums to 1 (${sum})`);
  }
  await assert.rejects(page.evaluate(() => window.neuralpath.exportPng('no-such-figure')), /no hay ninguna figura/);
  await page.evaluate(() => window.neuralpath.exportCsv('cost')).then(
    () => assert.fail('the cost explorer has no CSV'), error => assert.match(error.message, /solo el mapa de calor/));

  // The buttons the engine draws under the figure download the same files.
  const now = widget(await state(page), 'causal-grid');
  const box = await page.locator('#canvas').boundingBox();
  const [gx, gy, gw, gh] = now.rect;
  const [csvFile] = await Promise.all([page.waitForEvent('download'),
    page.mouse.click(box.x + gx + gw - 8, box.y + gy + gh + 20)]);
  assert.equal(csvFile.suggestedFilename(), 'self-attention-causal-grid.csv');
  const [pngFile] = await Promise.all([page.waitForEvent('download'),
    page.mouse.click(box.x + gx + gw - 160, box.y + gy + gh + 20)]);
  assert.equal(pngFile.suggestedFilename(), 'self-attention-causal-grid.png');
  assert.deepEqual(sharer.problems, []);
});

test('a shared link reopens the playback at the step it was on', async () => {
  const { page } = sharer;
  await page.goto(`${env.origin}/lesson.html?lesson=course-playback&lang=es`);
  await lessonReady(page);
  await page.evaluate(() => { window.neuralpath.goto('overview'); window.neuralpath.step(1); window.neuralpath.step(1); window.neuralpath.step(1); });
  await settled(page);
  const board = (await state(page)).widgets.find(w => w.kind === 'playback');
  assert.ok(board.step >= 3, `the board moved (${board.step})`);
  const url = await page.evaluate(() => window.neuralpath.share());
  assert.ok(url.length < 400, `short: ${url.length}`);

  const { fresh, other } = await openAtPlaybackStep(url, board.step);
  await fresh.close();
});

// What a learner types into the board's sentence field is the first thing they want to show,
// run or not yet run: the link carries both, and the field and the board come back as they were.
test('a shared link carries the sentence typed into the playback, run or still in the field', async () => {
  const { page } = sharer;
  await page.goto(`${env.origin}/lesson.html?lesson=course-playback&lang=es&voice=off`);
  await lessonReady(page);
  const playback = async p => (await state(p)).widgets.find(w => w.kind === 'playback');
  const ran = 'The Agents Build Tomorrow', typed = 'AI Agents Build';
  await page.evaluate(text => { window.neuralpath.goto('overview'); window.neuralpath.setSentence(text); }, ran);
  await settled(page);
  // Scroll the field to the middle of the screen, click it, and type over it (no Enter yet).
  let board = await playback(page);
  const scroll = (await state(page)).layout.scroll;
  await page.evaluate(to => window.neuralpath.command({ type: 'scroll', to }), scroll + board.layout.sentence[1] - 300);
  await settled(page);
  board = await playback(page);
  const box = await page.locator('#canvas').boundingBox();
  const [fx, fy, fw, fh] = board.layout.sentence;
  await page.mouse.click(box.x + fx + fw - 4, box.y + fy + fh / 2);
  await settled(page);
  for (let i = 0; i < ' Tomorrow'.length; ++i) await page.keyboard.press('Backspace');
  await page.waitForFunction(text => window.neuralpath.state().widgets.find(w => w.kind === 'playback').draft === text,
    'The Agents Build', { timeout: 10_000 });
  await page.keyboard.press('Home');
  for (let i = 0; i < 'The '.length; ++i) await page.keyboard.press('Delete');
  await page.keyboard.type('AI ');
  await page.waitForFunction(text => window.neuralpath.state().widgets.find(w => w.kind === 'playback').draft === text,
    typed, { timeout: 10_000 });
  await page.evaluate(() => { window.neuralpath.step(1); window.neuralpath.step(1); });
  await settled(page);
  board = await playback(page);
  assert.equal(board.sentence, ran, 'the board still shows the sentence that ran');
  const url = await page.evaluate(() => window.neuralpath.share());
  assert.ok(url.length < 400, `short: ${url.length}`);

  const { fresh, other } = await openAtPlaybackStep(url, board.step);
  const opened = await playback(other);
  assert.equal(opened.sentence, ran, 'the sentence that ran is on the board');
  assert.deepEqual(opened.tokens, board.tokens);
  assert.equal(opened.caption, board.caption, 'at the same step');
  assert.equal(opened.draft, typed, 'and what was typed after it is back in the field');
  // Running it there clears the draft: the field and the board agree again.
  await other.evaluate(text => window.neuralpath.setSentence(text), typed);
  await settled(other);
  const after = await playback(other);
  assert.equal(after.sentence, typed);
  assert.equal(after.draft, '');
  await fresh.close();
});

// At 320–375 px the tools do not fit beside the brand: a Menu button opens them as a list, so
// Share and the language menu are on screen and reachable with the keyboard; on a desk they sit
// in the bar as before.
test('on a phone the tool bar fits: Menu opens the tools, Share and the language menu on screen', async () => {
  for (const width of [320, 375]) {
    const context = await env.browser.newContext({ viewport: { width, height: 740 }, hasTouch: true, isMobile: true, locale: 'es-ES' });
    const page = await context.newPage();
    await page.goto(`${env.origin}/lesson.html?lesson=self-attention&lang=es`);
    await lessonReady(page);
    const menu = page.locator('.np-menu-button');
    await menu.waitFor();
    const fits = () => page.evaluate(() => {
      const chrome = document.querySelector('.np-chrome');
      return chrome.scrollWidth <= chrome.clientWidth && document.documentElement.scrollWidth <= innerWidth;
    });
    assert.ok(await fits(), `${width}: nothing scrolls sideways`);
    const inside = async locator => {
      const b = await locator.boundingBox();
      return b && b.x >= 0 && b.x + b.width <= width + 0.5 && b.y >= 0 && b.height > 0;
    };
    assert.ok(await inside(menu), `${width}: the Menu button is on screen`);
    assert.equal(await menu.textContent(), 'Menú');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('.np-tools button', { hasText: 'Compartir' }).isVisible(), false, 'closed: the tools are out of sight');

    await menu.focus();
    await page.keyboard.press('Enter');
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    const share = page.locator('.np-tools button', { hasText: 'Compartir' });
    const lang = page.locator('select.np-lang');
    assert.ok(await inside(share), `${width}: Share is on screen`);
    assert.ok(await inside(lang), `${width}: the language menu is on screen`);
    assert.ok(await fits(), `${width}: the open list fits too`);
    assert.ok(await page.evaluate(() => document.querySelector('.np-tools').contains(document.activeElement)),
      'the keyboard is in the list');
    await page.screenshot({ path: screenshotPath(`toolbar-${width}-open`) });
    await page.keyboard.press('Escape');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('np-menu-button')), true, 'Escape gives focus back');

    await menu.tap();   // a tap opens it; Share copies and closes it
    await share.tap();
    await page.waitForFunction(() => document.querySelector('.np-share-note') && !document.querySelector('.np-share-note').hidden);
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await context.close();
  }
  const { page } = sharer;   // a desk: no Menu button, the tools in the bar
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention&lang=es`);
  await lessonReady(page);
  assert.equal(await page.locator('.np-menu-button').isVisible(), false);
  assert.ok(await page.locator('.np-tools button', { hasText: 'Compartir' }).isVisible());
  assert.ok(await page.locator('select.np-lang').isVisible());
});

test('the tool bar fills in even when its modules arrive after the engine has started', async () => {
  // Each page module runs when it has arrived; a loaded server may deliver these after the
  // engine's 'engine-ready'. They once waited for that event and stayed hidden.
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-ES' });
  const page = await context.newPage();
  for (const module of ['np-share.js', 'np-toolbar.js', 'np-mirror.js'])
    await page.route(`**/${module}`, async route => { await new Promise(done => setTimeout(done, 4000)); await route.continue(); });
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention&lang=es`);
  await lessonReady(page);
  assert.ok(await page.locator('.np-tools button', { hasText: 'Compartir' }).isVisible(), 'Share is there');
  assert.ok(await page.locator('select.np-lang').isVisible(), 'the language menu is there');
  await page.setViewportSize({ width: 375, height: 740 });
  const menu = page.locator('.np-menu-button');
  await menu.waitFor({ state: 'visible', timeout: 5000 });
  assert.equal(await menu.textContent(), 'Menú');
  await context.close();
});
