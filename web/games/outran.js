// Outran (Outrun), in real time: the path card with its footprints and the
// flame start, one's arrow cards to lay in order by click, drag or keyboard
// (with the interference that applies to this seat shown beside it), the
// Finish button, the monster board's positions, the exit path with every
// token, the interference cards in hands and in front of each player, and
// the monster's special effects.
//
// During a run the server's list of legal submissions holds the answers: this
// board never reads it and keeps it out of the page's list of actions.

import {h, s, fmtClock} from '/js/ui.js';
import {t, tn, list, num, people, colon} from '/js/i18n.js';
import {tip, attachTips} from '/js/tips.js';
import {announce} from '/js/announce.js';
import {icon, seatShape, seatMark} from '/pieces/common.js';
import {pathCard as drawPathCard, tokenIcon, boardIcon} from '/pieces/outran.js';

// Keypad keys of the arrows (as on the game's own terminal client).
const KEYS = {8: 'n', 9: 'ne', 6: 'e', 3: 'se', 2: 's', 1: 'sw', 4: 'w', 7: 'nw', 5: 'spin', '+': 'detour', v: 'antidote', t: 'express'};
const KEY_OF = Object.fromEntries(Object.entries(KEYS).map(([k, v]) => [v, k]));

const tokName = (k) => t('outran.tok.' + k);
const kindOf = (card) => String(card).replace(/_\d+$/, '');
const cardName = (c) => t('outran.card.' + cardKind(c), cardParams(c));

// cardKind finds a card's kind from its id (public table data).
function cardKind(c) {
  for (const k of ['ricochet_even_odd', 'ricochet_odd_even', 'not_this_way', 'interchange', 'reverse', 'detour', 'shortcut', 'express', 'boost', 'shield', 'thief', 'swap', 'for_you', 'release']) {
    if (c.startsWith(k)) return k;
  }
  return kindOf(c);
}

function cardParams(c) {
  const k = cardKind(c);
  const rest = c.slice(k.length + 1).split('_');
  if (k === 'interchange') return {a: tokName(rest[0]), b: tokName(rest[1])};
  if (k === 'not_this_way') return {a: tokName(rest[0])};
  if (k === 'detour') return {a: rest[0]};
  return {};
}

// A Detour's text counts its arrows ("after the first arrow", "after the
// first 2 arrows").
const cardEffect = (c) => (cardKind(c) === 'detour' ? tn('outran.effect.detour', +cardParams(c).a) : t('outran.effect.' + cardKind(c), cardParams(c)));

// ---- rendering ----

export function render(root, ctx) {
  const v = ctx.view;
  if (!v) return;
  const ui = ctx.ui;
  const me = v.seat >= 0 ? v.seats[v.seat] : null;
  if (ui.round !== v.round) {
    ui.seq = [];
    ui.round = v.round;
    ui.armGiveUp = false;
  }
  ui.seq = ui.seq || [];
  const board = h('div', {class: 'or'},
    strip(v, ctx),
    phaseBox(v, ctx, me),
    h('div', {class: 'or-main'},
      h('div', {}, pathCard(v, ctx), me && v.phase === 'run' && !ctx.readonly ? layer(v, ctx, me) : null, results(v, ctx)),
      h('div', {}, applies(v, ctx, me), monsterBoard(v, ctx), exitPath(v, ctx))),
    hands(v, ctx, me));
  root.append(board);
  attachTips(board);
}

// tokens writes a sequence of tokens as pictures named for screen readers.
function tokens(list) {
  return h('span', {class: 'tokens'}, (list || []).map((x) => tokenIcon(x, tokName(x))));
}

// focusNext: where the keyboard goes when its control is gone.
export function focusNext(root) {
  return root.querySelector('#or-palette .or-card:not([disabled]), #or-finish, #or-vote, #or-choice button, #or-turn button');
}

function strip(v, ctx) {
  return h('div', {class: 'strip'},
    h('span', {class: 'stat'}, t('outran.monster.' + v.monster)),
    h('span', {class: 'stat'}, t('outran.round', {n: v.round, max: v.max_rounds})),
    h('span', {class: 'stat'}, t('outran.phase.' + v.phase)),
    h('span', {class: 'stat'}, tn('outran.pathLength', v.path_length)),
    h('span', {class: 'stat'}, tn('outran.deck', v.deck)));
}

