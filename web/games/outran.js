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
import {t, tn, list} from '/js/i18n.js';

const GLYPH = {n: '↑', ne: '↗', e: '→', se: '↘', s: '↓', sw: '↙', w: '←', nw: '↖', spin: '↻', detour: '+', antidote: '✚', express: '»'};
// Keypad keys of the arrows (as on the game's own terminal client).
const KEYS = {8: 'n', 9: 'ne', 6: 'e', 3: 'se', 2: 's', 1: 'sw', 4: 'w', 7: 'nw', 5: 'spin', '+': 'detour', v: 'antidote', t: 'express'};
const KEY_OF = Object.fromEntries(Object.entries(KEYS).map(([k, v]) => [v, k]));
const SEAT_FILL = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9'];

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
  if (k === 'interchange') return {a: GLYPH[rest[0]], b: GLYPH[rest[1]]};
  if (k === 'not_this_way') return {a: GLYPH[rest[0]]};
  if (k === 'detour') return {a: rest[0]};
  return {};
}

const cardEffect = (c) => t('outran.effect.' + cardKind(c), cardParams(c));

// ---- rendering ----

export function render(root, ctx) {
  const v = ctx.view;
  if (!v) return;
  const ui = ctx.ui;
  const me = v.seat >= 0 ? v.seats[v.seat] : null;
  if (ui.round !== v.round) {
    ui.seq = [];
    ui.round = v.round;
  }
  ui.seq = ui.seq || [];
  root.append(h('div', {class: 'or'},
    strip(v, ctx),
    phaseBox(v, ctx, me),
    h('div', {class: 'or-main'},
      h('div', {}, pathCard(v, ctx), me && v.phase === 'run' && !ctx.readonly ? layer(v, ctx, me) : null, results(v, ctx)),
      h('div', {}, applies(v, ctx, me), monsterBoard(v, ctx), exitPath(v, ctx))),
    hands(v, ctx, me)));
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
  const cells = {};
  (p.trail || []).forEach((cell, i) => { cells[cell] = i; });
  const g = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const id = 'abc'[c] + (r + 1);
      const i = cells[id];
      g.push(s('rect', {class: 'or-cell' + (i != null ? ' on' : ''), x: c * 70 + 4, y: r * 70 + 4, width: 62, height: 62, rx: 8}));
      if (i != null) {
        g.push(s('text', {class: 'or-glyph', x: c * 70 + 35, y: r * 70 + 44}, GLYPH[p.symbols[i]]));
        g.push(i === 0
          ? s('path', {class: 'or-flame', d: `M${c * 70 + 14},${r * 70 + 8} C${c * 70 + 24},${r * 70 + 18} ${c * 70 + 22},${r * 70 + 28} ${c * 70 + 14},${r * 70 + 28} C${c * 70 + 6},${r * 70 + 28} ${c * 70 + 4},${r * 70 + 18} ${c * 70 + 14},${r * 70 + 8} Z`}, s('title', {}, t('outran.start')))
          : s('text', {class: 'or-step', x: c * 70 + 12, y: r * 70 + 20}, String(i + 1)));
      }
    }
  }
  const words = p.symbols.map((x, i) => (i + 1) + ' ' + tokName(x)).join(', ');
  return h('section', {class: 'or-path' + (hidden ? ' old' : ''), 'aria-labelledby': 'or-path-h'},
    h('h3', {id: 'or-path-h'}, hidden ? t('outran.lastPath') : t('outran.path'), p.antidote ? ' ' + t('outran.antidoteIcon') : ''),
    s('svg', {viewBox: '0 0 214 214', class: 'or-trail', role: 'img', 'aria-label': t('outran.pathAria', {list: words})}, s('title', {}, words), g),
    h('p', {class: 'or-symbols', id: 'or-symbols'}, p.symbols.map((x) => h('span', {class: 'sym', title: tokName(x)}, GLYPH[x]))));
}

