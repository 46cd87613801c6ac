// Static file server for the built site: correct types (application/wasm, so browsers can
// compile while downloading), brotli/gzip compression (the build's precompressed FILE.br when
// fresh, see precompress.mjs), validators (ETag, Last-Modified, 304),
// long caching for content-hashed assets, security headers, no escapes from the root (neither
// by path nor by symlink). Node built-ins only, so `./neuralpath serve` needs nothing from npm.
//
//   node web/serve.mjs --root build/web/site [--port 8080] [--host 127.0.0.1] [--allow-origin URL...]
//
// --allow-origin names the course sites that may frame the lessons and receive learner data:
// this server answers /site-config.json with that list (instead of the site's own file) and
// sends the matching frame-ancestors policy (see site-config.mjs).
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { COMPRESSIBLE, MIN_BYTES } from './precompress.mjs';
import { CONFIG_FILE, WORKER_SCRIPTS, configText, parseOrigins, securityHeaders } from './site-config.mjs';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.strings': 'text/plain; charset=utf-8',  // lessons/strings/<lang>.strings, the word catalogues
  '.wasm': 'application/wasm', '.data': 'application/octet-stream',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.nplm': 'application/octet-stream',   // models/: language models (fp16 weights, sent as they are)
  '.nptok': 'application/octet-stream',  // models/: a page's training tokens (docs/lm-worker.md)
};

// Names that carry a hash of their content (lesson.3f2a…9c.wasm, written at site assembly)
// never change, so browsers may keep them for a year without asking again.
const HASHED_NAME = /\.[0-9a-f]{16}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

// The origins from the site's own site-config.json (what `./neuralpath dist` wrote), if any.
function originsFromSite(base) {
  try {
    const { allowOrigins } = JSON.parse(readFileSync(join(base, CONFIG_FILE), 'utf8'));
    const { origins, error } = parseOrigins(Array.isArray(allowOrigins) ? allowOrigins : []);
    if (error) console.warn(`serve: ${CONFIG_FILE}: ${error}; no origin is allowed`);
    return origins || [];
  } catch { return []; }
}

