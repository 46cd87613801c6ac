// NeuralPath narrator: reads the course playback's captions aloud and to screen readers.
//
//   engine 'caption' event   -> the ARIA live region (always) and, with the voice on, the
//                               browser's speech synthesis, speaking exactly the caption text
//   utterance ends           -> command {type: "speechEnded", step}: the board moves on
//   engine 'playback' event  -> paused: speech stops at once; voice/speed changed on the board:
//                               remembered as the learner's choice
//   no voice for the page's   -> the engine is told voice off, so the board advances on a timer;
//   language in this browser     the control says so beside its box, and turning the voice on
//                                (there or with the board's own Voice button) says so in a note
//
// The learner's choices (voice on/off, which voice, speed) are kept in localStorage; the URL's
// voice=on|off is the default before any choice is made. With nothing focused on the page,
// space plays/pauses and the arrows step (while the canvas has focus, the engine reads the keys
// itself).
//
// [SECTION] Preferences
// [SECTION] Voices
// [SECTION] Speaking
// [SECTION] The page's control
// [SECTION] Engine events and start-up

import { toolbar, noteSlot } from './np-mirror.js';  // the page's tool bar and its notes
import { transportOf } from './np-protocol.js';

const np = window.neuralpath;
const t = (key, args) => np.text(key, args);  // the engine's catalogue ([speech]): it runs by now
const synth = 'speechSynthesis' in window ? window.speechSynthesis : null;

// [SECTION] Preferences ---------------------------------------------------------------------------
const STORAGE_KEY = 'neuralpath.narrator';

// Storage can be missing or throw (private windows, sandboxed iframes, disabled cookies): the
// narrator then works with the URL's default and forgets choices on reload.
function loadPreferences() {
  let stored = {};
  try { stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || '{}') || {}; } catch { stored = {}; }
  const urlVoice = np.params.voice === 'on' ? true : np.params.voice === 'off' ? false : null;
  return {
    voice: typeof stored.voice === 'boolean' ? stored.voice : urlVoice ?? false,
    voiceName: typeof stored.voiceName === 'string' ? stored.voiceName : '',
    speed: Number.isFinite(stored.speed) && stored.speed >= 0.5 && stored.speed <= 2 ? stored.speed : null,
  };
}

function savePreferences() {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(
      { voice: prefs.voice, voiceName: prefs.voiceName, ...(prefs.speed ? { speed: prefs.speed } : {}) }));
  } catch { /* not remembered; still used for this visit */ }
}

const prefs = loadPreferences();

// [SECTION] Voices --------------------------------------------------------------------------------
// Chrome fills getVoices() asynchronously ('voiceschanged'); wait briefly before deciding that
// this browser has no voice at all.
function voicesReady(timeout = 1500) {
  if (!synth) return Promise.resolve([]);
  const now = synth.getVoices();
  if (now.length) return Promise.resolve(now);
  return new Promise(resolve => {
    const done = () => { clearTimeout(timer); resolve(synth.getVoices()); };
    const timer = setTimeout(done, timeout);
    synth.addEventListener?.('voiceschanged', done, { once: true });
  });
}

let voices = [];
// A voice that speaks the page's language (np.params.lang: "es" takes es-ES, es-MX, ...).
const speaks = v => v.lang?.toLowerCase().replace('_', '-').split('-')[0] === (np.params.lang || 'en');
function chosenVoice() {
  return voices.find(v => v.name === prefs.voiceName && speaks(v)) ||
    voices.find(v => v.default && speaks(v)) ||
    voices.find(speaks) || null;
}

// [SECTION] Speaking ------------------------------------------------------------------------------
const board = { present: false, voice: false, playing: false, speed: 1, widget: null, step: -1 };
let current = null;  // the utterance being spoken; ends of any other are stale
let currentStep = -1;

function send(command) {
  if (board.widget) command.widget = board.widget;
  try { return np.command(command); } catch (error) {
    console.warn(`narrator: ${command.type}: ${error.message}`);
    return null;
  }
}

