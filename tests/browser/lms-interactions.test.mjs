// What a platform records of a learner's actions (web/shell/np-interactions.js): a check's
// answer as xAPI and as SCORM 1.2 cmi.interactions, and the simulation actions of the
// documented list as xAPI statements. Pure functions; no browser. (The packages' own tests,
// cmi5.test.mjs and scorm.test.mjs, check the same in a real session.)
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import validation from 'xapi-validation';
import { checkInteraction, choiceId, scormInteraction, SIMULATION_ACTIONS, simulationStatement, xapiInteraction }
  from '../../web/shell/np-interactions.js';

const validate = validation.default || validation;
const check = { id: 'qk-first', question: 'Which comes first?', options: ['Scores', 'Softmax', 'Mixing values'],
  order: [2, 0, 1], kind: 'check', multiple: false };
const multi = { id: 'mask-why', question: 'Which are masked?', options: ['a', 'b', 'c', 'd'], order: [3, 1, 0, 2],
  kind: 'check', multiple: true };
const statement = body => ({ id: randomUUID(), actor: { objectType: 'Agent', account: { homePage: 'https://lms.example.org', name: 'x' } },
  timestamp: new Date().toISOString(), ...body });

test('choice ids follow the lesson\'s order, whatever order the learner saw the options in', () => {
  const seen = checkInteraction({ ...check, order: [1, 2, 0] }, { check: check.id, option: 2, answer: [0], correct: false, attempts: 1 });
  const other = checkInteraction({ ...check, order: [0, 1, 2] }, { check: check.id, option: 2, answer: [0], correct: false, attempts: 1 });
  assert.deepEqual(seen, other);
  assert.deepEqual(seen.choices.map(c => c.id), ['a', 'b', 'c']);
  assert.deepEqual(seen.choices.map(c => c.text), check.options);
  assert.deepEqual(seen.response, ['c']);
  assert.deepEqual(seen.correct, ['a']);
  assert.equal(seen.success, false);
  assert.equal(choiceId(26), '0');
  assert.equal(choiceId(40), 'o41');
});

test('an answer as xAPI: a valid "answered" statement with choices, response, correct pattern and success', () => {
  const interaction = checkInteraction(multi, { check: multi.id, option: [3, 1], answer: [1, 3], correct: true, attempts: 2 });
  const { definition, response, success } = xapiInteraction(interaction, 'es');
  assert.equal(definition.interactionType, 'choice');
  assert.deepEqual(definition.correctResponsesPattern, ['b[,]d']);
  assert.equal(response, 'b[,]d');
  assert.equal(success, true);
  assert.deepEqual(definition.choices.map(c => c.id), ['a', 'b', 'c', 'd']);
  assert.equal(definition.choices[2].description.es, 'c');
  const built = statement({ verb: { id: 'http://adlnet.gov/expapi/verbs/answered', display: { 'en-US': 'answered' } },
    object: { objectType: 'Activity', id: `https://lms.example.org/au/1/test/x/question/${multi.id}`, definition },
    result: { response, success } });
  assert.deepEqual(validate(built), []);
});

test('an answer as SCORM 1.2 cmi.interactions: choice format, identifier charset, lengths, time', () => {
  const interaction = checkInteraction(multi, { check: 'a check id with spaces/and slashes', option: [0, 2], answer: [1], correct: false });
  const values = Object.fromEntries(scormInteraction(interaction, 4, new Date(2026, 0, 2, 9, 5, 7)));
  assert.deepEqual(values, {
    'cmi.interactions.4.id': 'a_check_id_with_spaces_and_slashes',
    'cmi.interactions.4.type': 'choice',
    'cmi.interactions.4.student_response': 'a,c',
    'cmi.interactions.4.correct_responses.0.pattern': 'b',
    'cmi.interactions.4.result': 'wrong',
    'cmi.interactions.4.time': '09:05:07',
  });
  const long = checkInteraction(check, { check: 'x'.repeat(400), option: 0, answer: [0], correct: true });
  const id = Object.fromEntries(scormInteraction(long, 0))['cmi.interactions.0.id'];
  assert.equal(id.length, 255);
  // More options than SCORM's choice format has characters: no response it could not carry.
  const huge = { ...check, options: Array.from({ length: 40 }, (_, i) => `option ${i}`) };
  const values40 = Object.fromEntries(scormInteraction(checkInteraction(huge, { check: 'h', option: 39, answer: [39], correct: true }), 0));
  assert.equal(values40['cmi.interactions.0.student_response'], undefined);
  assert.equal(values40['cmi.interactions.0.result'], 'correct');
});

