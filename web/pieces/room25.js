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

// roomTile draws a room in a 100×100 box: face up with its frame, name and
// mark; known (looked at by this seat alone) with a dashed frame; or face
// down.
export function roomTile(room, state = 'up') {
  if (state === 'down') {
    return s('g', {class: 'r25-tile down'},
      s('rect', {class: 'tile', x: 3, y: 3, width: 94, height: 94, rx: 8}),
      s('text', {class: 'r25-back', x: 50, y: 64}, '?'));
  }
  const cls = CLASS[room];
  return s('g', {class: 'r25-tile ' + state + ' c-' + cls},
    s('rect', {class: 'tile', x: 3, y: 3, width: 94, height: 94, rx: 8}),
    s('rect', {class: 'inner', x: 10, y: 10, width: 80, height: 80, rx: 5}),
    s('text', {class: 'r25-room', x: 50, y: 27}, roomName(room)),
    classMark(cls, 18, 80, 7));
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
  return s('g', {class: 'r25-figure' + (opts.cls ? ' ' + opts.cls : ''), transform: `translate(${x} ${y})`},
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
    figure('scientist', 0, 38, 62), figure('bimbo', 1, 72, 62),
  ], 'emblem');
}
