// The page protocol, checked on both sides without a browser: the engine's state(), lesson
// document, events, limits and snapshot reply for every lesson in both languages (written by
// tests/ui/protocol_dump.cpp) must have every field the shell reads (web/shell/np-protocol.js).
// A field the engine renames or drops fails here in seconds, not in the browser suite.
//
//   node --test tests/protocol/protocol.test.mjs        (after building protocol_dump; ctest runs it)
//   NP_PROTOCOL_DUMP=path/to/protocol_dump NP_PROTOCOL_OUT=dir   (what ctest passes)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { SHAPES, progressSummary, transportOf, validate, validateEvent } from '../../web/shell/np-protocol.js';
import { countKey, loadStrings, words } from '../../web/shell/np-strings.js';

const dumper = process.env.NP_PROTOCOL_DUMP || 'build/native/tests/ui/protocol_dump';
const out = process.env.NP_PROTOCOL_OUT || 'build/native/tests/ui/protocol-dumps';

// Fresh dumps every run: a stale file from an older engine must not pass for a new one.
assert.ok(existsSync(dumper), `${dumper} is not built (cmake --build --preset native --target protocol_dump)`);
rmSync(out, { recursive: true, force: true });
execFileSync(dumper, [], { env: { ...process.env, NP_PROTOCOL_OUT: out }, stdio: ['ignore', 'ignore', 'inherit'] });

const read = path => JSON.parse(readFileSync(path, 'utf8'));
const engine = read(join(out, 'engine.json'));
const langs = ['en', 'es'];
const dumps = langs.flatMap(lang => readdirSync(join(out, lang)).filter(f => f.endsWith('.json')).sort()
  .map(file => read(join(out, lang, file))));

// Every lesson the site ships, in each language it ships it in.
const lessonsIn = dir => readdirSync(dir).filter(f => f.endsWith('.md') && f !== 'README.md' && f !== 'FORMAT.md')
  .map(f => f.slice(0, -3)).sort();

const fits = (shape, value, path) => assert.deepEqual(validate(shape, value, path), [], `${path} does not fit np-protocol.js`);

test('the dumps cover every lesson in both languages', () => {
  for (const lang of langs) {
    const shipped = lessonsIn(lang === 'en' ? 'lessons' : `lessons/${lang}`);
    assert.ok(shipped.length >= 5, `lessons in ${lang}`);
    assert.deepEqual(dumps.filter(d => d.lang === lang).map(d => d.lesson), shipped);
  }
});

test("state() fits the shell's shape, just loaded and after a walk", () => {
  for (const d of dumps) {
    fits(SHAPES.state, d.state, `${d.lang}/${d.lesson}: state`);
    fits(SHAPES.state, d.walked, `${d.lang}/${d.lesson}: walked`);
    assert.ok(progressSummary(d.walked).answered >= 0);
  }
});

test("a lesson that does not load still gives the state the page reads, with its errors", () => {
  fits(SHAPES.state, engine.broken.state, 'broken: state');
  assert.ok(engine.broken.state.errors.length > 0);
  assert.equal(engine.broken.state.progress, null);
  assert.equal(transportOf(engine.broken.state), null);
});

test("the lesson document fits the shell's shape", () => {
  for (const d of dumps) fits(SHAPES.document, d.document, `${d.lang}/${d.lesson}: document`);
});

test("every event the walk sends that the shell reads fits the shell's shape", () => {
  const seen = new Set();
  for (const d of dumps) {
    d.events.forEach((event, i) => {
      assert.equal(typeof event.type, 'string');
      seen.add(event.type);
      assert.deepEqual(validateEvent(event, `${d.lang}/${d.lesson}: events[${i}]`), []);
    });
  }
  for (const type of ['ready', 'section', 'answered', 'progress', 'caption', 'playback'])
    assert.ok(seen.has(type), `no lesson's walk sent '${type}': the check above read none`);
});

test('the snapshot reply (what a shared link holds) fits', () => {
  for (const d of dumps) fits(SHAPES.snapshot, d.snapshot, `${d.lang}/${d.lesson}: snapshot`);
});

test("the engine's limits fit: the page reads every limit it checks from the engine", () => {
  fits(SHAPES.limits, engine.limits, 'limits');
  assert.ok(engine.limits.lesson_bytes > engine.limits.sentence_bytes);
});

// The board a learner plays through is found by what the widget says of itself (a transport),
// never by its kind's name: the lesson that has one, and the widget it names, agree.
test('the transport is the one the widget list and the document both show', () => {
  let boards = 0;
  for (const d of dumps) {
    const board = transportOf(d.walked);
    const transportBlocks = [d.document.intro, ...d.document.sections.map(s => s.blocks)].flat()
      .filter(b => b.kind === 'widget' && b.transport);
    if (!board) { assert.equal(transportBlocks.length, 0, `${d.lang}/${d.lesson}: a transport block without state().playback`); continue; }
    boards++;
    assert.ok(transportBlocks.length >= 1, `${d.lang}/${d.lesson}: state().playback without a transport block`);
    const widget = d.walked.widgets.find(w => w.id === board.id);
    assert.ok(widget, `${d.lang}/${d.lesson}: state().playback.id ${board.id} is no widget`);
    assert.equal(widget.step, board.step);
    assert.equal(board.step, 1, 'the walk stepped the board once');
    const captions = d.events.filter(e => e.type === 'caption');
    assert.ok(captions.length > 0 && captions.every(e => e.widget === board.id), `${d.lang}/${d.lesson}: captions name the board`);
  }
  assert.ok(boards >= 2, 'the course playback, in English and Spanish');
});

// Before the engine runs, the page's words come from np-strings.js with its own copy of the
// catalogue's plural rule: it must pick the same form as the engine's tr_n, in each language.
test("the page's count words are the engine's, in every language", async () => {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async url => ({ ok: true, text: async () => readFileSync(String(url), 'utf8') });
  try {
    for (const lang of langs) {
      await loadStrings(lang);
      const counts = engine.counts.filter(c => c.lang === lang);
      assert.ok(counts.some(c => c.n === 1) && counts.some(c => c.n !== 1));
      for (const { key, n, text } of counts)
        assert.equal(words(countKey(key, n), { done: 0, total: n }), text, `${lang} ${key} n=${n}`);
    }
  } finally {
    globalThis.fetch = realFetch;
  }
});

// The validator itself: a renamed or dropped field, or a wrong type, is reported by its path.
test('the validator names a renamed, dropped or mistyped field', () => {
  // Made from a dump the validator accepts above, whatever the engine now writes.
  const state = structuredClone((dumps.find(x => x.walked.checks.length) || dumps[0]).walked);
  state.playback = { board: 'playback-1', step: 1, steps: 9, playing: false, caption: null, speed: 1 };
  delete state.widgets[0].kind;
  if (state.checks.length) state.checks[0].correct = 'yes';
  const problems = validate(SHAPES.state, state, 'state');
  assert.ok(problems.includes('state.playback.id: missing'), problems.join('\n'));
  assert.ok(problems.includes('state.widgets[0].kind: missing'), problems.join('\n'));
  if (state.checks.length) assert.ok(problems.includes('state.checks[0].correct: boolean|null expected, string found'), problems.join('\n'));
  assert.equal(transportOf(state), null);
  assert.deepEqual(validateEvent({ type: 'caption', text: 'x', step: 1, voice: false }), ['event(caption).widget: missing']);
});