test('every simulation action of the list makes a valid statement with its numbers; other events make none', () => {
  const where = { activityId: 'https://lms.example.org/activities/1', lang: 'en', title: 'Self-attention' };
  const events = {
    trained: { type: 'trained', widget: 'trainer', step: 300, total_steps: 300, loss: 0.21, accuracy: 0.94, seed: 1 },
    lmInduction: { type: 'lmInduction', widget: 'lm', step: 400, layer: 1, head: 2, score: 0.61 },
    lmTrained: { type: 'lmTrained', widget: 'lm', step: 800, steps: 800, loss: 2.1, val_loss: 2.3, induction: 0.7 },
    generated: { type: 'generated', widget: 'loop', tokens: 40, temperature: 1, top_k: 0, top_p: 1 },
    kvRace: { type: 'kvRace', widget: 'race', positions: 57, cached_s: 0.1, full_s: 0.4, speedup: 4, same_tokens: true },
    costRun: { type: 'costRun', widget: 'cost', T: 512, max_difference: 1e-6 },
    playback: { type: 'playback', widget: 'board', finished: true, steps: 12 },
    explain: { type: 'explain', widget: 'heatmap', title: 'Weight of cat on sat', text: '...' },
  };
  assert.deepEqual(Object.keys(events).sort(), SIMULATION_ACTIONS.map(a => a.event).sort(), 'the test covers the list');
  for (const [type, event] of Object.entries(events)) {
    const body = simulationStatement(event, where);
    assert.ok(body, type);
    assert.match(body.verb.id, /^http:\/\/adlnet\.gov\/expapi\/verbs\//);
    assert.equal(body.object.id, `${where.activityId}/widget/${event.widget}`);
    assert.deepEqual(validate(statement(body)), [], `${type}: ${JSON.stringify(body)}`);
  }
  const trained = simulationStatement(events.trained, where);
  assert.equal(trained.verb.id, 'http://adlnet.gov/expapi/verbs/achieved');
  assert.equal(trained.result.score.scaled, 0.94);
  assert.equal(trained.result.extensions['urn:neuralpath:xapi:accuracy'], 0.94);
  assert.equal(simulationStatement(events.lmTrained, where).result.extensions['urn:neuralpath:xapi:val-loss'], 2.3);
  assert.equal(simulationStatement(events.kvRace, where).result.extensions['urn:neuralpath:xapi:speedup'], 4);
  assert.equal(simulationStatement({ ...events.playback, finished: false }, where), null, 'a pause is no action');
  assert.equal(simulationStatement({ type: 'caption', widget: 'board' }, where), null);
  assert.equal(simulationStatement({ ...events.trained, widget: undefined }, where), null);
  assert.equal(simulationStatement({ ...events.trained, loss: null, accuracy: 'x' }, where).result.extensions['urn:neuralpath:xapi:loss'], undefined);
});

test('docs/lms.md lists every simulation action with its verb and activity type', () => {
  const doc = readFileSync(new URL('../../docs/lms.md', import.meta.url), 'utf8');
  for (const action of SIMULATION_ACTIONS) {
    const row = doc.split('\n').find(line => line.startsWith(`| \`${action.event}\``));
    assert.ok(row, `docs/lms.md has a row for ${action.event}`);
    assert.ok(row.includes(action.verb) && row.includes(action.type.split('/').pop()), row);
  }
});
