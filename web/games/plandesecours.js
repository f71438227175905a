// Plan de Secours: the top of the stack in its display orientation, the
// hand, the LOST tiles and the chain being asked, the FLOOR and DANGER cards,
// the scores, and at each round's end the reveal laid out tile by tile.
//
// The stack below its top is never shown, and on purpose the log does not
// name the tiles laid: the client keeps no history of the path (the
// reference's section 8), remembering it is the game.

import {h, s, reducedMotion} from '/js/ui.js';
import {t, tn, list} from '/js/i18n.js';

const SIDE = [[50, 0], [100, 50], [50, 100], [0, 50]]; // N E S W in a 100×100 tile
const ARROW_TURN = {start: 0, straight: 0, crossroads: 0, right: 1, double_right: 1, left: 3, double_left: 3, repetition: 0};
const MOVE_TURN = {straight: 0, right: 1, left: 3};
const HEADING = {N: 0, E: 1, S: 2, W: 3};
const STEP_MS = 320;

// typeOf returns a tile's type from its id ("double_left_2" → "double_left").
export function typeOf(tile) {
  return tile === 'start' ? 'start' : String(tile).replace(/_\d+$/, '');
}

const dirName = (d) => t('pds.dir.' + (((d % 4) + 4) % 4));
const charName = (c) => (c ? t('pds.char.' + c) : '');

// tileName names a tile by its type and character.
export function tileName(tile, character) {
  const n = t('pds.type.' + typeOf(tile));
  return character ? n + ' (' + charName(character) + ')' : n;
}

// characterOf returns the character printed on a tile, from the game's
// public component table (the same for every match).
const CHARACTERS = {
  straight_1: 'runner', straight_2: 'firefighter', straight_3: 'medic', straight_4: 'wheelchair',
  left_1: 'child', left_2: 'elder', left_3: 'guard', right_1: 'runner', right_2: 'firefighter', right_3: 'medic',
  double_left_1: 'wheelchair', double_right_1: 'child', crossroads_1: 'elder', repetition_1: 'guard',
};
export const characterOf = (tile) => CHARACTERS[tile] || '';

function routeD(a, b) {
  const [x1, y1] = SIDE[a], [x2, y2] = SIDE[b];
  if ((a + 2) % 4 === b) return `M${x1},${y1} L${x2},${y2}`;
  return `M${x1},${y1} Q50,50 ${x2},${y2}`;
}

function arrowHead(side) {
  return s('polygon', {class: 'arrow', points: '50,1 37,20 63,20', transform: `rotate(${side * 90} 50 50)`});
}

// tileArt draws a tile in its own frame (entered from local south): the
// caller rotates it by its facing.
function tileArt(type) {
  const g = [];
  const prim = {start: 0, straight: 0, crossroads: 0, left: 3, double_left: 3, right: 1, double_right: 1};
  if (type === 'repetition') {
    g.push(s('path', {class: 'route', d: 'M50,100 L50,72'}));
    g.push(s('path', {class: 'route2', d: 'M50,28 A22,22 0 1,1 28,50', style: 'stroke-dasharray:none;stroke-width:6'}));
    g.push(s('polygon', {class: 'arrow', points: '20,40 36,40 28,56'}));
    return g;
  }
  if (type === 'double_left') g.push(s('path', {class: 'route2', d: routeD(0, 1)}));
  if (type === 'double_right') g.push(s('path', {class: 'route2', d: routeD(0, 3)}));
  if (type === 'crossroads') g.push(s('path', {class: 'route2', d: routeD(1, 3)}));
  const out = prim[type] ?? 0;
  g.push(s('path', {class: 'route', d: routeD(2, out)}));
  g.push(arrowHead(out));
  return g;
}

