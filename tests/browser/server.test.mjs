// The static server (web/serve.mjs): nothing outside the site root is served, not even through
// a symlink; unchanged files cost a 304; content-hashed assets are cached for good; every
// answer, errors included, says what it is and carries the site's security policy; the course
// sites allowed with --allow-origin reach the page's configuration and the frame-ancestors policy.
// Plain HTTP against a small site in a temporary folder: no browser, so it is quick.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../web/serve.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const COURSE = 'https://lms.example.org';
let root, outside, server, origin, allowing, allowingOrigin;

before(async () => {
  const top = mkdtempSync(join(tmpdir(), 'np-serve-'));
  root = join(top, 'site');
  outside = join(top, 'private');
  mkdirSync(join(root, 'lessons'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'not for the web');
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>t</title><p>home</p>');
  writeFileSync(join(root, 'app.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  writeFileSync(join(root, 'lesson.0123456789abcdef.wasm'), Buffer.alloc(2048, 7));
  writeFileSync(join(root, 'lessons', 'a.md'), '# A lesson\n');
  writeFileSync(join(root, 'site-config.json'), JSON.stringify({ allowOrigins: [] }));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
  symlinkSync(outside, join(root, 'private'));
  symlinkSync(join(root, 'lessons', 'a.md'), join(root, 'alias.md'));   // inside: fine
  server = await startServer({ root, port: 0 });
  origin = `http://127.0.0.1:${server.address().port}`;
  allowing = await startServer({ root, port: 0, allowOrigins: [COURSE] });
  allowingOrigin = `http://127.0.0.1:${allowing.address().port}`;
});
after(async () => {
  await new Promise(done => server?.close(done));
  await new Promise(done => allowing?.close(done));
});

const get = (path, headers = {}, base = origin) => fetch(base + path, { headers });

test('a symlink that leads outside the root is refused; one inside it is served', async () => {
  for (const path of ['/leak.txt', '/private/secret.txt']) {
    const response = await get(path);
    assert.equal(response.status, 403, path);
    assert.doesNotMatch(await response.text(), /not for the web/);
  }
  const inside = await get('/alias.md');
  assert.equal(inside.status, 200);
  assert.equal(await inside.text(), '# A lesson\n');
  // Encoded dot-dot segments do not climb out either.
  const climb = await get('/%2e%2e/private/secret.txt');
  assert.ok([403, 404].includes(climb.status), `status ${climb.status}`);
  assert.doesNotMatch(await climb.text(), /not for the web/);
});

test('errors have a Content-Type and the security headers', async () => {
  const cases = [['/leak.txt', 'GET', 403], ['/nothing-here.js', 'GET', 404], ['/index.html', 'POST', 405],
    ['/%E0%A4%A', 'GET', 400]];
  for (const [path, method, status] of cases) {
    const response = await fetch(origin + path, { method });
    assert.equal(response.status, status, `${method} ${path}`);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8', `${method} ${path}`);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.match(response.headers.get('content-security-policy') || '', /frame-ancestors 'self'/);
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
  }
});

test('pages carry a strict content security policy and a referrer policy', async () => {
  const response = await get('/index.html');
  assert.equal(response.status, 200);
  const csp = response.headers.get('content-security-policy');
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/, 'no inline or eval scripts');
  assert.match(csp, /style-src 'self'(;|$)/, 'no inline styles');
  assert.match(csp, /frame-ancestors 'self'(;|$)/, 'no other site may frame the lessons unless allowed');
  assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
});

test('validators: the same file again costs a 304, a changed file a new ETag', async () => {
  const first = await get('/app.js', { 'accept-encoding': 'gzip' });
  assert.equal(first.status, 200);
  const etag = first.headers.get('etag');
  const modified = first.headers.get('last-modified');
  assert.match(etag, /^"[\w-]+"$/);
  assert.ok(Date.parse(modified) > 0, modified);
  assert.equal(first.headers.get('cache-control'), 'no-cache');
  await first.arrayBuffer();

  const again = await get('/app.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal((await again.arrayBuffer()).byteLength, 0);
  assert.equal(again.headers.get('etag'), etag);
  const since = await get('/app.js', { 'accept-encoding': 'gzip', 'if-modified-since': modified });
  assert.equal(since.status, 304);
  // Another encoding is another representation: its own tag, so no 304 for the gzip one.
  const brotli = await get('/app.js', { 'accept-encoding': 'br', 'if-none-match': etag });
  assert.equal(brotli.status, 200);
  assert.notEqual(brotli.headers.get('etag'), etag);
  await brotli.arrayBuffer();

  writeFileSync(join(root, 'app.js'), `console.log(${JSON.stringify('y'.repeat(4000))});`);
  const later = new Date(Date.now() + 5000);
  utimesSync(join(root, 'app.js'), later, later);
  const changed = await get('/app.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
  assert.equal(changed.status, 200);
  assert.notEqual(changed.headers.get('etag'), etag);
  await changed.arrayBuffer();
});

test('content-hashed assets are cached for a year; the rest is revalidated', async () => {
  const hashed = await get('/lesson.0123456789abcdef.wasm');
  assert.equal(hashed.status, 200);
  assert.equal(hashed.headers.get('content-type'), 'application/wasm');
  assert.match(hashed.headers.get('cache-control'), /max-age=31536000.*immutable/);
  await hashed.arrayBuffer();
  for (const path of ['/index.html', '/lessons/a.md', '/site-config.json']) {
    const response = await get(path);
    assert.equal(response.headers.get('cache-control'), 'no-cache', path);
    await response.arrayBuffer();
  }
});

test('--allow-origin reaches the page configuration and the frame-ancestors policy', async () => {
  const config = await (await get('/site-config.json', {}, allowingOrigin)).json();
  assert.deepEqual(config, { allowOrigins: [COURSE] });
  const page = await get('/index.html', {}, allowingOrigin);
  assert.match(page.headers.get('content-security-policy'), new RegExp(`frame-ancestors 'self' ${COURSE}(;|$)`));
  await page.arrayBuffer();
  // Without the flag, the site's own file decides (here: nobody).
  assert.deepEqual(await (await get('/site-config.json')).json(), { allowOrigins: [] });
});

test('serve and site-config refuse --allow-origin values that are not origins, with a clear message', () => {
  for (const bad of ['lms.example.org', 'javascript:alert(1)', 'https://lms.example.org/course/1', 'https://a.org?x=1']) {
    const run = spawnSync(process.execPath, [join(repo, 'web/site-config.mjs'), '--write', root, '--allow-origin', bad],
      { encoding: 'utf8' });
    assert.equal(run.status, 2, bad);
    assert.match(run.stderr, /--allow-origin: .*(not a URL|not an http|more than an origin)/, run.stderr);
  }
  const serve = spawnSync(process.execPath, [join(repo, 'web/serve.mjs'), '--root', root, '--port', '0',
    '--allow-origin', 'ftp://x.org'], { encoding: 'utf8', timeout: 10_000 });
  assert.equal(serve.status, 2);
  assert.match(serve.stderr, /not an http\(s\) origin/);
  // A good list is written normalised, and the header to send is printed for static hosts.
  const dir = mkdtempSync(join(tmpdir(), 'np-dist-'));
  const ok = spawnSync(process.execPath, [join(repo, 'web/site-config.mjs'), '--write', dir,
    '--allow-origin', 'https://LMS.example.org/', 'http://localhost:3000'], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /frame-ancestors 'self' https:\/\/lms\.example\.org http:\/\/localhost:3000/);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'site-config.json'), 'utf8')),
    { allowOrigins: ['https://lms.example.org', 'http://localhost:3000'] });
});
