// The contexts the browser tests take over from each other (recycled-contexts.mjs) behave as new
// ones: nothing a test kept or added reaches the next test, and a context changed for good is
// never handed on. Every other browser file relies on this to be independent of the order its
// tests run in.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';

let env;
before(async () => { env = await launch(); });
after(async () => { await env?.close(); });

const home = () => `${env.origin}/index.html`;

// A context and its page as a test would open them.
async function opened(options) {
  const context = await env.browser.newContext(options);
  const page = await context.newPage();
  return { context, page };
}

test('the next test gets the same tab with nothing of the last one: storage, init scripts, routes, listeners', async () => {
  const first = await opened({ viewport: { width: 800, height: 600 } });
  await first.context.addInitScript(() => { window.__fromInitScript = true; });
  await first.page.route('**/probe.txt', route => route.fulfill({ status: 200, body: 'routed' }));
  let heard = 0;
  first.page.on('console', () => { heard++; });
  await first.page.goto(home());
  assert.equal(await first.page.evaluate(() => window.__fromInitScript), true);
  assert.equal(await first.page.evaluate(async () => (await fetch('/probe.txt')).status), 200);
  await first.page.evaluate(() => { localStorage.setItem('neuralpath:v1:probe', 'kept'); console.log('one'); });
  await first.page.waitForFunction(() => true);
  const heardBefore = heard;
  assert.ok(heardBefore >= 1, 'the listener heard the first page');
  const realContext = first.page.context();
  await first.context.close();

  const second = await opened({ viewport: { width: 1000, height: 700 } });
  assert.equal(second.page.context(), realContext, 'the same context, taken over');
  assert.equal(second.page.url(), 'about:blank');
  await second.page.goto(home());
  assert.equal(await second.page.evaluate(() => localStorage.getItem('neuralpath:v1:probe')), null);
  assert.equal(await second.page.evaluate(() => window.__fromInitScript), undefined);
  assert.equal(await second.page.evaluate(async () => (await fetch('/probe.txt')).status), 404);
  await second.page.evaluate(() => console.log('two'));
  await second.page.waitForFunction(() => true);
  assert.equal(heard, heardBefore, 'the first test\'s listener is gone');
  assert.deepEqual(second.page.viewportSize(), { width: 1000, height: 700 });
  assert.equal(await second.page.evaluate(() => window.innerWidth), 1000);
  await second.context.close();
});

test('a context whose clock was installed, or which opened a second page, is not handed on', async () => {
  const clocked = await env.browser.newContext({ locale: 'fr-FR' });
  await clocked.clock.install();
  const clockedPage = await clocked.newPage();
  await clockedPage.goto(home());
  const clockedReal = clockedPage.context();
  await clocked.close();
  const next = await opened({ locale: 'fr-FR' });
  assert.notEqual(next.page.context(), clockedReal);
  await next.page.goto(home());
  await next.page.context().newPage();  // through the real context: no stand-in sees it
  const second = await next.context.newPage();
  await second.goto(home());
  const twoPages = next.page.context();
  await next.context.close();
  const after = await opened({ locale: 'fr-FR' });
  assert.notEqual(after.page.context(), twoPages);
  await after.context.close();
});

test('contexts with other fixed options are never mixed up: a phone stays a phone', async () => {
  const desk = await opened({ viewport: { width: 1280, height: 800 } });
  await desk.page.goto(home());
  await desk.context.close();
  const phone = await opened({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  await phone.page.goto(home());
  assert.equal(await phone.page.evaluate(() => matchMedia('(pointer: coarse)').matches), true);
  await phone.context.close();
  const deskAgain = await opened({ viewport: { width: 1280, height: 800 } });
  await deskAgain.page.goto(home());
  assert.equal(await deskAgain.page.evaluate(() => matchMedia('(pointer: coarse)').matches), false);
  await deskAgain.context.close();
});

test('browser.newPage() is recycled too, and its page\'s close() hands it back', async () => {
  const page = await env.browser.newPage();
  await page.goto(home());
  await page.evaluate(() => localStorage.setItem('neuralpath:v1:probe', 'kept'));
  const real = page.context();
  await page.close();
  const next = await env.browser.newPage();
  assert.equal(next.context(), real);
  await next.goto(home());
  assert.equal(await next.evaluate(() => localStorage.getItem('neuralpath:v1:probe')), null);
  await next.close();
});
