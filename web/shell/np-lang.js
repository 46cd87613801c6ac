// The page's language: which catalogue (lessons/strings/<code>.strings) and which lesson file
// (lessons/<code>/ID.md, else the original) a page shows, and the switch that changes it.
//
//   chooseLanguage(params)   'es' or 'en'...: ?lang=, else the learner's remembered choice,
//                            else the browser's preferred languages (navigator.languages),
//                            else English. Only languages the site ships count.
//   lessonPath(id, lang)     where that lesson's text is in that language (or the original)
//   languageSwitch(current)  a <select> that remembers the choice and reopens the page in it
//
// The languages the site ships are lessons/languages.json ({"en": "English", "es": "Español"}),
// written at build time from the catalogues' [language] name (web/assemble_site.cmake); adding
// a language is adding files (docs/translating.md), never editing this one.

const STORE_KEY = 'neuralpath:lang';   // the learner's choice (np-storage.js keeps progress)

let shipped = null;
export async function shippedLanguages() {
  if (!shipped) {
    shipped = (async () => {
      try {
        const list = await (await fetch('lessons/languages.json')).json();
        if (list && typeof list === 'object' && !Array.isArray(list) && typeof list.en === 'string') return list;
      } catch { /* a site without the list: English alone */ }
      return { en: 'en' };   // the menu hides itself with one language, so its name never shows
    })();
  }
  return shipped;
}

function remembered() {
  try { return localStorage.getItem(STORE_KEY); } catch { return null; }
}

export function rememberLanguage(code) {
  try { localStorage.setItem(STORE_KEY, code); } catch { /* storage blocked: the URL still says it */ }
}

// "es-MX" -> "es"; a shipped regional variant ("pt-br") wins over its base language.
function match(tag, available) {
  const lower = String(tag || '').toLowerCase();
  if (available.includes(lower)) return lower;
  const base = lower.split('-')[0];
  return available.includes(base) ? base : null;
}

// The first of ?lang=, the remembered choice and the browser's languages that the site ships.
// English is always shipped, so a page whose first wish is English starts without waiting for
// the list (lessons/languages.json): the usual case costs no round trip.
export async function chooseLanguage(params) {
  const wishes = [params.get('lang'), remembered(), ...(navigator.languages || [navigator.language])]
    .filter(tag => typeof tag === 'string' && tag);
  if (!wishes.length || match(wishes[0], ['en'])) return 'en';
  const available = Object.keys(await shippedLanguages());
  for (const tag of wishes) {
    const found = match(tag, available);
    if (found) return found;
  }
  return 'en';
}

// The lesson's text in `lang`: lessons/<lang>/ID.md when the site has that translation
// (lessons/<lang>/index.json lists it), else the original lessons/ID.md.
export async function lessonPath(id, lang) {
  if (lang === 'en') return { path: `lessons/${id}.md`, translated: true };
  try {
    const list = await (await fetch(`lessons/${lang}/index.json`)).json();
    if (Array.isArray(list) && list.some(entry => entry && entry.id === id))
      return { path: `lessons/${lang}/${id}.md`, translated: true };
  } catch { /* no translations in this language yet */ }
  return { path: `lessons/${id}.md`, translated: false };
}

// A labelled <select> of the shipped languages, each named in its own language. Choosing one
// remembers it and reopens this page in it, at `where()` (the current section).
export async function languageSwitch(current, label, where = () => null) {
  const languages = await shippedLanguages();
  const select = document.createElement('select');
  select.className = 'np-tool np-lang';
  select.setAttribute('aria-label', label);
  select.title = label;
  for (const [code, name] of Object.entries(languages)) {
    const option = document.createElement('option');
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === current;
    select.append(option);
  }
  select.hidden = Object.keys(languages).length < 2;
  select.addEventListener('change', () => {
    rememberLanguage(select.value);
    const url = new URL(location.href);
    url.searchParams.set('lang', select.value);
    const section = where();
    if (section) url.searchParams.set('section', section);
    location.assign(url.href);
  });
  return select;
}
