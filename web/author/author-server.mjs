// The author's live view (`./neuralpath author FILE.md`): the built site, served as
// web/serve.mjs serves it, with the lesson being written in place of a shipped one. It watches
// the file, its translations (DIR/<lang>/NAME.md, docs/translating.md) and the word catalogues
// (lessons/strings/*.strings), runs the real checker (`neuralpath-cli check`) on every save, and
// tells the open page over server-sent events; web/author/np-author.js swaps the lesson in the
// engine, keeping the reader's place and every widget's state, or shows the checker's problems.
//
//   node web/author/author-server.mjs --lesson FILE.md --cli PATH/neuralpath-cli
//        [--root build/web/site] [--port 8080] [--host 127.0.0.1]
//
// [SECTION] The files watched and what the checker says of them
// [SECTION] Routes: the lesson, its live updates, the author script
// [SECTION] Run as a program
import { execFile } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { mkdtempSync, readFileSync, rmSync, unwatchFile, watchFile } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const LESSON_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;   // as the page accepts one (np-app.js)
const POLL_MS = 50;       // how often the files' stat is read (fs.watchFile: survives delete + recreate)
const SETTLE_MS = 50;     // a save is read once the file has been still this long
const MAX_BYTES = 4 << 20;

// The id the page opens the lesson under: its front matter's, else the file's name, else 'draft'.
export function lessonIdFor(path, text) {
  const declared = /^---\r?\n(?:.*\r?\n)*?id:\s*([^\s#]+)\s*\r?\n/m.exec(text || '');
  if (declared && LESSON_ID.test(declared[1])) return declared[1];
  const name = basename(path).replace(/\.md$/, '');
  return LESSON_ID.test(name) ? name : 'draft';
}

// The section a problem at `line` belongs to: the last `## ` heading at or before it, as its
// anchor ({#anchor}) or its title without the level ('Beginner: '). null: before any section.
export function sectionAt(text, line) {
  const lines = String(text).split('\n');
  let fence = null, found = null;
  for (let i = 0; i < Math.min(line, lines.length); i++) {
    const l = lines[i];
    const opens = /^(`{3,}|~{3,})/.exec(l);
    if (opens) { if (!fence) fence = opens[1]; else if (l.startsWith(fence) && !l.slice(fence.length).trim()) fence = null; continue; }
    if (fence) continue;
    const heading = /^##\s+(.*?)\s*$/.exec(l);
    if (!heading) continue;
    const anchor = /\{#([^}]+)\}\s*$/.exec(heading[1]);
    const title = heading[1].replace(/\s*\{#[^}]+\}\s*$/, '').replace(/^(Beginner|Medium|Advanced):\s*/, '');
    found = { line: i + 1, anchor: anchor ? anchor[1] : null, title };
  }
  return found;
}

// The fenced blocks that start at or before `line`, last first, as the page names them: the
// block's `id:`, else its kind and its place among that kind's blocks without one ("heatmap-2",
// as engine/ui/app.cpp numbers widgets). The page puts a problem's banner at the first it shows.
export function blocksBefore(text, line) {
  const lines = String(text).split('\n');
  const found = [], unnamed = {};
  let open = null;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,}|~{3,})\s*([a-z][a-z0-9-]*)?\s*$/.exec(lines[i]);
    if (open) {
      if (fence && fence[1].startsWith(open.fence) && !fence[2]) {
        if (!open.id) open.id = `${open.kind}-${(unnamed[open.kind] = (unnamed[open.kind] || 0) + 1)}`;
        if (open.line <= line) found.push({ id: open.id, line: open.line, inside: line <= i + 1 });
        open = null;
      } else if (!open.id && /^id:\s*(\S+)\s*$/.test(lines[i])) open.id = /^id:\s*(\S+)/.exec(lines[i])[1];
      continue;
    }
    if (fence && fence[2]) open = { fence: fence[1], kind: fence[2], line: i + 1, id: null };
  }
  if (open && open.line <= line) found.push({ id: open.id || `${open.kind}-?`, line: open.line, inside: true });
  return found.reverse();
}

// `file:line:col: error: message` lines, each as {text, file, line, col, message}.
export function parseProblems(output) {
  return String(output).split('\n').filter(Boolean).map(text => {
    const m = /^(.*?):(\d+):(\d+): (?:error|warning): (.*)$/.exec(text);
    return m ? { text, file: m[1], line: Number(m[2]), col: Number(m[3]), message: m[4] }
      : { text, file: null, line: 0, col: 0, message: text };
  });
}

// [SECTION] The files watched and what the checker says of them ---------------------------------

export async function startAuthor({ lesson, cli, root = join(repo, 'build/web/site'), port = 8080, host = '127.0.0.1',
  strings = join(repo, 'lessons/strings'), log = () => {} }) {
  const shown = lesson;                     // the path as the author gave it (the page prints it)
  const file = resolve(lesson);
  const languages = (await readdir(strings)).filter(n => /^[a-z]{2}(-[a-z]+)?\.strings$/.test(n))
    .map(n => n.replace(/\.strings$/, '')).filter(code => code !== 'en');
  const translations = Object.fromEntries(languages.map(code => [code, join(dirname(file), code, basename(file))]));
  const first = await readFile(file, 'utf8').catch(() => '');
  const id = lessonIdFor(file, first);

  // What the page may show: the last text of each language that passed the checker, and what
  // the checker says of the files as they are now.
  const state = { version: 0, good: { en: null }, problems: [], sections: [], catalogues: 0 };
  const clients = new Set();

  const read = path => readFile(path).then(bytes => (bytes.length > MAX_BYTES ? null : bytes.toString('utf8')), () => null);
  const check = paths => new Promise(done => {
    execFile(cli, ['check', ...paths], { timeout: 60_000, maxBuffer: 8 << 20 }, (error, stdout, stderr) =>
      done(error && error.code === undefined ? [{ text: `${cli}: ${error.message}`, file: null, line: 0, col: 0, message: error.message }]
        : parseProblems(stderr)));
  });

  // A lesson whose task trains its weights (`lesson-weights: trained`) gets them as the site's
  // build gives them (web/ship_trained_weights.cmake): `neuralpath-cli train --ship`, appended as
  // a trained-weights block; the page never trains while a lesson opens. One block per text.
  const trainedBlocks = new Map();
  const scratch = mkdtempSync(join(tmpdir(), 'np-author-'));
  let shipped = 0;
  async function withTrainedWeights(path, text) {
    if (!/^lesson-weights:[ \t]*trained[ \t]*$/m.test(text)) return { text };
    if (!trainedBlocks.has(text)) {
      const out = join(scratch, `${++shipped}.weights`);
      const why = await new Promise(done => execFile(cli, ['train', '--lesson', path, '--ship', out],
        { timeout: 300_000, maxBuffer: 8 << 20 }, (error, stdout, stderr) => done(error ? String(stderr || error.message).trim() : null)));
      if (why !== null) return { problem: why };
      if (trainedBlocks.size >= 8) trainedBlocks.clear();
      trainedBlocks.set(text, readFileSync(out, 'utf8'));
      rmSync(out, { force: true });
    }
    return { text: `${text}\n${trainedBlocks.get(text)}` };
  }

  // Reads every file, checks them, and reads them again: a file that changed meanwhile (a save
  // still being written) is read and checked once more, so what is shown is what was checked.
  async function refresh() {
    const byLanguage = { en: file, ...translations };
    for (let attempt = 0; attempt < 5; attempt++) {
      const texts = {};
      for (const [code, path] of Object.entries(byLanguage)) texts[code] = await read(path);
      let problems;
      if (texts.en === null) {
        const message = 'the file cannot be read (deleted, or being saved); the last good version stays';
        problems = [{ text: `${file}:1:1: error: ${message}`, file, line: 1, col: 1, message }];
      } else {
        problems = await check(Object.keys(byLanguage).filter(code => texts[code] !== null).map(code => byLanguage[code]));
      }
      // Each language's text as the page gets it, when it and its original passed the checker
      // (a translation is checked against its original): with the weights the build would add.
      const originalBad = problems.some(p => p.file === file || p.file === null);
      const served = {};
      for (const [code, path] of Object.entries(byLanguage)) {
        if (texts[code] === null || originalBad || problems.some(p => p.file === path)) continue;
        const ready = await withTrainedWeights(path, texts[code]);
        if (ready.problem) problems.push({ text: `${path}:1:1: error: ${ready.problem}`, file: path, line: 1, col: 1, message: ready.problem });
        else served[code] = ready.text;
      }
      // A file that changed meanwhile (a save still being written) is read and checked again.
      const again = {};
      for (const [code, path] of Object.entries(byLanguage)) again[code] = await read(path);
      if (Object.keys(texts).some(code => texts[code] !== again[code])) continue;
      for (const [code, text] of Object.entries(texts)) {
        if (text === null) { if (code !== 'en') delete state.good[code]; }
        else if (served[code] !== undefined) state.good[code] = served[code];
      }
      // The checker names the lesson by the path it was given; the page shows the author's own.
      // Where each problem is in its file's sections, for the page to put its banner there.
      for (const p of problems) {
        const code = Object.keys(byLanguage).find(c => byLanguage[c] === p.file);
        if (p.file === file) { p.text = shown + p.text.slice(file.length); p.file = shown; }
        p.lang = code || null;
        p.section = code && texts[code] !== null ? sectionAt(texts[code], p.line) : null;
        p.blocks = code && texts[code] !== null ? blocksBefore(texts[code], p.line).slice(0, 8) : [];
      }
      state.problems = problems;
      state.version++;
      log(problems.length ? problems.map(p => p.text).join('\n') : `${shown}: checked, shown (version ${state.version})`);
      broadcast();
      return;
    }
  }

  let timer = null, running = null, again = false;
  function changed() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (running) { again = true; return; }
      running = refresh().catch(error => log(`author: ${error.message}`));
      await running;
      running = null;
      if (again) { again = false; changed(); }
    }, SETTLE_MS);
  }
  function catalogueChanged() {
    state.catalogues++;
    changed();
  }

  // fs.watchFile polls stat, so a file deleted and written again (as many editors save) is still
  // followed; a poll that finds the same file unchanged (a missing file's first poll) is no save.
  const same = (a, b) => a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
  const watched = [file, ...Object.values(translations)];
  for (const path of watched) watchFile(path, { interval: POLL_MS }, (now, before) => { if (!same(now, before)) changed(); });
  const catalogues = (await readdir(strings)).filter(n => n.endsWith('.strings')).map(n => join(strings, n));
  for (const path of catalogues) watchFile(path, { interval: POLL_MS }, (now, before) => { if (!same(now, before)) catalogueChanged(); });
  await refresh();

  // [SECTION] Routes: the lesson, its live updates, the author script ----------------------------

  function status() {
    return { version: state.version, id, file: shown, languages: Object.keys(state.good).filter(code => state.good[code] !== null),
      problems: state.problems, catalogues: state.catalogues };
  }
  function broadcast() {
    const data = `event: update\ndata: ${JSON.stringify(status())}\n\n`;
    for (const client of clients) client.write(data);
  }
  function send(response, status, type, body, headers) {
    response.writeHead(status, { ...headers, 'Content-Type': type, 'Cache-Control': 'no-store',
      'Content-Length': Buffer.byteLength(body) });
    response.end(body);
  }

  // The page as the site has it, with the author's script, and with no lesson given an engine of
  // its own: the one with every kind runs whatever widgets the author adds (np-engine.js).
  const pageHtml = () => readFileSync(join(root, 'lesson.html'), 'utf8')
    .replace(/(<meta name="np-engine-lessons"[^>]*?) content="[^"]*"/, '$1 content=""').replace('</head>',
    '  <link rel="stylesheet" href="author/np-author.css">\n</head>').replace('</body>',
    '  <script type="module" src="author/np-author.js"></script>\n</body>');

  async function intercept(request, response, pathname, headers) {
    const other = headers('other');
    if (pathname === '/' || pathname === '/index.html') {
      response.writeHead(302, { ...other, Location: `lesson.html?lesson=${id}`, 'Cache-Control': 'no-store' });
      response.end();
      return true;
    }
    if (pathname === '/lesson.html') { send(response, 200, 'text/html; charset=utf-8', pageHtml(), headers('page')); return true; }
    const script = /^\/author\/(np-author\.(?:js|css))$/.exec(pathname);
    if (script) {
      send(response, 200, script[1].endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
        readFileSync(join(here, script[1]), 'utf8'), other);
      return true;
    }
    if (pathname === '/author/status') { send(response, 200, 'application/json; charset=utf-8', JSON.stringify(status()), other); return true; }
    if (pathname === '/author/events') {
      response.writeHead(200, { ...other, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      response.write(`retry: 500\nevent: update\ndata: ${JSON.stringify(status())}\n\n`);
      clients.add(response);
      request.on('close', () => clients.delete(response));
      return true;
    }
    // The lesson in each language: the last version that passed the checker.
    const lessonFile = new RegExp(`^/lessons/(?:([a-z]{2}(?:-[a-z]+)?)/)?${id}\\.md$`).exec(pathname);
    if (lessonFile) {
      const text = state.good[lessonFile[1] || 'en'];
      // Never checked clean yet: the file as it is, so the page shows the engine's own error panel.
      const body = text ?? (lessonFile[1] ? null : await read(file));
      if (body === null || body === undefined) send(response, 404, 'text/plain; charset=utf-8', 'no such translation', other);
      else send(response, 200, 'text/markdown; charset=utf-8', body, other);
      return true;
    }
    // The translations' lists name this lesson where it has a translation (np-lang.js reads them).
    const list = /^\/lessons\/([a-z]{2}(?:-[a-z]+)?)\/index\.json$/.exec(pathname);
    if (list && translations[list[1]]) {
      let entries = [];
      try { entries = JSON.parse(readFileSync(join(root, pathname), 'utf8')); } catch { /* none yet */ }
      entries = entries.filter(entry => entry && entry.id !== id);
      if (state.good[list[1]]) entries.push({ id, file: `${id}.md` });
      send(response, 200, 'application/json; charset=utf-8', JSON.stringify(entries), other);
      return true;
    }
    // The catalogues as they are in lessons/strings now, not as the build copied them.
    const catalogue = /^\/lessons\/strings\/([a-z]{2}(?:-[a-z]+)?\.strings)$/.exec(pathname);
    if (catalogue) {
      const text = await read(join(strings, catalogue[1]));
      if (text === null) return false;
      send(response, 200, 'text/plain; charset=utf-8', text, other);
      return true;
    }
    return false;
  }

  const server = await startServer({ root, port, host, intercept });
  // Open event streams would keep close() waiting for ever.
  const close = server.close.bind(server);
  server.close = callback => {
    for (const path of [...watched, ...catalogues]) unwatchFile(path);
    rmSync(scratch, { recursive: true, force: true });
    clearTimeout(timer);
    for (const client of clients) client.end();
    clients.clear();
    return close(callback);
  };
  server.author = { id, status, refresh };
  return server;
}

// [SECTION] Run as a program --------------------------------------------------------------------
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
  };
  const lesson = option('lesson');
  const cli = option('cli');
  const port = Number(option('port', '8080'));
  const host = option('host', '127.0.0.1');
  if (!lesson || !cli) {
    console.error('author: give --lesson FILE.md and --cli PATH');
    process.exit(2);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`author: --port must be a number from 0 to 65535, not "${option('port')}"`);
    process.exit(2);
  }
  startAuthor({ lesson, cli, root: option('root', join(repo, 'build/web/site')), port, host, log: text => console.log(text) })
    .then(server => {
      const { port: bound } = server.address();
      console.log(`Writing ${lesson}: open http://${host}:${bound}/lesson.html?lesson=${server.author.id}  (Ctrl+C stops it)`);
      console.log('Every save is checked and shown in the page; problems appear there with file:line:col.');
    }).catch(error => {
      console.error(error.code === 'EADDRINUSE'
        ? `author: port ${port} is already in use; try ./neuralpath author ${lesson} --port ${port + 1}`
        : `author: ${error.message}`);
      process.exit(1);
    });
}