function left(v, ctx, at) {
  return Math.max(0, at - (ctx.clock || 0));
}

function phaseBox(v, ctx, me) {
  switch (v.phase) {
    case 'countdown':
      return h('div', {class: 'or-countdown', id: 'or-countdown', role: 'timer'}, t('outran.revealIn'), ' ',
        h('span', {class: 'big', 'data-at': v.reveal_at}, fmtClock(left(v, ctx, v.reveal_at))));
    case 'run':
      return v.deadline ? h('p', {class: 'muted', id: 'or-deadline', 'data-at': v.deadline}, t('outran.runLimit', {time: fmtClock(left(v, ctx, v.deadline))})) : null;
    case 'place_choice':
    case 'infect_choice':
      return choice(v, ctx);
    case 'interference_turn':
      return turnBox(v, ctx);
    case 'over':
      return h('p', {class: 'prompt', id: 'or-over'}, t('outran.over'));
  }
  return null;
}

export function tick(root, ctx) {
  for (const el of root.querySelectorAll('[data-at]')) {
    const at = +el.dataset.at;
    const txt = fmtClock(Math.max(0, at - (ctx.clock || 0)));
    if (el.id === 'or-deadline') el.textContent = t('outran.runLimit', {time: txt});
    else el.textContent = txt;
  }
}

function pathCard(v, ctx) {
  const p = v.path;
  if (!p) return h('p', {class: 'muted'}, t('outran.noPath'));
  const hidden = v.phase === 'countdown';
  const words = p.symbols.map((x, i) => (i + 1) + ' ' + tokName(x)).join(', ');
  return h('section', {class: 'or-path' + (hidden ? ' old' : ''), 'aria-labelledby': 'or-path-h'},
    h('h3', {id: 'or-path-h'}, hidden ? t('outran.lastPath') : t('outran.path'), p.antidote ? [' ', icon('antidote', {cls: 'antidote'}), ' ', t('outran.antidoteShown')] : ''),
    tip(s('svg', {viewBox: '0 0 214 214', class: 'or-trail', role: 'img', tabindex: '0', 'data-key': 'path', 'aria-label': t('outran.pathAria', {list: words})}, drawPathCard(p)),
      t('tip.outran.path')),
    h('p', {class: 'or-symbols', id: 'or-symbols'}, p.symbols.map((x) => h('span', {class: 'sym'}, tokenIcon(x, tokName(x))))));
}

