// What a learning platform and its LRS hand the cmi5 launch page, checked (np-cmi5.js): the
// launch URL, the launch data and the kept state all come from outside, and whatever LRS the
// launch URL names answers them. Nothing they say is followed or trusted as it is.
// Pure functions: no page, so they are tested in Node (tests/browser/lms-inputs.test.mjs).

// A web address (http or https) as an absolute URL, else null: the LRS endpoint, the token's
// fetch URL and returnURL. A javascript: returnURL followed on Exit would run on this page's
// origin; a data: endpoint would take every statement and keep none. A relative address is
// read against `base` (the launch page's own address in the page).
export function webAddress(text, base = globalThis.location?.href) {
  if (typeof text !== 'string' || !text) return null;
  let url;
  try { url = new URL(text, base); } catch { return null; }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

// The kept state as the launch page writes it: {record: the engine's record (text or object) or
// null, sent: {passed?: true, completed?: true}, widgets: the figures ({id: snapshot}, what
// np-storage.js sends in 'widgets-kept') or null}. Anything else in it is dropped, so a damaged
// state (sent: 1, a record of the wrong type) neither stops the session nor is written back; the
// engine checks each figure's snapshot when it is restored, and leaves out one it refuses.
export function keptState(value) {
  const plain = v => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!plain(value)) return { record: null, sent: {}, widgets: null };
  let record = typeof value.record === 'string' || plain(value.record) ? value.record : null;
  // One that cannot even be written out again (nested past the JS stack) would throw on every
  // save and in the closing page's handler; the engine refuses a merely deep one with a message.
  try { JSON.stringify(record); } catch { record = null; }
  let widgets = plain(value.widgets) && Object.keys(value.widgets).length ? value.widgets : null;
  try { JSON.stringify(widgets); } catch { widgets = null; }
  const sent = {};
  if (plain(value.sent)) for (const verb of ['passed', 'completed']) if (value.sent[verb] === true) sent[verb] = true;
  return { record, sent, widgets };
}