function stopSpeaking() {
  current = null;
  if (synth && (synth.speaking || synth.pending)) synth.cancel();
}

function speak(text, step) {
  if (!synth || !voices.length) return;
  stopSpeaking();
  const utterance = new SpeechSynthesisUtterance(text);
  const voice = chosenVoice();
  if (voice) { utterance.voice = voice; utterance.lang = voice.lang; } else utterance.lang = np.params.lang || 'en';
  utterance.rate = board.speed;
  const finished = () => {
    if (current !== utterance) return;  // cancelled, or replaced by the next caption
    current = null;
    send({ type: 'speechEnded', step });
  };
  utterance.onend = finished;
  // 'interrupted'/'canceled' come from our own cancel(); any other failure (no audio device,
  // speech not allowed yet) must not leave the board waiting for an end that never comes.
  utterance.onerror = event => {
    if (event.error === 'interrupted' || event.error === 'canceled') return;
    console.warn(`narrator: speech failed (${event.error}); moving on`);
    finished();
  };
  current = utterance;
  currentStep = step;
  synth.speak(utterance);
}

// [SECTION] The page's control --------------------------------------------------------------------
// A small control in the page's tool bar: voice on/off and which voice. The board's own "Voice"
// button and speed buttons do the same from inside the canvas.
let control = null;

function buildControl() {
  const host = toolbar();
  const box = document.createElement('div');
  box.className = 'np-narrator';
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', t('speech.narrator'));
  box.style.cssText = 'display:flex;gap:.4em;align-items:center;font-size:.9em;white-space:nowrap';
  const label = document.createElement('label');
  label.title = t('speech.read_aloud');
  const toggle = document.createElement('input');
  toggle.type = 'checkbox';
  toggle.id = 'np-voice';
  toggle.setAttribute('aria-label', t('speech.read_aloud'));
  label.append(toggle, ` ${t('speech.voice')}`);
  // "none in English": seen beside the box when this browser has no voice for the page (#34:
  // a disabled box with a tooltip said nothing on a touch screen, nor which language was missing).
  const missing = document.createElement('span');
  missing.className = 'np-voice-missing';
  missing.style.cssText = 'opacity:.7';
  label.append(missing);
  const select = document.createElement('select');
  select.id = 'np-voice-name';
  select.setAttribute('aria-label', t('speech.which_voice'));
  // On a phone the header has little room: the voice list shrinks rather than pushing it over.
  select.style.cssText = 'max-width:11em;min-width:0';
  box.append(label, select);
  host.append(box);
  toggle.addEventListener('change', () => setVoice(toggle.checked, true));
  select.addEventListener('change', () => {
    prefs.voiceName = select.value;
    savePreferences();
  });
  control = { box, toggle, select, missing };
  refreshControl();
}

// On a small screen the tool bar has room for the on/off box only, and on a phone for nothing
// more: the board's own Voice button does the same there.
const narrow = matchMedia('(max-width: 700px)');
const phone = matchMedia('(max-width: 480px)');
phone.addEventListener?.('change', () => refreshControl());
narrow.addEventListener?.('change', () => refreshControl());

function refreshControl() {
  if (!control) return;
  control.toggle.checked = board.voice;
  control.toggle.disabled = !voices.length;
  control.box.title = voices.length ? '' : t('speech.no_voice_here_title');
  control.missing.textContent = voices.length ? '' : ` (${t('speech.voice_missing')})`;
  control.select.hidden = !voices.length || narrow.matches;
  control.box.style.display = phone.matches ? 'none' : 'flex';
  if (control.select.options.length !== voices.length) {
    control.select.replaceChildren(...voices.map(v => new Option(`${v.name} (${v.lang})`, v.name)));
  }
  const voice = chosenVoice();
  if (voice) control.select.value = voice.name;
}

