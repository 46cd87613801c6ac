// The page's tool bar on a narrow screen. The chrome is one 44 px row: on a desk the tools
// (text version, start over, voice, Share, language) sit in it side by side; below 30em they do
// not fit beside the brand, so a "Menu" button takes their place and opens them as a list under
// the bar (np-share.css draws both). The tools stay the same nodes in the same order, so their
// own modules keep working and a screen reader meets them in the same place.
//
//   keyboard   Tab reaches the button, Enter/Space opens the list and focuses its first tool,
//              Escape closes it and gives focus back to the button; focus leaving the list
//              closes it, as does a tap outside it or using one of its buttons
//   wide       the button is hidden and the list is the inline bar (aria-expanded is removed)

import { toolbar, chromeText } from './np-mirror.js';

const tools = toolbar();
const chrome = tools.closest('.np-chrome');   // in embed mode the tools sit in a bar that wraps
const narrow = matchMedia('(max-width: 30em)');

if (chrome) {
  tools.id ||= 'np-tools';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'np-tool np-menu-button';
  button.setAttribute('aria-controls', tools.id);
  button.hidden = true;   // until the catalogue can name it
  const icon = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  icon.setAttribute('viewBox', '0 0 16 16');
  icon.setAttribute('aria-hidden', 'true');
  const bars = document.createElementNS(icon.namespaceURI, 'path');   // three bars
  bars.setAttribute('d', 'M2 3.5h12M2 8h12M2 12.5h12');
  bars.setAttribute('stroke', 'currentColor');
  bars.setAttribute('stroke-width', '1.6');
  bars.setAttribute('stroke-linecap', 'round');
  icon.append(bars);
  const label = chromeText(document.createElement('span'), 'toolbar.menu');
  button.append(icon, label);
  tools.before(button);
  window.neuralpath.onEngineReady(() => { button.hidden = false; });

  const isOpen = () => chrome.classList.contains('np-tools-open');
  const visibleTools = () => [...tools.querySelectorAll('button, select, input, a[href]')]
    .filter(node => !node.hidden && !node.disabled && node.offsetParent !== null);

  function setOpen(open, { focus = false } = {}) {
    chrome.classList.toggle('np-tools-open', open && narrow.matches);
    if (narrow.matches) button.setAttribute('aria-expanded', String(isOpen()));
    else button.removeAttribute('aria-expanded');
    if (focus === 'first' && isOpen()) visibleTools()[0]?.focus();
    if (focus === 'button') button.focus();
  }
  setOpen(false);
  narrow.addEventListener('change', () => setOpen(false));

  // A keyboard press (detail 0) moves focus into the list; a tap leaves it on the button.
  button.addEventListener('click', event => setOpen(!isOpen(), { focus: event.detail === 0 ? 'first' : false }));
  chrome.addEventListener('keydown', event => {
    if (event.key === 'Escape' && isOpen()) {
      event.stopPropagation();
      setOpen(false, { focus: 'button' });
    }
  });
  // A button in the list did its job (Share copied, the text version opened): the list closes.
  // A select or a checkbox stays open, since choosing takes more than one press there.
  tools.addEventListener('click', event => {
    if (isOpen() && event.target.closest('button')) setOpen(false);
  });
  document.addEventListener('pointerdown', event => {
    if (isOpen() && !tools.contains(event.target) && !button.contains(event.target)) setOpen(false);
  });
  chrome.addEventListener('focusout', event => {
    if (isOpen() && event.relatedTarget && !chrome.contains(event.relatedTarget)) setOpen(false);
  });
}
