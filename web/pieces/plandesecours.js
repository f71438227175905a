// Plan de Secours's pieces, drawn once for the board, the help page, the
// tooltips and the lobby: DIRECTION tiles as green emergency-exit signs
// with a white route and arrow, the seven character pictograms, the
// face-down back, LOST tiles, FLOOR and DANGER cards.

import {s} from '/js/ui.js';
import {t} from '/js/i18n.js';
import {symbol, svgBox, seatShape} from './common.js';

const SIDE = [[50, 0], [100, 50], [50, 100], [0, 50]]; // N E S W in a 100×100 tile
// Quarter-turns from a tile's entry to its arrow, by type.
export const ARROW_TURN = {start: 0, straight: 0, crossroads: 0, right: 1, double_right: 1, left: 3, double_left: 3, repetition: 0};
export const CHARACTERS_LIST = ['runner', 'firefighter', 'medic', 'wheelchair', 'child', 'elder', 'guard'];
export const TYPES = ['straight', 'left', 'right', 'double_left', 'double_right', 'crossroads', 'repetition'];

// typeOf returns a tile's type from its id ("double_left_2" → "double_left").
export function typeOf(tile) {
  return tile === 'start' ? 'start' : String(tile).replace(/_\d+$/, '');
}

// The character printed on each tile (the game's public component table).
const CHARACTERS = {
  straight_1: 'runner', straight_2: 'firefighter', straight_3: 'medic', straight_4: 'wheelchair',
  left_1: 'child', left_2: 'elder', left_3: 'guard', right_1: 'runner', right_2: 'firefighter', right_3: 'medic',
  double_left_1: 'wheelchair', double_right_1: 'child', crossroads_1: 'elder', repetition_1: 'guard',
};
export const characterOf = (tile) => CHARACTERS[tile] || '';

export const dirName = (d) => t('pds.dir.' + (((d % 4) + 4) % 4));
export const charName = (c) => (c ? t('pds.char.' + c) : '');
// theChar names a character in a sentence, with its article ("the child",
// "l’enfant").
export const theChar = (c) => (c ? t('pds.theChar.' + c) : '');

// tileName names a tile by its type and character.
export function tileName(tile, character) {
  const n = t('pds.type.' + typeOf(tile));
  return character ? n + ' (' + charName(character) + ')' : n;
}

// tileTip explains what a tile does, for its tooltip.
export function tileTip(tile, character) {
  const type = typeOf(tile);
  let text = t('tip.pds.type.' + type);
  if (character) text += ' ' + t('tip.pds.character', {character: theChar(character)});
  return text;
}

export function routeD(a, b) {
  const [x1, y1] = SIDE[a], [x2, y2] = SIDE[b];
  if ((a + 2) % 4 === b) return `M${x1},${y1} L${x2},${y2}`;
  return `M${x1},${y1} Q50,50 ${x2},${y2}`;
}

function arrowHead(side) {
  return s('polygon', {class: 'arrow', points: '50,4 34,26 66,26', transform: `rotate(${side * 90} 50 50)`});
}

