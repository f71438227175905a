// Escape: The Curse of the Temple's pieces, for the board, the help page,
// the tooltips and the lobby: the five die faces (adventurer, key, torch,
// gold mask, black mask) on stone dice, chamber tiles with their entrance
// cost in a red frame and their gem fields, gems and chests.

import {s} from '/js/ui.js';
import {t} from '/js/i18n.js';
import {symbol, svgBox, seatShape} from './common.js';

export const FACES = ['adventurer', 'key', 'torch', 'gold_mask', 'black_mask'];
const FACE_SYMBOL = {adventurer: 'adventurer', key: 'key', torch: 'torch', gold_mask: 'mask', black_mask: 'mask'};

export const faceName = (f) => t('temple.face.' + f);

// faceSymbol draws a face's symbol centred on (x, y).
export function faceSymbol(face, x, y, size) {
  if (!FACE_SYMBOL[face]) return null;
  return symbol(FACE_SYMBOL[face], x, y, size, {cls: 'face-sym f-' + face});
}

// dieFace draws a die showing face (or blank), in a 60×60 box, with its
// status drawn over it: a padlock when locked, a gem when pooled.
export function dieFace(face, status = 'live') {
  return s('g', {class: 'tp-die f-' + face + ' st-' + status},
    s('rect', {class: 'die-bg', x: 3, y: 3, width: 54, height: 54, rx: 11}),
    face && face !== 'none' ? faceSymbol(face, 30, 30, 36) : s('circle', {class: 'blank', cx: 30, cy: 30, r: 4}),
    status === 'locked' ? [s('circle', {class: 'badge', cx: 48, cy: 12, r: 10}), symbol('lock', 48, 12, 13, {cls: 'badge-sym'})] : null,
    status === 'pooled' ? [s('circle', {class: 'badge pooled', cx: 48, cy: 12, r: 10}), symbol('gem', 48, 12, 13, {cls: 'badge-sym'})] : null);
}

// dieSVG is a die as an inline picture (decoration: the die's button or
// list item names it).
export function dieSVG(face, status) {
  return s('svg', {class: 'die-svg', viewBox: '0 0 60 60', 'aria-hidden': 'true', focusable: 'false'}, dieFace(face, status));
}

// dieTip explains a die: its face, what it is good for, and for a locked
// die how to free it.
export function dieTip(face, status) {
  const parts = [face && face !== 'none' ? t('tip.temple.face.' + face) : t('tip.temple.face.none')];
  if (status === 'locked') parts.push(t('tip.temple.locked'));
  else if (status === 'pooled') parts.push(t('tip.temple.pooled'));
  else if (status === 'spent') parts.push(t('tip.temple.spent'));
  else if (status === 'lost') parts.push(t('tip.temple.lostDie'));
  return parts.join(' ');
}

// costFrame draws an entrance cost (two faces) in its red frame, centred on
// (x, y).
export function costFrame(cost, x, y) {
  const n = (cost || []).length;
  const w = n * 22 + 6;
  return s('g', {class: 'cost', transform: `translate(${x - w / 2} ${y - 13})`},
    s('rect', {class: 'cost-frame', x: 0, y: 0, width: w, height: 26, rx: 5}),
    (cost || []).map((f, i) => faceSymbol(f, 14 + i * 22, 13, 19)));
}

// gemShape draws a magic gem centred on (x, y).
export function gemShape(x, y, r = 8) {
  return s('polygon', {class: 'gem', points: `${x},${y - r} ${x + r},${y - r * 0.2} ${x},${y + r} ${x - r},${y - r * 0.2}`});
}

// nameFit narrows a chamber's name that may run past its floor (108 units
// wide), as "Salle des gemmes 2" or "Gem chamber 12" would: it is drawn in
// 100 units, letters and spacing squeezed alike. (The tiles are drawn before
// they are in the page, where text could be measured: a letter of their
// bold 12-unit type is reckoned 8.4 units, a little more than most fonts
// take.)
function nameFit(name) {
  return [...name].length * 8.4 > 100 ? {textLength: 100, lengthAdjust: 'spacingAndGlyphs'} : {};
}

// chamberTile draws a chamber in a 120×120 cell: stone floor, open sides,
// its name, its entrance cost and gem field, and (unless opts.marks is
// false) its marks: see chamberMarks. Each thing keeps a place of its own,
// so that none hides another (TestTempleTilesKeepTheirPlaces): the name
// across the top, the cost under it between the curse mask and the chest,
// the gem field in the middle with its check mark and its count at its
// right, loose gems at its left, and a row at the bottom for up to five
// explorers.
export function chamberTile(c, opts = {}) {
  const sides = c.open || '';
  const door = {N: [48, 0, 24, 12], E: [108, 48, 12, 24], S: [48, 108, 24, 12], W: [0, 48, 12, 24]};
  return s('g', {class: 'tp-tile k-' + (opts.kind || c.kind)},
    s('rect', {class: 'floor', x: 6, y: 6, width: 108, height: 108, rx: 10}),
    [...sides].map((sd) => door[sd] ? s('rect', {class: 'opening', x: door[sd][0], y: door[sd][1], width: door[sd][2], height: door[sd][3], rx: 3}) : null),
    opts.name ? s('text', {class: 'name', x: 60, y: 27, ...nameFit(opts.name)}, opts.name) : null,
    c.cost && c.cost.length ? costFrame(c.cost, 60, 44) : null,
    c.tiers ? [s('circle', {class: 'field', cx: 60, cy: 73, r: 15}), faceSymbol(c.symbol, 60, 73, 17)] : null,
    c.activated ? symbol('check', 96, 62, 16, {cls: 'done'}) : null,
    c.gems ? gemShape(22, 64) : null,
    c.face_down_treasure || c.chest ? symbol('chest', 98, 44, 18, {cls: 'chest'}) : null,
    c.mask ? symbol('mask', 22, 44, 18, {cls: 'curse-mask'}) : null,
    opts.marks === false ? null : chamberMarks(c, opts));
}

// chamberMarks draws what is counted on a chamber's tile: its field's count,
// its loose gems, the explorers in it (opts.pawns, seats). On the board they
// lie over the chamber's button, not in it, so that its name is all the text
// it holds and its label can say the numbers in words (WCAG 2.5.3).
export function chamberMarks(c, opts = {}) {
  return s('g', {class: 'tp-marks'},
    c.tiers ? s('text', {class: 'field-t', x: 95, y: 83}, (c.pool_value || 0) + '/' + (c.target ? c.tiers[c.target - 1].cost : c.tiers[0].cost)) : null,
    c.gems ? s('text', {class: 'gems-t', x: 22, y: 84}, '×' + c.gems) : null,
    (opts.pawns || []).map((seat, k) => seatShape(seat, 9, {x: 18 + k * 21, y: 99, text: String(seat + 1)})));
}

// emblem is the lobby's picture of the game: a row of dice.
export function emblem() {
  const faces = ['adventurer', 'key', 'torch', 'gold_mask', 'black_mask'];
  return svgBox('0 0 320 120', t('pieces.emblem.temple'),
    faces.map((f, i) => s('g', {transform: `translate(${6 + i * 63} ${i % 2 ? 38 : 22})`}, dieFace(f, f === 'black_mask' ? 'locked' : 'live'))), 'emblem');
}
