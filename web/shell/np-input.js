// np-input.js: pointer input for the canvas that GLFW's Emscripten port gets wrong, and the
// reduced-motion preference. It touches nothing but the canvas's own events and one engine
// command, so the lesson page works the same with or without it (desktop mouse is untouched).
//
//   touch   GLFW reads a finger's position from a field only SDL sets, so a tap "clicks" where
//           the previous tap was and a drag never moves. We turn the first finger into the
//           mouse events GLFW does read (mousemove / mousedown / mouseup at the finger), so a
//           tap clicks where it lands and a drag on the page scrolls it (the engine decides
//           what a drag means: scroll, or a slider).
//   wheel   GLFW hands ImGui the raw pixel delta with the wrong sign (a notch down becomes
//           "100 notches up"). We pass on the same event in ImGui's units: one notch per
//           100 pixels, positive for up, fractions kept so trackpads scroll smoothly.
//   motion  prefers-reduced-motion -> the engine's reducedMotion command (no coasting after
//           a flick, no glides to a section).
//   typing  a phone opens its keyboard only for a focused DOM text field: while a text field in
//           the canvas is active on a touch screen, a hidden stand-in field takes the focus and
//           passes text and editing keys to the engine (see [SECTION] Typing on a phone).
//   keys    on a desk the same queue takes the characters and editing keys typed into a canvas
//           text field, and the keys that press a button or scroll while the canvas has focus,
//           since ImGui 1.86 loses a key pressed and released between two frames (see
//           [SECTION] Keys on a desk).
//
// Our listeners are registered on the canvas before GLFW's (np-app.js imports this module before
// it adds the engine's script), in the same capture group, so stopImmediatePropagation() keeps GLFW from also
// seeing the browser's originals. Listeners further up (an embedding host that lets the wheel
// scroll its own page) still run first and still decide.
const canvas = document.getElementById('canvas');

// [SECTION] Touch -> mouse -----------------------------------------------------------------------
let finger = null;  // identifier of the touch we follow

function mouse(type, touch, buttons) {
  canvas.dispatchEvent(new MouseEvent(type, {
    bubbles: true, cancelable: true, view: window, button: 0, buttons,
    clientX: touch.clientX, clientY: touch.clientY, screenX: touch.screenX, screenY: touch.screenY,
  }));
}

function followed(list) {
  for (const touch of list) if (touch.identifier === finger) return touch;
  return null;
}

// Embedded in a course page (np-embed) the host page scrolls, not the engine (its frame is as
// tall as the lesson): a finger's upright swipe must reach the browser, which pans the host page
// with the finger (touch-action: pan-y in np-mirror.css). Cancelling the touchstart, as on the
// lesson's own page, stopped that pan: the engine scrolled inside its canvas and the host page
// jumped only once the finger had lifted (#15). So there nothing is cancelled or passed on until
// the finger shows what it means: upright past SLOP_PX, the browser's pan (the engine sees
// nothing); sideways, a drag passed on from where it landed (a slider, the timeline); lifted
// before that, a tap.
const embedded = document.documentElement.classList.contains('np-embed');  // np-app.js ran first
const SLOP_PX = 8;   // a finger's wobble, as the engine's own TouchGesture
let held = null;     // embedded: where the undecided finger landed; 'pan' or 'drag' once decided

function fingerPress(touch) {
  try { window.neuralpath.input.fingerDown(); } catch { /* the engine is still loading */ }
  mouse('mousemove', touch, 0);  // move first, so the press lands where the finger is
  mouse('mousedown', touch, 1);
}

canvas.addEventListener('touchstart', event => {
  if (!event.isTrusted) return;
  event.stopImmediatePropagation();
  if (!embedded) event.preventDefault();  // no emulated mouse events after the touch: we send our own
  if (finger !== null) return;  // a second finger is ignored
  const touch = event.changedTouches[0];
  finger = touch.identifier;
  canvas.focus({ preventScroll: true });
  if (embedded) {
    held = { clientX: touch.clientX, clientY: touch.clientY, screenX: touch.screenX, screenY: touch.screenY };
    return;
  }
  // The engine holds a finger's press back until it shows a tap, a scroll or a sideways drag
  // (engine/ui/page_scroll.h), so a swipe that starts on a widget still scrolls the lesson.
  fingerPress(touch);
}, { capture: true, passive: false });