// The character pictograms, in the spirit of safety signs, on 24×24.
const PICTO = {
  runner: ['*M15.5 2a2.2 2.2 0 1 1 0 4.4 2.2 2.2 0 0 1 0-4.4z', 'M14.5 8 11 13.5', 'M13.8 9 9.5 10.5', 'M13.8 9l2.7 3 3 .3', 'M11 13.5l3.2 3L13 21.5', 'M11 13.5 8.3 17.5 4.5 17'],
  firefighter: ['*M8.2 6.2a3.8 3.8 0 0 1 7.6 0z', 'M7 6.4h10', '*M12 6.6a2.1 2.1 0 1 1 0 4.2 2.1 2.1 0 0 1 0-4.2z', 'M12 11.5v5', 'M8 13.5h8', 'M12 16.5 9.5 21.5', 'M12 16.5l2.5 5'],
  medic: ['M12 2.5a9.5 9.5 0 1 1 0 19 9.5 9.5 0 0 1 0-19z', '*M10 6.5h4v3.5h3.5v4H14v3.5h-4V14H6.5v-4H10z'],
  wheelchair: ['*M9.5 2a2.1 2.1 0 1 1 0 4.2 2.1 2.1 0 0 1 0-4.2z', 'M9.5 7.5v6.5h6l2.3 5', 'M9.5 10h5', 'M6.3 12.5a5 5 0 1 0 7.7 5.5'],
  child: ['*M12 6.5a2.3 2.3 0 1 1 0 4.6 2.3 2.3 0 0 1 0-4.6z', 'M12 12v4.5', 'M8.5 13.5h7', 'M12 16.5 10 21', 'M12 16.5l2 4.5'],
  elder: ['*M9.5 2a2.1 2.1 0 1 1 0 4.2 2.1 2.1 0 0 1 0-4.2z', 'M9.8 7.5 11.5 14', 'M10.4 9.5l4.6 2', 'M15.5 11v10', 'M11.5 14 9.5 21', 'M11.5 14l2 7'],
  guard: ['*M8.3 4.5h7.4l-1-2.4H9.3z', 'M7.5 5h9', '*M12 5.8a2.2 2.2 0 1 1 0 4.4 2.2 2.2 0 0 1 0-4.4z', 'M12 11v5.5', 'M7.5 13h9', 'M12 16.5 9.5 21.5', 'M12 16.5l2.5 5'],
};

// picto draws a character's pictogram centred on (x, y), size wide.
export function picto(character, x, y, size, cls = 'picto') {
  const k = size / 24;
  return s('g', {class: cls, transform: `translate(${x - size / 2} ${y - size / 2}) scale(${k})`, 'aria-hidden': 'true'},
    PICTO[character].map((d) => (d[0] === '*' ? s('path', {d: d.slice(1), class: 'f'}) : s('path', {d}))));
}

// tileArt draws a tile in its own frame (entered from local south): the
// caller turns it by its facing. repeatMove, for a Repetition in the
// reveal, draws the move it copied.
function tileArt(type, repeatMove) {
  const g = [];
  if (type === 'repetition') {
    if (repeatMove) {
      g.push(s('path', {class: 'route', d: routeD(2, {straight: 0, right: 1, left: 3}[repeatMove])}));
      return g;
    }
    g.push(s('path', {class: 'route', d: 'M50,100 L50,74'}));
    g.push(s('path', {class: 'route thin', d: 'M50,28 A22,22 0 1,1 28,50'}));
    g.push(s('polygon', {class: 'arrow', points: '18,40 38,40 28,58'}));
    return g;
  }
  const prim = {start: 0, straight: 0, crossroads: 0, left: 3, double_left: 3, right: 1, double_right: 1};
  if (type === 'double_left') g.push(s('path', {class: 'route2', d: routeD(0, 1)}));
  if (type === 'double_right') g.push(s('path', {class: 'route2', d: routeD(0, 3)}));
  if (type === 'crossroads') g.push(s('path', {class: 'route2', d: routeD(1, 3)}));
  const out = prim[type] ?? 0;
  g.push(s('path', {class: 'route', d: routeD(2, out)}));
  g.push(arrowHead(out));
  return g;
}

// tileFace is a tile's drawing in a 100×100 box, without its own <svg>:
// the face, the routes turned to the facing, the character's plate.
export function tileFace(tile, facing, opts = {}) {
  const type = typeOf(tile);
  const character = opts.character !== undefined ? opts.character : characterOf(tile);
  return s('g', {class: 'pds-tile t-' + type},
    s('rect', {class: 'bg', x: 2, y: 2, width: 96, height: 96, rx: 8}),
    s('rect', {class: 'rim', x: 7, y: 7, width: 86, height: 86, rx: 5}),
    s('g', {transform: `rotate(${(facing || 0) * 90} 50 50)`}, tileArt(type, opts.repeatMove)),
    type === 'start' ? s('text', {class: 'label', x: 50, y: 90}, t('pds.start')) : null,
    character ? [s('rect', {class: 'plate', x: 6, y: 6, width: 30, height: 30, rx: 5}), picto(character, 21, 21, 24)] : null);
}

