// Plan de Secours: the top of the stack in its display orientation, the
// hand, the LOST tiles and the chain being asked, the FLOOR and DANGER cards,
// the scores, and at each round's end the reveal laid out tile by tile.
//
// The stack below its top is never shown, and on purpose the log does not
// name the tiles laid: the client keeps no history of the path (the
// reference's section 8), remembering it is the game.

import {h, s, reducedMotion} from '/js/ui.js';
import {t, tn, list, people} from '/js/i18n.js';
import {tip, attachTips} from '/js/tips.js';
import {roving} from '/js/focus.js';
import {announce, withdraw} from '/js/announce.js';
import {icon, pips, seatMark, symbol} from '/pieces/common.js';
import {typeOf, characterOf, tileName, tileTip, tileSVG, tileFace, tileLabel, backSVG, lostSVG, cardArt, routeD, dirName, theChar, ARROW_TURN} from '/pieces/plandesecours.js';

export {typeOf, tileName, characterOf, tileSVG};

const MOVE_TURN = {straight: 0, right: 1, left: 3};
const HEADING = {N: 0, E: 1, S: 2, W: 3};
const STEP_MS = 320;

function topSVG(top, ctx) {
  switch (top.kind) {
    case 'lost': return lostSVG(top.seat, ctx.name(top.seat));
    case 'face_down': return backSVG(t('pds.aria.faceDown'));
    case 'start': return tileSVG('start', top.facing, {character: ''});
    default: return tileSVG(top.tile, top.facing, {character: top.character || ''});
  }
}

