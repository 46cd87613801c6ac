// The serving site's own settings, decided by whoever hosts the lessons and never by a page
// that frames them:
//
//   site-config.json   {"allowOrigins": ["https://lms.example.org", ...]}
//
// allowOrigins are the course sites that may frame the lessons and receive learner data
// (answers, progress, completion) and send commands. The lesson page reads the file
// (np-host.js); `serve.mjs` turns the same list into the `frame-ancestors` policy. A framer's
// own `allow=` parameter can only narrow this list.
//
// Node built-ins only. As a program it writes the file into a built site (`./neuralpath dist`):
//   node web/site-config.mjs --write DIR [--allow-origin URL...]
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CONFIG_FILE = 'site-config.json';
export const MAX_ORIGINS = 20;

// Each entry must be an http(s) origin: scheme, host and optional port, nothing after (a
// trailing "/" is tolerated). Returns {origins} normalised and deduplicated, or {error}.
export function parseOrigins(entries) {
  const origins = [];
  for (const raw of entries.flatMap(e => String(e).split(',')).map(s => s.trim()).filter(Boolean)) {
    const shown = JSON.stringify(raw.slice(0, 100));
    let url;
    try { url = new URL(raw); } catch { return { error: `${shown} is not a URL (expected an origin such as https://lms.example.org)` }; }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return { error: `${shown} is not an http(s) origin` };
    if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
      return { error: `${shown} is more than an origin: give only scheme, host and port (${url.origin})` };
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  if (origins.length > MAX_ORIGINS) return { error: `at most ${MAX_ORIGINS} origins may be allowed (${origins.length} given)` };
  return { origins };
}

// The site's configuration file as text.
export function configText(origins) {
  return `${JSON.stringify({ allowOrigins: origins }, null, 2)}\n`;
}

// Headers every response of the site carries. The lesson page runs only its own scripts and
// styles (WebAssembly needs 'wasm-unsafe-eval'), may be framed only by itself and the allowed
// origins, and sends no Referer (lesson URLs and their s= state stay on this site).
// A Web Worker's script (WORKER_SCRIPTS) runs under the policy its own response carries, not the
// page's: the trainers' workers (the language model's, the train widget's) fetch their WebAssembly
// (and training text) from this site and compile it, so they get script and connect rights on
// 'self' (with default-src 'none' they could fetch nothing: "Failed to fetch" on Train).
export const WORKER_SCRIPTS = ['np-lm-worker.js', 'np-train-worker.js'];
export function securityHeaders(origins, { html = false, worker = false } = {}) {
  const ancestors = ["'self'", ...origins].join(' ');
  const headers = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
  headers['Content-Security-Policy'] = html
    ? ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'",
      "img-src 'self' data: blob:", "connect-src 'self'", "object-src 'none'", "base-uri 'none'",
      "form-action 'none'", `frame-ancestors ${ancestors}`].join('; ')
    : worker ? ["default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'"].join('; ')
    : `default-src 'none'; frame-ancestors ${ancestors}`;
  return headers;
}

// Run as a program: check the origins, or write DIR/site-config.json.
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--write');
  const dir = at >= 0 ? args[at + 1] : undefined;
  if (!dir && !args.includes('--check')) {
    console.error('site-config: usage: node web/site-config.mjs --check|--write DIR [--allow-origin URL...]');
    process.exit(2);
  }
  const entries = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--allow-origin') continue;
    for (i++; i < args.length && !args[i].startsWith('--'); i++) entries.push(args[i]);
    i--;
  }
  const { origins, error } = parseOrigins(entries);
  if (error) {
    console.error(`--allow-origin: ${error}`);
    process.exit(2);
  }
  if (dir) {
    writeFileSync(join(dir, CONFIG_FILE), configText(origins));
    rmSync(join(dir, `${CONFIG_FILE}.br`), { force: true });  // a precompressed copy would be the old list
    console.log(origins.length
      ? `learner data may go to: ${origins.join(', ')} (they may also frame the lessons)`
      : 'no other site may frame the lessons or receive learner data (add --allow-origin URL to allow one)');
    console.log(`for static hosting, send this header with every page: Content-Security-Policy: ` +
      `frame-ancestors ${["'self'", ...origins].join(' ')}`);
  }
}
