// Announcements for screen readers: one polite and one urgent live region
// for the whole page, written only when something new happens, and never
// the same sentence twice in a row within a few seconds (a board drawn
// again must not read its news again); and a third that reads the match's
// log as entries are added to it, in order.

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

// logRegionKeeps is how many entries the log's region keeps: enough for a
// burst of news to be read in order, few enough to stay light.
const logRegionKeeps = 20;

// announceLog reads entries added to the match's log, politely and in
// order (each is added to the region, none replaces another). The log on
// the page is not itself a live region, so that what a board already said
// urgently is not read a second time from the log.
export function announceLog(texts) {
  if (!texts.length) return;
  let el = regions.log;
  if (!el || !el.isConnected) {
    el = h('div', {class: 'visually-hidden', id: 'announce-log', 'aria-live': 'polite', 'aria-relevant': 'additions'});
    document.body.append(el);
    regions.log = el;
  }
  for (const text of texts) el.append(h('p', {}, text));
  while (el.children.length > logRegionKeeps) el.firstChild.remove();
}