// layer: the seat's arrows to lay, in order.
function layer(v, ctx, me) {
  const ui = ctx.ui;
  const done = me.submitted;
  // The arrows sit as on a keypad (7 8 9 / 4 5 6 / 1 2 3), the special
  // tokens after them.
  const PAD = ['nw', 'n', 'ne', 'w', 'spin', 'e', 'sw', 's', 'se'];
  const palette = [...(v.palette || [])].sort((a, b) => (PAD.indexOf(a) + 1 || 99) - (PAD.indexOf(b) + 1 || 99));
  const vote = ctx.legalOf({type: 'vote_stop'});
  if (done) {
    return h('section', {class: 'or-layer', id: 'or-layer'},
      h('p', {class: 'prompt'}, t('outran.submitted', {rank: me.rank || '?'}), ' ', tokens(me.cards)),
      vote ? h('button', {type: 'button', id: 'or-vote', 'data-act': 'vote_stop', disabled: ctx.busy, onclick: () => ctx.play(vote)}, t('outran.vote')) : null);
  }
  const add = (k) => { if (!ui.seq.includes(k) && ui.seq.length < 12) { ui.seq.push(k); ctx.redraw(); } };
  const slots = ui.seq.map((k, i) => h('li', {}, h('button', {type: 'button', class: 'or-slot', draggable: 'true', 'data-i': i, 'data-key': 'slot-' + i,
    onclick: () => { ui.seq.splice(i, 1); ctx.redraw(); },
    ondragstart: (e) => { e.dataTransfer.setData('text/plain', String(i)); },
    ondragover: (e) => e.preventDefault(),
    ondrop: (e) => { e.preventDefault(); const from = +e.dataTransfer.getData('text/plain'); const [x] = ui.seq.splice(from, 1); ui.seq.splice(i, 0, x); ctx.redraw(); },
    onkeydown: (e) => {
      if (e.key === 'ArrowLeft' && i > 0) { [ui.seq[i - 1], ui.seq[i]] = [ui.seq[i], ui.seq[i - 1]]; ui.focus = 'slot-' + (i - 1); e.preventDefault(); e.stopPropagation(); ctx.redraw(); refocus(ui); }
      if (e.key === 'ArrowRight' && i < ui.seq.length - 1) { [ui.seq[i + 1], ui.seq[i]] = [ui.seq[i], ui.seq[i + 1]]; ui.focus = 'slot-' + (i + 1); e.preventDefault(); e.stopPropagation(); ctx.redraw(); refocus(ui); }
    }}, h('span', {class: 'n'}, String(i + 1)), ' ', tokenIcon(k), h('span', {class: 'visually-hidden'}, tokName(k)))));
  return h('section', {class: 'or-layer', id: 'or-layer', 'aria-labelledby': 'or-layer-h'},
    h('h3', {id: 'or-layer-h'}, t('outran.yourArrows')),
    h('div', {class: 'or-palette', id: 'or-palette'}, palette.map((k) => tip(h('button', {type: 'button', class: 'or-card', 'data-token': k, 'data-key': 'tok-' + k,
      disabled: ui.seq.includes(k) || ctx.busy, 'aria-keyshortcuts': KEY_OF[k] || null,
      draggable: 'true', ondragstart: (e) => e.dataTransfer.setData('text/token', k), onclick: () => add(k)},
    tokenIcon(k), h('span', {class: 'visually-hidden'}, tokName(k) + ' '), KEY_OF[k] ? h('kbd', {}, KEY_OF[k]) : null), t('tip.outran.card', {tok: tokName(k)}) + (KEY_OF[k] ? ' ' + t('tip.outran.key', {key: KEY_OF[k]}) : '')))),
    h('div', {class: 'or-seq-box', ondragover: (e) => e.preventDefault(),
      ondrop: (e) => { const k = e.dataTransfer.getData('text/token'); if (k) { e.preventDefault(); add(k); } }},
    slots.length ? h('ol', {class: 'or-seq', id: 'or-seq', 'aria-label': t('outran.yourOrder')}, slots) : h('p', {class: 'or-seq muted', id: 'or-seq'}, t('outran.emptySeq'))),
    h('p', {class: 'help'}, t('outran.layHelp')),
    h('div', {class: 'choice-bar'},
      h('button', {type: 'button', class: 'primary', id: 'or-finish', 'data-act': 'submit', disabled: ctx.busy,
        onclick: () => { const cards = [...ui.seq]; ui.seq = []; ctx.play({type: 'submit', cards}); }}, t('outran.finish'), ' ', h('kbd', {'aria-hidden': 'true'}, t('outran.enterKey'))),
      h('button', {type: 'button', id: 'or-clear', disabled: !ui.seq.length, onclick: () => { ui.seq = []; ctx.redraw(); }}, t('outran.clear')),
      giveUp(ui, ctx)));
}

// giveUp stops this run with nothing laid, which cannot be undone: it asks
// for a confirmation first.
function giveUp(ui, ctx) {
  if (!ui.armGiveUp) {
    return tip(h('button', {type: 'button', id: 'or-giveup', 'data-key': 'giveup', disabled: ctx.busy,
      onclick: () => { ui.armGiveUp = true; ctx.redraw(); document.querySelector('#or-giveup')?.focus(); announce(t('outran.giveUpSure')); }}, t('outran.giveUp')), t('tip.outran.giveUp'));
  }
  return h('span', {class: 'confirm'},
    h('button', {type: 'button', id: 'or-giveup', class: 'primary danger', 'data-key': 'giveup', disabled: ctx.busy,
      onclick: () => { ui.armGiveUp = false; ctx.play({type: 'submit', cards: []}); }}, t('outran.giveUpConfirm')),
    h('button', {type: 'button', id: 'or-giveup-cancel', 'data-key': 'giveup-cancel', onclick: () => { ui.armGiveUp = false; ctx.redraw(); document.querySelector('#or-giveup')?.focus(); }}, t('word.cancel')));
}

function refocus(ui) {
  setTimeout(() => { const el = document.querySelector('[data-key="' + ui.focus + '"]'); if (el) el.focus(); }, 0);
}

