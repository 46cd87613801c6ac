// node web/lms/package.mjs --site DIR [--scorm DIR] [--cmi5 DIR]
// Writes the packages a learning platform imports, from the built static site: one zip per
// lesson and one with every lesson.
//
//   SCORM 1.2  neuralpath-<id>-scorm12.zip, neuralpath-all-scorm12.zip
//              imsmanifest.xml (one SCO per lesson, the site as a shared asset resource),
//              scorm-<id>.html per lesson (lms/np-scorm.js), the static site
//   cmi5       neuralpath-<id>-cmi5.zip, neuralpath-all-cmi5.zip
//              cmi5.xml (a course with one AU per lesson), cmi5-<id>.html per lesson
//              (lms/np-cmi5.js + @xapi/cmi5's browser build), the static site
// A per-lesson package holds only that lesson's text (and a lesson list naming only it).
// The zips are written with `cmake -E tar --format=zip` (CMake builds the project anyway).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cmi5Xml, scormManifest } from './manifests.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

function options(argv) {
  const o = { site: '', scorm: '', cmi5: '' };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (!['--site', '--scorm', '--cmi5'].includes(key) || !value) fail(`unknown or incomplete option '${key}'`);
    o[key.slice(2)] = value;
  }
  if (!o.site || (!o.scorm && !o.cmi5)) fail('usage: package.mjs --site DIR [--scorm DIR] [--cmi5 DIR]');
  return o;
}

function filesUnder(dir) {
  const out = [];
  const walk = sub => {
    for (const name of readdirSync(join(dir, sub)).sort()) {
      const path = join(sub, name);
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else out.push(path.split('\\').join('/'));
    }
  };
  walk('');
  return out;
}

// The site with only `lessons` in it, the launch pages and the runtime, in a fresh folder.
function stage(site, lessons, format) {
  const dir = mkdtempSync(join(tmpdir(), 'neuralpath-package-'));
  const ids = new Set(lessons.map(l => l.id));
  cpSync(site, dir, { recursive: true, filter: source => {
    const path = relative(site, source).split('\\').join('/');
    if (path.endsWith('.br')) return false;  // precompressed copies (web/precompress.mjs): platforms serve plain files
    // lessons/ID.md and its translations lessons/LANG/ID.md: a package speaks every language the
    // site ships (before #32 the translations were left out, and a Spanish launch found no lesson).
    const lesson = /^lessons\/(?:[a-z]{2,3}(?:-[a-z0-9]+)*\/)?([^/]+)\.md$/.exec(path);
    return !lesson || ids.has(lesson[1]);
  } });
  writeFileSync(join(dir, 'lessons/index.json'), `${JSON.stringify(lessons, null, 2)}\n`);
  // Each language's list names only the lessons this package holds.
  for (const entry of readdirSync(join(dir, 'lessons'), { withFileTypes: true })) {
    const list = join(dir, 'lessons', entry.name, 'index.json');
    if (!entry.isDirectory() || !existsSync(list)) continue;
    let translated;
    try { translated = JSON.parse(readFileSync(list, 'utf8')); } catch { continue; }
    if (Array.isArray(translated)) writeFileSync(list, `${JSON.stringify(translated.filter(l => ids.has(l?.id)), null, 2)}\n`);
  }
  dropPlainEngineCopies(dir);

  mkdirSync(join(dir, 'lms'), { recursive: true });
  const runtime = ['np-lms-frame.js', 'np-lms-record.js', 'np-lms-words.js', 'np-lms.css',
    ...(format === 'scorm' ? ['np-scorm.js'] : ['np-cmi5.js', 'np-lms-inputs.js'])];
  for (const name of runtime) cpSync(join(here, name), join(dir, 'lms', name));
  // The statements' shapes are the site's too (np-host.js sends them to an embedding page): the
  // launch pages import them from beside themselves.
  cpSync(join(dir, 'np-interactions.js'), join(dir, 'lms', 'np-interactions.js'));
  const scripts = [];
  if (format === 'cmi5') {
    // @xapi/cmi5's UMD build already bundles its dependencies (axios, @xapi/xapi) for browsers.
    const cmi5 = join(repo, 'node_modules/@xapi/cmi5');
    if (!existsSync(join(cmi5, 'dist/Cmi5.umd.js'))) fail('npm package @xapi/cmi5 is missing (run npm ci)');
    mkdirSync(join(dir, 'lms/vendor'), { recursive: true });
    cpSync(join(cmi5, 'dist/Cmi5.umd.js'), join(dir, 'lms/vendor/cmi5.umd.js'));
    cpSync(join(cmi5, 'LICENSE.md'), join(dir, 'lms/vendor/cmi5.LICENSE.md'));
    scripts.push('<script src="lms/vendor/cmi5.umd.js"></script>');
  }
  scripts.push(`<script type="module" src="lms/${format === 'scorm' ? 'np-scorm.js' : 'np-cmi5.js'}"></script>`);
  const template = readFileSync(join(here, 'launch.html'), 'utf8');
  for (const lesson of lessons) {
    const page = template.replace('{{LESSON}}', lesson.id).replace('{{TITLE}}', escapeHtml(lesson.title || lesson.id))
      .replace('{{SCRIPTS}}', scripts.map(s => `  ${s}`).join('\n'));
    writeFileSync(join(dir, launchPage(format, lesson.id)), page);
  }
  return dir;
}

