// The list comes from lessons/index.json, written at build time from each lesson's front
// matter. Text is set as text, never as HTML; the page's own words come from the catalogue
// (lessons/strings/, np-strings.js).
import { chooseLanguage } from './np-lang.js';
import { fillPage, loadStrings, words } from './np-strings.js';

// In the page's language (np-lang.js): titles and summaries from lessons/<lang>/index.json
// where a lesson is translated, the original's otherwise. An explicit ?lang= is passed on.
const params = new URLSearchParams(location.search);
const lang = await chooseLanguage(params);
document.documentElement.lang = lang;
await loadStrings(lang);
fillPage();
async function translated() {
  if (lang === 'en') return new Map();
  try { return new Map((await (await fetch(`lessons/${lang}/index.json`)).json()).map(l => [l.id, l])); } catch { return new Map(); }
}

const list = document.getElementById('np-lessons');
try {
  const ours = await translated();
  // In the course's order (each lesson's `order`, docs/lesson-format.md); those without one after, by id.
  const rank = lesson => (lesson.order > 0 ? lesson.order : Infinity);
  const lessons = (await (await fetch('lessons/index.json')).json()).map(l => ({ ...l, ...(ours.get(l.id) || {}) }))
    .sort((a, b) => rank(a) - rank(b) || String(a.id).localeCompare(String(b.id)));
  list.replaceChildren(...lessons.map(lesson => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `lesson.html?lesson=${encodeURIComponent(lesson.id)}${params.has('lang') ? `&lang=${lang}` : ''}`;
    const title = document.createElement('strong');
    title.textContent = lesson.title || lesson.id;
    const level = document.createElement('span');
    level.className = 'np-level';
    level.textContent = lesson.level ? words(`levels.${lesson.level}`) : '';
    const summary = document.createElement('p');
    summary.textContent = lesson.summary || '';
    link.append(title, level, summary);
    item.append(link);
    return item;
  }));
  if (!lessons.length) list.textContent = words('home.none');
} catch (error) {
  list.textContent = words('home.list_failed', { error: error.message });
}