// tileSVG draws a tile (or the start) turned to a display facing (0 up, 1
// right, 2 down, 3 left), with its character, as an accessible image.
export function tileSVG(tile, facing, opts = {}) {
  const type = typeOf(tile);
  const character = opts.character !== undefined ? opts.character : characterOf(tile);
  const label = opts.label || tileLabel(tile, facing, character);
  return s('svg', {class: 'tile-svg ' + (opts.cls || ''), viewBox: '-2 -2 104 104', role: 'img', 'aria-label': label},
    s('title', {}, label),
    s('rect', {class: 'bg', x: 0, y: 0, width: 100, height: 100, rx: 6}),
    s('g', {transform: `rotate(${(facing || 0) * 90} 50 50)`}, tileArt(type)),
    type === 'start' ? s('text', {class: 'label', x: 50, y: 94}, t('pds.start')) : null,
    character ? [s('circle', {class: 'char', cx: 17, cy: 17, r: 13}), s('text', {class: 'char-t', x: 17, y: 17}, t('pds.char.' + character + '.abbr'))] : null);
}

function tileLabel(tile, facing, character) {
  const type = typeOf(tile);
  if (type === 'repetition') return t('pds.aria.repetition', {name: tileName(tile, character), dir: dirName(facing)});
  return t('pds.aria.tile', {name: tileName(tile, character), dir: dirName(facing + ARROW_TURN[type])});
}

function backSVG(label) {
  return s('svg', {class: 'tile-svg', viewBox: '-2 -2 104 104', role: 'img', 'aria-label': label},
    s('title', {}, label),
    s('rect', {class: 'bg back', x: 0, y: 0, width: 100, height: 100, rx: 6}),
    s('text', {class: 'label', x: 50, y: 60, style: 'font-size:40px;fill:#fff'}, '?'));
}

function lostSVG(seat, ctx) {
  const label = t('pds.aria.lost', {name: ctx.name(seat)});
  return s('svg', {class: 'tile-svg', viewBox: '-2 -2 104 104', role: 'img', 'aria-label': label},
    s('title', {}, label),
    s('rect', {class: 'lost-bg', x: 0, y: 0, width: 100, height: 100, rx: 6}),
    s('text', {class: 'lost-t', x: 50, y: 48}, t('pds.lostWord')),
    s('text', {class: 'label', x: 50, y: 78, textLength: ctx.name(seat).length > 9 ? 90 : null, lengthAdjust: 'spacingAndGlyphs'}, ctx.shape(seat) + ' ' + ctx.name(seat)));
}

function topSVG(top, ctx) {
  switch (top.kind) {
    case 'lost': return lostSVG(top.seat, ctx);
    case 'face_down': return backSVG(t('pds.aria.faceDown'));
    case 'start': return tileSVG('start', top.facing, {character: ''});
    default: return tileSVG(top.tile, top.facing, {character: top.character || ''});
  }
}

// ---- rendering ----

export function render(root, ctx) {
  const v = ctx.view;
  if (!v) return;
  const ui = ctx.ui;
  // A reveal arriving now starts its animation.
  for (const ev of ctx.events || []) {
    if (ev.type === 'round_revealed') {
      ui.reveal = ev.reveal;
      ui.revealAt = performance.now();
      ui.revealOpen = true;
    }
  }
  if (ctx.readonly && v.last_reveal) {
    ui.reveal = v.last_reveal;
    ui.revealAt = -1e9;
    ui.revealOpen = true;
  }
  const myTurn = ctx.myTurn && !ctx.readonly;
  root.append(h('div', {class: 'pds'},
    strip(v, ctx),
    players(v, ctx),
    ui.revealOpen && ui.reveal ? revealPanel(ui.reveal, ctx) : null,
    h('div', {class: 'centre'},
      stackBox(v, ctx),
      cards(v, ctx)),
    chainPrompt(v, ctx, myTurn),
    v.seat >= 0 ? hand(v, ctx, myTurn) : null,
    !ui.revealOpen && v.last_reveal ? h('button', {type: 'button', class: 'show-reveal', onclick: () => { ui.reveal = v.last_reveal; ui.revealAt = -1e9; ui.revealOpen = true; ctx.redraw(); }}, t('pds.showReveal', {round: v.last_reveal.round})) : null));
}

