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

// objectToken draws an object token in a common room, (x, y) its top left
// and w its width; a name too long for it is pressed to fit.
export function objectToken(o, x, y, name, w = OBJECT.w) {
  return s('g', {class: 'obj'}, s('rect', {x, y, width: w, height: OBJECT.h, rx: 0.12}),
    s('text', {class: 'obj-t', x: x + w / 2, y: y + OBJECT.h / 2, ...pressed(name, w - 0.16, 'obj-t')}, name));
}

// ---- where the prison's things are drawn ----
//
// The layout (evades.layout.json) says where each area and door stands on a
// grid three units apart. The map draws each area as a box of its kind's
// size, and gives every thing in it a place of its own: the name along the
// top (on two lines when it is long), then a common room's objects one
// under the other, then the pawns in a row along the bottom, beside a
// wing's vent or an exit's door. Doors stand between their areas, outside
// every box: a door between two areas side by side, where the wall leaves
// no room for its tab, stands below (east of the Cell) or above (west of
// it) the gap between them, and its corridor bends through it.

export const AREA_SIZE = {cell: [2.6, 1.9], ring: [2.5, 1.9], hall: [2.5, 1.9], lobby: [2.6, 1.9], wing: [3.2, 2.1], room: [4.6, 3.2], exit: [2.6, 1.5]};
export const DOOR = {w: 2.1, h: 0.9};
export const WARN_R = 0.24; // a Warning spot, at its door's right
const OBJECT = {w: 4.0, h: 0.55, gap: 0.08};
const PAWN = {r: 0.27, half: 0.31, step: 0.62}; // half: the pawn's largest shape, a diamond
const LINE = 0.5; // between the lines of a name
const GAP = 0.08; // the least room between two things

// The exits are drawn a little outside the walls, so that their doors and
// the lobbies' names never overlap.
export function drawPos(a) {
  if (a.kind !== 'exit') return [a.x, a.y];
  const dx = Math.sign(a.x - 12), dy = Math.sign(a.y - 12);
  return [a.x + dx * 1.3, a.y + dy * 1.3];
}

// areaBox is an area's box as drawn.
export function areaBox(a) {
  const [w, h] = AREA_SIZE[a.kind] || [2, 1.5];
  const [x, y] = drawPos(a);
  return {x: x - w / 2, y: y - h / 2, w, h, cx: x, cy: y};
}

// nameLines says how an area's name is written in a box w wide: one line
// if it fits, else two cut where they come out most even.
export function nameLines(name, w) {
  const room = w - 0.16;
  const words = name.split(' ');
  if (textWidth(name, 'area-t') <= room || words.length < 2) return [name];
  let cut = 1, best = 1e9;
  for (let i = 1; i < words.length; i++) {
    const d = Math.abs(textWidth(words.slice(0, i).join(' '), 'area-t') - textWidth(words.slice(i).join(' '), 'area-t'));
    if (d < best) { best = d; cut = i; }
  }
  return [words.slice(0, cut).join(' '), words.slice(cut).join(' ')];
}

// areaLabel writes an area's name along the top of its box; a line still
// too long (one long word) is pressed to the box's width.
export function areaLabel(a, name) {
  const b = areaBox(a);
  const lines = nameLines(name, b.w);
  const y = b.y + 0.45;
  const line = (text, dy) => s('tspan', {x: b.cx, dy, ...pressed(text, b.w - 0.16, 'area-t')}, text);
  return s('text', {class: 'area-t', x: b.cx, y}, lines.length === 1 ? line(lines[0], 0) : [line(lines[0], 0), line(lines[1], LINE)]);
}

// below is where the room under an area's name begins.
function below(a, name) {
  const b = areaBox(a);
  return b.y + 0.45 + (nameLines(name, b.w).length - 1) * LINE + 0.14 + GAP;
}

// objectSpots are the top-left corners of a common room's objects, one
// under the other below its name.
export function objectSpots(a, name, n) {
  const b = areaBox(a), y0 = below(a, name);
  return Array.from({length: n}, (_, i) => [b.cx - OBJECT.w / 2, y0 + i * (OBJECT.h + OBJECT.gap)]);
}

