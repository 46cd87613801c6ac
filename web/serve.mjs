// Static file server for the built site: correct types (application/wasm, so browsers can
// compile while downloading), brotli/gzip compression, no directory escapes. Node built-ins
// only, so `./neuralpath serve` needs nothing from npm.
//
//   node web/serve.mjs --root build/web/site [--port 8080] [--host 127.0.0.1]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.strings': 'text/plain; charset=utf-8',  // lessons/strings/<lang>.strings, the word catalogues
  '.wasm': 'application/wasm', '.data': 'application/octet-stream',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.ttf': 'font/ttf',
};
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.json', '.md', '.strings', '.wasm', '.data', '.svg']);

export function startServer({ root, port = 8080, host = '127.0.0.1' }) {
  const base = resolve(root);
  const cache = new Map();  // path -> { mtimeMs, raw, br, gzip }: compress each file once

  async function load(path) {
    const info = await stat(path);
    if (!info.isFile()) return null;
    const hit = cache.get(path);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit;
    const raw = await readFile(path);
    const entry = { mtimeMs: info.mtimeMs, raw, br: null, gzip: null };
    if (compressible.has(extname(path)) && raw.length > 1024) {
      entry.br = brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
      entry.gzip = gzipSync(raw, { level: 6 });
    }
    cache.set(path, entry);
    return entry;
  }

  const server = createServer(async (request, response) => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { Allow: 'GET, HEAD' }).end();
        return;
      }
      let pathname = decodeURIComponent(new URL(request.url, 'http://x').pathname);
      if (pathname.endsWith('/')) pathname += 'index.html';
      const path = normalize(join(base, pathname));
      if (path !== base && !path.startsWith(base + sep)) {
        response.writeHead(403).end('forbidden');
        return;
      }
      const entry = await load(path).catch(() => null);
      if (!entry) {
        response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      const accepts = String(request.headers['accept-encoding'] || '');
      const headers = {
        'Content-Type': types[extname(path)] || 'application/octet-stream',
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        Vary: 'Accept-Encoding',
      };
      let body = entry.raw;
      if (entry.br && /\bbr\b/.test(accepts)) { body = entry.br; headers['Content-Encoding'] = 'br'; }
      else if (entry.gzip && /\bgzip\b/.test(accepts)) { body = entry.gzip; headers['Content-Encoding'] = 'gzip'; }
      headers['Content-Length'] = body.length;
      response.writeHead(200, headers);
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('bad request');
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
  startServer({ root, port, host }).then(server => {
    const { port: bound } = server.address();
    console.log(`NeuralPath is being served at http://${host}:${bound}/  (Ctrl+C stops it)`);
  }).catch(error => {
    console.error(error.code === 'EADDRINUSE'
      ? `serve: port ${port} is already in use; try ./neuralpath serve --port ${port + 1}`
      : `serve: ${error.message}`);
    process.exit(1);
  });
}
