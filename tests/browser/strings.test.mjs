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