function strip(v, ctx) {
  return h('div', {class: 'strip'},
    h('span', {class: 'stat'}, t('pds.round', {round: v.round})),
    h('span', {class: 'stat'}, tn('pds.target', v.target)),
    h('span', {class: 'stat', id: 'pds-draw'}, tn('pds.drawPile', v.draw_pile)),
    h('span', {class: 'stat', id: 'pds-stack'}, tn('pds.stackTiles', v.stack_tiles)),
    v.danger ? h('span', {class: 'stat'}, t('pds.dangerMode')) : null);
}

function players(v, ctx) {
  const lostBy = new Map((v.lost || []).map((l) => [l.seat, l.chain]));
  const items = [];
  for (let p = 0; p < v.players; p++) {
    const acting = v.phase !== 'game_over' && v.actor === p;
    const out = lostBy.has(p);
    const pips = '●'.repeat(Math.min(v.scores[p], v.target)) + '○'.repeat(Math.max(0, v.target - v.scores[p]));
    items.push(h('div', {class: 'player' + (acting ? ' acting' : '') + (out ? ' out' : ''), 'data-seat': p},
      h('span', {class: 'seat-mark seat-' + p, 'aria-hidden': 'true'}, ctx.shape(p)), ' ',
      h('strong', {}, ctx.name(p)), p === v.seat ? ' (' + t('match.you') + ')' : '', ' ',
      h('span', {class: 'score-pips', 'aria-label': t('pds.score', {score: v.scores[p], target: v.target})}, pips), ' ',
      h('span', {class: 'visually-hidden'}, t('pds.score', {score: v.scores[p], target: v.target})),
      h('br'),
      h('small', {}, tn('pds.handSize', v.hand_sizes[p]), ' · ',
        out ? h('span', {class: 'lost-mark'}, t('pds.outChain', {chain: lostBy.get(p)})) : t('pds.holdsLost'),
        p === v.first_player ? ' · ' + t('pds.firstPlayer') : '',
        acting ? ' · ' + t('match.toAct') : '')));
  }
  return h('div', {class: 'players', role: 'list', 'aria-label': t('match.players')}, items.map((x) => (x.setAttribute('role', 'listitem'), x)));
}

function stackBox(v, ctx) {
  const fresh = (ctx.events || []).some((e) => e.type === 'tile_played' || e.type === 'lost_played' || e.type === 'chain_joined' || e.type === 'blackout');
  const rot = (ctx.events || []).find((e) => e.type === 'stack_rotated');
  const art = topSVG(v.top, ctx);
  art.classList.add('top-tile');
  if (fresh) art.classList.add('fresh');
  if (rot && !reducedMotion()) art.style.animation = (rot.quarter_turns === 2 ? 'spin180' : rot.quarter_turns === 3 ? 'spin-90' : 'spin90') + ' .9s ease-out';
  const nf = v.next_facing;
  return h('figure', {class: 'stack-box', id: 'pds-top'},
    art,
    h('figcaption', {class: 'caption'}, t('pds.topOfStack'), h('br'),
      nf === 'free' ? t('pds.nextFree') : t('pds.nextFacing', {dir: dirName(nf), arrow: '↑→↓←'[nf]})));
}

function cards(v, ctx) {
  const floor = (v.floors || []).map((f) => h('div', {class: 'card floor', 'data-card': f},
    h('h4', {}, '▦ ', t('pds.id.' + f)), h('div', {}, t('pds.floorText.' + f))));
  const danger = (v.dangers || []).map((d) => h('div', {class: 'card danger', 'data-card': d},
    h('h4', {}, '⚠ ', t('pds.id.' + d)), h('div', {}, t('pds.dangerText.' + d))));
  return h('div', {class: 'cards-col'},
    h('h3', {}, t('pds.floors'), ' ', h('small', {class: 'muted'}, tn('pds.deckLeft', v.floor_deck))),
    h('div', {class: 'cards'}, floor),
    v.danger ? [h('h3', {}, t('pds.dangers'), ' ', h('small', {class: 'muted'}, tn('pds.deckLeft', v.danger_deck))),
      danger.length ? h('div', {class: 'cards'}, danger) : h('p', {class: 'muted'}, t('pds.noDanger'))] : null);
}

