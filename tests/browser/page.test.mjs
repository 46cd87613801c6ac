// The lesson page loads in a real browser: the engine downloads, draws a frame with the
// lesson, and nothing on the way fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, lessonReady, canvasPixelVariance, screenshotPath } from './harness.mjs';

let env, desk;  // desk: the desktop lesson page the first and the keyboard tests share
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

test('the lesson page draws its first frame with no console error or failed request', async () => {
  desk = await openPage(env, '/lesson.html?lesson=self-attention');
  const { page, problems } = desk;
  await lessonReady(page);
  assert.equal(await page.locator('#np-overlay').isHidden(), true, 'the loading overlay is gone');
  const variance = await canvasPixelVariance(page);
  assert.ok(variance > 50, `the canvas is not blank (luma variance ${variance.toFixed(1)})`);
  await page.screenshot({ path: screenshotPath('first-frame-desktop') });
  assert.deepEqual(problems, []);
});

test('the canvas backing store follows the device pixel ratio', async () => {
  const { page, problems, context } = await openPage(env, '/lesson.html?lesson=self-attention',
    { width: 375, height: 740, scale: 2 });
  await lessonReady(page);
  await page.waitForFunction(() => {
    const c = document.getElementById('canvas');
    return c.width === Math.round(c.clientWidth * 2);
  }, null, { timeout: 10_000 });
  const size = await page.evaluate(() => {
    const c = document.getElementById('canvas');
    return { width: c.width, height: c.height, cssWidth: c.clientWidth, cssHeight: c.clientHeight };
  });
  assert.equal(size.width, Math.round(size.cssWidth * 2));
  assert.equal(size.height, Math.round(size.cssHeight * 2));
  await page.screenshot({ path: screenshotPath('first-frame-phone') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a missing lesson shows a readable message, not a blank page', async () => {
  const { page, context } = await openPage(env, '/lesson.html?lesson=no-such-lesson');
  await page.waitForSelector('#np-overlay[role="alert"]', { timeout: 60_000 });
  const message = await page.locator('#np-overlay').innerText();
  assert.match(message, /no lesson called "no-such-lesson"/);
  await context.close();
});

test('without WebGL2 the page explains what is missing', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // WebGL2 taken away before any script runs.
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
    };
  });
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention`);
  await page.waitForSelector('#np-overlay[role="alert"]', { timeout: 20_000 });
  assert.match(await page.locator('#np-overlay').innerText(), /needs WebGL2/);
  await context.close();
});

test('the server sends WebAssembly as application/wasm, compressed', async () => {
  const response = await fetch(`${env.origin}/lesson.wasm`, { headers: { 'Accept-Encoding': 'br, gzip' } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/wasm');
  assert.match(response.headers.get('content-encoding') || '', /^(br|gzip)$/);
  const escape = await fetch(`${env.origin}/..%2f..%2fetc/passwd`);
  assert.notEqual(escape.status, 200, 'no file outside the site is served');
});

test('the keyboard is never trapped in the canvas, and keys elsewhere stay with the page', async () => {
  const { page, problems } = desk;
  await page.focus('#canvas');
  await page.keyboard.press('Shift+Tab');
  // (the page tools — text version, reset — sit between the brand link and the canvas)
  assert.equal(await page.evaluate(() => {
    const canvas = document.getElementById('canvas');
    const now = document.activeElement;
    return now !== canvas && !!(now.compareDocumentPosition(canvas) & Node.DOCUMENT_POSITION_FOLLOWING);
  }), true, 'Shift+Tab leaves the canvas for the control before it');
  // A text field outside the canvas keeps Backspace (GLFW would cancel it page-wide).
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.id = 'probe'; input.value = 'abc';
    document.body.append(input);
  });
  await page.focus('#probe');
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  assert.equal(await page.inputValue('#probe'), 'ab');
  assert.deepEqual(problems, []);
});

test('the page starts with one WebGL context, and the engine compiles its WebAssembly as it arrives', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // Every canvas that gets a WebGL2 context, and how the WebAssembly was compiled.
  await page.addInitScript(() => {
    window.__webglCanvases = new Set();
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      const made = original.call(this, kind, ...rest);
      if (kind === 'webgl2' && made) window.__webglCanvases.add(this);
      return made;
    };
    window.__compiled = [];
    for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
      const own = WebAssembly[name];
      WebAssembly[name] = function (...args) { window.__compiled.push(name); return own.apply(this, args); };
    }
  });
  const requested = [];
  page.on('request', request => requested.push(new URL(request.url()).pathname));
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention`);
  await lessonReady(page);
  const seen = await page.evaluate(() => ({
    canvases: [...window.__webglCanvases].map(c => c.id), compiled: window.__compiled }));
  // A throwaway context to ask "is there WebGL2?" cost as much as the engine's own.
  assert.deepEqual(seen.canvases, ['canvas']);
  assert.equal(seen.compiled[0], 'compileStreaming');
  // The .wasm is asked for as soon as its name is known, not after lesson.js has arrived and run.
  const wasm = requested.findIndex(p => /\/lesson(-[a-z]+)?\.[0-9a-f]{16}\.wasm$/.test(p));
  const script = requested.findIndex(p => /\/lesson(-[a-z]+)?\.[0-9a-f]{16}\.js$/.test(p));
  assert.ok(wasm >= 0 && script >= 0 && wasm < script, `requests in order: ${requested.join(' ')}`);
  // lesson.html names the engines' files, and its first script (np-engine.js) preloads those of
  // this lesson's engine while the HTML is read: before the page's modules ask for the lesson,
  // with no asset-names.json round trip (#33); and the font package is fetched once, beside the
  // wasm, not again by the glue.
  const chooser = requested.indexOf('/np-engine.js');
  const lessonText = requested.indexOf('/lessons/self-attention.md');
  const data = requested.filter(p => /\/lesson(-[a-z]+)?\.[0-9a-f]{16}\.data$/.test(p));
  assert.ok(chooser >= 0 && chooser < wasm && wasm < lessonText, `the wasm is asked for before the lesson: ${requested.join(' ')}`);
  assert.ok(!requested.includes('/asset-names.json'), `no asset-names.json: ${requested.join(' ')}`);
  assert.equal(data.length, 1, `the font package once: ${requested.join(' ')}`);
  // The engine with the attention lesson's kinds, without the language model's or the
  // playback's, which this lesson never runs (#28), and no other engine's files.
  const engines = requested.filter(p => /\/lesson(-[a-z]+)?\.[0-9a-f]{16}\.(js|wasm)$/.test(p))
    .map(p => p.replace(/\.[0-9a-f]{16}\./, '.')).sort();
  assert.deepEqual(engines, ['/lesson-attention.js', '/lesson-attention.wasm']);
  await context.close();
});

