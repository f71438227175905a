// What every game's pieces share: the symbols (drawn as SVG paths, never as
// font glyphs, which some machines cannot draw), the seats' colours and
// shapes, and small builders for pieces inside an SVG or inline in text.
//
// The board modules, the help pages, the lobby's pictures and the tooltips
// all draw through the games' piece modules (web/pieces/<game>.js), which
// build on this one, so a piece looks the same wherever it appears.

import {s} from '/js/ui.js';

// Symbols on a 24×24 grid, stroked in the current colour. A leading "*"
// marks a path that is filled rather than stroked.
const PATHS = {
  arrow: ['M12 20V5', 'M5.5 11.5 12 5l6.5 6.5'],
  spin: ['M18.5 13.5A6.8 6.8 0 1 1 16.6 7', 'M17.5 3.2v4.4h-4.4'],
  plus: ['M12 5v14', 'M5 12h14'],
  minus: ['M5 12h14'],
  cross: ['M6.5 6.5l11 11', 'M17.5 6.5l-11 11'],
  check: ['M5 12.5l4.5 4.5L19 7'],
  warn: ['M12 3.5 21.5 20h-19z', 'M12 9.5v5', 'M12 17.2v.3'],
  lock: ['M6 11h12v9H6z', 'M8.5 11V8a3.5 3.5 0 0 1 7 0v3'],
  star: ['*M12 2.8l2.7 5.9 6.4.7-4.8 4.3 1.4 6.3L12 16.8 6.3 20l1.4-6.3L2.9 9.4l6.4-.7z'],
  flag: ['M6 21V3.5', 'M6 4h11l-2.5 4L17 12H6'],
  bell: ['M6 17h12l-1.6-2.2V10a4.4 4.4 0 0 0-8.8 0v4.8z', 'M10 19.5a2 2 0 0 0 4 0'],
  eye: ['M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z', '*M12 9a3 3 0 1 1 0 6 3 3 0 0 1 0-6z'],
  walk: ['*M13.5 2.5a2 2 0 1 1 0 4 2 2 0 0 1 0-4z', 'M12.5 8 10 13l3 2.5-1 5.5', 'M10 13l-3.5 1', 'M12.5 8l3 3.5 3 .5', 'M11 16l-4 5'],
  push: ['*M5 3.5a2 2 0 1 1 0 4 2 2 0 0 1 0-4z', 'M5.5 9 8 13l-1 7', 'M5.5 9l5 2h3', 'M8 13l-3 7', 'M16 6v12', 'M19 9l2 3-2 3'],
  slide: ['M4 8h15', 'M15.5 4.5 19 8l-3.5 3.5', 'M20 16H5', 'M8.5 12.5 5 16l3.5 3.5'],
  gem: ['M7 4h10l4 5-9 11L3 9z', 'M3 9h18', 'M9.5 4 12 9l2.5-5', 'M12 9v11'],
  chest: ['M4 10h16v9.5H4z', 'M4 10c0-6 16-6 16 0', 'M10.5 12h3v3.5h-3z'],
  mask: ['M4 5.5c3.5-2.2 12.5-2.2 16 0 .3 8.5-3 14-8 14.5-5-.5-8.3-6-8-14.5z', '*M7 10c1-1.3 3-1.3 4 0-1 1-3 1-4 0z', '*M13 10c1-1.3 3-1.3 4 0-1 1-3 1-4 0z', 'M9.5 15.5c1.6 1 3.4 1 5 0'],
  key: ['M11.3 12a3.8 3.8 0 1 1-7.6 0 3.8 3.8 0 0 1 7.6 0z', 'M11.3 12H21', 'M18 12v3.5', 'M15 12v2.5'],
  torch: ['M9.5 11h5l-1.3 10h-2.4z', '*M12 2.5c2.8 2.6 3.6 5.1 1.6 7.2h-3.2C8.4 7.6 9.3 5 12 2.5z'],
  adventurer: ['*M12 3.2a2.4 2.4 0 1 1 0 4.8 2.4 2.4 0 0 1 0-4.8z', 'M7.5 3.6h9', 'M12 9.5v6', 'M7.5 12h9', 'M12 15.5 8.5 21', 'M12 15.5l3.5 5.5'],
  person: ['*M12 2.8a2.4 2.4 0 1 1 0 4.8 2.4 2.4 0 0 1 0-4.8z', 'M12 9.5v6', 'M7.5 12h9', 'M12 15.5 8.5 21', 'M12 15.5l3.5 5.5'],
  flame: ['*M12 2.5c4.2 4 6.2 7.3 6.2 11a6.2 6.2 0 0 1-12.4 0c0-2.6 1.4-4.6 3-6.6.8 1.8 1.7 2.8 3 3-.3-2.6-.5-4.8.2-7.4z'],
  shield: ['M12 3l8 3v6c0 5-3.8 8-8 9-4.2-1-8-4-8-9V6z'],
  vent: ['M4.5 6.5h15v11h-15z', 'M7.5 9.5h9', 'M7.5 12h9', 'M7.5 14.5h9'],
  door: ['M6 21V3h12v18', 'M3.5 21h17', 'M14.5 12v.6'],
  drop: ['M12 3c4 5 6.2 8.2 6.2 11.2a6.2 6.2 0 0 1-12.4 0C5.8 11.2 8 8 12 3z'],
  hourglass: ['M6.5 3h11', 'M6.5 21h11', 'M8 3c0 5 8 6 8 9s-8 4-8 9', 'M16 3c0 5-8 6-8 9s8 4 8 9'],
  prev: ['M15 5.5 8.5 12l6.5 6.5'],
  next: ['M9 5.5 15.5 12 9 18.5'],
  first: ['M17 5.5 10.5 12l6.5 6.5', 'M6.5 5.5v13'],
  last: ['M7 5.5l6.5 6.5L7 18.5', 'M17.5 5.5v13'],
  express: ['M5 6l6 6-6 6', 'M12 6l6 6-6 6'],
  antidote: ['*M9.2 3h5.6v6.2H21v5.6h-6.2V21H9.2v-6.2H3V9.2h6.2z'],
  sound: ['*M4 9h4l5.5-4.5v15L8 15H4z', 'M16.5 9a4.2 4.2 0 0 1 0 6', 'M19 6.5a8 8 0 0 1 0 11'],
  mute: ['*M4 9h4l5.5-4.5v15L8 15H4z', 'M16.5 9.5l5 5', 'M21.5 9.5l-5 5'],
  mail: ['M3 6h18v12H3z', 'M3 6.5l9 7 9-7'],
  info: ['M12 3a9 9 0 1 1 0 18 9 9 0 0 1 0-18z', 'M12 11v6', 'M12 7.5v.3'],
  skull: ['M5 11a7 7 0 0 1 14 0v3l-2 1v3.5H7V15l-2-1z', '*M8 10.5a1.6 1.6 0 1 1 3.2 0 1.6 1.6 0 0 1-3.2 0z', '*M12.8 10.5a1.6 1.6 0 1 1 3.2 0 1.6 1.6 0 0 1-3.2 0z', 'M10 18.5v-2', 'M14 18.5v-2'],
  claw: ['M6 20c1-5 1-10-1-15', 'M11 20c1-5 1.5-10 0-16', 'M16 20c1.5-5 2-9 1-14'],
  biohazard: ['M12 12m-2.2 0a2.2 2.2 0 1 0 4.4 0 2.2 2.2 0 1 0-4.4 0', 'M12 9.8V3.5', 'M10.1 13.1 4.6 16.3', 'M13.9 13.1l5.5 3.2', 'M12 3.5a5 5 0 0 1 0 0'],
  cards: ['M5 6h10v14H5z', 'M9 3.5h10v14'],
  trophy: ['M8 4h8v5a4 4 0 0 1-8 0z', 'M8 6H5a3 3 0 0 0 3 4', 'M16 6h3a3 3 0 0 1-3 4', 'M12 13v4', 'M8.5 20h7'],
};