function chainPrompt(v, ctx, myTurn) {
  if (v.phase !== 'lost_chain' || !v.chain) return null;
  const c = v.chain;
  const who = t('pds.chainInfo', {starter: ctx.name(c.starter), chain: c.chain,
    joined: c.joined.length ? list(c.joined.map(ctx.name)) : t('word.nobody')});
  if (!myTurn || c.asked !== v.seat) return h('p', {class: 'prompt'}, who, ' ', t('pds.chainWaiting', {name: ctx.name(c.asked)}));
  const join = ctx.legalOf({type: 'join_lost'}), decline = ctx.legalOf({type: 'decline_lost'});
  return h('div', {class: 'prompt', id: 'pds-chain'},
    h('p', {}, who, ' ', t('pds.chainAsk')),
    h('div', {class: 'choice-bar'},
      join ? h('button', {type: 'button', class: 'primary', id: 'pds-join', 'data-key': 'join', 'data-act': 'join_lost', disabled: ctx.busy, onclick: () => ctx.play(join)}, t('pds.join'), ' ', h('kbd', {}, 'J')) : null,
      decline ? h('button', {type: 'button', id: 'pds-decline', 'data-key': 'decline', 'data-act': 'decline_lost', disabled: ctx.busy, onclick: () => ctx.play(decline)}, t('pds.decline'), ' ', h('kbd', {}, 'K')) : null));
}

function hand(v, ctx, myTurn) {
  const ui = ctx.ui;
  const free = v.next_facing === 'free';
  const canTurn = myTurn && v.phase === 'turn';
  const tiles = (v.hand || []).map((ht, i) => {
    const facing = free ? (ui.pick && ui.pick.tile === ht.tile ? ui.pick.facing ?? 0 : 0) : v.next_facing;
    const legal = canTurn && ctx.find((a) => a.type === 'play_tile' && a.tile === ht.tile).length > 0;
    const chosen = ui.pick && ui.pick.tile === ht.tile;
    return h('button', {
      type: 'button', class: 'tile-btn', 'data-key': 'tile-' + ht.tile, 'data-tile': ht.tile, 'data-act': legal ? 'play_tile' : null,
      'aria-pressed': free ? String(!!chosen) : null, disabled: !legal || ctx.busy,
      onclick: () => {
        if (!free) { ctx.play(ctx.legalOf({type: 'play_tile', tile: ht.tile})); return; }
        ui.pick = {tile: ht.tile, facing: chosen ? ui.pick.facing : 0};
        ctx.redraw();
        document.querySelector('.facing-pick button')?.focus();
      },
    }, tileSVG(ht.tile, facing, {character: ht.character || ''}), h('span', {}, tileName(ht.tile, ht.character)), h('span', {class: 'key'}, h('kbd', {}, String(i + 1))));
  });
  const lost = canTurn ? ctx.legalOf({type: 'play_lost'}) : null;
  const pass = canTurn ? ctx.legalOf({type: 'pass_turn'}) : null;
  const armed = ui.armLost && ui.armLost === v.stack_tiles + ':' + v.round;
  return h('section', {class: 'hand-box', 'aria-labelledby': 'pds-hand-h'},
    h('h3', {id: 'pds-hand-h'}, t('pds.yourHand')),
    tiles.length ? h('div', {class: 'hand', id: 'pds-hand'}, tiles) : h('p', {class: 'muted'}, t('pds.emptyHand')),
    free && canTurn && ui.pick ? facingPicker(v, ctx) : null,
    free && canTurn && !ui.pick ? h('p', {class: 'help'}, t('pds.freeHelp')) : null,
    h('div', {class: 'choice-bar'},
      lost ? h('button', {type: 'button', id: 'pds-lost', class: armed ? 'primary' : '', 'data-key': 'lost', 'data-act': 'play_lost', disabled: ctx.busy,
        onclick: () => { if (armed) { ui.armLost = null; ctx.play(lost); } else { ui.armLost = v.stack_tiles + ':' + v.round; ctx.redraw(); } }},
      armed ? t('pds.lostConfirm') : t('pds.playLost'), ' ', h('kbd', {}, 'L')) : null,
      pass ? h('button', {type: 'button', id: 'pds-pass', 'data-key': 'pass', 'data-act': 'pass_turn', disabled: ctx.busy, onclick: () => ctx.play(pass)}, t('pds.pass'), ' ', h('kbd', {}, 'S')) : null));
}

