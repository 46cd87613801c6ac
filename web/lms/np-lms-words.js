// Every word the launch pages show a learner, by key, with named {placeholders}: the same shape
// as the engine's string catalogue (lessons/strings/en.strings), kept here because these pages
// speak before the engine (and its catalogue) has loaded, or without it.
export const WORDS = {
  'launch.no-lesson': 'This launch page does not name a lesson; the package is damaged.',
  'launch.frame-title': 'Lesson',
  'launch.not-restored': 'Your saved place could not be restored ({reason}); the lesson starts at the beginning.',
  'scorm.no-platform': 'No learning platform was found (no SCORM API above this page): the lesson works, but nothing is recorded.',
  'scorm.refused': 'The learning platform refused to start this session ({reason}): nothing will be recorded.',
  'scorm.unreadable': 'Your saved place could not be read ({reason}); the lesson starts at the beginning.',
  'cmi5.no-platform': 'This page was not launched by a cmi5 platform (no launch parameters): the lesson works, but nothing is recorded.',
  'cmi5.refused': 'The learning platform could not start this session ({reason}): nothing will be recorded. ' +
    'If you reloaded this page, open the lesson again from your learning platform.',
  'cmi5.exit': 'Exit lesson',
  'cmi5.left': 'You have left the lesson; you can close this window.',
  'cmi5.left-no-return': 'You have left the lesson; you can close this window. ' +
    '(The learning platform\'s way back is not a web address, so this page does not follow it.)',
  'cmi5.bad-endpoint': 'This launch names a learning record store that is not a web address (http or https): ' +
    'the lesson works, but nothing is recorded. Open the lesson again from your learning platform.',
  'cmi5.ended': 'This session ended when you left the page, so nothing more is recorded. ' +
    'To go on, open the lesson again from your learning platform.',
  'cmi5.failed-start': 'The lesson could not start: {reason}',
  'record.not-object': 'the progress record is not a JSON object',
  'record.too-big': 'the progress record does not fit in {limit} characters even without its answers',
  'record.foreign': 'the stored record was not written by this lesson package',
  'record.cut': 'the stored record is cut short or damaged',
  'record.not-stored-object': 'the stored record is not an object',
};

export function say(key, args = {}) {
  const template = Object.hasOwn(WORDS, key) ? WORDS[key] : key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(args, name) ? String(args[name]) : whole));
}
