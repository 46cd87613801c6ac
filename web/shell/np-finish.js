// np-finish.js: the end of a lesson, and what the home page knows of it (#34).
//
//   start-up            the course's next lesson (lessons/index.json, in each lesson's `order`;
//                       titles in the page's language) goes to the engine (nextLesson), which
//                       offers it in the card after the last section; after the last lesson
//                       the card offers the list of lessons. Embedded in a course site, the
//                       site leads the way: no other lesson is offered.
//   'progress' event    this lesson's summary (sections read, checks answered and right,
//                       percent, finished) under neuralpath:v1:summary:<lesson>, which the home
//                       page's list shows (np-home.js). Blocked storage: nothing is shown there.
//   'completed' event   said aloud (the live region) and in a note with the next lesson's link
//
// Words come from the engine's catalogue ([finish]); nothing here changes the learner's
// progress, which the engine owns (np-storage.js keeps it).
import { noteSlot } from './np-mirror.js';
import { progressSummary } from './np-protocol.js';

const np = window.neuralpath;
const t = (key, args) => np.text(key, args);
export const SUMMARY_PREFIX = 'neuralpath:v1:summary:';

let next = null;  // {href, title}: title '' after the last lesson

// The lesson after this one in the course's order, with its title in the page's language.
async function nextLesson() {
  const read = async path => {
    try {
      const response = await fetch(path);
      return response.ok ? await response.json() : [];
    } catch { return []; }
  };
  const lessons = await read('lessons/index.json');
  if (!Array.isArray(lessons) || !lessons.length) return null;
  const lang = np.params.lang;
  const titles = new Map(lang && lang !== 'en'
    ? (await read(`lessons/${lang}/index.json`)).filter(l => l && l.id).map(l => [l.id, l.title]) : []);
  // The home page's order: by `order`, those without one after, by id.
  const rank = lesson => (lesson.order > 0 ? lesson.order : Infinity);
  const ordered = lessons.filter(l => l && typeof l.id === 'string')
    .sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
  const here = ordered.findIndex(l => l.id === np.params.lesson);
  if (here < 0) return null;
  const after = ordered[here + 1];
  // An explicit ?lang= goes on, as the home page passes it on; so does a platform's launch
  // (?platform=1: nothing this browser keeps is shown or written, np-storage.js).
  const langPart = [new URLSearchParams(location.search).has('lang') ? `lang=${encodeURIComponent(lang)}` : '', np.params.platform ? 'platform=1' : '']
    .filter(Boolean).join('&');
  if (!after) return { href: `./${langPart ? `?${langPart}` : ''}`, title: '' };
  return { href: `lesson.html?lesson=${encodeURIComponent(after.id)}${langPart ? `&${langPart}` : ''}`,
           title: String(titles.get(after.id) || after.title || after.id) };
}

function saveSummary() {
  // Launched by a learning platform: this browser's list of lessons is not this learner's (a
  // shared computer), and the platform keeps their progress (np-storage.js).
  if (np.params.platform) return;
  const state = np.state();
  const s = progressSummary(state);
  if (!s) return;
  const current = (state.sections || []).find(section => section.anchor === state.section);
  const summary = { sections: s.sections, visited: s.visited, checks: s.checks, answered: s.answered,
    correct: s.correct, percent: s.percent, completed: !!s.completed, section: current ? current.title : '',
    saved: new Date().toISOString() };
  try { localStorage.setItem(SUMMARY_PREFIX + np.params.lesson, JSON.stringify(summary)); } catch { /* not kept */ }
}

let finishedNote = null;
function sayFinished() {
  np.announce(t('finish.done', { title: np.state()?.title || '' }));
  if (finishedNote || np.params.embed) return;
  finishedNote = document.createElement('div');
  finishedNote.className = 'np-note np-note-info np-finish-note';
  finishedNote.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = t('finish.done', { title: np.state()?.title || '' });
  finishedNote.append(text);
  if (next) {
    const link = document.createElement('a');
    link.href = next.href;
    link.textContent = next.title ? t('page.next_lesson', { title: next.title }) : t('page.all_lessons');
    finishedNote.append(' ', link);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'np-note-dismiss';
  close.textContent = '✕';
  close.setAttribute('aria-label', t('finish.dismiss'));
  close.addEventListener('click', () => finishedNote.remove());
  finishedNote.append(' ', close);
  noteSlot().append(finishedNote);
}

np.events.addEventListener('progress', saveSummary);
np.events.addEventListener('completed', sayFinished);

(async () => {
  try { await np.ready; } catch { return; }  // the page says why it failed
  if (np.params.embed) return;
  next = await nextLesson();
  if (next) {
    try { np.command({ type: 'nextLesson', href: next.href, title: next.title }); } catch (error) {
      console.warn(`finish: ${error.message}`);
    }
  }
  saveSummary();
})();