canvas.addEventListener('touchmove', event => {
  if (!event.isTrusted) return;
  event.stopImmediatePropagation();
  const touch = followed(event.changedTouches);
  if (embedded && held && held !== 'pan' && held !== 'drag' && touch) {
    const dx = touch.clientX - held.clientX, dy = touch.clientY - held.clientY;
    if (Math.abs(dx) + Math.abs(dy) <= SLOP_PX) return;
    if (Math.abs(dy) >= Math.abs(dx)) { held = 'pan'; return; }  // the browser pans the host page
    mouse('mousemove', held, 0);  // a drag: pressed where it landed (no finger_down: at once)
    mouse('mousedown', held, 1);
    held = 'drag';
  }
  if (held === 'pan') return;
  if (event.cancelable) event.preventDefault();
  if (touch) mouse('mousemove', touch, 1);
}, { capture: true, passive: false });

for (const type of ['touchend', 'touchcancel']) {
  canvas.addEventListener(type, event => {
    if (!event.isTrusted) return;
    event.stopImmediatePropagation();
    if (event.cancelable) event.preventDefault();  // embedded too: no emulated mouse events, no click
    const touch = followed(event.changedTouches);
    if (!touch) return;
    finger = null;
    const was = held;
    held = null;
    if (was === 'pan') return;
    if (embedded && was !== 'drag') {
      if (type === 'touchcancel') return;
      fingerPress(was);  // a tap: the engine's TouchGesture turns press + release into a click
    }
    mouse('mouseup', touch, 0);
    // A finger leaves no pointer behind: once the engine has seen the release (two frames
    // on), the mouse moves off the canvas so the tapped option does not stay "hovered".
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (finger === null) mouse('mousemove', { clientX: -10000, clientY: -10000, screenX: 0, screenY: 0 }, 0);
    }));
  }, { capture: true, passive: false });
}

// [SECTION] Wheel in ImGui's units ----------------------------------------------------------------
const PIXELS_PER_NOTCH = 100;
const toPixels = (delta, mode) => mode === 1 ? delta * 33 : mode === 2 ? delta * canvas.clientHeight : delta;

canvas.addEventListener('wheel', event => {
  if (!event.isTrusted) return;
  event.stopImmediatePropagation();
  event.preventDefault();
  // GLFW passes deltaX/deltaY straight to ImGui, whose wheel is in notches with up positive.
  canvas.dispatchEvent(new WheelEvent('wheel', {
    bubbles: true, cancelable: true, view: window, deltaMode: 0,
    clientX: event.clientX, clientY: event.clientY, shiftKey: event.shiftKey,
    deltaX: -toPixels(event.deltaX, event.deltaMode) / PIXELS_PER_NOTCH,
    deltaY: -toPixels(event.deltaY, event.deltaMode) / PIXELS_PER_NOTCH,
  }));
}, { capture: true, passive: false });
// The legacy event would be counted a second time.
canvas.addEventListener('mousewheel', event => { if (event.isTrusted) event.stopImmediatePropagation(); },
  { capture: true });

// [SECTION] Typing on a phone -----------------------------------------------------------------------
// What a phone's keyboard sends, and what the engine gets (web/main.cpp holds each key one frame):
//   beforeinput insertText, insertReplacementText, insertFromPaste  -> the text
//   beforeinput deleteContentBackward / deleteWordBackward          -> Backspace / Ctrl+Backspace
//   beforeinput deleteContentForward / deleteWordForward            -> Delete / Ctrl+Delete
//   beforeinput insertLineBreak / insertParagraph, keydown Enter    -> Enter (submits the field)
//   keydown Backspace, Delete, ←, →, Home, End (Shift selects), Ctrl/⌘+A, Escape -> the same key
//   a word the keyboard is still composing                          -> its text once committed
// Android keyboards send no key and no event for Backspace in an empty field, so the stand-in
// always holds a little padding for them to delete; every edit is taken over (preventDefault)
// and the padding put back. Characters the page cannot draw (emoji) are refused, with a note.
const GLFW = { Backspace: 259, Delete: 261, Enter: 257, Escape: 256, ArrowLeft: 263, ArrowRight: 262,
  Home: 268, End: 269, a: 65, A: 65 };
const MOD_SHIFT = 1, MOD_CONTROL = 2;
const PADDING = '\u00a0'.repeat(8);
let standIn = null, note = null, noteTimer = 0;

// The engine's input (neuralpath.input); a call that fails is said on the console, and the key or
// text is dropped, never the page.
function inputCall(call) {
  try { return call(window.neuralpath.input); } catch (error) {
    console.warn(`typing: ${error.message}`);
    return null;
  }
}
const pressKey = (key, mods = 0) => inputCall(input => input.press(key, mods));