// applies: the interference that bends this seat's sequence.
function applies(v, ctx, me) {
  const cards = v.monster === 'vampire' ? v.centre || [] : me ? me.front || [] : [];
  return h('section', {class: 'or-applies', id: 'or-applies', 'aria-labelledby': 'or-applies-h'},
    h('h3', {id: 'or-applies-h'}, v.monster === 'vampire' ? t('outran.centreApplies') : t('outran.frontApplies')),
    cards.length ? h('ul', {class: 'or-cards'}, cards.map((c) => tip(h('li', {class: 'or-icard', 'data-card': c, tabindex: '0', 'data-key': 'card-' + c}, icon('cards'), ' ', h('strong', {}, cardName(c)), ' — ', cardEffect(c)), t('tip.outran.interference'))))
      : h('p', {class: 'muted'}, t('outran.noneApplies')),
    me && me.infected ? h('p', {class: 'prompt'}, t('outran.infected')) : null);
}

// monsterBoard draws the monster's board as it lies on the table: the +0
// box, then the six squares from the slowest, next to the monster, to the
// fastest; each shows the steps it is worth, its icons and the tokens on
// it, and a square the seat count leaves unused is covered. Each square is
// a list item that says all of it in words.
function monsterBoard(v, ctx) {
  const b = v.board;
  const bySeat = {};
  v.seats.forEach((st, i) => { (bySeat[st.position] = bySeat[st.position] || []).push(i); });
  const hidden = (text) => h('span', {class: 'visually-hidden'}, text);
  return h('section', {'aria-labelledby': 'or-board-h'},
    h('h3', {id: 'or-board-h'}, t('outran.board')),
    h('ol', {class: 'or-board ' + v.monster, start: 0}, b.values.map((val, i) => {
      const on = i === 0 || b.active.includes(i);
      const here = bySeat[i] || [];
      return h('li', {class: (on ? 'active' : 'off') + (i === 0 ? ' zero' : ''), 'data-pos': i},
        h('span', {class: 'pos'}, i === 0 ? '+0' : '#' + i),
        h('span', {class: 'val', 'aria-hidden': 'true'}, String(val)), hidden(' ' + tn('outran.steps', val)),
        (b.icons[i] || []).length ? h('span', {class: 'icons'}, b.icons[i].map((ic) => [boardIcon(ic), hidden(' ' + t('outran.icon.' + ic))])) : null,
        on ? null : hidden(' ' + t('outran.covered')),
        here.length ? h('span', {class: 'pawns'}, hidden(' — '), here.map((q, k) => tip(h('span', {class: 'pawn', 'data-seat': q},
          pawn(q), hidden((k ? ', ' : '') + ctx.name(q))), ctx.name(q)))) : null);
    })),
    h('p', {class: 'muted or-board-hint'}, t('outran.boardHint', {monster: t('outran.monster.' + v.monster)})));
}

// pawn is a seat's token on the monster's board: its shape, colour and
// number, as on the exit path.
function pawn(q) {
  return s('svg', {class: 'icon', viewBox: '-12 -12 24 24', width: 22, height: 22, 'aria-hidden': 'true', focusable: 'false'},
    seatShape(q, 10, {text: String(q + 1)}));
}

function exitPath(v, ctx) {
  const L = v.path_length, W = 560, step = W / (L + 1);
  const g = [s('line', {x1: 0, y1: 30, x2: W, y2: 30, class: 'or-track'})];
  for (let i = 0; i <= L; i++) g.push(s('circle', {cx: i * step + step / 2, cy: 30, r: 4, class: i === L ? 'or-exit' : 'or-dot'}));
  v.seats.forEach((st, q) => {
    const x = Math.min(L, st.progress) * step + step / 2;
    const y = 30 + ((q % 3) - 1) * 14;
    g.push(s('g', {}, s('title', {}, t('outran.progressOf', {name: ctx.name(q), n: st.progress, length: L})),
      seatShape(q, 8, {x, y, text: String(q + 1)})));
  });
  return h('section', {'aria-labelledby': 'or-exit-h'},
    h('h3', {id: 'or-exit-h'}, t('outran.exitPath')),
    s('svg', {viewBox: `0 0 ${W} 60`, class: 'or-exitpath', role: 'img', 'aria-label': list(v.seats.map((st, q) => t('outran.progressOf', {name: ctx.name(q), n: st.progress, length: L})))}, g));
}

