// What a platform and its LRS hand the cmi5 launch page, checked (web/lms/np-lms-inputs.js):
// the addresses it follows or sends to, and the kept state it reads back. Pure functions; no
// browser. cmi5.test.mjs launches a package with one case of each kind end to end.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptState, webAddress } from '../../web/lms/np-lms-inputs.js';

const base = 'https://lms.example.org/courses/7/au/index.html?endpoint=x';

test('only http and https addresses are web addresses, whatever their case or the spaces around them', () => {
  for (const [text, expected] of [
    ['https://lrs.example.org/xapi', 'https://lrs.example.org/xapi'],
    ['http://127.0.0.1:8080/back?x=1#top', 'http://127.0.0.1:8080/back?x=1#top'],
    ['HTTPS://LRS.Example.ORG/xapi/', 'https://lrs.example.org/xapi/'],
    ['  https://lrs.example.org/  ', 'https://lrs.example.org/'],
  ]) assert.equal(webAddress(text, base), expected, text);
});

test('script, data and local addresses are refused, however they are spelled', () => {
  for (const text of [
    'javascript:window.top.__returned = "ran"', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)',
    'java\nscript:alert(1)', '\u0000javascript:alert(1)', 'javascript://%0aalert(1)',
    'data:text/html,<script>alert(1)</script>', 'DATA:,x', 'vbscript:msgbox(1)', 'file:///etc/passwd',
    'blob:https://lms.example.org/0b1c', 'about:blank', 'ftp://lms.example.org/x', 'ws://lrs.example.org/',
    'mailto:a@example.org', 'chrome://settings',
  ]) assert.equal(webAddress(text, base), null, JSON.stringify(text));
});

test('a relative address is read against the launch page; nothing, or not a string, is no address', () => {
  assert.equal(webAddress('../../done.html', base), 'https://lms.example.org/courses/done.html');
  assert.equal(webAddress('//other.example.org/x', base), 'https://other.example.org/x');
  assert.equal(webAddress('/xapi', 'http://127.0.0.1:9/au/'), 'http://127.0.0.1:9/xapi');
  for (const value of ['', null, undefined, 42, {}, ['https://lrs.example.org/'], { href: 'https://x.org/' }])
    assert.equal(webAddress(value, base), null, JSON.stringify(value));
  assert.equal(webAddress('relative/only', undefined), null, 'no base to read it against');
  assert.equal(webAddress('http://[::1', base), null, 'a broken URL');
});

test('a kept state keeps its record, what was sent and its figures', () => {
  const widgets = { 'train-pronoun': { step: 300 } };
  assert.deepEqual(keptState({ record: '{"v":1}', sent: { passed: true, completed: true }, widgets }),
    { record: '{"v":1}', sent: { passed: true, completed: true }, widgets });
  assert.deepEqual(keptState({ record: { v: 1, visited: ['intro'] }, sent: { completed: true } }),
    { record: { v: 1, visited: ['intro'] }, sent: { completed: true }, widgets: null });
});

test('a damaged kept state gives what can be read of it, in the shape the page writes back', () => {
  const empty = { record: null, sent: {}, widgets: null };
  for (const value of [undefined, null, 'not an object', 7, true, [1, 2], [{ record: 'x' }]])
    assert.deepEqual(keptState(value), empty, JSON.stringify(value));
  // sent must say true for passed or completed, nothing else: a session sends them once
  for (const sent of [1, 'passed', [true], { passed: 'true', completed: 1 }, { failed: true }, null])
    assert.deepEqual(keptState({ record: 'r', sent }).sent, {}, JSON.stringify(sent));
  assert.deepEqual(keptState({ sent: { passed: true, completed: false, failed: true } }).sent, { passed: true });
  // a record is text or an object; a number, a list or nothing is no record
  for (const record of [7, null, [1], true, undefined]) assert.equal(keptState({ record }).record, null, JSON.stringify(record));
  // figures are an object of snapshots; an empty one, a list or text is none
  for (const widgets of [{}, [1], 'w', 3]) assert.equal(keptState({ widgets }).widgets, null, JSON.stringify(widgets));
  // fields the page does not write are dropped, so they are not written back
  assert.deepEqual(Object.keys(keptState({ record: 'r', extra: 1, __proto__x: 2 })), ['record', 'sent', 'widgets']);
});

test('a record or figures nested past what JSON can write out are dropped, not thrown', () => {
  let deep = {};
  const record = deep;
  for (let i = 0; i < 200_000; i++) deep = deep.next = {};
  assert.throws(() => JSON.stringify(record), RangeError, 'this nesting is past the stack');
  const kept = keptState({ record, widgets: { w: record }, sent: { passed: true } });
  assert.deepEqual(kept, { record: null, sent: { passed: true }, widgets: null });
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  assert.equal(keptState({ record: cyclic }).record, null, 'a cyclic record cannot be written back');
});
