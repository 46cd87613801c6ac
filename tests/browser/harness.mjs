// Shared set-up for browser tests: serve the built site on a free local port, launch Debian's
// Chromium through playwright-core, and collect every console error and failed request so a
// test can assert there were none.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/serve.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const siteDir = process.env.NEURALPATH_SITE || join(repo, 'build/web/site');
export const screenshotDir = join(repo, 'build/screenshots');
mkdirSync(screenshotDir, { recursive: true });

// The flags this machine needs: no sandbox as root, and no background networking (the network
// is closed, and Chromium's own update/sync traffic would otherwise fail noisily).
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export async function launch() {
  const server = await startServer({ root: siteDir, port: 0 });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: chromiumArgs });
  return {
    origin, browser, server,
    async close() { await browser.close(); await new Promise(done => server.close(done)); },
  };
}

// Opens `path` in a new page of the given width; returns the page and the problems it logged.
export async function openPage(env, path, { width = 1280, height = 800, scale = 1 } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale });
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

// Pixel statistics of the canvas as displayed (a screenshot of its box, decoded in the page).
export async function canvasPixelVariance(page) {
  const png = await page.locator('#canvas').screenshot();
  return page.evaluate(async base64 => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const probe = document.createElement('canvas');
    probe.width = image.width; probe.height = image.height;
    const context = probe.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    let sum = 0, sumSquares = 0, n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const luma = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
      sum += luma; sumSquares += luma * luma; n++;
    }
    const mean = sum / n;
    return sumSquares / n - mean * mean;
  }, png.toString('base64'));
}

export function screenshotPath(name) { return join(screenshotDir, `${name}.png`); }