function results(v, ctx) {
  const any = v.seats.some((st) => st.result);
  if (!any) return null;
  return h('section', {class: 'or-results', 'aria-labelledby': 'or-res-h'},
    h('h3', {id: 'or-res-h'}, t('outran.results')),
    h('ul', {}, v.seats.map((st, q) => st.result ? h('li', {class: 'r-' + st.result},
      icon(st.result === 'correct' ? 'check' : st.result === 'wrong' ? 'cross' : 'hourglass', {cls: 'res'}), ' ',
      seatMark(q), ' ', h('strong', {}, ctx.name(q)), colon(), t('outran.result.' + st.result),
      st.elapsed > 0 ? h('span', {'data-elapsed': st.elapsed}, ' ' + t('outran.elapsed', {s: num(st.elapsed / 1000)})) : '',
      st.cards ? [' — ', st.cards.length ? tokens(st.cards) : t('outran.nothing')] : '',
      st.result !== 'correct' && st.canonical ? [' · ', t('outran.answerIs'), ' ', tokens(st.canonical)] : '') : null)));
}

function hands(v, ctx, me) {
  return h('section', {class: 'or-hands', 'aria-labelledby': 'or-hands-h'},
    h('h3', {id: 'or-hands-h'}, t('outran.interference')),
    v.seat >= 0 ? h('div', {class: 'or-hand'}, t('outran.yourHand'), ' ', (v.hand || []).length
      ? h('ul', {class: 'or-cards inline', id: 'or-hand'}, v.hand.map((c) => tip(h('li', {class: 'or-icard', 'data-card': c, tabindex: '0', 'data-key': 'hand-' + c}, icon('cards'), ' ', h('strong', {}, cardName(c)), ' — ', cardEffect(c)), t('tip.outran.inHand'))))
      : '—') : null,
    h('ul', {}, v.seats.map((st, q) => h('li', {'data-seat': q},
      seatMark(q), ' ', ctx.name(q), colon(), tn('outran.inHand', st.hand_count),
      (st.front || []).length ? ' · ' + t('outran.inFront', {list: list(st.front.map(cardName))}) : '',
      st.infected ? ' · ' + t('outran.infectedTag') : '', st.immune ? ' · ' + t('outran.immuneTag') : ''))));
}

function choice(v, ctx) {
  const c = v.choice;
  if (!c) return null;
  if (c.seat !== v.seat || ctx.readonly) return h('p', {class: 'prompt'}, t('outran.choiceOther.' + c.kind, {name: ctx.name(c.seat)}));
  const acts = ctx.legal.filter((a) => a.type === 'choose_place' || a.type === 'infect');
  return h('div', {class: 'prompt', id: 'or-choice'}, t('outran.choice.' + c.kind, {pos: c.position}),
    h('div', {class: 'choice-bar'}, acts.map((a) => h('button', {type: 'button', 'data-act': a.type, disabled: ctx.busy, onclick: () => ctx.play(a)}, label(a, ctx)))));
}

function turnBox(v, ctx) {
  if (v.turn !== v.seat || ctx.readonly) return h('p', {class: 'prompt'}, t('outran.turnOther', {name: ctx.name(v.turn)}));
  const acts = ctx.legal.filter((a) => a.type === 'play' || a.type === 'end_turn');
  return h('div', {class: 'prompt', id: 'or-turn'}, t('outran.yourTurn'),
    h('div', {class: 'choice-bar'}, acts.map((a) => h('button', {type: 'button', 'data-act': a.type, id: a.type === 'end_turn' ? 'or-end-turn' : null, disabled: ctx.busy, onclick: () => ctx.play(a)}, label(a, ctx)))));
}

// ---- words ----

export function listed(a) {
  return a.type !== 'submit';
}

export function label(a, ctx) {
  switch (a.type) {
    case 'submit': return t('outran.finish');
    case 'vote_stop': return t('outran.vote');
    case 'choose_place': return a.leftmost ? t('outran.goLeft') : t('outran.stay');
    case 'infect': return t('outran.infectLabel', {name: ctx.name(a.target)});
    case 'play': return t('outran.playLabel', {card: cardName(a.card), name: ctx.name(a.target)});
    case 'end_turn': return t('outran.endTurn');
  }
  return null;
}

