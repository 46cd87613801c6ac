// The in-page language model's figures for the benchmark (issue #29): in headless Chromium, on
// the lesson "Learning to read", the learner presses Train at 375 px by touch (a phone) and at
// 1440 px with a mouse; measured from that press: the time until some head's induction score
// reaches 0.5 (the page's own measurement, state().widgets[trainer].phase.induction), with the
// step it happened at and the download time, and the gaps between the browser's animation frames
// meanwhile (33.3 ms is 30 frames a second). Prints one JSON object:
//
//   node tests/bench/lm-page-metrics.mjs [--site build/web/site] [--lang en,es] [--limit 300]
//
// Each language trains on its own text (models/train-<lang>.nptok), so each gets both runs.
//
// Each run is a fresh browser (nothing cached: the trainer and its data are downloaded as on a
// first visit). The load average is printed with each run: on a shared machine it moves them.
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../web/serve.mjs';
import { chromiumArgs, siteDir as defaultSite } from '../browser/harness.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const site = resolve(option('site', defaultSite));
const langs = option('lang', 'en,es').split(',').filter(Boolean);
const limitS = Number(option('limit', 300)) || 300;   // give up after this long (the target is 120 s)

const trainer = () => window.neuralpath.state().widgets.find(w => w.kind === 'lm-train');

// One press of Train at `width`, by touch or by mouse, until the induction head forms.
async function oneRun(origin, { lang, width, height, touch }) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: chromiumArgs });
  try {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: touch ? 2 : 1,
      hasTouch: touch, isMobile: touch });
    const page = await context.newPage();
    await page.goto(`${origin}/lesson.html?lesson=learning-to-read&section=train&lang=${lang}`);
    await page.waitForFunction(() => window.neuralpath && window.neuralpath.ready, null, { timeout: 120_000 });
    await page.evaluate(() => window.neuralpath.ready);
    await page.waitForTimeout(500);
    // The Train button where the engine drew it (CSS px of the canvas), brought on screen.
    let rect = (await page.evaluate(trainer)).layout.train;
    if (rect[1] < 0 || rect[1] + rect[3] > height) {
      await page.evaluate(by => window.neuralpath.command({ type: 'scroll', by }), rect[1] - height / 3);
      await page.waitForTimeout(300);
      rect = (await page.evaluate(trainer)).layout.train;
    }
    const box = await page.locator('#canvas').boundingBox();
    const x = box.x + rect[0] + rect[2] / 2, y = box.y + rect[1] + rect[3] / 2;
    const load = [loadavg()[0]];
    await page.evaluate(() => {
      const w = window.__lm = { gaps: [], long: [], last: null, on: true, start: performance.now(), ready: null, induction: null };
      const tick = now => {
        if (w.last !== null) {
          w.gaps.push(now - w.last);
          if (now - w.last > 50) w.long.push([Math.round(w.last - w.start), Math.round(now - w.last)]);
        }
        w.last = now;
        if (w.on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      // The state is read four times a second, not every frame: reading it costs the page time.
      w.poll = setInterval(() => {
        const t = window.neuralpath.state().widgets.find(v => v.kind === 'lm-train');
        if (w.ready === null && t.model) w.ready = performance.now() - w.start;
        if (w.induction === null && t.phase.induction) w.induction = { ms: performance.now() - w.start, step: t.phase.induction.step };
      }, 250);
    });
    if (touch) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
    // The predicate runs in the page, so it finds the trainer itself (`trainer` above is Node's).
    const settled = () => {
      const t = window.neuralpath.state().widgets.find(v => v.kind === 'lm-train');
      return window.__lm.induction !== null || t.status === 'error' || t.status === 'finished';
    };
    await page.waitForFunction(settled, null, { timeout: limitS * 1000, polling: 500 })
      .catch(error => { if (!/Timeout/i.test(error.message)) throw error; });
    load.push(loadavg()[0]);
    const result = await page.evaluate(() => {
      const w = window.__lm;
      w.on = false;
      clearInterval(w.poll);
      const t = window.neuralpath.state().widgets.find(v => v.kind === 'lm-train');
      return { gaps: w.gaps.sort((a, b) => a - b), long: w.long, ready_ms: w.ready, induction: w.induction, status: t.status,
        step: t.training.step, error: t.error, seconds: (performance.now() - w.start) / 1000 };
    });
    const at = q => result.gaps.length ? Number(result.gaps[Math.min(result.gaps.length - 1, Math.floor(q * result.gaps.length))].toFixed(1)) : null;
    return {
      lang, width, height, input: touch ? 'touch' : 'mouse',
      induction_s: result.induction ? Number((result.induction.ms / 1000).toFixed(1)) : null,
      induction_step: result.induction ? result.induction.step : null,
      download_s: result.ready_ms === null ? null : Number((result.ready_ms / 1000).toFixed(1)),
      steps_per_s: result.step / result.seconds ? Number((result.step / result.seconds).toFixed(1)) : null,
      status: result.status, error: result.error,
      frames: { frames: result.gaps.length, per_s: Number((result.gaps.length / result.seconds).toFixed(1)),
        median_ms: at(0.5), p95_ms: at(0.95), worst_ms: at(1),
        // Every gap over 50 ms as [ms after the press when it began, its length]: start-up or steady?
        over_50ms: result.long },
      load_average: load.map(l => Number(l.toFixed(2))),
    };
  } finally {
    await browser.close();
  }
}

async function main() {
  const server = await startServer({ root: site, port: 0 });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const runs = [];
  try {
    for (const lang of langs) {
      runs.push(await oneRun(origin, { lang, width: 375, height: 740, touch: true }));
      runs.push(await oneRun(origin, { lang, width: 1440, height: 900, touch: false }));
    }
  } finally {
    await new Promise(done => server.close(done));
  }
  console.log(JSON.stringify({ lesson: 'learning-to-read', runs,
    how: 'from the press of Train to state().phase.induction (a head reached 0.5), a fresh headless Chromium each (software WebGL), localhost; frames: gaps between requestAnimationFrame callbacks meanwhile' }, null, 2));
}

main().catch(error => { console.error(`lm-page-metrics: ${error.message}`); process.exit(1); });
