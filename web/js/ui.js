// Small DOM helpers shared by the pages and the boards: element builders for
// HTML and SVG, toasts, and copying to the clipboard.

const SVG = 'http://www.w3.org/2000/svg';

// h builds an HTML element: h('button', {class: 'x', onclick: f}, 'text', child).
// Attributes starting with "on" become listeners; null, undefined and false
// attributes and children are skipped; arrays of children are flattened.
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

// s builds an SVG element in the same way.
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'text') el.textContent = v;
    // Through the style object: the content policy refuses style attributes.
    else if (k === 'style') el.style.cssText = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

// clear empties an element and appends the children given.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// toast shows a short message that goes away by itself; kind is "info",
// "error" or "event".
export function toast(text, kind = 'info', ms = 4000) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const el = h('div', {class: 'toast ' + kind, role: kind === 'error' ? 'alert' : null}, text);
  box.append(el);
  while (box.children.length > 4) box.firstChild.remove();
  setTimeout(() => el.remove(), ms);
}

// copyText copies text to the clipboard, with a fallback for pages that
// are not in a secure context.
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', {readonly: true, class: 'offscreen'}, text);
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}

// reducedMotion says whether the player asked for fewer animations.
export function reducedMotion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// sleep resolves after ms milliseconds.
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// sameAction compares two actions by their JSON with sorted keys, ignoring
// empty lists, false and null fields (which the server treats as absent).
export function sameAction(a, b) {
  return canon(a) === canon(b);
}

export function canon(v) {
  if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).filter((k) => {
      const x = v[k];
      return !(x == null || x === false || (Array.isArray(x) && x.length === 0));
    }).sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}';
  }
  return JSON.stringify(v);
}

// fmtClock writes milliseconds as m:ss.
export function fmtClock(ms) {
  ms = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(ms / 60), sec = ms % 60;
  return m + ':' + String(sec).padStart(2, '0');
}