// A 4xx/5xx answer: a short text with its type and the same security headers as a page.
function fail(response, status, text, security) {
  response.writeHead(status, { ...security, 'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

// True when the request's validators match, so a 304 with no body answers it. If-None-Match
// wins over If-Modified-Since (RFC 9110 13.2.2).
function notModified(request, etag, mtime) {
  const match = request.headers['if-none-match'];
  if (match !== undefined) {
    return match.split(',').map(s => s.trim().replace(/^W\//, '')).some(t => t === '*' || t === etag);
  }
  const since = Date.parse(request.headers['if-modified-since'] || '');
  return Number.isFinite(since) && Math.floor(mtime / 1000) * 1000 <= since;
}

// `policy: false` serves files without the lesson site's headers and configuration (the tests'
// stand-in for a course site, whose pages carry inline scripts).
// `intercept(request, response, pathname, headers)`: answers some paths itself before the files
// (web/author/author-server.mjs: the lesson being written, its live updates); it returns true
// when it answered. `headers(kind)` gives the security headers for 'page', 'other' or 'worker'.
export async function startServer({ root, port = 8080, host = '127.0.0.1', allowOrigins, policy = true, intercept } = {}) {
  const base = resolve(root);
  const realBase = await realpath(base);
  const origins = allowOrigins ?? originsFromSite(base);
  const configBody = policy && allowOrigins ? Buffer.from(configText(origins)) : null;
  const pageSecurity = policy ? securityHeaders(origins, { html: true }) : { 'X-Content-Type-Options': 'nosniff' };
  const otherSecurity = policy ? securityHeaders(origins) : pageSecurity;
  const workerSecurity = policy ? securityHeaders(origins, { worker: true }) : pageSecurity;
  const cache = new Map();  // real path -> { mtimeMs, size, raw, tag, br, gzip, compress }: read and compress once

  const inside = real => real === realBase || real.startsWith(realBase + sep);

  // The build's FILE.br (quality 11, web/precompress.mjs) if there is one inside the root that
  // was written after the file's last change: {mtimeMs, path}; else null.
  async function precompressed(real, info) {
    try {
      const br = await realpath(`${real}.br`);
      const brInfo = await stat(br);
      return inside(br) && brInfo.isFile() && brInfo.mtimeMs >= info.mtimeMs ? { mtimeMs: brInfo.mtimeMs, path: br } : null;
    } catch { return null; }
  }

  // The file at `path`, or null when there is none; {outside: true} when it resolves (through
  // a symlink) to somewhere outside the root.
  async function load(path) {
    const real = await realpath(path);
    if (!inside(real)) return { outside: true };
    const info = await stat(real);
    if (!info.isFile()) return null;
    const compress = COMPRESSIBLE.has(extname(real)) && info.size > MIN_BYTES;
    const ready = compress ? await precompressed(real, info) : null;
    const hit = cache.get(real);
    if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size && hit.brMtimeMs === ready?.mtimeMs) return hit;
    const raw = await readFile(real);
    const tag = createHash('sha256').update(raw).digest('base64url').slice(0, 22);
    const entry = { mtimeMs: info.mtimeMs, size: info.size, raw, tag, br: null, gzip: null, compress, brMtimeMs: ready?.mtimeMs };
    // quality 5 when the build left no fresh .br: fast enough to do on a first request. The gzip
    // copy waits for a client that cannot read brotli: made with every file, it held the server
    // 110-160 ms on the engine's 2.3 MB wasm while the page's other files queued behind it.
    if (compress) entry.br = ready ? await readFile(ready.path) : brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
    cache.set(real, entry);
    return entry;
  }

  function gzipOf(entry) {
    if (entry.compress && !entry.gzip) entry.gzip = gzipSync(entry.raw, { level: 6 });
    return entry.gzip;
  }

  // Links as long as the page reads and longer (a shared view's ?s=, engine/ui/page_limits.h)
  // reach the page, which says what is wrong with them; Node's default 16 KB of request head
  // answered a longer link with a bare 431 instead.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, async (request, response) => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.setHeader('Allow', 'GET, HEAD');
        fail(response, 405, 'method not allowed', otherSecurity);
        return;
      }
      let pathname = decodeURIComponent(new URL(request.url, 'http://x').pathname);
      if (pathname.includes('\0')) throw new Error('NUL in path');
      if (intercept && await intercept(request, response, pathname,
        kind => (kind === 'page' ? pageSecurity : kind === 'worker' ? workerSecurity : otherSecurity))) return;
      if (pathname.endsWith('/')) pathname += 'index.html';
      const path = normalize(join(base, pathname));
      if (path !== base && !path.startsWith(base + sep)) {
        fail(response, 403, 'forbidden', otherSecurity);
        return;
      }
      let entry = null;
      if (configBody && path === join(base, CONFIG_FILE)) {
        entry = { raw: configBody, mtimeMs: Date.now(), tag: createHash('sha256').update(configBody).digest('base64url').slice(0, 22) };
      } else {
        entry = await load(path).catch(() => null);
      }
      if (entry?.outside) {
        fail(response, 403, 'forbidden: the link leads outside the site', otherSecurity);
        return;
      }
      if (!entry) {
        fail(response, 404, 'not found', otherSecurity);
        return;
      }
      const ext = extname(path);
      const accepts = String(request.headers['accept-encoding'] || '');
      let body = entry.raw, encoding = null;
      let tagged = null;  // what the ETag adds for this representation
      if (entry.br && /\bbr\b/.test(accepts)) { body = entry.br; encoding = 'br'; tagged = entry.brMtimeMs ? 'br11' : 'br'; }
      else if (entry.compress && /\bgzip\b/.test(accepts)) { body = gzipOf(entry); encoding = tagged = 'gzip'; }
      // One tag per representation: a cache must not answer a gzip request with brotli bytes (nor
      // mix the build's brotli bytes with this server's).
      const etag = `"${entry.tag}${tagged ? `-${tagged}` : ''}"`;
      const headers = {
        ...(ext === '.html' ? pageSecurity : WORKER_SCRIPTS.includes(pathname.replace(/^\//, '')) ? workerSecurity : otherSecurity),
        'Content-Type': types[ext] || 'application/octet-stream',
        // Everything else is revalidated on each visit (a cheap 304 when unchanged).
        'Cache-Control': HASHED_NAME.test(path) ? IMMUTABLE : 'no-cache',
        ETag: etag,
        'Last-Modified': new Date(entry.mtimeMs).toUTCString(),
        Vary: 'Accept-Encoding',
      };
      if (notModified(request, etag, entry.mtimeMs)) {
        delete headers['Content-Type'];
        response.writeHead(304, headers).end();
        return;
      }
      if (encoding) headers['Content-Encoding'] = encoding;
      headers['Content-Length'] = body.length;
      response.writeHead(200, headers);
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      if (!response.headersSent) fail(response, 400, 'bad request', otherSecurity);
      else response.destroy();
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolvePromise(server));
  });
}

// Run as a program: parse flags, serve, print the URL.
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
  };
  const root = option('root', 'build/web/site');
  const port = Number(option('port', '8080'));
  const host = option('host', '127.0.0.1');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port must be a number from 0 to 65535, not "${option('port')}"`);
    process.exit(2);
  }
  // --allow-origin takes one or more URLs (until the next --option), and may be repeated.
  let allowOrigins;
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--allow-origin') continue;
    const given = [];
    for (i++; i < args.length && !args[i].startsWith('--'); i++) given.push(args[i]);
    i--;
    const { origins, error } = parseOrigins(given);
    if (error || !origins.length) {
      console.error(`serve: --allow-origin: ${error || 'give one or more origins, e.g. https://lms.example.org'}`);
      process.exit(2);
    }
    allowOrigins = [...new Set([...(allowOrigins || []), ...origins])];
  }
  startServer({ root, port, host, allowOrigins }).then(server => {
    const { port: bound } = server.address();
    console.log(`NeuralPath is being served at http://${host}:${bound}/  (Ctrl+C stops it)`);
    const allowed = allowOrigins ?? originsFromSite(resolve(root));
    console.log(allowed.length ? `Course sites that may embed the lessons and receive learner data: ${allowed.join(', ')}`
      : 'No other site may embed the lessons (--allow-origin URL allows one).');
  }).catch(error => {
    console.error(error.code === 'EADDRINUSE'
      ? `serve: port ${port} is already in use; try ./neuralpath serve --port ${port + 1}`
      : `serve: ${error.message}`);
    process.exit(1);
  });
}