function typeText(text) {
  if (!text) return;
  const refused = inputCall(input => input.type(text));
  if (refused) showNote(refused);
}

// "🙂 cannot be typed here": said where the keyboard is, and to screen readers.
function showNote(refused) {
  if (!note) {
    note = document.createElement('div');
    note.className = 'np-typing-note';
    note.setAttribute('role', 'status');
    document.getElementById('np-stage').append(note);
  }
  const chars = [...new Set(Array.from(refused))].join(' ');
  note.textContent = window.neuralpath.text('playback-ui.cannot_type', { chars });
  note.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => { note.hidden = true; }, 4000);
}

function resetPadding() {
  standIn.value = PADDING;
  standIn.setSelectionRange(PADDING.length, PADDING.length);
}

function onBeforeInput(event) {
  if (event.isComposing || event.inputType === 'insertCompositionText') return;  // committed at compositionend
  const type = event.inputType;
  let handled = true;
  if (type === 'insertText' || type === 'insertReplacementText' || type === 'insertFromPaste' || type === 'insertFromDrop') {
    typeText(event.data ?? event.dataTransfer?.getData('text/plain') ?? '');
  } else if (type === 'deleteContentBackward') pressKey(GLFW.Backspace);
  else if (type === 'deleteWordBackward' || type === 'deleteSoftLineBackward') pressKey(GLFW.Backspace, MOD_CONTROL);
  else if (type === 'deleteContentForward') pressKey(GLFW.Delete);
  else if (type === 'deleteWordForward') pressKey(GLFW.Delete, MOD_CONTROL);
  else if (type === 'insertLineBreak' || type === 'insertParagraph') pressKey(GLFW.Enter);
  else handled = false;
  if (handled && event.cancelable) event.preventDefault();
  if (handled && !event.cancelable) queueMicrotask(resetPadding);
}

function onKeyDown(event) {
  if (event.isComposing || event.keyCode === 229) return;  // the keyboard is composing: beforeinput follows
  const command = event.ctrlKey || event.metaKey;
  if ((event.key === 'a' || event.key === 'A') && command) {
    pressKey(GLFW.a, MOD_CONTROL);  // select all
  } else if (event.key in GLFW && event.key.length > 1) {
    const mods = (event.shiftKey ? MOD_SHIFT : 0) | (command ? MOD_CONTROL : 0);
    pressKey(GLFW[event.key], mods);
  } else {
    return;  // a character: its beforeinput brings the text
  }
  event.preventDefault();
}

// Browsers that let an edit through anyway (no beforeinput): what changed against the padding.
function onInput() {
  if (standIn.value === PADDING) return;
  const value = standIn.value;
  if (value.startsWith(PADDING)) typeText(value.slice(PADDING.length));
  else for (let n = PADDING.length - value.length; n > 0; n--) pressKey(GLFW.Backspace);
  resetPadding();
}

function standInKeyboard(wanted) {
  if (!matchMedia('(pointer: coarse)').matches) return;
  if (!standIn) {
    standIn = document.createElement('input');
    standIn.className = 'np-keyboard-stand-in';
    // Out of the tab order (the canvas is the control) but named, since it takes focus.
    standIn.tabIndex = -1;
    standIn.setAttribute('aria-label', window.neuralpath.text('app.typing'));  // the engine runs by now
    standIn.setAttribute('enterkeyhint', 'go');
    standIn.autocapitalize = 'off';
    standIn.autocomplete = 'off';
    standIn.spellcheck = false;
    standIn.addEventListener('beforeinput', onBeforeInput);
    standIn.addEventListener('keydown', onKeyDown);
    standIn.addEventListener('input', () => { if (!standIn.__composing) onInput(); });
    standIn.addEventListener('compositionstart', () => { standIn.__composing = true; });
    standIn.addEventListener('compositionend', event => {
      standIn.__composing = false;
      typeText(event.data);
      queueMicrotask(resetPadding);
    });
    document.getElementById('np-stage').append(standIn);
  }
  if (wanted) {
    resetPadding();
    standIn.focus({ preventScroll: true });
  } else if (document.activeElement === standIn) canvas.focus({ preventScroll: true });
}

