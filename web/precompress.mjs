// Precompression of the built site: FILE.br (brotli at quality 11) next to every file a server
// would compress, written at build time because quality 11 is too slow to run per request
// (web/serve.mjs compresses on the fly at quality 5 only what has no fresh .br). Static hosts
// that serve precompressed files (nginx brotli_static, Caddy's precompressed, ...) pick the
// same .br files up; hosts that do not simply never send them.
//
//   node web/precompress.mjs SITE_DIR
//
// Incremental: a .br at least as new as its file is kept. Files with the same content (the
// content-hashed copies lesson.<hash>.wasm of lesson.wasm) are compressed once. A .br whose
// file is gone is removed, so a stale hashed copy's never lingers.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';

// What serve.mjs compresses; below MIN_BYTES compression saves less than its headers cost.
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.md', '.strings', '.wasm', '.data',
  '.svg', '.ttf', '.nptok']);
export const MIN_BYTES = 1024;

// True when `path` has a .br next to it written after the file's last change.
export function freshBrotli(path, fileInfo = statSync(path)) {
  try {
    const br = statSync(`${path}.br`);
    return br.isFile() && br.mtimeMs >= fileInfo.mtimeMs;
  } catch { return false; }
}

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

export function precompress(site) {
  const done = new Map();  // sha256 of the content -> its brotli bytes (this run)
  let written = 0, kept = 0, removed = 0;
  for (const path of filesUnder(site)) {
    if (path.endsWith('.br')) {
      const source = path.slice(0, -3);
      if (!existsSync(source)) { rmSync(path); removed++; }
      continue;
    }
    const info = statSync(path);
    if (!COMPRESSIBLE.has(extname(path)) || info.size <= MIN_BYTES) continue;
    if (freshBrotli(path, info)) { kept++; continue; }
    const raw = readFileSync(path);
    const hash = createHash('sha256').update(raw).digest('hex');
    if (!done.has(hash))
      done.set(hash, brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11,
        [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
    writeFileSync(`${path}.br`, done.get(hash));
    written++;
  }
  return { written, kept, removed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = process.argv[2];
  if (!site || !existsSync(site)) {
    console.error('precompress: usage: node web/precompress.mjs SITE_DIR');
    process.exit(2);
  }
  const { written, kept, removed } = precompress(site);
  console.log(`precompress: ${written} .br written, ${kept} up to date, ${removed} stale removed`);
}
