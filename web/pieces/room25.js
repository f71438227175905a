// Room 25's pieces, for the board, the help page, the tooltips and the
// lobby: room tiles framed in their danger colour with a mark of the same
// meaning (green circle, yellow triangle, red cross, blue diamond), the
// face-down back, the characters' figures on their duo's base shape, the
// four action tokens and the memory beacon.

import {s} from '/js/ui.js';
import {t} from '/js/i18n.js';
import {symbol, svgBox, seatColour, seatInk} from './common.js';

// The colour class of each room (public component data).
export const CLASS = {
  central: 'blue', room25: 'blue', empty: 'green', vision: 'green', control_room: 'green', mobile: 'green', twin: 'green',
  vortex: 'yellow', prison: 'yellow', cold: 'yellow', dark: 'yellow',
  trapped: 'red', deadly: 'red', illusion: 'red', flooded: 'red', acid: 'red',
};
export const ROOMS = Object.keys(CLASS);
export const TOKENS = ['look', 'move', 'push', 'control'];
const TOKEN_SYMBOL = {look: 'eye', move: 'walk', push: 'push', control: 'slide'};
// Each duo of characters shares a base shape (its French rulebook's
// pairs): square, round, cross.
const DUO = {scientist: 'square', geek: 'square', handsome: 'round', bimbo: 'round', colossus: 'cross', little_girl: 'cross'};

export const roomName = (r) => t('room25.room.' + r);
export const tokenName = (k) => t('room25.tok.' + k);

// classMark draws a danger class's mark centred on (x, y): the shape says
// what the colour says.
export function classMark(cls, x, y, r) {
  const c = 'class-mark m-' + cls;
  switch (cls) {
    case 'green': return s('circle', {class: c, cx: x, cy: y, r});
    case 'yellow': return s('polygon', {class: c, points: `${x},${y - r * 1.1} ${x + r * 1.1},${y + r * 0.8} ${x - r * 1.1},${y + r * 0.8}`});
    case 'red': return s('path', {class: c, d: `M${x - r} ${y - r * 0.45}l${r * 0.55} -${r * 0.55} ${r * 0.45} ${r * 0.45} ${r * 0.45} -${r * 0.45} ${r * 0.55} ${r * 0.55} -${r * 0.45} ${r * 0.45} ${r * 0.45} ${r * 0.45} -${r * 0.55} ${r * 0.55} -${r * 0.45} -${r * 0.45} -${r * 0.45} ${r * 0.45} -${r * 0.55} -${r * 0.55} ${r * 0.45} -${r * 0.45}z`});
    case 'blue': return s('polygon', {class: c, points: `${x},${y - r * 1.15} ${x + r * 1.15},${y} ${x},${y + r * 1.15} ${x - r * 1.15},${y}`});
  }
  return s('circle', {class: c + ' none', cx: x, cy: y, r});
}