// topText says what the top of the stack shows, for its tooltip and for
// the announcement after another seat's move.
function topText(top, ctx) {
  switch (top.kind) {
    case 'lost': return t('pds.aria.lost', {name: ctx.name(top.seat)});
    case 'face_down': return t('pds.aria.faceDown');
    case 'start': return tileLabel('start', top.facing, '');
    default: return tileLabel(top.tile, top.facing, top.character || '');
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
  if (!ctx.readonly) tell(v, ctx);
  const myTurn = ctx.myTurn && !ctx.readonly;
  const board = h('div', {class: 'pds'},
    strip(v, ctx),
    players(v, ctx),
    ui.revealOpen && ui.reveal ? revealPanel(ui.reveal, ctx) : null,
    h('div', {class: 'centre'},
      stackBox(v, ctx),
      cards(v, ctx)),
    // The call to join and the hand: what the player decides, where the
    // keyboard goes after each move (data-decide).
    h('div', {class: 'decide', 'data-decide': '', role: 'group', 'aria-label': t('match.nextMove')},
      chainPrompt(v, ctx, myTurn),
      v.seat >= 0 ? hand(v, ctx, myTurn) : null),
    !ui.revealOpen && v.last_reveal ? h('button', {type: 'button', class: 'show-reveal', 'data-key': 'show-reveal', onclick: () => { ui.reveal = v.last_reveal; ui.revealAt = -1e9; ui.revealOpen = true; ctx.redraw(); }}, t('pds.showReveal', {round: v.last_reveal.round})) : null);
  root.append(board);
  const grid = board.querySelector('#pds-reveal .grid');
  if (grid) roving(grid, '.cell');
  attachTips(board);
}

// tell announces what a screen reader would otherwise miss: the top of the
// stack after another seat's move (only the newest is said: see
// announce's keys; the player's own move makes the one waiting stale).
function tell(v, ctx) {
  const evs = ctx.events || [];
  if (!evs.length) return;
  const moved = evs.find((e) => (e.type === 'tile_played' || e.type === 'blackout' || e.type === 'stack_rotated') && e.seat !== ctx.seat);
  if (moved && v.top && !evs.some((e) => e.type === 'round_revealed')) announce(t('pds.say.top', {top: topText(v.top, ctx)}), {key: 'pds-top'});
  else if (evs.some((e) => e.type === 'tile_played' || e.type === 'round_revealed')) withdraw('pds-top');
}

function strip(v, ctx) {
  return h('div', {class: 'strip'},
    h('span', {class: 'stat'}, t('pds.round', {round: v.round})),
    h('span', {class: 'stat'}, tn('pds.target', v.target)),
    h('span', {class: 'stat', id: 'pds-draw'}, tn('pds.drawPile', v.draw_pile)),
    h('span', {class: 'stat', id: 'pds-stack'}, tn('pds.stackTiles', v.stack_tiles)),
    v.danger ? h('span', {class: 'stat danger'}, icon('warn'), ' ', t('pds.dangerMode')) : null);
}

function players(v, ctx) {
  const lostBy = new Map((v.lost || []).map((l) => [l.seat, l.chain]));
  const items = [];
  for (let p = 0; p < v.players; p++) {
    const acting = v.phase !== 'game_over' && v.actor === p;
    const out = lostBy.has(p);
    const score = tn('pds.score', v.scores[p], {target: v.target});
    items.push(h('li', {class: 'player' + (acting ? ' acting' : '') + (out ? ' out' : ''), 'data-seat': p},
      seatMark(p), ' ', h('strong', {}, ctx.name(p)), p === v.seat ? ' (' + t('match.you') + ')' : '', ' ',
      pips(Math.min(v.scores[p], v.target), v.target, {label: score}),
      h('br'),
      h('small', {}, tn('pds.handSize', v.hand_sizes[p]), ' · ',
        out ? h('span', {class: 'lost-mark'}, t('pds.outChain', {chain: lostBy.get(p)})) : t('pds.holdsLost'),
        p === v.first_player ? ' · ' + t('pds.firstPlayer') : '',
        acting ? ' · ' + t('match.toAct') : '')));
  }
  return h('ul', {class: 'players', 'aria-label': t('match.players')}, items);
}

function stackBox(v, ctx) {
  const fresh = (ctx.events || []).some((e) => e.type === 'tile_played' || e.type === 'lost_played' || e.type === 'chain_joined' || e.type === 'blackout');
  const rot = (ctx.events || []).find((e) => e.type === 'stack_rotated');
  const art = topSVG(v.top, ctx);
  art.classList.add('top-tile');
  if (fresh && !ctx.readonly) art.classList.add('fresh');
  if (rot && !reducedMotion()) art.style.animation = (rot.quarter_turns === 2 ? 'spin180' : rot.quarter_turns === 3 ? 'spin-90' : 'spin90') + ' .9s ease-out';
  const nf = v.next_facing;
  const top = v.top.kind === 'tile' ? tileTip(v.top.tile, v.top.character) : t('tip.pds.top.' + v.top.kind);
  const wrap = tip(h('div', {class: 'top-wrap', tabindex: '0', 'data-key': 'top', 'aria-label': t('pds.topOfStackIs', {top: topText(v.top, ctx)})}, art),
    t('tip.pds.top', {what: top}));
  // A picture of the top tile, focusable to explain itself (its tooltip).
  wrap.setAttribute('role', 'img');
  return h('figure', {class: 'stack-box', id: 'pds-top'},
    wrap,
    h('figcaption', {class: 'caption'}, h('strong', {}, t('pds.topOfStack')), h('br'),
      nf === 'free' ? t('pds.nextFree') : [t('pds.nextFacingShort', {dir: dirName(nf)}), ' ', icon('arrow', {rotate: nf * 90, cls: 'inline-arrow'})]));
}

function cards(v, ctx) {
  const card = (c, kind) => tip(h('li', {class: 'card ' + kind, 'data-card': c, tabindex: '0', 'data-key': 'card-' + c},
    cardArt(c), h('h4', {}, t('pds.id.' + c)), h('p', {}, t('pds.' + kind + 'Text.' + c))),
  t('tip.pds.' + kind, {name: t('pds.id.' + c)}));
  return h('div', {class: 'cards-col'},
    h('h3', {}, t('pds.floors'), ' ', h('small', {class: 'muted'}, tn('pds.deckLeft', v.floor_deck))),
    h('ul', {class: 'cards'}, (v.floors || []).map((f) => card(f, 'floor'))),
    v.danger ? [h('h3', {}, t('pds.dangers'), ' ', h('small', {class: 'muted'}, tn('pds.deckLeft', v.danger_deck))),
      (v.dangers || []).length ? h('ul', {class: 'cards'}, v.dangers.map((d) => card(d, 'danger'))) : h('p', {class: 'muted'}, t('pds.noDanger'))] : null);
}

function chainPrompt(v, ctx, myTurn) {
  if (v.phase !== 'lost_chain' || !v.chain) return null;
  const c = v.chain;
  const who = t('pds.chainInfo', {starter: ctx.who(c.starter), chain: c.chain,
    joined: c.joined.length ? list(c.joined.map(ctx.name)) : t('word.nobody')});
  if (!myTurn || c.asked !== v.seat) return h('p', {class: 'prompt'}, who, ' ', t('pds.chainWaiting', {name: ctx.who(c.asked)}));
  const join = ctx.legalOf({type: 'join_lost'}), decline = ctx.legalOf({type: 'decline_lost'});
  return h('div', {class: 'prompt', id: 'pds-chain'},
    h('p', {}, who, ' ', t('pds.chainAsk')),
    h('div', {class: 'choice-bar'},
      join ? tip(h('button', {type: 'button', class: 'primary', id: 'pds-join', 'data-key': 'join', 'data-act': 'join_lost', 'aria-keyshortcuts': 'J', disabled: ctx.busy, onclick: () => ctx.play(join)}, t('pds.join'), ' ', h('kbd', {'aria-hidden': 'true'}, 'J')), t('tip.pds.join')) : null,
      decline ? tip(h('button', {type: 'button', id: 'pds-decline', 'data-key': 'decline', 'data-act': 'decline_lost', 'aria-keyshortcuts': 'K', disabled: ctx.busy, onclick: () => ctx.play(decline)}, t('pds.decline'), ' ', h('kbd', {'aria-hidden': 'true'}, 'K')), t('tip.pds.decline')) : null));
}

function hand(v, ctx, myTurn) {
  const ui = ctx.ui;
  const free = v.next_facing === 'free';
  const canTurn = myTurn && v.phase === 'turn';
  const why = ctx.readonly ? '' : v.phase === 'lost_chain' ? t('tip.pds.waitChain') : v.actor >= 0 ? t('tip.pds.waitTurn', {name: ctx.name(v.actor)}) : t('match.notYourTurn');
  const tiles = (v.hand || []).map((ht, i) => {
    const facing = free ? (ui.pick && ui.pick.tile === ht.tile ? ui.pick.facing ?? 0 : 0) : v.next_facing;
    const legal = canTurn && ctx.find((a) => a.type === 'play_tile' && a.tile === ht.tile).length > 0;
    const chosen = ui.pick && ui.pick.tile === ht.tile;
    // Named once, by the name written on it and where its arrow points (the
    // picture and the caption would each say the name): both are hidden
    // from screen readers, which read one sentence that begins with the
    // caption.
    const art = tileSVG(ht.tile, facing, {character: ht.character || ''});
    art.setAttribute('aria-hidden', 'true');
    return tip(h('button', {
      type: 'button', class: 'tile-btn', 'data-key': 'tile-' + ht.tile, 'data-tile': ht.tile, 'data-act': legal ? 'play_tile' : null,
      'aria-pressed': free && legal ? String(!!chosen) : null, 'aria-disabled': legal && !ctx.busy ? null : 'true', 'aria-keyshortcuts': String(i + 1),
      onclick: () => {
        if (!legal || ctx.busy) return;
        if (!free) { ctx.play(ctx.legalOf({type: 'play_tile', tile: ht.tile})); return; }
        ui.pick = {tile: ht.tile, facing: chosen ? ui.pick.facing : 0};
        ctx.redraw();
        document.querySelector('.facing-pick button')?.focus();
      },
    }, art, h('span', {class: 'name', 'aria-hidden': 'true'}, tileName(ht.tile, ht.character)),
    h('span', {class: 'visually-hidden'}, tileLabel(ht.tile, facing, ht.character || '')), h('kbd', {'aria-hidden': 'true'}, String(i + 1))),
    tileTip(ht.tile, ht.character) + (legal ? '' : why ? ' ' + why : ''));
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
      lost ? tip(h('button', {type: 'button', id: 'pds-lost', class: armed ? 'primary danger' : '', 'data-key': 'lost', 'data-act': 'play_lost', 'aria-keyshortcuts': 'L', disabled: ctx.busy,
        onclick: () => { if (armed) { ui.armLost = null; ctx.play(lost); } else armLost(v, ctx); }},
      armed ? t('pds.lostConfirm') : t('pds.playLost'), armed ? null : [' ', h('kbd', {'aria-hidden': 'true'}, 'L')]), t('tip.pds.lost')) : null,
      lost && armed ? h('button', {type: 'button', id: 'pds-lost-cancel', 'data-key': 'lost-cancel', onclick: () => { ui.armLost = null; ctx.redraw(); document.querySelector('#pds-lost')?.focus(); }}, t('pds.keepLost')) : null,
      pass ? tip(h('button', {type: 'button', id: 'pds-pass', 'data-key': 'pass', 'data-act': 'pass_turn', 'aria-keyshortcuts': 'S', disabled: ctx.busy, onclick: () => ctx.play(pass)}, t('pds.pass'), ' ', h('kbd', {'aria-hidden': 'true'}, 'S')), t('tip.pds.pass')) : null));
}

// armLost is the first step of playing LOST, which cannot be undone: the
// button asks for a confirmation, which the same key never gives.
function armLost(v, ctx) {
  ctx.ui.armLost = v.stack_tiles + ':' + v.round;
  ctx.redraw();
  document.querySelector('#pds-lost')?.focus();
  announce(t('pds.say.armed'));
}

function facingPicker(v, ctx) {
  const ui = ctx.ui;
  return h('div', {class: 'facing-pick', role: 'group', 'aria-label': t('pds.chooseFacing')},
    h('span', {}, t('pds.chooseFacing')),
    [0, 1, 2, 3].map((f) => {
      const a = ctx.legalOf({type: 'play_tile', tile: ui.pick.tile, facing: f});
      return h('button', {type: 'button', 'data-key': 'facing-' + f, 'data-facing': f, 'data-act': a ? 'play_tile' : null, disabled: !a || ctx.busy,
        onclick: () => { ui.pick = null; ctx.play(a); }}, icon('arrow', {rotate: f * 90}), h('span', {class: 'visually-hidden'}, t('pds.layFacing', {dir: dirName(f)})));
    }),
    h('button', {type: 'button', 'data-key': 'facing-cancel', onclick: () => { ui.pick = null; ctx.redraw(); }}, t('word.cancel')));
}

// focusNext is where the keyboard goes when the control it was on is gone:
// the next thing to do on this board.
export function focusNext(root) {
  return root.querySelector('#pds-join, #pds-hand .tile-btn[data-act], #pds-lost, #pds-pass, #pds-hand .tile-btn, #pds-top .top-wrap');
}

// reasonText says why the group got lost: a way of the FLOOR cards'
// ("a loop"), or a FLOOR card broken ("the “Twins” card").
const reasonText = (x) => (x.startsWith('floor_') ? t('pds.reasonFloor', {card: t('pds.id.' + x)}) : t('pds.reason.' + x));

// ---- the reveal ----

function revealPanel(r, ctx) {
  const ui = ctx.ui;
  const elapsed = performance.now() - (ui.revealAt || 0);
  const still = reducedMotion() || ctx.readonly;
  const steps = r.steps || [];
  const stepMs = Math.min(STEP_MS, 6000 / (steps.length + 1));
  // A still reveal (reduced motion, the end screen) is drawn at once.
  const delay = (i) => (still ? '0ms;animation:none' : (i * stepMs - elapsed) + 'ms');
  const xs = [0], ys = [0];
  for (const st of steps) { xs.push(st.x); ys.push(st.y); }
  if (r.blocked) { xs.push(r.blocked.x); ys.push(r.blocked.y); }
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const cell = (x, y) => `translate(${(x - minX) * 100} ${(maxY - y) * 100})`;
  const g = [];
  const startText = t('pds.aria.start');
  g.push(tip(s('g', {class: 'cell start-cell', transform: cell(0, 0), role: 'img', 'aria-label': startText, 'data-key': 'rv-start'}, tileFace('start', 0, {character: ''})), t('tip.pds.type.start')));
  let lostCell = null;
  steps.forEach((st, i) => {
    const out = HEADING[st.heading];
    const hin = (out - MOVE_TURN[st.move] + 4) % 4;
    const parts = [];
    let text;
    if (!st.pass) {
      const type = typeOf(st.tile);
      parts.push(tileFace(st.tile, hin, {repeatMove: type === 'repetition' ? st.move : null}));
      if (type === 'repetition') parts.push(s('circle', {class: 'rep-bg', cx: 72, cy: 72, r: 15}), symbol('spin', 72, 72, 22, {cls: 'rep-mark'}));
      parts.push(s('path', {class: 'walked', d: routeD((hin + 2) % 4, out)}));
      if (st.index === r.lost_at) lostCell = [st.x, st.y, i];
      text = t('pds.aria.step', {index: st.index, name: tileName(st.tile, characterOf(st.tile))});
    } else {
      parts.push(s('path', {class: 'pass', d: routeD((hin + 2) % 4, out)}));
      text = t('pds.aria.pass');
    }
    const lostHere = !st.pass && st.index === r.lost_at;
    g.push(tip(s('g', {class: 'cell', transform: cell(st.x, st.y), role: 'img', 'aria-label': text, 'data-key': 'rv-' + i},
      s('g', {class: 'step', style: 'animation-delay:' + delay(i + 1)}, parts)),
    (st.pass ? t('tip.pds.pass2') : tileTip(st.tile, characterOf(st.tile))) + (lostHere ? ' ' + t('tip.pds.lostHere') : '')));
  });
  const end = steps.length + 1;
  if (lostCell) {
    g.push(s('rect', {class: 'cell-lost step', x: (lostCell[0] - minX) * 100 + 4, y: (maxY - lostCell[1]) * 100 + 4, width: 92, height: 92, style: 'animation-delay:' + delay(end)}));
  }
  if (r.blocked) {
    const b = r.blocked, side = HEADING[b.side];
    const [x1, y1] = [[0, 0], [100, 0], [0, 100], [0, 0]][side];
    const [x2, y2] = [[100, 0], [100, 100], [100, 100], [0, 100]][side];
    g.push(tip(s('g', {class: 'cell blocked-cell', transform: cell(b.x, b.y), role: 'img', 'aria-label': t('pds.aria.blocked'), 'data-key': 'rv-blocked'},
      s('g', {class: 'step', style: 'animation-delay:' + delay(end)},
        s('rect', {class: 'blocked-bg', x: 6, y: 6, width: 88, height: 88, rx: 8}),
        s('line', {class: 'blocked', x1, y1, x2, y2}),
        symbol('cross', 50, 50, 44, {cls: 'blocked-x'}))), t('tip.pds.blocked')));
  }
  const w = (maxX - minX + 1) * 100, hgt = (maxY - minY + 1) * 100;
  const reasons = (r.reasons || []).map(reasonText);
  const verdict = r.lost_at ? t('pds.lostAt', {n: r.lost_at, reasons: list(reasons)}) : t('pds.pathHolds');
  const scorers = [];
  (r.points || []).forEach((p, seat) => { if (p > 0) scorers.push(ctx.name(seat) + ' +' + p); });
  const items = (r.stack || []).map((it) => it.kind === 'lost'
    ? h('li', {class: 'lost-item'}, t('pds.revealLost', {name: ctx.name(it.seat), chain: it.chain, status: t('pds.judge.' + it.status)}))
    : h('li', {}, tileName(it.tile, characterOf(it.tile)), ' — ', ctx.name(it.seat), it.face_down ? ' (' + t('pds.wasFaceDown') + ')' : ''));
  return h('section', {class: 'reveal', id: 'pds-reveal', 'aria-labelledby': 'pds-reveal-h'},
    h('h3', {id: 'pds-reveal-h'}, t('pds.revealTitle', {round: r.round}), ' ', h('small', {class: 'muted'}, t('pds.endedBy.' + r.ended_by))),
    h('p', {class: 'reasons', id: 'pds-verdict'}, verdict),
    h('div', {class: 'pan'}, s('svg', {class: 'grid', viewBox: `-6 -6 ${w + 12} ${hgt + 12}`, role: 'group', 'aria-label': t('pds.revealGrid'),
      style: `width:100%;max-width:${Math.round((w + 12) * 1.15)}px;min-width:${Math.round(Math.min(w + 12, 560) * 0.55)}px`}, g)),
    h('p', {}, scorers.length ? t('pds.scored', {list: list(scorers)}) : t('pds.nobodyScored')),
    h('details', {}, h('summary', {}, t('pds.revealStack')), h('ol', {class: 'stack-list'}, items)),
    ctx.readonly ? null : h('button', {type: 'button', id: 'pds-close-reveal', 'data-key': 'close-reveal', onclick: () => { ctx.ui.revealOpen = false; ctx.redraw(); }}, t('pds.closeReveal')));
}

// ---- words ----

export function describe(ev, ctx) {
  const n = (p) => ctx.who(p);
  switch (ev.type) {
    case 'tile_played': return t('pds.ev.tile_played', {seat: n(ev.seat)});
    case 'tile_drawn': return ev.tile ? t('pds.ev.tile_drawn_you', {tile: tileName(ev.tile, characterOf(ev.tile))}) : false;
    case 'danger_triggered': return t('pds.ev.danger_triggered', {seat: n(ev.seat), card: t('pds.id.' + ev.card), character: theChar(characterOf(ev.tile))});
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
      const reasons = (r.reasons || []).map(reasonText);
      const scorers = [];
      (r.points || []).forEach((p, seat) => { if (p > 0) scorers.push(n(seat)); });
      return t('pds.ev.round_revealed', {round: r.round}) + ' ' + (r.lost_at ? t('pds.lostAt', {n: r.lost_at, reasons: list(reasons)}) : t('pds.pathHolds')) + ' ' +
        (scorers.length ? tn('pds.scoredNames', scorers.length, {names: people(scorers)}) : t('pds.nobodyScored'));
    }
    case 'round_started': {
      let str = t('pds.ev.round_started', {round: ev.round, seat: n(ev.first_player)});
      if (ev.floor_revealed) str += ' ' + t('pds.ev.newFloor', {card: t('pds.id.' + ev.floor_revealed)});
      if (ev.danger_revealed) str += ' ' + t('pds.ev.newDanger', {card: t('pds.id.' + ev.danger_revealed)});
      return str;
    }
    case 'game_over': return tn('pds.ev.game_over', ev.winners.length, {names: people(ev.winners.map(n))});
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
    return v.chain.asked === ctx.seat ? t('pds.status.chainYou', {starter: ctx.name(v.chain.starter)}) : t('pds.status.chain', {starter: ctx.who(v.chain.starter), name: ctx.name(v.chain.asked)});
  }
  // The keys are named only while single-key shortcuts are on.
  if (ctx.myTurn) return (v.hand || []).length ? t(ctx.shortcuts ? 'pds.status.turn' : 'pds.status.turnPlain') : t(ctx.shortcuts ? 'pds.status.empty' : 'pds.status.emptyPlain');
  return null;
}

// heard: the echo of the player's own move is no news to them (what they
// drew is).
export function heard(ev, ctx) {
  const own = ['tile_played', 'lost_played', 'chain_joined', 'chain_declined', 'turn_passed'];
  return !(ctx.seat >= 0 && ev.seat === ctx.seat && own.includes(ev.type));
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
  if (/^[1-3]$/.test(k)) return click('#pds-hand .tile-btn:nth-child(' + k + ')[data-act]');
  if (k === 'l') {
    // LOST cannot be undone: the key only arms it; Enter on the focused
    // button (or a click) confirms.
    const b = document.querySelector('#pds-lost');
    if (!b || b.disabled) return false;
    if (b.classList.contains('primary')) { b.focus(); announce(t('pds.say.armed')); return true; }
    armLost(v, ctx);
    return true;
  }
  if (k === 's') return click('#pds-pass');
  if (ctx.ui.pick) {
    const f = {arrowup: 0, arrowright: 1, arrowdown: 2, arrowleft: 3}[k];
    if (f != null) return click('.facing-pick [data-facing="' + f + '"]');
    if (k === 'escape') { ctx.ui.pick = null; ctx.redraw(); return true; }
  }
  return false;
}