// heard: while the player runs, the others finishing or voting is not
// read (it would break into a timed run; the run's end says everyone's
// result); a card drawn face up and laid at once is said once, where it
// lies.
export function heard(ev, ctx) {
  const v = ctx.view;
  const me = v && v.seat >= 0 ? v.seats[v.seat] : null;
  const running = v && v.phase === 'run' && me && !me.submitted;
  switch (ev.type) {
    case 'submitted': case 'voted': return !running || ev.seat === v.seat;
    case 'drew_face_up': return !(ctx.events || []).some((e) => e.type === 'placed' && e.card === ev.card);
  }
  return true;
}

export function describe(ev, ctx) {
  const n = (p) => (p < 0 ? t('outran.centre') : ctx.who(p));
  switch (ev.type) {
    case 'countdown': return t('outran.ev.countdown', {n: ev.round});
    case 'revealed': return t('outran.ev.revealed', {list: ev.symbols.map(tokName).join(', ')});
    case 'submitted': return t('outran.ev.submitted', {seat: n(ev.seat), rank: ev.rank, s: num(ev.elapsed / 1000)});
    case 'vote_open': return false;
    case 'voted': return t('outran.ev.voted', {seat: n(ev.seat)});
    case 'run_ended': return t('outran.ev.run_ended.' + ev.reason, {list: list((ev.results || []).map((r) => t('outran.ev.result.' + r.result, {seat: n(r.seat)})))});
    case 'cured': return t('outran.ev.cured', {seat: n(ev.seat)});
    case 'positions': return false;
    case 'moved': return ev.escaped >= 0 ? t('outran.ev.escaped', {seat: n(ev.escaped)}) : t('outran.ev.moved', {list: list((ev.steps || []).map((st, q) => t('outran.ev.steps', {seat: n(q), n: st})))});
    case 'clawed': return t('outran.ev.clawed', {seat: n(ev.seat)});
    case 'burned': return t('outran.ev.burned', {seat: n(ev.seat)});
    case 'infected': return t('outran.ev.infected', {seat: n(ev.seat)});
    case 'drew': return ev.cards ? t('outran.ev.drew_you', {list: list(ev.cards.map(cardName))}) : tn('outran.ev.drew', ev.count, {seat: n(ev.seat)});
    // The Vampire's card turned up for the centre is said once: it lies
    // there at once.
    case 'drew_face_up': return ev.seat < 0 ? t('outran.ev.drew_face_up_centre', {card: cardName(ev.card)}) : t('outran.ev.drew_face_up', {seat: n(ev.seat), card: cardName(ev.card)});
    case 'placed': return ev.holder < 0 ? false : t('outran.ev.placed', {seat: n(ev.holder), card: cardName(ev.card)});
    case 'played': return t('outran.ev.played', {seat: n(ev.seat), card: cardName(ev.card), target: n(ev.target)});
    case 'place_offered': case 'infect_offered': case 'turn_started': case 'turn_ended': case 'discarded': case 'reshuffled': case 'chose_place': return false;
    case 'game_over': return ev.reason === 'escaped' ? tn('outran.ev.over_escaped', (ev.winners || []).length, {names: people((ev.winners || []).map(n))}) : t('outran.ev.over_cap');
  }
  return null;
}

export function status(ctx) {
  const v = ctx.view;
  if (!v || !ctx.myTurn) return null;
  if (v.phase === 'run') return v.seats[v.seat] && v.seats[v.seat].submitted ? t('outran.status.voted') : t('outran.status.run');
  return null;
}

export function onKey(e, ctx) {
  const v = ctx.view;
  if (!v || v.phase !== 'run' || v.seat < 0 || ctx.readonly) return false;
  const me = v.seats[v.seat];
  if (!me || me.submitted) return false;
  const ui = ctx.ui;
  const k = KEYS[e.key.toLowerCase()];
  if (k && (v.palette || []).includes(k)) {
    if (!ui.seq.includes(k)) { ui.seq.push(k); ctx.redraw(); }
    return true;
  }
  if (e.key === 'Backspace') { ui.seq.pop(); ctx.redraw(); return true; }
  if (e.key === 'Enter' && !(document.activeElement && document.activeElement.closest && document.activeElement.closest('button'))) {
    document.querySelector('#or-finish')?.click();
    return true;
  }
  return false;
}