// layer: the seat's arrows to lay, in order.
function layer(v, ctx, me) {
  const ui = ctx.ui;
  const done = me.submitted;
  const palette = v.palette || [];
  const vote = ctx.legalOf({type: 'vote_stop'});
  if (done) {
    return h('section', {class: 'or-layer', id: 'or-layer'},
      h('p', {class: 'prompt'}, t('outran.submitted', {rank: me.rank || '?'}), ' ', (me.cards || []).map((x) => GLYPH[x]).join(' ')),
      vote ? h('button', {type: 'button', id: 'or-vote', 'data-act': 'vote_stop', disabled: ctx.busy, onclick: () => ctx.play(vote)}, t('outran.vote')) : null);
  }
  const add = (k) => { if (!ui.seq.includes(k) && ui.seq.length < 12) { ui.seq.push(k); ctx.redraw(); } };
  const slots = ui.seq.map((k, i) => h('button', {type: 'button', class: 'or-slot', draggable: 'true', 'data-i': i, 'data-key': 'slot-' + i,
    'aria-label': t('outran.slotAria', {n: i + 1, tok: tokName(k)}),
    onclick: () => { ui.seq.splice(i, 1); ctx.redraw(); },
    ondragstart: (e) => { e.dataTransfer.setData('text/plain', String(i)); },
    ondragover: (e) => e.preventDefault(),
    ondrop: (e) => { e.preventDefault(); const from = +e.dataTransfer.getData('text/plain'); const [x] = ui.seq.splice(from, 1); ui.seq.splice(i, 0, x); ctx.redraw(); },
    onkeydown: (e) => {
      if (e.key === 'ArrowLeft' && i > 0) { [ui.seq[i - 1], ui.seq[i]] = [ui.seq[i], ui.seq[i - 1]]; ui.focus = 'slot-' + (i - 1); e.preventDefault(); e.stopPropagation(); ctx.redraw(); refocus(ui); }
      if (e.key === 'ArrowRight' && i < ui.seq.length - 1) { [ui.seq[i + 1], ui.seq[i]] = [ui.seq[i], ui.seq[i + 1]]; ui.focus = 'slot-' + (i + 1); e.preventDefault(); e.stopPropagation(); ctx.redraw(); refocus(ui); }
    }}, h('span', {class: 'n'}, String(i + 1)), h('span', {class: 'g'}, GLYPH[k])));
  return h('section', {class: 'or-layer', id: 'or-layer', 'aria-labelledby': 'or-layer-h'},
    h('h3', {id: 'or-layer-h'}, t('outran.yourArrows')),
    h('div', {class: 'or-palette', id: 'or-palette'}, palette.map((k) => h('button', {type: 'button', class: 'or-card', 'data-token': k, 'data-key': 'tok-' + k,
      disabled: ui.seq.includes(k) || ctx.busy, 'aria-label': tokName(k) + (KEY_OF[k] ? ' (' + KEY_OF[k] + ')' : ''),
      draggable: 'true', ondragstart: (e) => e.dataTransfer.setData('text/token', k), onclick: () => add(k)},
    h('span', {class: 'g'}, GLYPH[k]), KEY_OF[k] ? h('kbd', {}, KEY_OF[k]) : null))),
    h('div', {class: 'or-seq', id: 'or-seq', role: 'list', 'aria-label': t('outran.yourOrder'),
      ondragover: (e) => e.preventDefault(),
      ondrop: (e) => { const k = e.dataTransfer.getData('text/token'); if (k) { e.preventDefault(); add(k); } }},
    slots.length ? slots : h('span', {class: 'muted'}, t('outran.emptySeq'))),
    h('p', {class: 'help'}, t('outran.layHelp')),
    h('div', {class: 'choice-bar'},
      h('button', {type: 'button', class: 'primary', id: 'or-finish', 'data-act': 'submit', disabled: ctx.busy,
        onclick: () => { const cards = [...ui.seq]; ui.seq = []; ctx.play({type: 'submit', cards}); }}, t('outran.finish'), ' ', h('kbd', {}, '↵')),
      h('button', {type: 'button', id: 'or-clear', disabled: !ui.seq.length, onclick: () => { ui.seq = []; ctx.redraw(); }}, t('outran.clear')),
      h('button', {type: 'button', id: 'or-giveup', disabled: ctx.busy, onclick: () => ctx.play({type: 'submit', cards: []})}, t('outran.giveUp'))));
}

function refocus(ui) {
  setTimeout(() => { const el = document.querySelector('[data-key="' + ui.focus + '"]'); if (el) el.focus(); }, 0);
}

// applies: the interference that bends this seat's sequence.
function applies(v, ctx, me) {
  const cards = v.monster === 'vampire' ? v.centre || [] : me ? me.front || [] : [];
  return h('section', {class: 'or-applies', id: 'or-applies', 'aria-labelledby': 'or-applies-h'},
    h('h3', {id: 'or-applies-h'}, v.monster === 'vampire' ? t('outran.centreApplies') : t('outran.frontApplies')),
    cards.length ? h('ul', {}, cards.map((c) => h('li', {'data-card': c}, h('strong', {}, cardName(c)), ' — ', cardEffect(c))))
      : h('p', {class: 'muted'}, t('outran.noneApplies')),
    me && me.infected ? h('p', {class: 'prompt'}, t('outran.infected')) : null);
}

function monsterBoard(v, ctx) {
  const b = v.board;
  const bySeat = {};
  v.seats.forEach((st, i) => { (bySeat[st.position] = bySeat[st.position] || []).push(i); });
  return h('section', {'aria-labelledby': 'or-board-h'},
    h('h3', {id: 'or-board-h'}, t('outran.board')),
    h('ol', {class: 'or-board', start: 0}, b.values.map((val, i) => h('li', {class: (i === 0 || b.active.includes(i)) ? 'active' : 'off', 'data-pos': i},
      h('span', {class: 'pos'}, i === 0 ? '+0' : '#' + i), ' ',
      h('strong', {}, tn('outran.steps', val)),
      (b.icons[i] || []).length ? ' ' + b.icons[i].map((ic) => t('outran.icon.' + ic)).join(', ') : '',
      (bySeat[i] || []).length ? [' — ', list(bySeat[i].map((q) => ctx.shape(q) + ' ' + ctx.name(q)))] : ''))));
}

