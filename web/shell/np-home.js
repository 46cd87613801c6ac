// The list comes from lessons/index.json, written at build time from each lesson's front
// matter. Text is set as text, never as HTML.
const list = document.getElementById('np-lessons');
try {
  const lessons = await (await fetch('lessons/index.json')).json();
  list.replaceChildren(...lessons.map(lesson => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `lesson.html?lesson=${encodeURIComponent(lesson.id)}`;
    const title = document.createElement('strong');
    title.textContent = lesson.title || lesson.id;
    const level = document.createElement('span');
    level.className = 'np-level';
    level.textContent = lesson.level || '';
    const summary = document.createElement('p');
    summary.textContent = lesson.summary || '';
    link.append(title, level, summary);
    item.append(link);
    return item;
  }));
  if (!lessons.length) list.textContent = 'No lessons are published yet.';
} catch (error) {
  list.textContent = `The lesson list could not be loaded (${error.message}).`;
}
