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
//
// Our listeners are registered on the canvas before GLFW's (this module runs before the engine
// downloads), in the same capture group, so stopImmediatePropagation() keeps GLFW from also
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

canvas.addEventListener('touchstart', event => {
  if (!event.isTrusted) return;
  event.stopImmediatePropagation();
  event.preventDefault();  // no emulated mouse events after the touch: we send our own
  if (finger !== null) return;  // a second finger is ignored
  const touch = event.changedTouches[0];
  finger = touch.identifier;
  canvas.focus({ preventScroll: true });
  mouse('mousemove', touch, 0);  // move first, so the press lands where the finger is
  mouse('mousedown', touch, 1);
}, { capture: true, passive: false });

canvas.addEventListener('touchmove', event => {
  if (!event.isTrusted) return;
  event.stopImmediatePropagation();
  event.preventDefault();
  const touch = followed(event.changedTouches);
  if (touch) mouse('mousemove', touch, 1);
}, { capture: true, passive: false });

for (const type of ['touchend', 'touchcancel']) {
  canvas.addEventListener(type, event => {
    if (!event.isTrusted) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    const touch = followed(event.changedTouches);
    if (!touch) return;
    finger = null;
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
