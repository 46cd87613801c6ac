// The learner's record packed for a learning platform (web/lms/np-lms-record.js): SCORM 1.2's
// 4,096-character cmi.suspend_data, what is left out past it, and the status/score mapping.
// Pure functions; no browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { isTrainedModel, lessonOutcome, packRecord, SUSPEND_DATA_LIMIT, unpackRecord } from '../../web/lms/np-lms-record.js';
import { say, useWords } from '../../web/lms/np-lms-words.js';
import { parseStrings } from '../../web/shell/np-strings.js';

// The launch pages' words come from the catalogue, as in the browser (np-lms-words.js).
const catalogue = lang => parseStrings(readFileSync(new URL(`../../lessons/strings/${lang}.strings`, import.meta.url), 'utf8'));
useWords(catalogue('en'));

const record = {
  v: 1, lesson: 'self-attention', section: 'causal-mask', visited: ['intro', 'scores', 'causal-mask'],
  answers: { 'qk-first': [0], 'mask-why': [1, 2] }, reveals: ['bert'], step: 3,
};

test('a record round-trips without its lesson id, which the package supplies', () => {
  const packed = packRecord(JSON.stringify(record));
  assert.deepEqual(packed.dropped, []);
  assert.ok(!packed.data.includes('self-attention'), packed.data);
  const back = unpackRecord(packed.data, 'self-attention');
  assert.deepEqual(JSON.parse(back.record), record);
});

test('the derived summary from state() is never stored', () => {
  const packed = packRecord({ ...record, summary: { checks: 2, score: 1 } });
  assert.ok(!packed.data.includes('summary'));
});

test('past 4,096 characters: reveals, then position, then visited sections go; answers stay', () => {
  const many = n => Array.from({ length: n }, (_, i) => `section-number-${i}-with-a-long-anchor`);
  const big = { ...record, reveals: many(40), visited: many(120) };
  const packed = packRecord(big);
  assert.ok(packed.data.length <= SUSPEND_DATA_LIMIT, `${packed.data.length} characters`);
  assert.deepEqual(packed.dropped, ['opened reveals', 'playback position', 'visited sections']);
  const back = JSON.parse(unpackRecord(packed.data, 'self-attention').record);
  assert.deepEqual(back.answers, record.answers);
  assert.equal(back.section, 'causal-mask');
  assert.deepEqual(back.visited, ['causal-mask']);
  assert.equal(back.reveals, undefined);

  // Only reveals too many: nothing else is touched.
  const revealsOnly = packRecord({ ...record, reveals: many(110) });
  assert.deepEqual(revealsOnly.dropped, ['opened reveals']);
  assert.equal(JSON.parse(unpackRecord(revealsOnly.data, 'x').record).step, 3);
});

test('answers alone past the limit: the last ones are left out, and counted', () => {
  const answers = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`check-${String(i).padStart(3, '0')}-long-name`, [1, 2]]));
  const packed = packRecord({ ...record, answers });
  assert.ok(packed.data.length <= SUSPEND_DATA_LIMIT);
  const kept = Object.keys(JSON.parse(unpackRecord(packed.data, 'x').record).answers);
  assert.ok(kept.length > 50 && kept.length < 200, `${kept.length} answers kept`);
  assert.equal(kept[0], 'check-000-long-name');
  assert.match(packed.dropped.at(-1), new RegExp(`^${200 - kept.length} answers$`));
});

test('what the platform stored but this page cannot read is named, never a crash', () => {
  assert.deepEqual(unpackRecord('', 'x'), { empty: true });
  assert.match(unpackRecord('hello', 'x').error, /not written by this lesson package/);
  assert.match(unpackRecord('np1:{"section":"a","vis', 'x').error, /cut short/);
  assert.match(unpackRecord('np1:[1,2]', 'x').error, /not an object/);
  assert.match(packRecord('not json').error, /not a JSON object/);
});

test('status: incomplete until completed, then passed or failed; passed is never taken back', () => {
  const event = (completed, right, total = 4) => ({ completed, completed_checks: right, total_checks: total });
  assert.deepEqual(lessonOutcome(event(false, 2)), { status: 'incomplete', score: 50, completed: false });
  assert.deepEqual(lessonOutcome(event(true, 4)), { status: 'passed', score: 100, completed: true });
  assert.deepEqual(lessonOutcome(event(true, 3)), { status: 'failed', score: 75, completed: true });
  // A platform's mastery score decides instead of "every answer right".
  assert.equal(lessonOutcome(event(true, 3), { masteryScore: 70 }).status, 'passed');
  assert.equal(lessonOutcome(event(true, 2), { masteryScore: 70 }).status, 'failed');
  // Earlier outcomes.
  assert.equal(lessonOutcome(event(false, 1), { previous: 'passed' }).status, 'passed');
  assert.equal(lessonOutcome(event(false, 1), { previous: 'failed' }).status, 'failed');
  assert.equal(lessonOutcome(event(true, 4), { previous: 'failed' }).status, 'passed');
  // No checks at all: completing the lesson is a pass.
  assert.deepEqual(lessonOutcome(event(true, 0, 0)), { status: 'passed', score: 100, completed: true });
});

