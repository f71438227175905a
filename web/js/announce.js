// Announcements for screen readers: what changed is said once. The news of
// one moment — the log's new entries, a board's own news, "Your turn" — is
// gathered and said as one polite utterance; the next waits until the last
// had a moment to be heard, taking in whatever came meanwhile, so that a
// stream of moves (bots, a real-time game) is said in a few sentences
// rather than one for every piece of news.
//
// An utterance says the news in the order it came, then how things stand
// now: a piece of news with a key (the top of the stack, whose turn it is)
// replaces the one of the same key still waiting, and is said after the
// news, so that only the newest is said. A sentence a board said in the
// last few seconds is not said again (a board drawn again must not read its
// news again). Urgent news (a Temple's gong) interrupts at once, from a
// region of its own.

import {h} from './ui.js';

// settleMs gathers what one update brings (the log, the board, the turn
// are drawn one after the other); gapMs is the least time between two
// polite utterances; repeatMs is how long a sentence a board said is not
// said again.
const settleMs = 120;
const gapMs = 1200;
const repeatMs = 4000;

const regions = {};
let queue = []; // {text, key, news, said}
let timer = null;
let lastAt = -Infinity;
const recent = new Map(); // sentence → when it was said

function region(kind) {
  if (regions[kind] && regions[kind].isConnected) return regions[kind];
  const el = h('div', {class: 'visually-hidden', id: 'announce-' + kind, 'aria-live': kind === 'urgent' ? 'assertive' : 'polite', 'aria-atomic': 'true'});
  document.body.append(el);
  regions[kind] = el;
  return el;
}

function fresh(text, now) {
  const at = recent.get(text);
  return at == null || now - at >= repeatMs;
}

function speak(kind, text) {
  const el = region(kind);
  // Emptied first, so that the same words said again later are read again.
  el.textContent = '';
  setTimeout(() => { el.textContent = text; }, 30);
}

function flush() {
  timer = null;
  const now = performance.now();
  for (const [k, at] of recent) if (now - at >= repeatMs) recent.delete(k);
  const items = [...queue.filter((x) => !x.key), ...queue.filter((x) => x.key)];
  queue = [];
  if (!items.length) return;
  for (const x of items) {
    recent.set(x.text, now);
    if (x.said) x.said();
  }
  lastAt = now;
  speak('polite', items.map((x) => x.text).join(' '));
}

function add(item) {
  if (item.key) queue = queue.filter((x) => x.key !== item.key);
  queue.push(item);
  if (!timer) timer = setTimeout(flush, Math.max(settleMs, lastAt + gapMs - performance.now()));
}

// announce says text to screen readers: politely, with the other news of
// the moment, or at once when urgent (it interrupts what they read).
// opts may be true (urgent) or {urgent, key, said}: a key makes the text
// how something stands now (it replaces a waiting text of the same key and
// is said after the news); said is called once it has been said.
export function announce(text, opts = {}) {
  if (opts === true) opts = {urgent: true};
  if (!text) return;
  const now = performance.now();
  if (opts.urgent) {
    queue = queue.filter((x) => x.text !== text);
    if (!fresh(text, now)) return;
    recent.set(text, now);
    speak('urgent', text);
    return;
  }
  if (opts.key) {
    add({text, key: opts.key, said: opts.said});
    return;
  }
  if (queue.some((x) => x.text === text) || !fresh(text, now)) return;
  add({text, said: opts.said});
}

// withdraw drops the waiting text of a key: what it said is no longer so.
export function withdraw(key) {
  queue = queue.filter((x) => x.key !== key);
}

// announceNews says the match's news (new entries of its log), in order,
// with the rest of the moment's: each is an event of its own, said even if
// the same words were said a moment ago (a bot that lays a tile twice).
export function announceNews(texts) {
  for (const text of texts) if (text) add({text, news: true});
}
