// The word catalogue: every key the code names is in the English file, and the page's own
// reader (web/shell/np-strings.js) reads the file by the engine's rules (catalogue.h). No
// browser needed: the sources are scanned and the reader runs in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseStrings } from '../../web/shell/np-strings.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const english = parseStrings(readFileSync(join(repo, 'lessons/strings/en.strings'), 'utf8'));

function files(dir, pattern) {
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, pattern) : pattern.test(name) ? [path] : [];
  });
}

// Keys written out in full in the code: tr("a.b"), tr_n("a.b", ...), t('a.b'), words('a.b').
// Keys built at run time ("widgets." + kind + ".title") are checked by the C++ suites instead.
function keysIn(path) {
  // Comment lines show examples, not keys in use.
  const text = readFileSync(path, 'utf8').split('\n').filter(line => !/^\s*\/\//.test(line)).join('\n');
  const found = [];
  for (const match of text.matchAll(/\b(?:tr|tr_n|t|words)\(\s*(?:[^()"'`]*\?\s*)?["']([a-z][a-z0-9_-]*\.[a-z0-9_.-]+)["']/g)) found.push(match[1]);
  for (const match of text.matchAll(/\?\s*["']([a-z][a-z0-9_-]*\.[a-z0-9_.-]+)["']\s*:\s*["']([a-z][a-z0-9_-]*\.[a-z0-9_.-]+)["']/g))
    found.push(match[1], match[2]);
  return found;
}

test('every catalogue key the engine and the page name exists in lessons/strings/en.strings', () => {
  const sources = [...files(join(repo, 'engine'), /\.(cpp|h)$/), ...files(join(repo, 'web/shell'), /\.js$/)];
  const missing = [];
  let checked = 0;
  for (const path of sources) {
    for (const key of keysIn(path).filter(k => !k.endsWith('.'))) {  // "a.stage." + name: built at run time
      checked++;
      const plural = english.has(`${key}.one`) && english.has(`${key}.other`);
      if (!english.has(key) && !plural) missing.push(`${path.slice(repo.length + 1)}: ${key}`);
    }
  }
  assert.ok(checked > 200, `the scan found the keys (${checked})`);
  assert.deepEqual(missing, []);
});

test('the page reads a catalogue file by the engine rules: sections, escapes, first entry wins', () => {
  const parsed = parseStrings('# a comment\nplain = one\n[mirror]\n  spaced =   \\s kept \\s  \nlines = a\\nb\nplain = two\nbad key! = x\n');
  assert.equal(parsed.get('plain'), 'one');
  assert.equal(parsed.get('mirror.spaced'), '  kept  ');
  assert.equal(parsed.get('mirror.lines'), 'a\nb');
  assert.equal(parsed.get('mirror.plain'), 'two');  // another section, another key
  assert.equal(parsed.has('mirror.bad key!'), false);
  assert.equal(english.get('mirror.toggle'), 'Text version');
});

// [SECTION] No English outside the catalogue ------------------------------------------------------
// Every string literal of the engine's views (engine/ui, without the playback and train folders,
// which their owners move) and of the page's scripts and HTML (web/shell) is read; one that looks
// like English words a learner would see fails the test. What is not learner-facing is left out
// by rule (catalogue keys, CSS, selectors, media queries, URLs, paths, ids, developer console
// output), and the few that remain are named below with the reason.

const ALLOWED = new Map([
  ['engine/ui/widgets/mask_steps/mask_steps_view.cpp', ['InputError: ']],  // the engine's exception name, shown as code
  ['engine/ui/widgets/playback/board_view.cpp', ['LayerNorm →']],      // an operator on the board, as softmax → is
  ['web/shell/embed.js', ['use strict']],
  // Why a trainer message was malformed: np-lm.js only ever prints it to the console.
  ['web/shell/np-lm-protocol.js', ['a trainer message must be an object', "unknown trainer message type 'x'",
    "x: 'x' is not x", "x has an unknown field 'x'", "progress: 'what' must be code or data"]],
  ['web/shell/np-app.js', ['Tab', 'noopener,noreferrer']],                 // a key name; window features
  ['web/shell/np-mirror.js', ['noopener noreferrer']],                     // rel= keywords
  ['web/shell/np-speech.js', ['ArrowRight', 'ArrowLeft']],                 // key names
  ['web/shell/np-toolbar.js', ['Escape', 'button, select, input, a[href]']], // a key name; a selector
  ['web/shell/np-storage.js', ['QuotaExceededError']],                     // a DOMException name
  ['web/shell/np-lang.js', ['English']],                                   // English named in itself (language.name)
  // xAPI vocabulary (objectType; the language tag of a verb's display); each simulation action's
  // description is the list's documentation for platforms, checked against docs/lms.md's table
  // (lms-interactions.test.mjs), never shown to a learner.
  ['web/shell/np-interactions.js', ['Activity', 'en-US', 'trained the attention model to the end of its run',
    'an induction head formed while training the language model', 'trained the language model to the end of its run',
    'had the language model write text to its end', 'raced decoding with and without the KV cache',
    'ran naive and tiled attention side by side', 'played the course playback to its end', 'opened the explanation of a number']],
  // xAPI vocabulary (objectType; the language tag of the statement's names).
  ['web/shell/np-host.js', ['Activity', 'en-US',
    // Why a host's message was ignored: only ever printed to the console (ignore()).
    'not an object', 'not addressed to neuralpath (target)', 'unknown type ', "'x': 'x' has the wrong type or length",
    "'x' does not take x", 'its origin is not one this lesson site allows', 'its origin is not in allow=',
    'it did not come from the embedding page', 'too many commands before the lesson was ready']],
]);
// Files whose words are not the lesson's: the stand-in course site of docs/embedding.md, and the
// widget settings parsers, which report authoring mistakes like the lesson checker
// (engine/lesson, `neuralpath-cli check`) whose library compiles them.
const SKIPPED = [/^web\/shell\/host-demo\./, /_settings\.cpp$/];

// The string literals of C++ or JavaScript source, with their lines; comments are skipped and
// so is everything inside a console.*() call (messages for developers, not learners).
export function literals(text, js) {
  const out = [];
  let line = 1, depth = 0;
  const consoleDepths = [];
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '\n') { line++; i++; continue; }
    if (c === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i++; continue; }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 2;
      for (; i < end; i++) if (text[i] === '\n') line++;
      continue;
    }
    if (c === '"' || (js && (c === "'" || c === '`'))) {
      let j = i + 1, s = '';
      const start = line;
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') { s += text[j + 1]; j += 2; continue; }
        if (text[j] === '\n') line++;
        s += text[j++];
      }
      if (!consoleDepths.length) out.push({ line: start, text: s });
      i = j + 1;
      continue;
    }
    if (js && c === '/' && /(^|[(,=:[!&|?{};]|\breturn)$/.test(text.slice(Math.max(0, i - 16), i).trimEnd())) {
      // A regular expression literal (/[",]/.test(x)): its quotes are not strings.
      let j = i + 1, inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      i = j + 1;
      continue;
    }
    if (!js && c === "'") { let j = i + 1; while (j < text.length && text[j] !== "'") j += text[j] === '\\' ? 2 : 1; i = j + 1; continue; }
    if (js && text.startsWith('console.', i)) {
      const open = text.indexOf('(', i);
      if (open > 0 && /^console\.[a-z]+$/.test(text.slice(i, open))) { consoleDepths.push(depth + 1); depth++; i = open + 1; continue; }
    }
    if (c === '(') depth++;
    if (c === ')') { depth--; if (consoleDepths.length && depth < consoleDepths.at(-1)) consoleDepths.pop(); }
    i++;
  }
  return out;
}

// Does this literal read as words for a person (two words in a row, or a capitalised word)?
export function looksLikeEnglish(raw) {
  const s = raw.replace(/\$\{[^}]*\}/g, 'x');  // a template's holes
  const technical = [
    /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+\.?$/,   // a catalogue key ("page.hint"), or the start of one
    /^##/,                                      // an ImGui id
    /^[.#[]/, /^\(/,                            // selectors, media queries
    /^[a-z]+(\[[a-z-]+(=[^\]]*)?\])+$/,         // element selectors with attributes ("link[data-np-asset]")
    /^[a-z-]+:[^ ]/,                            // CSS ("display:block;...")
    /:\/\//, /^\.{0,2}\//,                      // URLs, paths
    /^[a-z0-9]+(:[a-zA-Z0-9x-]*)+$/,            // namespaced ids ("neuralpath:answered")
    /^([a-z0-9]+-[a-z0-9-]*\s*)+$/,             // hyphenated ids and class lists
    /^[a-z0-9_-]+\.(json|html|js|ttf)\b/,       // file names
    /^[\w.-]+\/[\w./-]+$/, /\?[a-z]+=/,         // relative paths, query strings
    /^--[a-z-]+$/,                              // CSS custom properties
    /^[a-z]+\/[a-z0-9.+-]+(;[a-z-]+=[\w-]+)*$/,   // MIME types
  ];
  if (technical.some(pattern => pattern.test(s))) return false;
  return /[A-Za-z]{2,}[\s,.;:!?'’()-]+[A-Za-z]{2,}/.test(s) || /^\s*[A-Z][a-z]{2,}/.test(s);
}

// The visible text and labels of an HTML file: text between tags, and aria-label, title, alt
// and placeholder values (scripts and styles left out).
export function htmlWords(text) {
  const out = [];
  const body = text.replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '');
  for (const m of body.matchAll(/>([^<]+)</g)) if (/[A-Za-z]{2,}/.test(m[1])) out.push(m[1].trim());
  for (const m of body.matchAll(/\s(?:aria-label|title|alt|placeholder)="([^"]*)"/g)) if (/[A-Za-z]{2,}/.test(m[1])) out.push(m[1]);
  return out.filter(words => words !== 'NeuralPath');  // the name, in every language
}

function englishOutsideCatalogue() {
  const found = [];
  const sources = [...files(join(repo, 'engine/ui'), /\.(cpp|h)$/), ...files(join(repo, 'web/shell'), /\.(js|html)$/)];
  for (const path of sources) {
    const name = path.slice(repo.length + 1);
    if (SKIPPED.some(pattern => pattern.test(name))) continue;
    const text = readFileSync(path, 'utf8');
    const allowed = ALLOWED.get(name) || [];
    if (name.endsWith('.html')) {
      for (const words of htmlWords(text)) found.push(`${name}: ${words}`);
      continue;
    }
    for (const { line, text: literal } of literals(text, name.endsWith('.js'))) {
      const holes = literal.replace(/\$\{[^}]*\}/g, 'x');
      if (looksLikeEnglish(literal) && !allowed.some(a => holes === a || holes.startsWith(a)))
        found.push(`${name}:${line}: "${literal}"`);
    }
  }
  return found;
}

test('no learner-facing English in engine/ui or web/shell outside the catalogue', () => {
  assert.deepEqual(englishOutsideCatalogue(), []);
});

test('the English scan catches words in code, templates and HTML, and passes keys, CSS and console output', () => {
  const js = literals([
    "label.textContent = 'Try again later';",
    'note.title = `Saved ${n} answers`;',
    "box.style.cssText = 'display:flex;gap:.4em';",
    "t('storage.reset'); matchMedia('(max-width: 700px)');",
    "console.warn(`text version: ${message}`, 'still for developers');",
    "x = ['Voice'];",
    "ok = /[\",\\n]/.test(t) ? 'no' : t; return /[']/.test(t) ? 'no' : t;",
  ].join('\n'), true).filter(l => looksLikeEnglish(l.text)).map(l => [l.line, l.text]);
  assert.deepEqual(js, [[1, 'Try again later'], [2, 'Saved ${n} answers'], [6, 'Voice']]);
  const cpp = literals('kit::wrapped(ui, "Press the button", c.text); // "a comment"\ntr("page.hint"); ImGui::Button("##id");',
                      false).filter(l => looksLikeEnglish(l.text)).map(l => l.text);
  assert.deepEqual(cpp, ['Press the button']);
  assert.deepEqual(htmlWords('<title>NeuralPath</title><p data-np-text="a.b"></p><h1>Lessons</h1><a aria-label="Close it">x</a>'),
                   ['Lessons', 'Close it']);
});

// #35: a NUL byte cut the engine's catalogue short at the page's edge (a C string ends there);
// the engine and this reader now both skip only the line that holds it.
test('a NUL byte in a catalogue costs its own line, not the rest of the file', () => {
  const parsed = parseStrings('[share]\nbefore = one\nbroken = a\0b\nafter = two\n');
  assert.equal(parsed.get('share.before'), 'one');
  assert.equal(parsed.has('share.broken'), false);
  assert.equal(parsed.get('share.after'), 'two');
});
