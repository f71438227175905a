// Les Évadés's pieces, for the board, the help page, the tooltips and the
// lobby: Combines cards (their level as pips, jokers starred), door tabs,
// object tokens, pawns, and where the prison's areas and doors are drawn.

import {s} from '/js/ui.js';
import {t} from '/js/i18n.js';
import {symbol, svgBox, seatShape} from './common.js';

export const LEVEL = {spoon: 1, soap: 1, paperclip: 1, cigarettes: 1, file: 2, screwdriver: 2, rope: 2, wire_cutters: 2, crowbar: 3, uniform: 3, keypad: 3, joker: 0};

// levelPips draws a door's or card's level as n dots centred on (x, y) in
// the prison's units.
export function levelPips(n, x, y) {
  const r = 0.07, gap = 0.22;
  return s('g', {class: 'lvl-pips'}, Array.from({length: n}, (_, i) => s('circle', {cx: x + (i - (n - 1) / 2) * gap, cy: y, r})));
}

// cardFace is a small Combines card as an inline SVG: its level band and
// pips, or a star for a joker.
export function cardFace(c) {
  return s('svg', {class: 'ev-card lvl-' + LEVEL[c], viewBox: '0 0 30 40', 'aria-hidden': 'true', focusable: 'false'}, cardArt(c));
}

// cardArt is a Combines card in a 30×40 box.
function cardArt(c) {
  const lvl = LEVEL[c];
  return [s('rect', {class: 'card-bg', x: 1, y: 1, width: 28, height: 38, rx: 4}),
    s('rect', {class: 'band', x: 1, y: 1, width: 28, height: 9, rx: 4}),
    lvl ? Array.from({length: lvl}, (_, i) => s('circle', {class: 'pip', cx: 15 + (i - (lvl - 1) / 2) * 7, cy: 25, r: 2.6}))
      : symbol('star', 15, 25, 16, {cls: 'joker'})];
}

// objectToken draws an object token in a common room, (x, y) its top left.
export function objectToken(o, x, y, name) {
  return s('g', {class: 'obj'}, s('rect', {x, y, width: 1.4, height: 0.52, rx: 0.12}),
    s('text', {class: 'obj-t', x: x + 0.7, y: y + 0.27, textLength: name.length > 7 ? 1.3 : null, lengthAdjust: 'spacingAndGlyphs'}, name));
}

// The exits are drawn a little outside the walls, so that their doors and
// the lobbies' names never overlap.
export function drawPos(a) {
  if (a.kind !== 'exit') return [a.x, a.y];
  const dx = Math.sign(a.x - 12), dy = Math.sign(a.y - 12);
  return [a.x + dx * 1.3, a.y + dy * 1.3];
}

// drawDoor is where a door is drawn: between its areas as drawn.
export function drawDoor(d, areaAt) {
  // A door between two areas side by side sits low on the wall, below the
  // areas' names.
  if (!d.exit && areaAt[d.a].y === areaAt[d.b].y) return [d.x, d.y + 0.55];
  if (!d.exit) return [d.x, d.y];
  const [ax, ay] = drawPos(areaAt[d.a]), [bx, by] = drawPos(areaAt[d.b]);
  return [(ax + bx) / 2, (ay + by) / 2];
}

// emblem is the lobby's picture of the game: a door between two cells,
// a pawn and a hand of cards.
export function emblem() {
  const card = (c, x, rot) => s('g', {transform: `translate(${x} 30) rotate(${rot} 15 40) scale(1.6)`}, cardArt(c));
  return svgBox('0 0 320 120', t('pieces.emblem.evades'), [
    s('g', {class: 'ev-emblem'},
      s('rect', {class: 'wall', x: 8, y: 10, width: 150, height: 100, rx: 8}),
      s('rect', {class: 'door-tab', x: 58, y: 40, width: 50, height: 40, rx: 5}),
      symbol('door', 83, 60, 30, {cls: 'door-sym'}),
      seatShape(0, 12, {x: 32, y: 90, text: '1'}), seatShape(1, 12, {x: 134, y: 90, text: '2'})),
    s('g', {class: 'ev-card lvl-1'}, card('spoon', 170, -8)), s('g', {class: 'ev-card lvl-2'}, card('file', 210, 0)), s('g', {class: 'ev-card lvl-0'}, card('joker', 250, 8)),
  ], 'emblem');
}
