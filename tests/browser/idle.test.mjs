// The page sleeps when nothing changes: no engine frames while idle (web/main.cpp's idle gate,
// counted by the np_engine_frames export), and input, commands and animations wake it, with
// playback and a drag running at the full frame rate. Time is Playwright's clock: each test
// pauses it and steps through animation frames itself, so nothing waits on the wall clock; the
// last test alone counts what an idle page asks of the browser over real seconds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, lessonReady, engineFrames as framesOf, pauseClock as pause, resumeClock, settled }
  from './harness.mjs';

let env, page, problems;
before(async () => {
  env = await launch();
  ({ page, problems } = await openPage(env, '/lesson.html?lesson=self-attention&section=spotlight',
    { clock: true }));
  await lessonReady(page);
});
after(async () => { await env?.close(); });

const engineFrames = () => framesOf(page);
const command = message => page.evaluate(m => window.neuralpath.command(m), message);

// Runs `ms` of page time in animation frames; returns how many the browser gave and how many
// of them ran the engine.
async function run(ms) {
  await page.evaluate(() => {
    window.__ticks = 0;
    if (window.__tick) return;
    const tick = () => { window.__ticks++; window.__tick = requestAnimationFrame(tick); };
    window.__tick = requestAnimationFrame(tick);
  });
  const before = await engineFrames();
  await page.clock.runFor(ms);
  return { ticks: await page.evaluate(() => window.__ticks), engine: (await engineFrames()) - before };
}

const pauseClock = () => pause(page);  // from now on only run() moves time

// Lets whatever the last action started finish (within 10 s of page time), then checks the
// page has gone back to sleep. Returns the engine frames the finishing took.
async function settles() {
  let finishing = 0;
  for (let i = 0; i < 20; i++) {
    const step = await run(500);
    finishing += step.engine;
    if (step.engine === 0) break;
  }
  const idle = await run(1000);
  assert.ok(idle.ticks >= 50, `the browser kept animating (${idle.ticks} frames in 1 s)`);
  assert.equal(idle.engine, 0, `an idle page runs no engine frames (ran ${idle.engine} of ${idle.ticks})`);
  return finishing;
}

test('an idle page runs no engine frames', async () => {
  await pauseClock();
  await settles();
  assert.deepEqual(problems, []);
});

test('a mouse move wakes the page for a few frames, then it sleeps again', async () => {
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  const woken = await run(200);
  assert.ok(woken.engine >= 2, `the move ran engine frames (${woken.engine})`);
  await settles();
});

test('a command wakes the page, and the spotlight swing runs at the full frame rate until it lands', async () => {
  await command({ type: 'setSentence', widget: 'it-spotlight',
    text: "The animal didn't cross the street because it was too wide." });
  const swing = await run(500);
  assert.ok(swing.engine >= swing.ticks - 1, `every frame of the swing ran (${swing.engine} of ${swing.ticks})`);
  await settles();
  const spotlight = (await page.evaluate(() => window.neuralpath.state())).widgets.find(w => w.id === 'it-spotlight');
  assert.equal(spotlight.top.token, 'street');
});

test('wheel scrolling runs a frame for every browser frame while it lasts', async () => {
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 300);
  const before = (await page.evaluate(() => window.neuralpath.state())).layout.scroll;
  let ticks = 0, engine = 0;
  for (let i = 0; i < 10; i++) {
    await page.mouse.wheel(0, 40);
    const step = await run(50);
    ticks += step.ticks; engine += step.engine;
  }
  assert.ok(engine >= ticks - 1, `scrolling ran the engine every frame (${engine} of ${ticks})`);
  const after = (await page.evaluate(() => window.neuralpath.state())).layout.scroll;
  assert.ok(after > before + 100, `the page scrolled (${before} -> ${after})`);
  await settles();
});

