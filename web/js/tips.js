// Tooltips: a piece marked with tip(el, text) explains itself when the
// pointer comes to rest on it and when the reader moves the keyboard focus
// onto it, and a screen reader reads the same text as the piece's
// description (aria-describedby). One floating box serves the whole page;
// it stays while the piece is hovered or focused, and Escape closes it
// (WCAG 1.4.13). One the pointer opened can be hovered in turn, so that the
// pointer may move onto it to read it; it is not a control: as with the
// browser's own tooltips, pressing anywhere (on it, on its piece,
// elsewhere) closes it until the pointer moves on, so that a player
// clicking through a row of buttons never finds the next one under the
// last one's tooltip. One the keyboard opened lets clicks through: it must
// not catch the click of someone who picked with keys and confirms with the
// mouse.
//
// Only the reader's own moves open one: the pointer moving onto a piece,
// or a navigation key (Tab, the arrows, Home, End) bringing the focus to
// it. The focus a page puts back after a redraw, and a piece redrawn under
// a pointer at rest, open none: an open tooltip follows its piece into the
// redraw, a closed one stays closed.

import {h} from './ui.js';

let box = null;
let owner = null;
let hideTimer = 0;
let n = 0;
let quiet = null; // where the pointer was pressed: no tooltip until it moves on from there
let here = null; // where the pointer last moved to
let navigating = false; // a navigation key is being handled: the focus it moves is the reader's
const NAV_KEYS = new Set(['Tab', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);

// tip marks el with its explanation and returns el.
export function tip(el, text) {
  if (el && text) el.dataset.tip = text;
  return el;
}

// attachTips gives every marked piece under root a description a screen
// reader reads: hidden texts beside the pieces, named by aria-describedby.
export function attachTips(root) {
  const marked = root.querySelectorAll('[data-tip]');
  if (!marked.length) return;
  const texts = h('div', {class: 'tip-texts', hidden: true});
  for (const el of marked) {
    const id = 'tip-' + (++n);
    texts.append(h('span', {id}, el.dataset.tip));
    const had = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter((x) => x && !x.startsWith('tip-'));
    el.setAttribute('aria-describedby', [...had, id].join(' '));
  }
  root.append(texts);
}

// show shows el's tooltip; byPointer says the pointer opened it.
function show(el, byPointer) {
  clearTimeout(hideTimer);
  if (!box) {
    box = h('div', {class: 'tip', id: 'tip', 'aria-hidden': 'true'});
    // The pointer crossing from the piece to the box keeps it (the piece's
    // pointerout asked to hide it soon); leaving the box hides it.
    box.addEventListener('pointerenter', () => clearTimeout(hideTimer));
    box.addEventListener('pointerleave', () => { if (document.activeElement !== owner) hideSoon(); });
    document.body.append(box);
  }
  owner = el;
  box.classList.toggle('hoverable', !!byPointer);
  box.textContent = el.dataset.tip;
  box.hidden = false;
  const r = el.getBoundingClientRect();
  const w = Math.min(320, innerWidth - 16);
  box.style.maxWidth = w + 'px';
  const bw = Math.min(w, box.offsetWidth), bh = box.offsetHeight;
  let x = r.left + r.width / 2 - bw / 2;
  x = Math.max(8, Math.min(innerWidth - bw - 8, x));
  let y = r.bottom + 8;
  if (y + bh > innerHeight - 8 && r.top - bh - 8 > 8) y = r.top - bh - 8;
  box.style.left = (x + scrollX) + 'px';
  box.style.top = (y + scrollY) + 'px';
}

function hide() {
  if (box) box.hidden = true;
  owner = null;
}

// following says whether el is the redrawn piece of the tooltip shown now
// (its old piece gone with the redraw, its text the same).
function following(el) {
  return !!owner && !owner.isConnected && !!box && !box.hidden && box.textContent === el.dataset.tip;
}

function hideSoon() {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hide, 250);
}

// installTips starts the page's tooltip box (once).
export function installTips() {
  if (installTips.done) return;
  installTips.done = true;
  document.addEventListener('pointerover', (e) => {
    if (quiet) return;
    const el = e.target.closest && e.target.closest('[data-tip]');
    if (!el) return;
    // The pointer has not moved: the page was redrawn under it.
    const still = here && e.clientX === here.x && e.clientY === here.y;
    if (!still || following(el)) show(el, true);
  });
  document.addEventListener('pointerdown', (e) => {
    quiet = {x: e.clientX, y: e.clientY};
    if (owner) hide();
  }, true);
  document.addEventListener('pointermove', (e) => {
    here = {x: e.clientX, y: e.clientY};
    if (!quiet || Math.hypot(e.clientX - quiet.x, e.clientY - quiet.y) <= 4) return;
    quiet = null;
    // The pointer may have come onto its piece while quiet (pointerover
    // comes before pointermove).
    const el = e.target.closest && e.target.closest('[data-tip]');
    if (el) show(el, true);
  }, {passive: true});
  document.addEventListener('pointerout', (e) => {
    const el = e.target.closest && e.target.closest('[data-tip]');
    if (el && !(e.relatedTarget && el.contains(e.relatedTarget)) && document.activeElement !== el) hideSoon();
  });
  document.addEventListener('focusin', (e) => {
    const el = e.target.closest && e.target.closest('[data-tip]');
    // Only the reader's keyboard moves show it: a click that focuses a
    // button, or the focus a board puts back after a redraw (a keyboard
    // action's answer, another seat's move), does not.
    if (el && el === e.target && (navigating || (following(el) && !box.classList.contains('hoverable')))) show(el, false);
    else if (owner && !following(e.target)) hide();
  });
  document.addEventListener('focusout', (e) => { if (owner === e.target) hideSoon(); });
  document.addEventListener('keydown', (e) => {
    // Escape closes it; so does acting with the keyboard, as pressing does.
    if ((e.key === 'Escape' || e.key === 'Enter' || e.key === ' ') && owner) hide();
    if (NAV_KEYS.has(e.key)) {
      // The focus moves while the key is handled, or as its default action
      // right after: both within this task.
      navigating = true;
      setTimeout(() => { navigating = false; });
    }
  }, true);
  addEventListener('scroll', () => { if (owner && owner.isConnected) show(owner, box.classList.contains('hoverable')); else hide(); }, {passive: true});
}