function exitPath(v, ctx) {
  const L = v.path_length, W = 560, step = W / (L + 1);
  const g = [s('line', {x1: 0, y1: 30, x2: W, y2: 30, class: 'or-track'})];
  for (let i = 0; i <= L; i++) g.push(s('circle', {cx: i * step + step / 2, cy: 30, r: 4, class: i === L ? 'or-exit' : 'or-dot'}));
  v.seats.forEach((st, q) => {
    const x = Math.min(L, st.progress) * step + step / 2;
    const y = 30 + ((q % 3) - 1) * 14;
    g.push(s('g', {}, s('title', {}, t('outran.progressOf', {name: ctx.name(q), n: st.progress, L})),
      s('circle', {cx: x, cy: y, r: 8, fill: SEAT_FILL[q % 6], stroke: '#000'}),
      s('text', {class: 'or-tok', x, y: y + 4}, String(q + 1))));
  });
  return h('section', {'aria-labelledby': 'or-exit-h'},
    h('h3', {id: 'or-exit-h'}, t('outran.exitPath')),
    s('svg', {viewBox: `0 0 ${W} 60`, class: 'or-exitpath', role: 'img', 'aria-label': list(v.seats.map((st, q) => t('outran.progressOf', {name: ctx.name(q), n: st.progress, L})))}, g));
}

function results(v, ctx) {
  const any = v.seats.some((st) => st.result);
  if (!any) return null;
  return h('section', {class: 'or-results', 'aria-labelledby': 'or-res-h'},
    h('h3', {id: 'or-res-h'}, t('outran.results')),
    h('ul', {}, v.seats.map((st, q) => st.result ? h('li', {class: 'r-' + st.result},
      ctx.shape(q), ' ', h('strong', {}, ctx.name(q)), ': ', t('outran.result.' + st.result),
      st.elapsed ? ' (' + (st.elapsed / 1000).toFixed(1) + ' s)' : '',
      st.cards ? ' — ' + (st.cards.map((x) => GLYPH[x]).join(' ') || '∅') : '',
      st.result !== 'correct' && st.canonical ? ' · ' + t('outran.answer', {list: st.canonical.map((x) => GLYPH[x]).join(' ')}) : '') : null)));
}

function hands(v, ctx, me) {
  return h('section', {class: 'or-hands', 'aria-labelledby': 'or-hands-h'},
    h('h3', {id: 'or-hands-h'}, t('outran.interference')),
    v.seat >= 0 ? h('p', {}, t('outran.yourHand'), ' ', (v.hand || []).length ? list(v.hand.map(cardName)) : '—') : null,
    h('ul', {}, v.seats.map((st, q) => h('li', {'data-seat': q},
      ctx.shape(q), ' ', ctx.name(q), ': ', tn('outran.inHand', st.hand_count),
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

export function describe(ev, ctx) {
  const n = (p) => (p < 0 ? t('outran.centre') : ctx.name(p));
  switch (ev.type) {
    case 'countdown': return t('outran.ev.countdown', {n: ev.round});
    case 'revealed': return t('outran.ev.revealed', {list: ev.symbols.map((x) => GLYPH[x]).join(' ')});
    case 'submitted': return t('outran.ev.submitted', {seat: n(ev.seat), rank: ev.rank, s: (ev.elapsed / 1000).toFixed(1)});
    case 'vote_open': return false;
    case 'voted': return t('outran.ev.voted', {seat: n(ev.seat)});
    case 'run_ended': return t('outran.ev.run_ended.' + ev.reason) + ' ' + list((ev.results || []).map((r) => n(r.seat) + ' ' + t('outran.result.' + r.result)));
    case 'cured': return t('outran.ev.cured', {seat: n(ev.seat)});
    case 'positions': return false;
    case 'moved': return ev.escaped >= 0 ? t('outran.ev.escaped', {seat: n(ev.escaped)}) : t('outran.ev.moved', {list: list((ev.steps || []).map((st, q) => n(q) + ' +' + st))});
    case 'clawed': return t('outran.ev.clawed', {seat: n(ev.seat)});
    case 'burned': return t('outran.ev.burned', {seat: n(ev.seat)});
    case 'infected': return t('outran.ev.infected', {seat: n(ev.seat)});
    case 'drew': return ev.cards ? t('outran.ev.drew_you', {list: list(ev.cards.map(cardName))}) : tn('outran.ev.drew', ev.count, {seat: n(ev.seat)});
    case 'drew_face_up': return t('outran.ev.drew_face_up', {seat: n(ev.seat), card: cardName(ev.card)});
    case 'placed': return t('outran.ev.placed', {seat: n(ev.holder), card: cardName(ev.card)});
    case 'played': return t('outran.ev.played', {seat: n(ev.seat), card: cardName(ev.card), target: n(ev.target)});
    case 'place_offered': case 'infect_offered': case 'turn_started': case 'turn_ended': case 'discarded': case 'reshuffled': case 'chose_place': return false;
    case 'game_over': return ev.reason === 'escaped' ? t('outran.ev.over_escaped', {names: list((ev.winners || []).map(n))}) : t('outran.ev.over_cap');
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
