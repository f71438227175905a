// Keeping the keyboard focus where a player expects it when a region is
// drawn again: on the same control if it is still there, else on the next
// thing to do, never on the page's body. And arrow keys inside a drawn
// board (a map, a grid) that move between its pieces, so that every piece
// can be focused without a tab stop for each.

// keyOf returns a selector that finds el again after a redraw.
export function keyOf(el) {
  if (!el || el.nodeType !== 1) return null;
  if (el.dataset && el.dataset.key) return '[data-key="' + CSS.escape(el.dataset.key) + '"]';
  if (el.id) return '#' + CSS.escape(el.id);
  return null;
}

// canFocus says whether el can take the focus now.
export function canFocus(el) {
  if (!el || !el.isConnected || el.disabled || el.hidden) return false;
  if (el.closest('[hidden]')) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 || r.height > 0;
}

// FocusKeeper follows the focus inside a region that is redrawn: after
// each redraw, restore() puts it back.
export class FocusKeeper {
  constructor(region) {
    this.region = region;
    this.key = null;
    this.inside = false;
    region.addEventListener('focusin', (e) => {
      this.inside = true;
      this.key = keyOf(e.target) || this.key;
    });
    document.addEventListener('focusin', (e) => { if (!region.contains(e.target)) this.inside = false; });
    document.addEventListener('pointerdown', (e) => { if (!region.contains(e.target)) this.inside = false; }, true);
  }

  // restore moves the focus back into the region if it was there before
  // the redraw: to the same control, else to next() (the module's next
  // thing to do), else to the first control of the region, else to the
  // region itself.
  restore(next) {
    if (!this.inside) return;
    const a = document.activeElement;
    if (a && a !== document.body) {
      if (this.region.contains(a)) return;
      this.inside = false;
      return;
    }
    let el = this.key ? this.region.querySelector(this.key) : null;
    if (!canFocus(el) && next) el = next();
    if (!canFocus(el)) el = [...this.region.querySelectorAll('[data-act], button, [tabindex="0"], a[href]')].find(canFocus);
    if (!canFocus(el)) {
      el = this.region;
      if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    }
    el.focus({preventScroll: true});
  }
}

const roveKeys = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};

// roving makes the pieces matching sel inside group one tab stop: the
// current piece has tabindex 0, the others -1, and the arrow keys move to
// the nearest piece in their direction (Home and End to the first and
// last). current picks the piece that starts with the stop.
export function roving(group, sel, current) {
  const items = [...group.querySelectorAll(sel)];
  if (!items.length) return;
  const start = items.find((x) => x.matches(current || '[data-act]')) || items[0];
  for (const it of items) it.setAttribute('tabindex', it === start ? '0' : '-1');
  group.addEventListener('focusin', (e) => {
    const it = e.target.closest && e.target.closest(sel);
    if (!it || !group.contains(it)) return;
    for (const x of items) x.setAttribute('tabindex', x === it ? '0' : '-1');
  });
  group.addEventListener('keydown', (e) => {
    const it = e.target.closest && e.target.closest(sel);
    if (!it || e.altKey || e.ctrlKey || e.metaKey) return;
    let to = null;
    if (e.key === 'Home') to = items[0];
    else if (e.key === 'End') to = items[items.length - 1];
    else if (roveKeys[e.key]) to = nearest(it, items, roveKeys[e.key]);
    if (!to) return;
    e.preventDefault();
    e.stopPropagation();
    to.focus();
  });
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

// nearest finds the piece closest to from in direction d, preferring
// pieces straight ahead.
function nearest(from, items, [dx, dy]) {
  const [x0, y0] = centre(from);
  let best = null, score = Infinity;
  for (const it of items) {
    if (it === from) continue;
    const [x, y] = centre(it);
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along <= 2) continue;
    const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    const sc = along + across * 2.5;
    if (sc < score) { score = sc; best = it; }
  }
  return best;
}

// centreInPan scrolls a board that pans inside itself (wider than a
// phone's screen) so that el is in the middle, once the layout is done.
export function centreInPan(pan, el, done) {
  if (!pan || !el) return;
  requestAnimationFrame(() => {
    if (!pan.isConnected) return; // drawn again meanwhile: the next drawing centres
    if (pan.scrollWidth <= pan.clientWidth + 2 && pan.scrollHeight <= pan.clientHeight + 2) return;
    const r = el.getBoundingClientRect(), p = pan.getBoundingClientRect();
    pan.scrollLeft += r.left + r.width / 2 - (p.left + p.width / 2);
    pan.scrollTop += r.top + r.height / 2 - (p.top + p.height / 2);
    if (done) done();
  });
}