test('a cost explorer run keeps frames coming until it is done, then the page sleeps', async () => {
  // The run works in slices of a frame's time budget, measured on the clock: here time flows.
  await resumeClock(page);
  await page.evaluate(() => {
    window.__during = { ticks: 0, engine: window.Module._np_engine_frames() };
    const tick = () => {
      if (!window.neuralpath.state().widgets.find(w => w.id === 'cost').running) {
        window.__during.engine = window.Module._np_engine_frames() - window.__during.engine;
        window.__during.done = true;
        return;
      }
      window.__during.ticks++;
      requestAnimationFrame(tick);
    };
    window.neuralpath.command({ type: 'run', widget: 'cost', T: 2048 });
    requestAnimationFrame(tick);
  });
  await page.waitForFunction(() => window.__during.done, null, { timeout: 120_000 });
  const during = await page.evaluate(() => window.__during);
  assert.ok(during.ticks >= 3, `the run took several frames (${during.ticks})`);
  assert.ok(during.engine >= during.ticks - 1, `the run got every frame (${during.engine} of ${during.ticks})`);
  await pauseClock();
  const cost = (await page.evaluate(() => window.neuralpath.state())).widgets.find(w => w.id === 'cost');
  assert.equal(cost.running, false);
  assert.equal(cost.runs.at(-1).tiled.status, 'done');
  await settles();
  assert.deepEqual(problems, []);
});

test('playback runs at the full frame rate while it plays and sleeps once paused', async () => {
  await resumeClock(page);  // a page loads with time flowing
  await page.goto(`${env.origin}/lesson.html?lesson=course-playback&voice=off`);
  await lessonReady(page);
  await pauseClock();
  await run(3000);  // np-speech.js tells the engine "voice off" once it has waited for voices
  await settles();
  await command({ type: 'play' });
  const playing = await run(1000);
  assert.ok(playing.engine >= playing.ticks - 1, `playback got every frame (${playing.engine} of ${playing.ticks})`);
  assert.ok((await page.evaluate(() => window.neuralpath.state().playback.playing)), 'still playing');
  await command({ type: 'pause' });
  await settles();
  assert.deepEqual(problems, []);
});

// Asleep, the page asks the browser for nothing: no animation frames (the engine's loop and the
// page's event pump used to ask 60 times a second each, to do nothing) and no gamepad polling
// (GLFW's port listened for gamepads, and Chromium polls them while a page listens). Counted by
// wrapping the browser's calls before the page's scripts run; a command must make them ask again.
test('an idle page asks for no animation frames and listens for no gamepads; a command asks again', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.__frameRequests = 0;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = callback => { window.__frameRequests++; return request(callback); };
    window.__gamepadListeners = 0;
    const add = window.addEventListener, remove = window.removeEventListener;
    window.addEventListener = function (type, ...rest) {
      if (/^gamepad/.test(type)) window.__gamepadListeners++;
      return add.call(this, type, ...rest);
    };
    window.removeEventListener = function (type, ...rest) {
      if (/^gamepad/.test(type)) window.__gamepadListeners--;
      return remove.call(this, type, ...rest);
    };
  });
  const quiet = await context.newPage();
  await quiet.goto(`${env.origin}/lesson.html?lesson=self-attention`);
  await lessonReady(quiet);
  await settled(quiet);
  const requestsOver = async ms => {
    const before = await quiet.evaluate(() => window.__frameRequests);
    await quiet.waitForTimeout(ms);
    return (await quiet.evaluate(() => window.__frameRequests)) - before;
  };
  // The page's start still calls in after ready (the storage's first snapshot, the text version):
  // a page that kept asking (120 a second before) never gets a quiet second.
  let asked = Infinity;
  for (let second = 0; second < 10 && asked > 0; second++) asked = await requestsOver(1000);
  assert.equal(asked, 0, 'an idle page kept asking for animation frames');
  assert.equal(await quiet.evaluate(() => window.__gamepadListeners), 0, 'the page listens for gamepads');
  const [frames, requests] = [await framesOf(quiet), await quiet.evaluate(() => window.__frameRequests)];
  await quiet.evaluate(() => window.neuralpath.command({ type: 'theme', dark: true }));
  await settled(quiet);
  assert.ok((await framesOf(quiet)) > frames, 'a command ran no engine frame');
  assert.ok((await quiet.evaluate(() => window.__frameRequests)) > requests, 'a command asked for no animation frame');
  assert.equal(await requestsOver(1000), 0, 'the page did not go back to sleep');
  await context.close();
});
