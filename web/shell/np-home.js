// The list comes from lessons/index.json, written at build time from each lesson's front
// matter. Text is set as text, never as HTML; the page's own words come from the catalogue
// (lessons/strings/, np-strings.js).
import { chooseLanguage, languageSwitch } from './np-lang.js';
import { fillPage, loadStrings, words } from './np-strings.js';

// In the page's language (np-lang.js): titles and summaries from lessons/<lang>/index.json
// where a lesson is translated, the original's otherwise. An explicit ?lang= is passed on.
const params = new URLSearchParams(location.search);
const lang = await chooseLanguage(params);
document.documentElement.lang = lang;
await loadStrings(lang);
fillPage();
// The language menu, as on a lesson page: it remembers the choice and reopens this list in it.
document.querySelector('.np-chrome')?.append(await languageSwitch(lang, words('language.choose')));

// What the lesson pages noted in this browser (np-finish.js): sections read, checks answered,
// finished or not. None (never opened, storage blocked): nothing is shown. Nor in a learning
// platform's launch (?platform=1, the list reached from a lesson there): this browser's notes may
// be another learner's.
const platformLaunch = params.get('platform') === '1';
function progressOf(id) {
  if (platformLaunch) return null;
  let summary = null;
  try { summary = JSON.parse(localStorage.getItem(`neuralpath:v1:summary:${id}`) || 'null'); } catch { return null; }
  const whole = n => Number.isInteger(n) && n >= 0;
  if (!summary || typeof summary !== 'object' || !['sections', 'visited', 'checks', 'answered', 'correct', 'percent']
    .every(key => whole(summary[key]))) return null;
  const box = document.createElement('span');
  box.className = 'np-lesson-progress';
  const bar = document.createElement('span');
  bar.className = 'np-lesson-bar';
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-label', words('home.progress_label'));
  bar.setAttribute('aria-valuemin', '0');
  bar.setAttribute('aria-valuemax', '100');
  const percent = Math.min(100, summary.percent);
  bar.setAttribute('aria-valuenow', String(percent));
  const fill = document.createElement('span');
  fill.style.width = `${percent}%`;
  bar.append(fill);
  const text = document.createElement('span');
  text.className = 'np-lesson-status';
  const plain = summary.checks === 0 ? '_no_checks' : '';
  text.textContent = words(summary.completed ? `home.progress_done${plain}` : `home.progress_partial${plain}`, summary);
  if (!summary.completed && typeof summary.section === 'string' && summary.section)
    text.textContent += ` · ${words('home.progress_where', { section: summary.section })}`;
  box.classList.toggle('np-done', !!summary.completed);
  box.append(bar, text);
  return box;
}
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
    link.href = `lesson.html?lesson=${encodeURIComponent(lesson.id)}${params.has('lang') ? `&lang=${lang}` : ''}${platformLaunch ? '&platform=1' : ''}`;
    const title = document.createElement('strong');
    title.textContent = lesson.title || lesson.id;
    const level = document.createElement('span');
    level.className = 'np-level';
    level.textContent = lesson.level ? words(`levels.${lesson.level}`) : '';
    const summary = document.createElement('p');
    summary.textContent = lesson.summary || '';
    link.append(title, level, summary);
    const progress = progressOf(lesson.id);
    if (progress) link.append(progress);
    item.append(link);
    return item;
  }));
  if (!lessons.length) list.textContent = words('home.none');
} catch (error) {
  list.textContent = words('home.list_failed', { error: error.message });
}