// Turns the voice on or off in the engine (which decides how the board advances). `chosen` =
// the learner asked for it (remembered); otherwise it is our fallback (not remembered).
// Said aloud and shown: the learner asked for a voice this browser does not have for the page.
let noVoiceNote = null;
function sayNoVoice() {
  np.announce(t('speech.no_voice_here'));
  if (!noVoiceNote) {
    noVoiceNote = document.createElement('div');
    noVoiceNote.className = 'np-note np-note-info np-voice-note';
    noVoiceNote.setAttribute('role', 'status');
    const text = document.createElement('span');
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'np-note-dismiss';
    close.textContent = '×';
    close.setAttribute('aria-label', t('widgets.close'));
    close.addEventListener('click', () => { noVoiceNote.hidden = true; });
    noVoiceNote.append(text, close);
    noteSlot().append(noVoiceNote);
  }
  noVoiceNote.firstChild.textContent = t('speech.no_voice_here');
  noVoiceNote.hidden = false;
}

function setVoice(on, chosen) {
  if (chosen) { prefs.voice = on; savePreferences(); }
  const possible = on && voices.length > 0;
  if (on && !possible && chosen) sayNoVoice();
  send({ type: 'voice', on: possible });
  board.voice = possible;
  if (!possible) stopSpeaking();
  refreshControl();
}

// [SECTION] Engine events and start-up ------------------------------------------------------------
np.events.addEventListener('caption', ({ detail }) => {
  board.present = true;
  if (detail.widget) board.widget = detail.widget;
  board.step = detail.step;
  np.announce(detail.text);
  if (board.voice) speak(detail.text, detail.step);
  else stopSpeaking();
});

np.events.addEventListener('playback', ({ detail }) => {
  if (detail.widget) board.widget = detail.widget;
  board.playing = !!detail.playing;
  board.speed = detail.speed || board.speed;
  if (detail.speed && detail.speed !== prefs.speed) { prefs.speed = detail.speed; savePreferences(); }
  if (detail.voice !== board.voice) {
    // The learner pressed the board's Voice button.
    if (detail.voice && !voices.length) {
      sayNoVoice();
      send({ type: 'voice', on: false });
    } else {
      board.voice = !!detail.voice;
      prefs.voice = board.voice;
      savePreferences();
    }
    refreshControl();
  }
  if (!board.playing) { stopSpeaking(); return; }  // pause stops the voice at once
  // Resumed (or voice just turned on) while playing: read the current caption from its start,
  // unless it is already being read (play at the end restarts: its caption came just before).
  if (board.voice && !(current && currentStep === detail.step)) speak(detail.caption, detail.step);
});

// With nothing focused, the page's keys drive the board (the canvas reads its own keys).
function isTextField(element) {
  return !!element && (element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName));
}
document.addEventListener('keydown', event => {
  if (!board.present || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const active = document.activeElement;
  if (active && active !== document.body && active !== document.documentElement) return;
  if (isTextField(active)) return;
  if (event.key === ' ') send({ type: board.playing ? 'pause' : 'play' });
  else if (event.key === 'ArrowRight') send({ type: 'step', n: 1 });
  else if (event.key === 'ArrowLeft') send({ type: 'step', n: -1 });
  else return;
  event.preventDefault();
});

async function start() {
  try { await np.ready; } catch { return; }  // the page shows why it failed to load
  const state = np.state();
  // The board is whichever widget says it has a transport (np-protocol.js), whatever its kind.
  const playback = transportOf(state);
  if (!playback) return;  // no board in this lesson: nothing to narrate
  board.present = true;
  board.playing = !!playback.playing;
  board.speed = playback.speed || 1;
  board.widget = playback.id;
  // Only voices of the page's language: with none, the captions carry the narration alone.
  voices = (await voicesReady()).filter(speaks);
  synth?.addEventListener?.('voiceschanged', () => { voices = synth.getVoices().filter(speaks); refreshControl(); });
  buildControl();
  if (prefs.speed && prefs.speed !== board.speed) send({ type: 'speed', rate: prefs.speed });
  setVoice(prefs.voice, false);
}

start();