// classIcon is a class's mark as an inline SVG for HTML.
export function classIcon(cls) {
  return s('svg', {class: 'icon class-icon', viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false'}, classMark(cls, 12, 12, 8));
}

// A room tile is a 100×100 box whose every thing has a place of its own,
// so that nothing drawn on it covers anything else or leaves it: the room's
// name along the top; below it a row with the class mark and the seats'
// hints; then the figures (one row of three, or two rows when more stand
// there) or, on a face-down room, the back's "?" with the beacons on either
// side of it.
const NAME = {y: 27, width: 80};
const ROW = {y: 35, height: 14, end: 92}; // the class mark, then the hint chips
const CHIP = {width: 19, gap: 2};
const MARK = {x: 17, r: 6};
const BEACONS = [[16, 66], [16, 84], [28, 66], [28, 84], [72, 66], [84, 66]];

// shortName is a room's name as its tile writes it: the word that tells
// it from the others ("Trapped", "Piégée"); the full name is in its label
// and tooltip.
export const shortName = (r) => t('room25.room.' + r + '.short');

// roomTile draws a room in a 100×100 box: face up with its frame, name and
// mark; known (looked at by this seat alone) with a dashed frame; unturned
// (shown at the end, never turned face up in play) with a dotted one; or
// face down.
export function roomTile(room, state = 'up') {
  if (state === 'down') {
    return s('g', {class: 'r25-tile down'},
      s('rect', {class: 'tile', x: 3, y: 3, width: 94, height: 94, rx: 8}),
      s('text', {class: 'r25-back', x: 50, y: 82}, '?'));
  }
  const cls = CLASS[room];
  const name = shortName(room);
  return s('g', {class: 'r25-tile ' + state + ' c-' + cls},
    s('rect', {class: 'tile', x: 3, y: 3, width: 94, height: 94, rx: 8}),
    s('rect', {class: 'inner', x: 10, y: 10, width: 80, height: 80, rx: 5}),
    s('text', {class: 'r25-room', x: 50, y: NAME.y, ...fit(name, state)}, name),
    classMark(cls, MARK.x, ROW.y + ROW.height / 2, MARK.r));
}

// fit presses a name wider than the tile's room for it to that width.
function fit(name, state) {
  return nameWidth(name, state) > NAME.width ? {textLength: NAME.width, lengthAdjust: 'spacingAndGlyphs'} : {};
}

// nameWidth measures a name as a tile in that state draws it, on a hidden
// tile of its own, once per name and state.
const widths = new Map();
let ruler = null;
function nameWidth(name, state) {
  const key = state + ':' + name;
  if (!widths.has(key)) {
    if (!ruler) {
      ruler = s('svg', {viewBox: '0 0 100 100', width: 100, height: 100, 'aria-hidden': 'true', style: 'position:absolute;left:-9999px;top:0;visibility:hidden'},
        s('g', {class: 'r25-tile'}, s('text', {class: 'r25-room'})));
      document.body.append(ruler);
    }
    ruler.firstChild.setAttribute('class', 'r25-tile ' + state);
    const el = ruler.querySelector('text');
    el.textContent = name;
    widths.set(key, el.getComputedTextLength());
  }
  return widths.get(key);
}

// hintChips draws the seats' hints on a tile in the row below its name,
// after the class mark if it has one: a chip per claim (its colour's mark
// and the seat's number; a claim made twice is drawn once), and when they
// would not all fit, the last chip counts the others ("+2").
export function hintChips(hints, marked) {
  const seen = new Set();
  const claims = (hints || []).filter((hn) => { const k = hn.seat + ':' + hn.colour; return !seen.has(k) && seen.add(k); });
  const x0 = marked ? MARK.x + MARK.r * 1.15 + 3 : 100 - ROW.end;
  const room = Math.floor((ROW.end - x0 + CHIP.gap) / (CHIP.width + CHIP.gap));
  const shown = claims.length > room ? claims.slice(0, room - 1) : claims;
  const chip = (i, ...inside) => s('g', {class: 'r25-hint', transform: `translate(${x0 + i * (CHIP.width + CHIP.gap)} ${ROW.y})`},
    s('rect', {class: 'hint-bg', width: CHIP.width, height: ROW.height, rx: 3}), inside);
  return [
    shown.map((hn, i) => chip(i, classMark(hn.colour, 6, ROW.height / 2, 3.8), s('text', {x: 13.5, y: 11.5}, String(hn.seat + 1)))),
    claims.length > shown.length ? chip(shown.length, s('text', {class: 'more', x: CHIP.width / 2, y: 11.5}, '+' + (claims.length - shown.length))) : null,
  ];
}

// figureSpots places n figures on a tile: one row of up to three, else two
// rows of smaller figures.
export function figureSpots(n) {
  if (n <= 3) return Array.from({length: n}, (_, i) => ({x: 50 + (i - (n - 1) / 2) * 30, y: 68, scale: 1}));
  return Array.from({length: n}, (_, i) => {
    const row = i < 3 ? 0 : 1, k = row ? n - 3 : 3, j = row ? i - 3 : i;
    return {x: 50 + (j - (k - 1) / 2) * 28, y: row ? 81 : 60, scale: 0.88};
  });
}

// beaconSpot is where the i-th beacon on a face-down tile stands, clear of
// its "?" and of the eye of a room this seat has seen.
export function beaconSpot(i) {
  return BEACONS[i % BEACONS.length];
}

// figure draws a character's figure centred on (x, y): its duo's base in
// the seat's colour and its initials in ink readable on that colour.
export function figure(character, seat, x, y, opts = {}) {
  const fill = seatColour(seat);
  const base = DUO[character] || 'round';
  let shape;
  if (base === 'square') shape = s('rect', {x: -14, y: -10, width: 28, height: 20, rx: 3, fill});
  else if (base === 'cross') shape = s('path', {d: 'M-6 -11h12v5h8v12h-8v5h-12v-5h-8v-12h8z', fill});
  else shape = s('ellipse', {rx: 15, ry: 10.5, fill});
  const scale = opts.scale && opts.scale !== 1 ? ` scale(${opts.scale})` : '';
  return s('g', {class: 'r25-figure' + (opts.cls ? ' ' + opts.cls : ''), transform: `translate(${x} ${y})${scale}`},
    shape, s('text', {y: 1, fill: seatInk(seat)}, t('room25.char.' + character + '.short')));
}

// tokenSymbol draws an action token's symbol centred on (x, y).
export function tokenSymbol(token, x, y, size) {
  return symbol(TOKEN_SYMBOL[token], x, y, size, {cls: 'tok-sym'});
}

// tokenIcon is an action token as an inline SVG for buttons and text.
export function tokenIcon(token) {
  return s('svg', {class: 'icon tok-icon', viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false'},
    s('circle', {class: 'tok-bg', cx: 12, cy: 12, r: 11.5}), tokenSymbol(token, 12, 12, 16));
}

// emblem is the lobby's picture of the game: a corner of the complex.
export function emblem() {
  const rooms = [['central', 'up'], [null, 'down'], ['trapped', 'up']];
  return svgBox('0 0 320 110', t('pieces.emblem.room25'), [
    rooms.map(([r, st], i) => s('g', {transform: `translate(${5 + i * 105} 5)`}, roomTile(r, st))),
    figureSpots(2).map((at, i) => figure(i ? 'bimbo' : 'scientist', i, 5 + at.x, 5 + at.y)),
  ], 'emblem');
}
