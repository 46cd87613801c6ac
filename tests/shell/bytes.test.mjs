// web/shell/np-bytes.js without a browser: a body read whole, its progress, and its ceiling.
//
//   node --test tests/shell/bytes.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { readAll } from '../../web/shell/np-bytes.js';

// A stream of the given pieces; `cancelled` tells whether the reader gave up on it, and `pulled`
// how many pieces were asked for.
function pieces(...chunks) {
  const seen = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream({
    pull(controller) {
      if (seen.pulled === chunks.length) return controller.close();
      controller.enqueue(Uint8Array.from(chunks[seen.pulled++]));
    },
    cancel() { seen.cancelled = true; },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

test('the pieces come back as one array, in order, with the count after each piece', async () => {
  const { stream } = pieces([1, 2, 3], [], [4], [5, 6]);
  const counts = [];
  const bytes = await readAll(stream, { onBytes: n => counts.push(n) });
  assert.deepEqual([...bytes], [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(counts, [3, 3, 4, 6]);
});

test('an empty body is an empty array', async () => {
  assert.equal((await readAll(pieces().stream)).length, 0);
});

test('exactly the limit is read; one byte more throws the caller\'s error and stops reading', async () => {
  assert.deepEqual([...await readAll(pieces([1, 2], [3, 4]).stream, { limit: 4 })], [1, 2, 3, 4]);

  const { stream, seen } = pieces([1, 2], [3, 4, 5], [6], [7]);
  const counts = [];
  await assert.rejects(readAll(stream, { limit: 4, tooBig: n => new RangeError(`refused at ${n}`), onBytes: n => counts.push(n) }),
    { name: 'RangeError', message: 'refused at 5' });
  assert.equal(seen.cancelled, true, 'the stream is cancelled, so nothing more downloads or inflates');
  assert.equal(seen.pulled, 2, 'no piece is asked for after the one that went over');
  assert.deepEqual(counts, [2], 'the piece that went over is not reported as received');
});