// The eight arrow directions as quarter-turns of 45°, clockwise from up.
export const DIRS8 = {n: 0, ne: 1, e: 2, se: 3, s: 4, sw: 5, w: 6, nw: 7};

// paths returns the SVG elements of a symbol in its 24×24 box.
function paths(name) {
  const list = PATHS[name];
  if (!list) throw new Error('no symbol ' + name);
  return list.map((d) => (d[0] === '*' ? s('path', {d: d.slice(1), class: 'f'}) : s('path', {d})));
}

// symbol draws a symbol inside an SVG: centred on (x, y), size wide,
// turned by rotate degrees.
export function symbol(name, x, y, size, attrs = {}) {
  const k = size / 24;
  const rot = attrs.rotate ? ` rotate(${attrs.rotate} 12 12)` : '';
  return s('g', {class: 'sym ' + (attrs.cls || ''), transform: `translate(${x - size / 2} ${y - size / 2}) scale(${k})${rot}`, 'aria-hidden': 'true'}, paths(name));
}

// icon draws a symbol as an inline SVG for HTML (buttons, text). With a
// label it is an image a screen reader names; without one it is decoration.
export function icon(name, opts = {}) {
  const label = opts.label || null;
  const rot = opts.rotate ? {transform: `rotate(${opts.rotate} 12 12)`} : {};
  return s('svg', {class: 'icon ' + (opts.cls || ''), viewBox: '0 0 24 24', width: opts.size || null, height: opts.size || null,
    role: label ? 'img' : null, 'aria-label': label, 'aria-hidden': label ? null : 'true', focusable: 'false'},
  label ? s('title', {}, label) : null,
  s('g', rot, paths(name)));
}

