// A body from outside the page, read to its end as one Uint8Array, counted as it arrives and
// refused past a ceiling: the lesson (np-app.js), the engine's font package (np-app.js), a
// shared link's inflated state (np-share.js) and a language model's file (np-models.js).
//
//   const bytes = await readAll(response.body, {
//     limit: 1 << 20,                                  // optional; no ceiling by default
//     tooBig: length => new Error(`${length} bytes`),  // what is thrown past the limit
//     onBytes: received => progress(received),         // after each piece
//   });
//
// Past `limit` the stream is cancelled, so nothing more is downloaded or inflated, and
// tooBig(the bytes read so far) is thrown: a hostile link that inflates to gigabytes stops at
// the limit, not at the end of memory (#35).
// A caller with a limit passes tooBig, the error in the learner's words; the default is for code.
export async function readAll(stream, { limit = Infinity, tooBig = length => new RangeError(`${length} > ${limit}`),
  onBytes = () => {} } = {}) {
  const reader = stream.getReader();
  const parts = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      reader.cancel().catch(() => {});
      throw tooBig(length);
    }
    parts.push(value);
    onBytes(length);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) { bytes.set(part, at); at += part.length; }
  return bytes;
}
