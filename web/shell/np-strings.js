// The string catalogue for the page's own words before the engine runs (loading, "this browser
// has no WebGL2", a lesson that cannot be opened): the same lessons/strings/<lang>.strings file
// the engine compiles in (engine/text/catalogue.h), read here with the same rules, because
// these words must show even when the engine never starts. Once it runs, words come from
// neuralpath.text() (the engine's catalogue), so the two never need to agree on more than this
// file. The file format is documented at the top of lessons/strings/en.strings.
//
//   await loadStrings('en');  words('app.loading', { done: 12, total: 900 })

let entries = new Map();

// "key = text" lines under "[section]" headers; '#' comments; "\n" a line break, "\s" a space.
export function parseStrings(text) {
  const out = new Map();
  let section = '';
  for (const raw of String(text).split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.includes('\0')) continue;   // the engine skips a line with NUL too
    if (line.startsWith('[') && line.endsWith(']')) { section = line.slice(1, -1).trim(); continue; }
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (!/^[A-Za-z0-9_.-]+$/.test(key)) continue;
    const full = section ? `${section}.${key}` : key;
    if (!out.has(full)) out.set(full, line.slice(eq + 1).trim().replace(/\\([ns])/g, (_, c) => (c === 'n' ? '\n' : ' ')));
  }
  return out;
}

// English, then the page's language over it (a key it lacks stays English), as the engine does.
export async function loadStrings(lang = 'en') {
  const read = async code => {
    try {
      const response = await fetch(`lessons/strings/${code}.strings`);
      return response.ok ? parseStrings(await response.text()) : new Map();
    } catch { return new Map(); }
  };
  entries = await read('en');
  if (lang && lang !== 'en') for (const [key, value] of await read(lang)) entries.set(key, value);
  return entries;
}

// The page's HTML names its words by key, so the HTML holds no English of its own:
// data-np-text="key" sets an element's text (the <title> too), data-np-label="key" its aria-label.
// Called once the catalogue is loaded (np-app.js, np-home.js).
export function fillPage(root = document) {
  for (const node of root.querySelectorAll('[data-np-text]')) node.textContent = words(node.dataset.npText);
  for (const node of root.querySelectorAll('[data-np-label]')) node.setAttribute('aria-label', words(node.dataset.npLabel));
}

// A count's key, picked as the engine's tr_n picks it (engine/text/catalogue.h): "key.one" when
// the count is 1, "key.other" for any other count (0 included). English and Spanish share this
// rule; the catalogue gives both forms (docs/translating.md, "Counts").
export const countKey = (key, n) => `${key}.${Number(n) === 1 ? 'one' : 'other'}`;

// The words for `key` with {name} filled from `args`; {{ and }} are braces. A missing key
// shows the key itself, never nothing.
export function words(key, args = {}) {
  const pattern = entries.get(key);
  if (pattern === undefined) return key;
  return pattern.replace(/\{\{|\}\}|\{([A-Za-z0-9_]+)\}/g, (match, name) =>
    (match === '{{' ? '{' : match === '}}' ? '}' : name in args ? String(args[name]) : match));
}