// #33: opening a lesson held the main thread for 0.5-1.2 s. The steps now come one after the
// other, each in its own task: the fonts, the lesson, its widgets (one per task), and only then
// the first frame, which draws them all (a frame before would build every widget at once).
test('the page opens in steps: fonts, lesson, widgets, then the first frame', async () => {
  const { page, problems, context } = await openPage(env, '/lesson.html?lesson=self-attention');
  await lessonReady(page);
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark')
    .filter(m => m.name.startsWith('np:')).map(m => [m.name.slice(3), m.startTime])));
  const order = ['main', 'fonts-built', 'lesson-text', 'lesson-parsed', 'widgets-built', 'first-frame', 'ready'];
  for (const name of order) assert.ok(Number.isFinite(marks[name]), `mark np:${name}: ${JSON.stringify(marks)}`);
  for (let i = 1; i < order.length; i++)
    assert.ok(marks[order[i - 1]] <= marks[order[i]], `np:${order[i - 1]} before np:${order[i]}: ${JSON.stringify(marks)}`);
  const widgets = (await page.evaluate(() => window.neuralpath.state())).widgets;
  assert.ok(widgets.length >= 5 && widgets.every(w => !w.error), `every widget is there: ${widgets.map(w => w.id)}`);
  assert.deepEqual(problems, []);
  await context.close();
});

// #34: "2000 of 2000 KB" with the bar at 20%. At every frame while the engine downloads, the
// bar (as drawn: its computed width) shows the share its words say.
test('the download bar shows what its words say, at every frame', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.__bar = [];
    const sample = () => {
      const status = document.getElementById('np-status'), bar = document.querySelector('.np-bar');
      const overlay = document.getElementById('np-overlay');
      const said = status && /(\d+)\D+(\d+)\s*KB/.exec(status.textContent);
      if (said && !overlay.hidden && Number(said[2]) > 0)
        window.__bar.push({ said: Number(said[1]) / Number(said[2]), drawn:
          parseFloat(getComputedStyle(bar).width) / bar.parentElement.getBoundingClientRect().width, text: status.textContent });
      if (!overlay || !overlay.hidden) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  const page = await context.newPage();
  await page.goto(`${env.origin}/lesson.html?lesson=self-attention`);
  await lessonReady(page);
  const samples = await page.evaluate(() => window.__bar);
  assert.ok(samples.length >= 1, 'the download was shown with its words');
  for (const { said, drawn, text } of samples)
    assert.ok(Math.abs(said - drawn) <= 0.02, `"${text}" with the bar at ${(drawn * 100).toFixed(0)}%`);
  await context.close();
});

// The GPU can take the WebGL context away (a driver reset, a tab in the background on a phone):
// the page must draw the lesson again once it is given back, with every GL object the engine and
// its ImGui renderer own made anew, and the learner's place kept.
test('a lost WebGL context is drawn again once restored, at the same place', async () => {
  const { page, problems, context } = await openPage(env, '/lesson.html?lesson=self-attention&section=qkv');
  await lessonReady(page);
  const before = await canvasPixelVariance(page);
  const section = await page.evaluate(() => window.neuralpath.state().section);
  await page.evaluate(() => {
    const gl = document.getElementById('canvas').getContext('webgl2');
    window.__lose = gl.getExtension('WEBGL_lose_context');
    window.__lose.loseContext();
  });
  await page.waitForFunction(() => document.getElementById('canvas').getContext('webgl2').isContextLost());
  await page.evaluate(() => window.__lose.restoreContext());
  await page.waitForFunction(() => !document.getElementById('canvas').getContext('webgl2').isContextLost());
  await page.evaluate(() => window.neuralpath.command({ type: 'scroll', by: 1 }));   // a change: a frame is drawn
  await page.waitForTimeout(500);
  const after = await canvasPixelVariance(page);
  assert.ok(after > 50 && after > before * 0.5, `the canvas is drawn again (luma variance ${before.toFixed(1)} -> ${after.toFixed(1)})`);
  assert.equal(await page.evaluate(() => window.neuralpath.state().section), section);
  assert.deepEqual(problems.filter(p => !/context/i.test(p)), []);
  await context.close();
});
