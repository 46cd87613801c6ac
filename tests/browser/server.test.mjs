// The static server (web/serve.mjs): nothing outside the site root is served, not even through
// a symlink; unchanged files cost a 304; content-hashed assets are cached for good; every
// answer, errors included, says what it is and carries the site's security policy; the course
// sites allowed with --allow-origin reach the page's configuration and the frame-ancestors policy.
// The build's precompressed .br files are sent while they are fresh (web/precompress.mjs).
// Plain HTTP against a small site in a temporary folder: no browser, so it is quick.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from '../../web/precompress.mjs';
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

test("the build's precompressed FILE.br goes to brotli clients while it is fresh, and gzip clients still get gzip", async () => {
  // The .br holds other words than the file, so the answer shows which bytes were sent.
  const file = join(root, 'big.js');
  writeFileSync(file, `// plain ${'p'.repeat(3000)}\n`);
  const built = `// built at quality 11 ${'b'.repeat(3000)}\n`;
  writeFileSync(`${file}.br`, brotliCompressSync(built));
  const past = new Date(Date.now() - 60_000);
  utimesSync(file, past, past);                       // the .br is newer: fresh
  const brotli = await get('/big.js', { 'accept-encoding': 'br' });
  assert.equal(brotli.headers.get('content-encoding'), 'br');
  assert.equal(await brotli.text(), built);
  const gzip = await get('/big.js', { 'accept-encoding': 'gzip' });
  assert.equal(gzip.headers.get('content-encoding'), 'gzip');
  assert.match(await gzip.text(), /^\/\/ plain p/);

  const older = new Date(Date.now() - 120_000);
  utimesSync(`${file}.br`, older, older);             // the file changed after the build: stale
  const stale = await get('/big.js', { 'accept-encoding': 'br' });
  assert.equal(stale.headers.get('content-encoding'), 'br');
  assert.match(await stale.text(), /^\/\/ plain p/);
});

test('precompress.mjs writes FILE.br at quality 11 once, for compressible files over 1 KiB, and drops orphans', () => {
  const site = mkdtempSync(join(tmpdir(), 'np-precompress-'));
  const text = `body { color: red; }\n${'/* padding */\n'.repeat(200)}`;
  writeFileSync(join(site, 'a.css'), text);
  writeFileSync(join(site, 'tiny.css'), 'p{}');
  writeFileSync(join(site, 'photo.png'), Buffer.alloc(4096, 1));
  writeFileSync(join(site, 'gone.js.br'), 'left from an old build');
  assert.deepEqual(precompress(site), { written: 1, kept: 0, removed: 1 });
  assert.equal(brotliDecompressSync(readFileSync(join(site, 'a.css.br'))).toString(), text);
  assert.ok(!existsSync(join(site, 'tiny.css.br')) && !existsSync(join(site, 'photo.png.br')) &&
    !existsSync(join(site, 'gone.js.br')));
  assert.deepEqual(precompress(site), { written: 0, kept: 1, removed: 0 });  // up to date: nothing redone
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

// A shared link longer than the page reads still reaches the page, which says so (#35: a link over
// about 16 KB was answered with a bare 431 while the decoder accepted 16,384 characters).
test('a URL of 40 KB is served, not answered 431', async () => {
  const response = await fetch(`${origin}/index.html?s=z${'A'.repeat(40_000)}`);
  assert.equal(response.status, 200);
  assert.match(await response.text(), /home/);
});