// [SECTION] Keys on a desk ------------------------------------------------------------------------
// GLFW's port tells ImGui 1.86 each key's state, and ImGui reads it once per frame: a key pressed
// and released between two frames is never seen, and two presses count once. A frame can take
// 150 ms on a busy machine, so a quick typist's Backspaces vanished (nine in a row deleted one
// character), an Enter on a focused button could be lost, and so could an arrow that scrolls.
// So a key for the canvas goes through the phone's queue instead (web/main.cpp holds each key
// down for one frame and lets it go on the next; text keeps its order):
//   a text field in the canvas has the keyboard: characters and the editing keys (GLFW above);
//     a character the page cannot draw gets the phone's note. Tab, ↑ ↓ and Ctrl+C / V / X
//     still go to GLFW.
//   no text field, the canvas focused: the keys that press the focused button and move the page
//     (NAVIGATION), Shift kept (Shift+Space pages up). Tab is not one of them: np-app.js never
//     lets it reach the engine, so it always moves focus on through the page (the text
//     version, a host's page) as the browser means it to; a Tab queued here would keep a
//     keyboard user inside the canvas. Keys with Ctrl, ⌘ or Alt stay the browser's.
// Registered on window in the capture phase before the engine's own listeners exist (GLFW adds
// its key listeners there in glfwInit), so stopImmediatePropagation() keeps GLFW from seeing the
// keystrokes taken here: their keydown, the keypress that would give ImGui a ' ' character, and
// their keyup.
const NAVIGATION = { Enter: 257, ' ': 32, Escape: 256, ArrowUp: 265, ArrowDown: 264, ArrowLeft: 263,
  ArrowRight: 262, PageUp: 266, PageDown: 267, Home: 268, End: 269 };
let deskField = false;   // a text field in the canvas has the keyboard
const takenKeys = new Set();  // event.code of each keydown taken here: its keypress and keyup are ours too

function typingKey(event) {
  if (event.target !== canvas && event.target !== document.body) return false;
  const command = (event.ctrlKey && !event.altKey) || event.metaKey;  // AltGr is Ctrl+Alt: a character
  const mods = (event.shiftKey ? MOD_SHIFT : 0) | (command ? MOD_CONTROL : 0);
  if ((event.key === 'a' || event.key === 'A') && command) return pressKey(GLFW.a, MOD_CONTROL) === 1;
  if (event.key in GLFW && event.key.length > 1) return pressKey(GLFW[event.key], mods) === 1;
  if (!command && [...event.key].length === 1) { typeText(event.key); return true; }
  return false;
}

function navigationKey(event) {
  if (event.target !== canvas || document.activeElement !== canvas) return false;
  if (event.ctrlKey || event.metaKey || event.altKey || !Object.hasOwn(NAVIGATION, event.key)) return false;
  // A held key repeats at the keyboard's rate; while the engine is still behind, a repeat is
  // dropped (but kept from GLFW), so the page stops scrolling when the key is let go.
  if (event.repeat && inputCall(input => input.pending()) > 0) return true;
  return pressKey(NAVIGATION[event.key], event.shiftKey ? MOD_SHIFT : 0) === 1;
}

function deskKeyDown(event) {
  if (event.isComposing || event.keyCode === 229) return;
  if (!(deskField ? typingKey(event) : navigationKey(event))) return;
  // No default action: no keypress follows (so GLFW types nothing twice) and Space or an arrow
  // does not also scroll the lesson's page. Embedded, the host's page is the one that scrolls,
  // and it still does on the keys that move it.
  const scrolls = !deskField && NAVIGATION[event.key] !== NAVIGATION.Enter && NAVIGATION[event.key] !== NAVIGATION.Escape;
  if (!(embedded && scrolls)) event.preventDefault();
  event.stopImmediatePropagation();
  takenKeys.add(event.code);
}

function deskKeyPress(event) {
  if (takenKeys.has(event.code)) event.stopImmediatePropagation();
}

function deskKeyUp(event) {
  if (takenKeys.delete(event.code)) event.stopImmediatePropagation();
}

window.addEventListener('keydown', deskKeyDown, true);
window.addEventListener('keypress', deskKeyPress, true);
window.addEventListener('keyup', deskKeyUp, true);

// The engine says when a text field inside the canvas gains or loses the keyboard (np-app.js
// passes web/main.cpp's report on as the 'text-field' event).
window.neuralpath?.events?.addEventListener('text-field', event => {
  deskField = event.detail.wanted;
  standInKeyboard(event.detail.wanted);
});

// [SECTION] Reduced motion ------------------------------------------------------------------------
const np = window.neuralpath;
if (np) {
  np.ready.then(() => {
    const query = matchMedia('(prefers-reduced-motion: reduce)');
    const apply = () => { try { np.command({ type: 'reducedMotion', reduce: query.matches }); } catch {} };
    apply();
    query.addEventListener('change', apply);
  }).catch(() => {});  // a lesson that failed to load has its own message
}