// tileSVG draws a tile (or the start) turned to a display facing (0 up, 1
// right, 2 down, 3 left), as an accessible image.
export function tileSVG(tile, facing, opts = {}) {
  const type = typeOf(tile);
  const character = opts.character !== undefined ? opts.character : characterOf(tile);
  const label = opts.label || tileLabel(tile, facing, character);
  return s('svg', {class: 'tile-svg ' + (opts.cls || ''), viewBox: '0 0 100 100', role: 'img', 'aria-label': label},
    s('title', {}, label), tileFace(tile, facing, {character}));
}

export function tileLabel(tile, facing, character) {
  const type = typeOf(tile);
  if (type === 'repetition') return t('pds.aria.repetition', {name: tileName(tile, character), dir: dirName(facing)});
  return t('pds.aria.tile', {name: tileName(tile, character), dir: dirName(facing + ARROW_TURN[type])});
}

// backSVG is a face-down tile.
export function backSVG(label) {
  return s('svg', {class: 'tile-svg', viewBox: '0 0 100 100', role: 'img', 'aria-label': label},
    s('title', {}, label),
    s('g', {class: 'pds-tile back'},
      s('rect', {class: 'bg', x: 2, y: 2, width: 96, height: 96, rx: 8}),
      s('rect', {class: 'rim', x: 7, y: 7, width: 86, height: 86, rx: 5}),
      s('text', {class: 'q', x: 50, y: 66}, '?')));
}

// lostFace is a LOST tile of a seat, in a 100×100 box.
export function lostFace(seat, name) {
  return s('g', {class: 'pds-lost'},
    s('rect', {class: 'bg', x: 2, y: 2, width: 96, height: 96, rx: 8}),
    s('text', {class: 'lost-t', x: 50, y: 46}, t('pds.lostWord')),
    seatShape(seat, 11, {x: 50, y: 70}),
    name ? s('text', {class: 'who', x: 50, y: 93, textLength: name.length > 9 ? 86 : null, lengthAdjust: 'spacingAndGlyphs'}, name) : null);
}

export function lostSVG(seat, name) {
  const label = t('pds.aria.lost', {name});
  return s('svg', {class: 'tile-svg', viewBox: '0 0 100 100', role: 'img', 'aria-label': label}, s('title', {}, label), lostFace(seat, name));
}

// cardArt draws a FLOOR or DANGER card's picture (80×56): a floor plan for
// FLOOR cards, the triggering character in a warning sign for DANGER ones.
export function cardArt(card) {
  const danger = card.startsWith('danger_');
  const label = t('pds.id.' + card);
  let art;
  if (danger) {
    const who = {danger_rotate_cw: 'child', danger_rotate_ccw: 'elder', danger_rotate_half: 'guard', danger_blackout: 'runner',
      danger_play_again: 'firefighter', danger_skip_next: 'medic', danger_pass_hands: 'wheelchair'}[card];
    art = [s('polygon', {class: 'warn-tri', points: '40,4 74,52 6,52'}), picto(who, 40, 34, 26, 'picto dark')];
  } else {
    art = [s('rect', {class: 'floor-bg', x: 4, y: 4, width: 72, height: 48, rx: 4}),
      s('path', {class: 'floor-walls', d: 'M4 28h26M44 28h32M40 4v18M40 34v18'}),
      symbol('warn', 62, 16, 16, {cls: 'floor-sym'})];
  }
  return s('svg', {class: 'card-art', viewBox: '0 0 80 56', 'aria-hidden': 'true', focusable: 'false'}, s('title', {}, label), art);
}

// emblem is the lobby's picture of the game: a short path of tiles and a
// LOST tile.
export function emblem() {
  return svgBox('0 0 320 120', t('pieces.emblem.plandesecours'), [
    s('g', {transform: 'translate(8 10)'}, tileFace('start', 1, {character: ''})),
    s('g', {transform: 'translate(112 10)'}, tileFace('right_2', 1)),
    s('g', {transform: 'translate(216 10) rotate(8 50 50)'}, lostFace(1, '')),
  ], 'emblem');
}