// pawnSpots are the centres of n pawns in an area: a row along the bottom
// of its box, clear of a wing's vent and an exit's door.
export function pawnSpots(a, n) {
  const b = areaBox(a);
  const y = b.y + b.h - PAWN.half - GAP;
  let left = b.x, right = b.x + b.w;
  if (a.vent) right -= 0.8;
  if (a.kind === 'exit') left += 0.8;
  const mid = (left + right) / 2;
  return Array.from({length: n}, (_, i) => [mid + (i - (n - 1) / 2) * PAWN.step, y]);
}
export const PAWN_R = PAWN.r;

// ventSpot and exitSpot are the centres of a wing's vent mark and of an
// exit's door mark, in their box's bottom corner.
export const ventSpot = (a) => { const b = areaBox(a); return [b.x + b.w - 0.42, b.y + b.h - 0.4]; };
export const exitSpot = (a) => { const b = areaBox(a); return [b.x + 0.42, b.y + b.h - 0.4]; };

// placeDoors finds where each door is drawn: the nearest place to its own
// where its tab touches no area's box and no door placed before it. A door
// between two areas side by side, where the wall leaves no room for its
// tab, starts from below the gap between them east of the Cell, above it
// west of it (where the layout's diagonal doors leave room). It returns
// door id → [x, y].
export function placeDoors(layout, areaAt) {
  const boxes = layout.areas.map(areaBox);
  const placed = [];
  const out = {};
  // A door's tab, with the Warning spot at its right.
  const tab = ([x, y], d) => ({x: x - DOOR.w / 2, y: y - DOOR.h / 2, w: DOOR.w + (d.warning ? 2 * WARN_R : 0), h: DOOR.h});
  const clear = (at, d) => { const r = tab(at, d); return !boxes.some((b) => overlap(r, b, GAP)) && !placed.some((p) => overlap(r, p, GAP)); };
  const steps = [];
  for (let i = -14; i <= 14; i++) for (let j = -10; j <= 10; j++) steps.push([i * 0.15, j * 0.15]);
  steps.sort((p, q) => Math.hypot(...p) - Math.hypot(...q));
  // Doors at their own place first; those between areas side by side
  // then find room around them.
  const sideBySide = (d) => !d.exit && areaAt[d.a].y === areaAt[d.b].y;
  for (const d of [...layout.doors.filter((d) => !sideBySide(d)), ...layout.doors.filter(sideBySide)]) {
    const a = areaBox(areaAt[d.a]), b = areaBox(areaAt[d.b]);
    let start = [d.x, d.y];
    if (d.exit) start = [(a.cx + b.cx) / 2, (a.cy + b.cy) / 2];
    else if (sideBySide(d)) {
      const [l, r] = a.cx < b.cx ? [a, b] : [b, a];
      const mid = (l.x + l.w + r.x) / 2;
      start = [mid, mid > 12 ? Math.max(l.y + l.h, r.y + r.h) + DOOR.h / 2 + GAP * 1.5 : Math.min(l.y, r.y) - DOOR.h / 2 - GAP * 1.5];
    }
    const at = steps.map(([dx, dy]) => [start[0] + dx, start[1] + dy]).find((p) => clear(p, d));
    if (!at) console.warn('no room for door ' + d.door);
    out[d.door] = at || start;
    placed.push(tab(out[d.door], d));
  }
  return out;
}

function overlap(a, b, m) {
  return a.x < b.x + b.w + m && b.x < a.x + a.w + m && a.y < b.y + b.h + m && b.y < a.y + a.h + m;
}

// pressed gives a text wider than w the attributes that press it to w.
export function pressed(text, w, cls) {
  return textWidth(text, cls) > w ? {textLength: w, lengthAdjust: 'spacingAndGlyphs'} : {};
}

// textWidth measures a text as the map draws it with class cls (in the
// map's units), on a hidden map of its own, once per text and class.
const widths = new Map();
let ruler = null;
export function textWidth(text, cls) {
  const key = cls + ':' + text;
  if (!widths.has(key)) {
    if (!ruler) {
      ruler = s('svg', {class: 'ev-ruler', viewBox: '0 0 30 30', width: 300, height: 300, 'aria-hidden': 'true', style: 'position:absolute;left:-9999px;top:0;visibility:hidden'}, s('text', {}));
      document.body.append(ruler);
    }
    const el = ruler.firstChild;
    el.setAttribute('class', cls);
    el.textContent = text;
    widths.set(key, el.getComputedTextLength());
  }
  return widths.get(key);
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