function facingPicker(v, ctx) {
  const ui = ctx.ui;
  const arrows = '↑→↓←';
  return h('div', {class: 'facing-pick', role: 'group', 'aria-label': t('pds.chooseFacing')},
    h('span', {}, t('pds.chooseFacing')),
    [0, 1, 2, 3].map((f) => {
      const a = ctx.legalOf({type: 'play_tile', tile: ui.pick.tile, facing: f});
      return h('button', {type: 'button', 'data-key': 'facing-' + f, 'data-facing': f, 'data-act': a ? 'play_tile' : null, disabled: !a || ctx.busy,
        'aria-label': t('pds.layFacing', {dir: dirName(f)}), onclick: () => { ui.pick = null; ctx.play(a); }}, arrows[f]);
    }),
    h('button', {type: 'button', onclick: () => { ui.pick = null; ctx.redraw(); }}, t('word.cancel')));
}

// ---- the reveal ----

function revealPanel(r, ctx) {
  const ui = ctx.ui;
  const elapsed = performance.now() - (ui.revealAt || 0);
  const still = reducedMotion() || ctx.readonly;
  const steps = r.steps || [];
  const stepMs = Math.min(STEP_MS, 6000 / (steps.length + 1));
  const delay = (i) => (still ? '0ms' : (i * stepMs - elapsed) + 'ms');
  const xs = [0], ys = [0];
  for (const st of steps) { xs.push(st.x); ys.push(st.y); }
  if (r.blocked) { xs.push(r.blocked.x); ys.push(r.blocked.y); }
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const cell = (x, y) => `translate(${(x - minX) * 100} ${(maxY - y) * 100})`;
  const g = [];
  g.push(s('g', {class: 'start-cell', transform: cell(0, 0)}, tileSVGInner('start', 0)));
  let lostCell = null;
  steps.forEach((st, i) => {
    const out = HEADING[st.heading];
    const hin = (out - MOVE_TURN[st.move] + 4) % 4;
    const parts = [];
    if (!st.pass) {
      const type = typeOf(st.tile);
      parts.push(...tileSVGInner(type === 'repetition' ? 'repetition' : st.tile, hin, type === 'repetition' ? st.move : null));
      parts.push(s('path', {class: 'walked', d: routeD((hin + 2) % 4, out)}));
      if (st.index === r.lost_at) lostCell = [st.x, st.y, i];
    } else {
      parts.push(s('path', {class: 'pass', d: routeD((hin + 2) % 4, out)}));
    }
    g.push(s('g', {transform: cell(st.x, st.y)}, s('g', {class: 'step', style: 'animation-delay:' + delay(i + 1)},
      s('title', {}, st.pass ? t('pds.aria.pass') : t('pds.aria.step', {index: st.index, name: tileName(st.tile, characterOf(st.tile))})), parts)));
  });
  const end = steps.length + 1;
  if (lostCell) {
    g.push(s('rect', {class: 'cell-lost step', x: (lostCell[0] - minX) * 100 + 4, y: (maxY - lostCell[1]) * 100 + 4, width: 92, height: 92, style: 'animation-delay:' + delay(end)}));
  }
  if (r.blocked) {
    const b = r.blocked, side = HEADING[b.side];
    const [x1, y1] = [[0, 0], [100, 0], [0, 100], [0, 0]][side];
    const [x2, y2] = [[100, 0], [100, 100], [100, 100], [0, 100]][side];
    g.push(s('g', {transform: cell(b.x, b.y)}, s('g', {class: 'step', style: 'animation-delay:' + delay(end)},
      s('title', {}, t('pds.aria.blocked')),
      s('line', {class: 'blocked', x1, y1, x2, y2}),
      s('text', {class: 'label', x: 50, y: 58, style: 'font-size:44px;fill:#b84a00'}, '✕'))));
  }
  const w = (maxX - minX + 1) * 100, hgt = (maxY - minY + 1) * 100;
  const reasons = (r.reasons || []).map((x) => (x.startsWith('floor_') ? t('pds.id.' + x) : t('pds.reason.' + x)));
  const verdict = r.lost_at ? t('pds.lostAt', {n: r.lost_at, reasons: list(reasons)}) : t('pds.pathHolds');
  const scorers = [];
  (r.points || []).forEach((p, seat) => { if (p > 0) scorers.push(ctx.name(seat) + ' +' + p); });
  const items = (r.stack || []).map((it) => it.kind === 'lost'
    ? h('li', {class: 'lost-item'}, t('pds.revealLost', {name: ctx.name(it.seat), chain: it.chain, status: t('pds.judge.' + it.status)}))
    : h('li', {}, tileName(it.tile, characterOf(it.tile)), ' — ', ctx.name(it.seat), it.face_down ? ' (' + t('pds.wasFaceDown') + ')' : ''));
  return h('section', {class: 'reveal', id: 'pds-reveal', 'aria-labelledby': 'pds-reveal-h'},
    h('h3', {id: 'pds-reveal-h'}, t('pds.revealTitle', {round: r.round}), ' ', h('small', {class: 'muted'}, t('pds.endedBy.' + r.ended_by))),
    s('svg', {class: 'grid', viewBox: `-6 -6 ${w + 12} ${hgt + 12}`, role: 'img', 'aria-label': verdict}, g),
    h('p', {class: 'reasons', id: 'pds-verdict'}, verdict),
    h('p', {}, scorers.length ? t('pds.scored', {list: list(scorers)}) : t('pds.nobodyScored')),
    h('details', {}, h('summary', {}, t('pds.revealStack')), h('ol', {class: 'stack-list'}, items)),
    ctx.readonly ? null : h('button', {type: 'button', id: 'pds-close-reveal', onclick: () => { ctx.ui.revealOpen = false; ctx.redraw(); }}, t('pds.closeReveal')));
}

