// Every word the launch pages show a learner, from the catalogue's [lms] section
// (lessons/strings/<lang>.strings, the file the engine compiles in): these pages speak before
// the engine runs, or without it, so they read the file themselves with the page's own reader
// (np-strings.js, at the package's root beside lesson.html).
//
//   await loadWords(platformLanguage)   picks the language (below), loads its catalogue over the
//                                       English one, sets <html lang>; resolves to the code
//   say('cmi5_exit', {reason})          the words for key lms.<key>, {placeholders} filled in
//   useWords(map)                       a catalogue already read (Node tests: parseStrings)
//
// The language: the platform's wish for this learner first (SCORM 1.2's
// cmi.student_preference.language, cmi5's languagePreference), then as every page of the site
// picks it (np-lang.js: the learner's remembered choice, the browser's languages, English).
// The lesson in the frame is opened in the same language.

let catalogue = new Map();

export function useWords(map) { catalogue = map instanceof Map ? map : new Map(); }

export async function loadWords(platformLanguage = '') {
  let lang = 'en';
  try {
    const [{ loadStrings }, { chooseLanguage }] = await Promise.all([import('../np-strings.js'), import('../np-lang.js')]);
    const params = new URLSearchParams();
    // "es-ES,en-US" (cmi5) or "es" (SCORM): its first tag is the learner's first wish.
    const first = String(platformLanguage || '').split(',')[0].trim();
    if (/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(first)) params.set('lang', first);
    lang = await chooseLanguage(params);
    useWords(await loadStrings(lang));
  } catch (error) {
    console.warn(`neuralpath: the launch page's words could not be loaded: ${error.message}`);
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  return lang;
}

// A missing key shows the key itself, never nothing.
export function say(key, args = {}) {
  const template = catalogue.get(`lms.${key}`) ?? `lms.${key}`;
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) =>
    (whole === '{{' ? '{' : whole === '}}' ? '}' : Object.hasOwn(args, name) ? String(args[name]) : whole));
}
