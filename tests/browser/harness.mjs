// Shared set-up for browser tests: serve the built site on a free local port, launch Debian's
// Chromium through playwright-core, and collect every console error and failed request so a
// test can assert there were none.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/serve.mjs';
import { comparePixels, decodePng, encodePng, lumaVariance } from './png.mjs';
import { recycledBrowser } from './recycled-contexts.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const siteDir = process.env.NEURALPATH_SITE || join(repo, 'build/web/site');
export const screenshotDir = join(repo, 'build/screenshots');
mkdirSync(screenshotDir, { recursive: true });

// The flags this machine needs: no sandbox as root, and no background networking (the network
// is closed, and Chromium's own update/sync traffic would otherwise fail noisily).
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export async function launch() {
  const server = await startServer({ root: siteDir, port: 0 });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: chromiumArgs });
  // env.browser hands out recycled contexts (recycled-contexts.mjs: a lesson page is ready in
  // 0.8 s instead of 2.2 s); env.realBrowser makes contexts that have never seen the site.
  return {
    origin, browser: recycledBrowser(browser), realBrowser: browser, server,
    async close() { await browser.close(); await new Promise(done => server.close(done)); },
  };
}

// Opens `path` in a new page of the given width; returns the page and the problems it logged.
// `clock: true` installs Playwright's clock first (page.clock): time flows as usual while the
// page loads; a test then pauses it (page.clock.pauseAt) and steps animation frames and timers
// with page.clock.runFor(ms) instead of sleeping.
export async function openPage(env, path, { width = 1280, height = 800, scale = 1, clock = false, touch = false } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale,
    ...(touch ? { hasTouch: true, isMobile: true } : {}) });  // touch: a phone (taps, no hover)
  if (clock) await context.clock.install();
  const page = await context.newPage();
  const problems = [];
  page.on('console', message => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('pageerror', error => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', request => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', response => { if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`); });
  await page.goto(env.origin + path);
  return { page, problems, context };
}

// Waits for window.neuralpath.ready (the first frame with the lesson drawn).
export async function lessonReady(page, timeout = 60_000) {
  await page.waitForFunction(() => window.neuralpath && window.neuralpath.ready, null, { timeout });
  await page.evaluate(() => window.neuralpath.ready);
}

// A browser (launch) with one page open at `path` (openPage's options) and its lesson ready: the
// set-up of a test file whose tests share that page. Should the page never get ready, the
// browser is closed here, since the file's `after` has no env to close.
export async function launchWithLesson(path, options) {
  const env = await launch();
  try {
    const opened = await openPage(env, path, options);
    await lessonReady(opened.page);
    return { env, opened };
  } catch (error) {
    await env.close();
    throw error;
  }
}

// Pixel statistics of the canvas as displayed (a screenshot of its box).
export async function canvasPixelVariance(page) {
  return lumaVariance(decodePng(await page.locator('#canvas').screenshot()));
}

export function screenshotPath(name) { return join(screenshotDir, `${name}.png`); }

// [SECTION] Time and golden images --------------------------------------------------------------

// Engine frames run since the page started (web/main.cpp's np_engine_frames).
export const engineFrames = page => page.evaluate(() => window.Module._np_engine_frames());

// Waits until the engine has stopped drawing: whatever the last action started (a glide, a
// swing, a reveal) has finished, so what is on the canvas is final. With Playwright's clock
// paused (openPage's `clock`), time moves only here, 100 ms at a time; otherwise this polls.
export async function settled(page, { timeout = 20_000 } = {}) {
  const paused = pausedPages.has(page);
  for (let waited = 0; waited < timeout; waited += 100) {
    const before = await engineFrames(page);
    if (paused) await page.clock.runFor(100);
    else await page.waitForTimeout(100);
    if (await engineFrames(page) === before) return;
  }
  throw new Error(`the page kept drawing for ${timeout} ms`);
}

// Pauses the page's clock (installed by openPage's `clock`): from now on time moves only when a
// test moves it (page.clock.runFor, settled). resumeClock lets it flow again (before a page
// navigates: a page loads with time flowing).
const pausedPages = new WeakSet();
export async function pauseClock(page) {
  // The page's time flows between reading it and pausing: on a loaded machine more than the
  // margin can pass, and Playwright refuses to pause in the past ("Cannot fast-forward to the
  // past"). Then read it again with a wider margin; a jump of a second at most changes nothing a
  // test looks at (it lets the page's timers due by then run, as time flowing would have).
  for (let margin = 100; ; margin *= 2) {
    try {
      await page.clock.pauseAt(await page.evaluate(() => Date.now()) + margin);
      break;
    } catch (error) {
      if (margin >= 1600 || !/fast-forward to the past/i.test(error.message)) throw error;
    }
  }
  pausedPages.add(page);
}
export async function resumeClock(page) {
  await page.clock.resume();
  pausedPages.delete(page);
}

export const goldenDir = join(repo, 'tests/browser/golden');
const updateGolden = process.env.NEURALPATH_UPDATE_GOLDEN === '1';

// Compares a screenshot (of `target`: a page, or a locator) with the reviewed golden image
// tests/browser/golden/NAME.png. A pixel differs when a colour channel moves by more than
// `threshold` (of 255); the check fails when more than `maxDiffRatio` of the pixels differ or
// the size changed, and writes NAME-actual.png and NAME-diff.png (differences in red) to
// build/screenshots/golden/ to look at. NEURALPATH_UPDATE_GOLDEN=1 writes the screenshot as the
// new golden instead: look at every one before committing it.
export async function expectGolden(env, target, name, { clip, threshold = 40, maxDiffRatio = 0.004 } = {}) {
  const actual = await target.screenshot(clip ? { clip } : {});
  const goldenPath = join(goldenDir, `${name}.png`);
  if (updateGolden) {
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(goldenPath, actual);
    return;
  }
  if (!existsSync(goldenPath))
    throw new Error(`no golden image ${goldenPath}; make it with NEURALPATH_UPDATE_GOLDEN=1 and review it`);
  const result = comparePixels(decodePng(actual), decodePng(readFileSync(goldenPath)), threshold);
  const ratio = result.size ? 1 : result.differing / result.total;
  if (result.size || ratio > maxDiffRatio) {
    const out = join(screenshotDir, 'golden');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `${name}-actual.png`), actual);
    if (result.diff) writeFileSync(join(out, `${name}-diff.png`), encodePng(result.diff));
    throw new Error(`screenshot ${name} differs from its golden image: ` +
      (result.size || `${result.differing} of ${result.total} pixels (${(ratio * 100).toFixed(2)}%)`) +
      `; see ${out}/${name}-actual.png and -diff.png`);
  }
}
