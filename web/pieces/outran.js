// Outran's pieces, for the board, the help page, the tooltips and the
// lobby: the nine arrow cards and the special tokens, the path card (a 3×3
// card whose symbols are joined by footprints from a ring of flames), the
// monster board's icons, interference cards and the exit track's tokens.

import {s} from '/js/ui.js';
import {t} from '/js/i18n.js';
import {symbol, svgBox, arrowIcon, icon, DIRS8} from './common.js';

export const ARROWS = ['nw', 'n', 'ne', 'w', 'spin', 'e', 'sw', 's', 'se'];
export const tokName = (k) => t('outran.tok.' + k);

// tokenSym draws a token's symbol centred on (x, y) inside an SVG.
export function tokenSym(k, x, y, size) {
  if (k === 'spin') return symbol('spin', x, y, size);
  if (k === 'detour') return symbol('plus', x, y, size);
  if (k === 'antidote') return symbol('antidote', x, y, size);
  if (k === 'express') return symbol('express', x, y, size);
  return symbol('arrow', x, y, size, {rotate: DIRS8[k] * 45});
}

// tokenIcon is a token as an inline SVG; with label it is named for screen
// readers, else it is decoration beside words that say it.
export function tokenIcon(k, label) {
  if (k in DIRS8 || k === 'spin') return arrowIcon(k, {label, cls: 'tok'});
  return icon({detour: 'plus', antidote: 'antidote', express: 'express'}[k], {label, cls: 'tok'});
}

// arrowCard draws an arrow card (a 60×60 card) showing token k.
export function arrowCard(k) {
  return s('g', {class: 'or-arrow-card'}, s('rect', {class: 'card-bg', x: 3, y: 3, width: 54, height: 54, rx: 9}), tokenSym(k, 30, 30, 34));
}

// pathCard draws a path card in a 214×214 box: the symbols on their cells,
// footprints joining them in order, flames around the first.
export function pathCard(path) {
  const cell = (id) => ['abc'.indexOf(id[0]), +id[1] - 1];
  const centre = (id) => { const [c, r] = cell(id); return [c * 70 + 37, r * 70 + 37]; };
  const g = [s('rect', {class: 'path-bg', x: 1, y: 1, width: 212, height: 212, rx: 14})];
  const trail = path.trail || [];
  for (let i = 1; i < trail.length; i++) {
    const [x1, y1] = centre(trail[i - 1]), [x2, y2] = centre(trail[i]);
    g.push(s('line', {class: 'steps', x1, y1, x2, y2}));
  }
  trail.forEach((id, i) => {
    const [x, y] = centre(id);
    g.push(s('circle', {class: 'spot' + (i === 0 ? ' first' : ''), cx: x, cy: y, r: 27}));
    if (i === 0) g.push(symbol('flame', x - 21, y - 21, 24, {cls: 'flame'}));
    else g.push(s('text', {class: 'n', x: x - 21, y: y - 15}, String(i + 1)));
    g.push(tokenSym(path.symbols[i], x, y, 32));
  });
  return g;
}

// iconSym draws a monster board's icon (claw, biohazard, fire, turret).
export function boardIcon(ic) {
  const name = {claw: 'claw', biohazard: 'biohazard', fire: 'flame', turret: 'cards'}[ic] || 'info';
  return icon(name, {cls: 'board-icon ic-' + ic});
}

// emblem is the lobby's picture of the game: a path card and two arrows.
export function emblem() {
  return svgBox('0 0 320 120', t('pieces.emblem.outran'), [
    s('g', {transform: 'translate(8 6) scale(0.5)'}, pathCard({symbols: ['ne', 's', 'spin', 'w'], trail: ['a3', 'b2', 'b3', 'c2']})),
    s('g', {transform: 'translate(130 30)'}, arrowCard('ne')),
    s('g', {transform: 'translate(196 30)'}, arrowCard('s')),
    s('g', {transform: 'translate(262 30)'}, arrowCard('spin')),
  ], 'emblem');
}
