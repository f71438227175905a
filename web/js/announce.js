// Announcements for screen readers: one polite and one urgent live region
// for the whole page, written only when something new happens, and never
// the same sentence twice in a row within a few seconds (a board drawn
// again must not read its news again).

import {h} from './ui.js';

const regions = {};
let last = {text: '', at: 0};

function region(kind) {
  if (regions[kind] && regions[kind].isConnected) return regions[kind];
  const el = h('div', {class: 'visually-hidden', id: 'announce-' + kind, 'aria-live': kind === 'urgent' ? 'assertive' : 'polite', 'aria-atomic': 'true'});
  document.body.append(el);
  regions[kind] = el;
  return el;
}

// announce says text to screen readers; urgent interrupts what they read.
export function announce(text, urgent = false) {
  if (!text) return;
  const now = performance.now();
  if (text === last.text && now - last.at < 4000) return;
  last = {text, at: now};
  const el = region(urgent ? 'urgent' : 'polite');
  // Emptied first, so that the same words said again later are read again.
  el.textContent = '';
  setTimeout(() => { el.textContent = text; }, 30);
}
