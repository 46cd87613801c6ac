// What the SCORM and cmi5 launch pages share: which lesson the page launches, a note line
// for the learner, and the lesson itself in a frame of the same package (same origin, so the
// launch page talks to it through its public window.neuralpath: ready, command(), state(),
// events).
//
// The frame may navigate (the lesson's own links to the lesson list and back): each time it
// shows this lesson again and is ready, onReady gets its window.neuralpath.

import { say } from './np-lms-words.js';

// The lesson id is written into each launch page when the package is built.
export function launchedLesson() {
  const id = document.querySelector('meta[name="neuralpath-lesson"]')?.content || '';
  return /^[a-z0-9][a-z0-9-]{0,63}$/.test(id) ? id : null;
}

const noteLine = () => document.getElementById('np-lms-note');

// A short line above the lesson (text only); '' hides it.
export function note(text) {
  const line = noteLine();
  if (!line) return;
  line.textContent = text;
  line.hidden = !text;
}

// `lang`: the launch page's language, so the lesson speaks it too. `platform`: a learning
// platform keeps this learner's record (progress and figures), so the lesson neither restores
// nor writes what this browser keeps: on a shared computer that is another learner's
// (np-storage.js, ?platform=1).
export function openLesson(lessonId, { section = '', lang = '', platform = false, onReady }) {
  const frame = document.createElement('iframe');
  frame.id = 'np-lms-lesson';
  frame.title = say('frame_title');
  let src = `lesson.html?lesson=${encodeURIComponent(lessonId)}`;
  if (section) src += `&section=${encodeURIComponent(section)}`;
  if (lang) src += `&lang=${encodeURIComponent(lang)}`;
  if (platform) src += '&platform=1';
  frame.src = src;
  frame.addEventListener('load', async () => {
    let np = null;
    try { np = frame.contentWindow.neuralpath; } catch { return; }   // somewhere else entirely
    if (!np || np.params?.lesson !== lessonId) return;
    try { await np.ready; } catch { return; }   // the lesson page shows its own error
    frame.title = np.state()?.title || frame.title;
    onReady(np);
  });
  document.getElementById('np-lms-stage').append(frame);
  return frame;
}