// A site may hold each engine twice: content-hashed names the page loads (asset-names.json) and
// the plain names kept for tools. A package needs only what the page loads: half the bytes.
function dropPlainEngineCopies(dir) {
  let names;
  try { names = JSON.parse(readFileSync(join(dir, 'asset-names.json'), 'utf8')); } catch { return; }
  for (const [plain, hashed] of Object.entries(names || {})) {
    if (/^lesson(-[a-z]+)?\.(js|wasm|data)$/.test(plain) && typeof hashed === 'string' && hashed !== plain &&
        /^lesson(-[a-z]+)?\.[0-9a-f]+\.(js|wasm|data)$/.test(hashed) && existsSync(join(dir, hashed))) rmSync(join(dir, plain));
  }
}

export const launchPage = (format, id) => `${format === 'scorm' ? 'scorm' : 'cmi5'}-${id}.html`;

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function zip(dir, file) {
  const files = filesUnder(dir);
  rmSync(file, { force: true });
  execFileSync('cmake', ['-E', 'tar', 'cf', file, '--format=zip', ...files], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}

function build({ site, out, format }) {
  site = resolve(site); out = resolve(out);
  const indexFile = join(site, 'lessons/index.json');
  if (!existsSync(indexFile)) fail(`${site} is not a built site (no lessons/index.json)`);
  const lessons = JSON.parse(readFileSync(indexFile, 'utf8'));
  if (!Array.isArray(lessons) || !lessons.length) fail('the site lists no lessons');
  if (lessons.some(l => l.id === 'all')) fail('a lesson called "all" would overwrite the package of every lesson; rename it');
  mkdirSync(out, { recursive: true });
  const suffix = format === 'scorm' ? 'scorm12' : 'cmi5';
  const sets = [...lessons.map(l => [l.id, [l]]), ['all', lessons]];
  const written = [];
  for (const [name, set] of sets) {
    const dir = stage(site, set, format);
    try {
      const page = id => launchPage(format, id);
      if (format === 'scorm') writeFileSync(join(dir, 'imsmanifest.xml'), scormManifest({ name, lessons: set, files: filesUnder(dir), launchPage: page }));
      else writeFileSync(join(dir, 'cmi5.xml'), cmi5Xml({ name, lessons: set, launchPage: page }));
      const file = join(out, `neuralpath-${name}-${suffix}.zip`);
      zip(dir, file);
      written.push(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  for (const file of written) {
    const shown = relative(process.cwd(), file);
    console.log(`${shown.startsWith('..') ? file : shown}  ${Math.round(statSync(file).size / 1024)} KB`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const o = options(process.argv.slice(2));
  if (o.scorm) build({ site: o.site, out: o.scorm, format: 'scorm' });
  if (o.cmi5) build({ site: o.site, out: o.cmi5, format: 'cmi5' });
}
