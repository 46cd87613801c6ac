// web/shell/np-worker-turns.js without a browser: the trainers' workers' loop. A classic worker
// script (importScripts), so it is run here in a context of its own with the worker's globals.
//
//   node --test tests/shell/worker-turns.test.mjs
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';

const source = readFileSync(new URL('../../web/shell/np-worker-turns.js', import.meta.url), 'utf8');
const timers = [];  // the delays the loop asked setTimeout for
// A port with a listener keeps Node's process alive: the loops' channels are closed at the end.
const channels = [];
class Channel extends MessageChannel {
  constructor() { super(); channels.push(this); }
}
after(() => channels.forEach(c => { c.port1.close(); c.port2.close(); }));
const worker = { MessageChannel: Channel, setTimeout: (fn, ms) => { timers.push(ms); return setTimeout(fn, ms); } };
runInNewContext(source, worker);
const { trainerLoop } = worker;

// A trainer of `steps` steps: one step a slice; with `pace` (steps a second) each step is due
// 1000/pace ms after the last.
function trainerOf(steps, pace = 0) {
  let taken = 0, running = false, lastAt = 0;
  return {
    handle(message) { running = message.type === 'train' && taken < steps; lastAt = performance.now() - 1e6; return []; },
    running: () => running,
    slice() {           // as TrainWorker::work: nothing before the step is due
      if (this.waitMs() > 0) return [];
      taken++;
      lastAt = performance.now();
      if (taken === steps) running = false;
      return [{ step: taken, running }];
    },
    waitMs: () => (pace ? Math.max(0, lastAt + 1000 / pace - performance.now()) : 0),
    get taken() { return taken; },
    stop() { running = false; },
  };
}
const done = replies => new Promise(resolve => {
  const poll = () => (replies.at(-1)?.running === false ? resolve() : setTimeout(poll, 5));
  poll();
});

test('unpaced, the slices follow one another without a timer', async () => {
  timers.length = 0;
  const trainer = trainerOf(50), replies = [];
  trainerLoop(() => trainer, t => t.slice(), r => replies.push(r)).handle({ type: 'train' });
  await done(replies);
  assert.equal(trainer.taken, 50);
  assert.deepEqual(timers, []);
});

test('paced, the loop sleeps until each step is due, and 20 steps at 200 a second take about 0.1 s', async () => {
  timers.length = 0;
  const trainer = trainerOf(20, 200), replies = [];
  const start = performance.now();
  trainerLoop(() => trainer, t => t.slice(), r => replies.push(r), t => t.waitMs()).handle({ type: 'train' });
  await done(replies);
  const took = performance.now() - start;
  assert.equal(trainer.taken, 20);
  assert.ok(timers.length >= 19, `${timers.length} sleeps`);  // one between steps at least, none before the first
  assert.ok(timers.every(ms => Number.isInteger(ms) && ms >= 1 && ms <= 5), `sleeps of ${timers} ms`);
  assert.ok(took >= 19 * 5, `20 steps took ${took.toFixed(0)} ms`);
});

test('a trainer stopped while the loop sleeps takes no further step', async () => {
  const trainer = trainerOf(100, 50), replies = [];
  trainerLoop(() => trainer, t => t.slice(), r => replies.push(r), t => t.waitMs()).handle({ type: 'train' });
  await new Promise(resolve => setTimeout(resolve, 50));
  trainer.stop();
  const taken = trainer.taken;
  assert.ok(taken >= 1 && taken <= 5, `${taken} steps in 50 ms at 50 a second`);
  await new Promise(resolve => setTimeout(resolve, 100));
  assert.equal(trainer.taken, taken);
});