// arrowIcon draws one of the eight compass arrows (or the turn-around).
export function arrowIcon(dir, opts = {}) {
  if (dir === 'spin') return icon('spin', opts);
  return icon('arrow', {...opts, rotate: DIRS8[dir] * 45});
}

// ---- seats ----

// Seat colours (Okabe–Ito, which the common colour-vision deficiencies
// tell apart) and the ink readable on each: white only on the dark blue,
// black elsewhere, both at least 4.5:1.
export const SEAT_COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9'];
export const SEAT_INK = ['#ffffff', '#000000', '#000000', '#000000', '#000000', '#000000'];

// Seat shapes, so that seats never differ by colour alone.
const SEAT_SHAPE = [
  (r) => s('circle', {r}),
  (r) => s('rect', {x: -r * 0.88, y: -r * 0.88, width: r * 1.76, height: r * 1.76, rx: r * 0.15}),
  (r) => s('polygon', {points: `0,${-r * 1.08} ${r * 1.05},${r * 0.8} ${-r * 1.05},${r * 0.8}`}),
  (r) => s('polygon', {points: `0,${-r * 1.15} ${r * 1.15},0 0,${r * 1.15} ${-r * 1.15},0`}),
  (r) => s('polygon', {points: starPoints(r * 1.15, r * 0.55)}),
  (r) => s('polygon', {points: polyPoints(5, r * 1.05)}),
];

function starPoints(R, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5, q = i % 2 ? r : R;
    pts.push((q * Math.cos(a)).toFixed(2) + ',' + (q * Math.sin(a)).toFixed(2));
  }
  return pts.join(' ');
}

function polyPoints(n, R) {
  const pts = [];
  for (let i = 0; i < n; i++) {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / n;
    pts.push((R * Math.cos(a)).toFixed(2) + ',' + (R * Math.sin(a)).toFixed(2));
  }
  return pts.join(' ');
}

export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];
export const seatInk = (seat) => SEAT_INK[seat % SEAT_INK.length];

// seatShape draws a seat's shape in its colour, centred on (0, 0), radius
// r, inside an SVG; with a label, the seat's number is written on it.
export function seatShape(seat, r, attrs = {}) {
  const shape = SEAT_SHAPE[seat % SEAT_SHAPE.length](r);
  shape.setAttribute('fill', seatColour(seat));
  shape.setAttribute('class', 'seat-shape');
  return s('g', {class: 'seat-token ' + (attrs.cls || ''), transform: attrs.x != null ? `translate(${attrs.x} ${attrs.y})` : null},
    shape,
    attrs.text != null ? s('text', {class: 'seat-token-t', y: r * 0.08, fill: seatInk(seat), style: `font-size:${r * 1.1}px`}, attrs.text) : null);
}

// seatMark is a seat's shape as an inline SVG for HTML; decoration, since
// the seat's name is always written beside it.
export function seatMark(seat, size = 16) {
  return s('svg', {class: 'icon seat-mark-svg', viewBox: '-12 -12 24 24', width: size, height: size, 'aria-hidden': 'true', focusable: 'false'},
    seatShape(seat, 9));
}

// pips draws n filled and m empty dots (a score, a level) as an inline SVG.
export function pips(filled, total, opts = {}) {
  const r = 4, gap = 11;
  const dots = [];
  for (let i = 0; i < total; i++) dots.push(s('circle', {cx: 6 + i * gap, cy: 6, r, class: i < filled ? 'pip on' : 'pip'}));
  return s('svg', {class: 'icon pips ' + (opts.cls || ''), viewBox: `0 0 ${Math.max(1, total) * gap + 1} 12`, width: Math.max(1, total) * gap * 0.9, height: 11,
    role: opts.label ? 'img' : null, 'aria-label': opts.label || null, 'aria-hidden': opts.label ? null : 'true', focusable: 'false'},
  opts.label ? s('title', {}, opts.label) : null, dots);
}

// svgBox wraps pieces into a standalone picture (the lobby, the help pages).
export function svgBox(viewBox, label, children, cls = '') {
  return s('svg', {class: 'picture ' + cls, viewBox, role: 'img', 'aria-label': label, focusable: 'false'}, s('title', {}, label), children);
}