// [SECTION] The figures' state beside the record (#32) ----------------------------------------------

const trained = { seed: 7, steps: 300, trained: true };
const figures = n => Object.fromEntries(Array.from({ length: n }, (_, i) =>
  [`figure-${i}`, { sentence: `a sentence typed into figure ${i} `.repeat(1 + (i % 4)), head: i % 2 }]));

test('widgets travel in suspend_data and come back apart from the record', () => {
  const packed = packRecord(record, SUSPEND_DATA_LIMIT, { trainer: trained, heatmap: { mask: 'causal' } });
  assert.deepEqual(packed.dropped, []);
  const back = unpackRecord(packed.data, 'self-attention');
  assert.deepEqual(back.widgets, { trainer: trained, heatmap: { mask: 'causal' } });
  assert.deepEqual(JSON.parse(back.record), record, 'the record the engine gets has no "w" of ours');
  assert.ok(isTrainedModel(trained) && isTrainedModel({ seed: 1, step: 40 }));
  assert.ok(!isTrainedModel({ seed: 1, steps: 0 }) && !isTrainedModel({ mask: 'causal' }));
});

test('past 4,096 characters the figure settings go first (largest first), trained models only after the visited sections', () => {
  // Figure settings alone too many: some go, the largest first; everything else stays.
  const some = packRecord(record, SUSPEND_DATA_LIMIT, { trainer: trained, ...figures(60) });
  assert.ok(some.data.length <= SUSPEND_DATA_LIMIT, `${some.data.length} characters`);
  assert.match(some.dropped[0], /^\d+ figure settings$/);
  assert.equal(some.dropped.length, 1, some.dropped.join(', '));
  const kept = unpackRecord(some.data, 'x').widgets;
  assert.deepEqual(kept.trainer, trained, 'the trained model stays');
  const sizes = Object.keys(figures(60)).map(id => [id, JSON.stringify(figures(60)[id]).length]);
  const smallestDropped = Math.min(...sizes.filter(([id]) => !kept[id]).map(([, n]) => n));
  const largestKept = Math.max(...sizes.filter(([id]) => kept[id]).map(([, n]) => n));
  assert.ok(smallestDropped >= largestKept, `dropped ${smallestDropped}, kept ${largestKept}`);

  // So much that the record's own parts go too: trained models after visited sections, before answers.
  const many = n => Array.from({ length: n }, (_, i) => `section-number-${i}-with-a-long-anchor`);
  const models = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`trainer-${i}`, { seed: i, steps: 300, trained: true }]));
  const all = packRecord({ ...record, reveals: many(40), visited: many(120) }, SUSPEND_DATA_LIMIT, { ...models, ...figures(10) });
  assert.ok(all.data.length <= SUSPEND_DATA_LIMIT);
  assert.deepEqual(all.dropped.map(d => d.replace(/^\d+ /, '')),
    ['figure settings', 'opened reveals', 'playback position', 'visited sections', 'trained models']);
  const back = unpackRecord(all.data, 'x');
  assert.deepEqual(JSON.parse(back.record).answers, record.answers, 'answers stay');
  assert.ok(Object.keys(back.widgets).length > 0 && Object.keys(back.widgets).length < 150);
});

test('the launch pages speak every language the lessons ship, from the catalogue', () => {
  const en = catalogue('en');
  const keys = [...en.keys()].filter(k => k.startsWith('lms.'));
  assert.ok(keys.length >= 20, `${keys.length} lms keys`);
  for (const file of readdirSync(new URL('../../lessons/strings/', import.meta.url)).filter(f => f.endsWith('.strings'))) {
    const words = parseStrings(readFileSync(new URL(`../../lessons/strings/${file}`, import.meta.url), 'utf8'));
    for (const key of keys) assert.ok(words.has(key), `${file} has ${key}`);
  }
  useWords(catalogue('es'));
  try {
    assert.match(say('cmi5_exit'), /^Salir/);
    assert.match(unpackRecord('hello', 'x').error, /no lo escribió este paquete/);
    assert.match(say('scorm_refused', { reason: '101: x' }), /\(101: x\)/);
  } finally { useWords(catalogue('en')); }
  // Every key the launch pages use is in the catalogue.
  for (const file of ['np-cmi5.js', 'np-scorm.js', 'np-lms-record.js', 'np-lms-frame.js']) {
    const source = readFileSync(new URL(`../../web/lms/${file}`, import.meta.url), 'utf8');
    for (const [, key] of source.matchAll(/say\('([a-z0-9_]+)'/g)) assert.ok(en.has(`lms.${key}`), `${file}: lms.${key}`);
  }
});