// tileSVGInner is a tile's art for the reveal grid, without its own <svg>:
// the background, the routes turned to the facing and the character.
function tileSVGInner(tile, facing, repeatMove) {
  const type = typeOf(tile);
  const character = characterOf(tile);
  const art = type === 'repetition' && repeatMove
    ? [s('path', {class: 'route', d: routeD(2, [0, 1, 0, 3][MOVE_TURN[repeatMove]])}), s('text', {class: 'label', x: 50, y: 58, transform: `rotate(${-facing * 90} 50 50)`, style: 'font-size:26px'}, '↻')]
    : tileArt(type);
  return [s('rect', {class: 'bg', x: 2, y: 2, width: 96, height: 96, rx: 6}),
    s('g', {transform: `rotate(${facing * 90} 50 50)`}, art),
    character ? [s('circle', {class: 'char', cx: 17, cy: 17, r: 13}), s('text', {class: 'char-t', x: 17, y: 17}, t('pds.char.' + character + '.abbr'))] : null,
    type === 'start' ? s('text', {class: 'label', x: 50, y: 94}, t('pds.start')) : null].flat().filter(Boolean);
}

// ---- words ----

export function describe(ev, ctx) {
  const n = (p) => ctx.name(p);
  switch (ev.type) {
    case 'tile_played': return t('pds.ev.tile_played', {seat: n(ev.seat)});
    case 'tile_drawn': return ev.tile ? t('pds.ev.tile_drawn_you', {tile: tileName(ev.tile, characterOf(ev.tile))}) : false;
    case 'danger_triggered': return t('pds.ev.danger_triggered', {seat: n(ev.seat), card: t('pds.id.' + ev.card), character: charName(characterOf(ev.tile))});
    case 'stack_rotated': return t('pds.ev.stack_rotated.' + ev.quarter_turns);
    case 'blackout': return t('pds.ev.blackout', {seat: n(ev.seat)});
    case 'turn_skipped': return t('pds.ev.turn_skipped', {seat: n(ev.seat)});
    case 'hand_received': return ev.from != null ? t('pds.ev.hand_passed', {from: n(ev.from)}) : t('pds.ev.hand_dealt');
    case 'turn_passed': return t('pds.ev.turn_passed', {seat: n(ev.seat)});
    case 'lost_played': return t('pds.ev.lost_played', {seat: n(ev.seat), chain: ev.chain});
    case 'chain_asked': return t('pds.ev.chain_asked', {seat: n(ev.seat)});
    case 'chain_joined': return t('pds.ev.chain_joined', {seat: n(ev.seat)});
    case 'chain_declined': return t('pds.ev.chain_declined', {seat: n(ev.seat)});
    case 'round_revealed': {
      const r = ev.reveal;
      const reasons = (r.reasons || []).map((x) => (x.startsWith('floor_') ? t('pds.id.' + x) : t('pds.reason.' + x)));
      const scorers = [];
      (r.points || []).forEach((p, seat) => { if (p > 0) scorers.push(n(seat)); });
      return t('pds.ev.round_revealed', {round: r.round}) + ' ' + (r.lost_at ? t('pds.lostAt', {n: r.lost_at, reasons: list(reasons)}) : t('pds.pathHolds')) + ' ' +
        (scorers.length ? t('pds.scoredNames', {names: list(scorers)}) : t('pds.nobodyScored'));
    }
    case 'round_started': {
      let str = t('pds.ev.round_started', {round: ev.round, seat: n(ev.first_player)});
      if (ev.floor_revealed) str += ' ' + t('pds.ev.newFloor', {card: t('pds.id.' + ev.floor_revealed)});
      if (ev.danger_revealed) str += ' ' + t('pds.ev.newDanger', {card: t('pds.id.' + ev.danger_revealed)});
      return str;
    }
    case 'game_over': return tn('pds.ev.game_over', ev.winners.length, {names: list(ev.winners.map(n))});
  }
  return null;
}

export function label(a, ctx) {
  switch (a.type) {
    case 'play_tile': {
      const base = t('pds.act.play_tile', {tile: tileName(a.tile, characterOf(a.tile))});
      return a.facing != null ? base + ' ' + t('pds.act.facing', {dir: dirName(a.facing)}) : base;
    }
    case 'play_lost': return t('pds.playLost');
    case 'pass_turn': return t('pds.pass');
    case 'join_lost': return t('pds.join');
    case 'decline_lost': return t('pds.decline');
  }
  return null;
}

export function status(ctx) {
  const v = ctx.view;
  if (!v || v.phase === 'game_over') return null;
  if (v.phase === 'lost_chain' && v.chain) {
    return v.chain.asked === ctx.seat ? t('pds.status.chainYou', {starter: ctx.name(v.chain.starter)}) : t('pds.status.chain', {starter: ctx.name(v.chain.starter), name: ctx.name(v.chain.asked)});
  }
  if (ctx.myTurn) return (v.hand || []).length ? t('pds.status.turn') : t('pds.status.empty');
  return null;
}

export function onKey(e, ctx) {
  const v = ctx.view;
  if (!v || !ctx.myTurn || ctx.busy) return false;
  const k = e.key.toLowerCase();
  const click = (sel) => { const b = document.querySelector(sel); if (b && !b.disabled) { b.click(); return true; } return false; };
  if (v.phase === 'lost_chain') {
    if (k === 'j') return click('#pds-join');
    if (k === 'k') return click('#pds-decline');
    return false;
  }
  if (/^[1-3]$/.test(k)) return click('#pds-hand .tile-btn:nth-child(' + k + ')');
  if (k === 'l') return click('#pds-lost');
  if (k === 's') return click('#pds-pass');
  if (ctx.ui.pick) {
    const f = {arrowup: 0, arrowright: 1, arrowdown: 2, arrowleft: 3}[k];
    if (f != null) return click('.facing-pick [data-facing="' + f + '"]');
    if (k === 'escape') { ctx.ui.pick = null; ctx.redraw(); return true; }
  }
  return false;
}
