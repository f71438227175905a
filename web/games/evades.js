// Les Évadés: the prison map with its areas, doors and the tabs they show,
// Warning spots and vents, the pawns and the objects in the common rooms;
// the five face-up Combines cards, one's hand and escape plan; the piles,
// and the Pass-Pass and Warning effects as they happen.
//
// The map's drawing data (evades.layout.json) is the game's own public table
// (evades.BoardLayout), checked against it by the Go tests.

import {h, s, reducedMotion} from '/js/ui.js';
import {t, tn, list, getLang, colon} from '/js/i18n.js';
import {tip, attachTips} from '/js/tips.js';
import {roving, centreInPan} from '/js/focus.js';
import {icon, symbol, seatShape, seatMark} from '/pieces/common.js';
import {cardFace, levelPips, LEVEL, objectToken, drawPos, areaBox, areaLabel, objectSpots, pawnSpots, PAWN_R, ventSpot, exitSpot, placeDoors, pressed, DOOR, WARN_R} from '/pieces/evades.js';

// Combines types in the game's canonical order: card lists in actions are
// multisets written in this order.
const CARDS = ['spoon', 'soap', 'paperclip', 'cigarettes', 'file', 'screwdriver', 'rope', 'wire_cutters', 'crowbar', 'uniform', 'keypad', 'joker'];
// Plans: the exit and the object types that open it (public rules data).
const PLANS = {
  plan_roof: {exit: 'exit_roof', objects: ['money', 'parachute']},
  plan_pier: {exit: 'exit_pier', objects: ['money', 'diving_gear']},
  plan_sewer: {exit: 'exit_sewer', objects: ['phone', 'gas_mask']},
  plan_parking: {exit: 'exit_parking', objects: ['phone', 'car_keys']},
};

let layout = null;
let areaAt = {};
let doorAt = {};
let doorPos = null; // door → where it is drawn (placeDoors), found once

// init loads the map's drawing data once.
export async function init() {
  const r = await fetch('/games/evades.layout.json');
  layout = await r.json();
  for (const a of layout.areas) areaAt[a.area] = a;
  for (const d of layout.doors) doorAt[d.door] = d;
}

// ---- names ----

const card = (c) => t('evades.card.' + c);
const cardShort = (c) => t('evades.card.' + c + '.short');
const areaName = (a) => {
  if (a === 'none') return t('evades.noVent');
  const x = areaAt[a];
  return x ? (getLang() === 'fr' ? x.fr : x.en) : a;
};
// theArea names an area in a sentence, with its article ("the north
// corridor", "le couloir nord"; "de le couloir" is written "du couloir").
const theArea = (a) => (a === 'none' ? t('evades.noVent') : t('evades.the.' + a));
const objectType = (o) => String(o).replace(/_\d+$/, '');
const objName = (o) => t('evades.obj.' + objectType(o));
const theObj = (o) => t('evades.theObj.' + objectType(o));
const doorName = (d) => t('evades.door', {n: +String(d).slice(1)});
const ppName = (c) => t('evades.pp.' + c);
const tokenName = (k) => t('evades.tok.' + k);

// cardsText writes a multiset of cards: "2 × file and joker".
function cardsText(cs) {
  const n = {};
  for (const c of cs || []) n[c] = (n[c] || 0) + 1;
  return list(CARDS.filter((c) => n[c]).map((c) => (n[c] > 1 ? n[c] + ' × ' : '') + card(c)));
}

function payText(a) {
  if (a.credit) return t('evades.useCredit.' + a.credit);
  return t('evades.pay', {cards: cardsText(a.pay)});
}

// The server lists a seat's legal actions only when they are few (two cards
// to discard or give from a hand of many types, or Retournement's door
// choices, are too many): otherwise the player composes the action from the
// view and the server judges it. offered says whether the list came; pick
// returns the listed action, or the one composed from the view (public rules
// only) when none came.
const offered = (ctx) => ctx.legal.length > 0;

function pick(ctx, a) {
  if (!a) return null;
  if (offered(ctx)) return ctx.legalOf(a);
  return ctx.myTurn && !ctx.readonly ? a : null;
}

function me(v) {
  return v.seat >= 0 ? v.seats[v.seat] : null;
}

function choices(ctx, type) {
  if (offered(ctx)) return ctx.find((a) => a.type === type);
  if (!ctx.myTurn || ctx.readonly) return [];
  const v = ctx.view, m = me(v);
  switch (type) {
    case 'cross_door': {
      const out = [];
      for (const d of layout.doors) {
        if (d.a !== m.area && d.b !== m.area) continue;
        out.push(...payOptions(v, m, d));
      }
      return out;
    }
    case 'choose_vent':
      return [...layout.areas.filter((a) => a.vent && a.area !== m.area).map((a) => ({type, area: a.area})), {type, area: 'none'}];
    case 'choose_codetainee':
      return [...v.row.map((c, i) => (c === 'none' ? null : {type, source: 'face_up', slot: i})).filter(Boolean), {type, source: 'blind'}, {type, source: 'pass_pass'}];
    case 'choose_target':
      return v.seats.filter((x) => x.seat !== v.seat).map((x) => ({type, seat: x.seat}));
    case 'choose_doors':
      return [{type, doors: layout.doors.filter((d) => !d.exit).map((d) => d.door)}];
    case 'take_object': {
      const room = v.rooms.find((r) => r.room === m.area);
      const want = m.plan ? PLANS[m.plan].objects : [];
      return room ? room.objects.filter((o) => want.includes(objectType(o))).map((o) => ({type, token: o})) : [];
    }
  }
  return [];
}

// payOptions composes the ways to pay door d from the hand: the face's cards
// with jokers making up the rest, or a credit.
function payOptions(v, m, d) {
  const f = v.doors.find((x) => x.door === d.door);
  const out = [];
  const have = (c) => (m.hand || []).filter((x) => x === c).length;
  const own = have(f.face), jokers = have('joker');
  for (let k = Math.min(f.level, own); k >= 0; k--) {
    if (f.level - k <= jokers && f.level > 0) out.push({type: 'cross_door', door: d.door, pay: [...Array(k).fill(f.face), ...Array(f.level - k).fill('joker')]});
  }
  if (v.badge_credits > 0) out.push({type: 'cross_door', door: d.door, credit: 'badge'});
  if (v.corruption_credits > 0 && !d.exit) out.push({type: 'cross_door', door: d.door, credit: 'corruption'});
  return out;
}

// sorted returns cards in canonical order.
const sorted = (cs) => [...cs].sort((a, b) => CARDS.indexOf(a) - CARDS.indexOf(b));

function selList(sel) {
  const out = [];
  for (const c of CARDS) for (let i = 0; i < (sel[c] || 0); i++) out.push(c);
  return out;
}

// ---- rendering ----

export function render(root, ctx) {
  const v = ctx.view;
  if (!v || !layout) return;
  const ui = ctx.ui;
  if (ui.turnKey !== v.turn + ':' + v.phase + ':' + (v.pending ? v.pending.decision : '')) {
    // A new step of the game: forget half-made choices.
    ui.turnKey = v.turn + ':' + v.phase + ':' + (v.pending ? v.pending.decision : '');
    ui.sel = {};
    ui.slots = [];
    ui.payDoor = null;
    ui.doors = [];
  }
  ui.sel = ui.sel || {};
  ui.slots = ui.slots || [];
  ui.doors = ui.doors || [];
  const me = v.seat >= 0 ? v.seats[v.seat] : null;
  const board = h('div', {class: 'ev'},
    strip(v, ctx),
    happenings(ctx),
    controls(v, ctx, me),
    ctx.readonly ? null : zoomBar(ctx), // (a replayed step keeps the page's own size)
    h('div', {class: 'pan', id: 'ev-pan'}, map(v, ctx)),
    h('div', {class: 'panels'},
      me ? handPanel(v, ctx, me) : null,
      rowPanel(v, ctx),
      seatsPanel(v, ctx),
      pilesPanel(v, ctx)));
  root.append(board);
  roving(board.querySelector('#ev-map'), '.door, .area', '.can-cross, .can-go');
  attachTips(board);
  // On a phone the map is wider than the screen: it opens on the player's
  // pawn.
  if (!ui.centred) centreInPan(board.querySelector('#ev-pan'), board.querySelector('.pawn-g[data-seat="' + Math.max(0, v.seat) + '"]'), () => { ui.centred = true; });
  // A new zoom keeps the middle of what was shown in the middle.
  if (ui.zoomAt) {
    const [fx, fy] = ui.zoomAt, pan = board.querySelector('#ev-pan');
    ui.zoomAt = null;
    requestAnimationFrame(() => {
      pan.scrollLeft = fx * pan.scrollWidth - pan.clientWidth / 2;
      pan.scrollTop = fy * pan.scrollHeight - pan.clientHeight / 2;
    });
  }
  // Pawns glide from where they were.
  if (!reducedMotion()) {
    requestAnimationFrame(() => requestAnimationFrame(() => {
      for (const p of root.querySelectorAll('.pawn-g[data-to]')) p.style.transform = p.dataset.to;
    }));
  }
}

function strip(v, ctx) {
  return h('div', {class: 'strip'},
    h('span', {class: 'stat'}, t('evades.turn', {turn: v.turn, limit: v.turn_limit})),
    h('span', {class: 'stat'}, icon('spin', {cls: v.direction > 0 ? '' : 'flip'}), ' ', v.direction > 0 ? t('evades.clockwise') : t('evades.counter'), v.reverse_at_end ? ' · ' + t('evades.willReverse') : ''),
    h('span', {class: 'stat'}, tn('evades.objectsRequired', v.objects_required)),
    v.badge_credits ? h('span', {class: 'stat'}, tn('evades.badges', v.badge_credits)) : null,
    v.corruption_credits ? h('span', {class: 'stat'}, tn('evades.corruptions', v.corruption_credits)) : null);
}

// happenings shows the Warning and Pass-Pass cards just revealed.
function happenings(ctx) {
  const out = [];
  for (const ev of ctx.events || []) {
    if (ev.type === 'warning_drawn') {
      out.push(h('div', {class: 'happening token'}, icon('warn'), ' ', t('evades.warningDrawn', {name: ctx.who(ev.seat), token: tokenName(ev.token), colour: ev.colour}), ' — ', t('evades.tokEffect.' + ev.token)));
    }
    if (ev.type === 'pass_pass_drawn') {
      out.push(h('div', {class: 'happening pp'}, icon('mail'), ' ', t('evades.ppDrawn', {name: ctx.who(ev.seat), card: ppName(ev.card)}), ' — ', t('evades.ppEffect.' + ev.card)));
    }
  }
  return out.length ? h('div', {class: 'happenings', id: 'ev-happenings'}, out) : null;
}

// The map's zoom: the whole prison in its box, or a width in pixels a
// unit of the prison (the map is 30 units wide); a phone opens at 30, where
// every name is 12 pixels high, and pans.
const ZOOMS = [0, 30, 40, 52];

// zoomLevel is the map's zoom now: the one chosen, else the page's own (the
// style sheet's: the whole prison, or 30 on a phone).
function zoomLevel(ui) {
  return ui.zoom ?? (matchMedia('(max-width: 600px)').matches ? 1 : 0);
}

// zoomBar: the buttons that zoom the map out and in (a phone's pinch
// zooms the page as well).
function zoomBar(ctx) {
  const ui = ctx.ui, z = zoomLevel(ui);
  const go = (to) => () => {
    const pan = document.querySelector('#ev-pan');
    if (pan) ui.zoomAt = [(pan.scrollLeft + pan.clientWidth / 2) / pan.scrollWidth, (pan.scrollTop + pan.clientHeight / 2) / pan.scrollHeight];
    ui.zoom = to;
    ctx.redraw();
  };
  return h('div', {class: 'zoom-bar', role: 'group', 'aria-label': t('evades.zoom')},
    tip(h('button', {type: 'button', id: 'ev-zoom-out', 'data-key': 'zoom-out', 'aria-label': t('evades.zoomOut'), disabled: z === 0, onclick: go(z - 1)}, icon('minus')), t('tip.evades.zoom')),
    tip(h('button', {type: 'button', id: 'ev-zoom-in', 'data-key': 'zoom-in', 'aria-label': t('evades.zoomIn'), disabled: z === ZOOMS.length - 1, onclick: go(z + 1)}, icon('plus')), t('tip.evades.zoom')));
}

function map(v, ctx) {
  const ui = ctx.ui;
  const mine = ctx.myTurn && !ctx.readonly;
  const cross = mine && !v.pending && v.phase === 'move' ? choices(ctx, 'cross_door') : [];
  const crossDoors = new Set(cross.map((a) => a.door));
  const doorPick = mine && v.pending && v.pending.decision === 'choose_doors' && v.pending.seat === v.seat;
  const flippable = doorPick ? flippableDoors(ctx) : new Set();
  const ventTo = mine && v.pending && v.pending.decision === 'choose_vent' ? new Set(choices(ctx, 'choose_vent').map((a) => a.area)) : new Set();
  const flipped = new Set((ctx.events || []).filter((e) => e.type === 'door_crossed' || e.type === 'door_flipped').map((e) => e.door));
  const faces = Object.fromEntries(v.doors.map((d) => [d.door, d]));
  const g = [];
  doorPos = doorPos || placeDoors(layout, areaAt);
  // Corridors between areas, through their door.
  for (const d of layout.doors) {
    const [ax, ay] = drawPos(areaAt[d.a]), [bx, by] = drawPos(areaAt[d.b]), [dx, dy] = doorPos[d.door];
    g.push(s('polyline', {class: 'corridor', points: `${ax},${ay} ${dx},${dy} ${bx},${by}`}));
  }
  for (const a of layout.areas) {
    const b = areaBox(a);
    const go = ventTo.has(a.area);
    const room = v.rooms.find((r) => r.room === a.area);
    const name = areaName(a.area);
    g.push(tip(s('g', {class: 'area k-' + a.kind + (go ? ' can-go' : ''), 'data-area': a.area, 'data-key': 'area-' + a.area,
      role: go ? 'button' : 'img', 'aria-label': go ? t('evades.ventTo', {area: theArea(a.area)}) : name,
      onclick: go ? () => ctx.play(pick(ctx, {type: 'choose_vent', area: a.area})) : null,
      onkeydown: keyStop, onkeyup: go ? (e) => { if (e.key === 'Enter' || e.key === ' ') ctx.play(pick(ctx, {type: 'choose_vent', area: a.area})); } : null},
    s('rect', {x: b.x, y: b.y, width: b.w, height: b.h, rx: 0.25}),
    areaLabel(a, name),
    a.vent ? symbol('vent', ...ventSpot(a), 0.6, {cls: 'vent-mark'}) : null,
    a.kind === 'exit' ? symbol('door', ...exitSpot(a), 0.6, {cls: 'exit-mark'}) : null,
    room ? objectSpots(a, name, room.objects.length).map(([x, y], i) => objectToken(room.objects[i], x, y, objName(room.objects[i]))) : null), areaTip(a, room)));
  }
  for (const d of layout.doors) {
    const f = faces[d.door];
    const can = crossDoors.has(d.door) || flippable.has(d.door);
    const chosen = ui.payDoor === d.door || ui.doors.includes(d.door);
    const label = tn('evades.doorAria', f.level, {door: doorName(d.door), a: theArea(d.a), b: theArea(d.b), face: card(f.face), other: card(f.other)}) +
      (d.warning ? ' ' + t('evades.warningSpot') : '') + (d.exit ? ' ' + t('evades.exitDoor') : '');
    const act = () => {
      if (doorPick) {
        ui.doors = ui.doors.includes(d.door) ? ui.doors.filter((x) => x !== d.door) : [...ui.doors, d.door].slice(-2);
      } else {
        ui.payDoor = ui.payDoor === d.door ? null : d.door;
      }
      ctx.redraw();
      if (!doorPick) document.querySelector('#ev-pay button')?.focus();
    };
    const [x, y] = doorPos[d.door];
    const face = cardShort(f.face);
    g.push(tip(s('g', {class: 'door' + (d.exit ? ' exit' : '') + (can ? ' can-cross' : '') + (chosen ? ' chosen' : '') + (flipped.has(d.door) ? ' flipped' : ''),
      // Named first by the word drawn on it (WCAG 2.5.3: "click Cigs"
      // finds it), then in full.
      'data-door': d.door, 'data-key': 'door-' + d.door, role: can ? 'button' : 'img', 'aria-label': t('evades.doorLabel', {short: cardShort(f.face), about: label}),
      onclick: can ? act : null, onkeydown: keyStop, onkeyup: can ? (e) => { if (e.key === 'Enter' || e.key === ' ') act(); } : null},
    s('rect', {x: x - DOOR.w / 2, y: y - DOOR.h / 2, width: DOOR.w, height: DOOR.h, rx: 0.12}),
    s('text', {class: 'door-t', x, y: y - 0.13, ...pressed(face, DOOR.w - 0.16, 'door-t')}, face),
    f.level ? levelPips(f.level, x, y + 0.25) : null,
    d.warning ? [s('circle', {class: 'warn-spot', cx: x + DOOR.w / 2 + WARN_R, cy: y, r: WARN_R}), s('text', {class: 'warn-t', x: x + DOOR.w / 2 + WARN_R, y: y + 0.01}, '!')] : null),
    doorTip(d, f, can)));
  }
  // Pawns, moved from where they came from this update.
  const moved = {};
  for (const e of ctx.events || []) {
    if ((e.type === 'door_crossed' || e.type === 'pawn_moved') && !(e.seat in moved)) moved[e.seat] = e.from;
  }
  const byArea = {};
  v.seats.forEach((st) => { (byArea[st.area] = byArea[st.area] || []).push(st.seat); });
  for (const st of v.seats) {
    const here = byArea[st.area];
    const [x, y] = pawnSpots(areaAt[st.area], here.length)[here.indexOf(st.seat)];
    let from = null;
    if (moved[st.seat] && areaAt[moved[st.seat]] && !reducedMotion() && !ctx.readonly) {
      const [fx, fy] = drawPos(areaAt[moved[st.seat]]);
      from = `translate(${fx - x}px, ${fy - y}px)`;
    }
    g.push(s('g', {class: 'pawn-g', 'data-seat': st.seat, style: from ? 'transform:' + from + ';transition:transform .6s ease' : null, 'data-to': from ? 'translate(0px, 0px)' : null},
      s('g', {transform: `translate(${x} ${y})`}, seatShape(st.seat, PAWN_R, {text: String(st.seat + 1), cls: 'pawn'}),
        s('title', {}, t('evades.pawnOf', {name: ctx.name(st.seat), area: areaName(st.area)})))));
  }
  const z = ui.zoom == null ? null : ZOOMS[ui.zoom];
  return s('svg', {class: 'map' + (z ? ' zoomed' : z === 0 ? ' whole' : ''), id: 'ev-map', viewBox: '-3 -2.2 30 28.4', role: 'group', 'aria-label': t('evades.map') + '. ' + t('a11y.arrowsMove'),
    style: z ? 'width:' + z * 30 + 'px' : null}, g);
}

function areaTip(a, room) {
  const parts = [t('tip.evades.area.' + a.kind)];
  if (a.vent) parts.push(t('tip.evades.vent'));
  if (room && room.objects.length) parts.push(t('tip.evades.objects', {objects: list(room.objects.map(objName))}));
  return parts.join(' ');
}

function doorTip(d, f, can) {
  const parts = [d.exit ? tn('tip.evades.exitDoor', f.level, {card: card(f.face)}) : tn('tip.evades.door', f.level, {card: card(f.face), other: card(f.other)})];
  if (d.warning) parts.push(t('tip.evades.warning'));
  parts.push(can ? t('tip.evades.canCross') : t('tip.evades.cannotCross'));
  return parts.join(' ');
}

// keyStop keeps Enter and Space on a drawn control from scrolling or
// reaching the page; the control acts when the key comes up, so that the
// same key press never also activates the button that then takes the focus.
function keyStop(e) {
  if (e.key === 'Enter' || e.key === ' ') e.preventDefault();
}

function flippableDoors(ctx) {
  const out = new Set();
  for (const a of choices(ctx, 'choose_doors')) for (const d of a.doors || []) out.add(d);
  return out;
}

// controls: what the player may do now, in the order of the turn, in the
// decision area: first in the keyboard's order, where the page puts the
// focus after each move (data-decide).
function controls(v, ctx, me) {
  return h('div', {class: 'decide', 'data-decide': '', role: 'group', 'aria-label': t('match.nextMove')}, turnControls(v, ctx, me));
}

function turnControls(v, ctx, me) {
  if (v.phase === 'over') return endNote(v, ctx);
  const pend = v.pending;
  if (!ctx.myTurn || ctx.readonly) {
    if (pend && pend.seat !== v.seat) return h('p', {class: 'prompt'}, t('evades.pendingOther.' + pend.decision, {name: ctx.name(pend.seat)}));
    return null;
  }
  if (pend) return decision(v, ctx, me, pend);
  if (v.phase === 'action') return actionStep(v, ctx, me);
  return moveStep(v, ctx, me);
}

function endNote(v, ctx) {
  return h('p', {class: 'prompt', id: 'ev-over'}, v.winner >= 0 ? t('evades.escaped', {name: ctx.who(v.winner)}) : t('evades.noEscape'));
}

// The single-key shortcuts of the turn's buttons (see onKey), and the key
// hints they show: screen readers skip a hint (they are told by
// aria-keyshortcuts), and the page drops both when shortcuts are off.
const BUTTON_KEYS = {'ev-take-face': ['T', '1–5, T'], 'ev-take-blind': ['B', 'B'], 'ev-draw-pp': ['P', 'P'], 'ev-end-turn': ['E', 'E']};

function button(id, text, action, ctx, extra = {}) {
  const [key, hint] = BUTTON_KEYS[id] || [];
  return h('button', {type: 'button', id, class: extra.cls || '', 'data-key': id, 'data-act': action ? action.type : null,
    'aria-keyshortcuts': key || null, disabled: !action || ctx.busy, onclick: () => action && ctx.play(action)},
  text, hint ? [' ', h('kbd', {'aria-hidden': 'true'}, hint)] : null);
}

// Step 1: a draw (a full hand then discards, as a decision of its own) or
// a Pass-Pass card.
function actionStep(v, ctx, me) {
  const ui = ctx.ui;
  const slots = [...ui.slots].sort((a, b) => a - b);
  const face = slots.length === 2 ? pick(ctx, {type: 'take_face_up', slots}) : null;
  const blind = pick(ctx, {type: 'take_blind'});
  const pp = pick(ctx, {type: 'draw_pass_pass'});
  return h('div', {class: 'prompt', id: 'ev-controls'},
    h('p', {}, t('evades.step1')),
    h('div', {class: 'choice-bar'},
      button('ev-take-face', slots.length === 2 ? t('evades.takeFace', {cards: cardsText(slots.map((i) => v.row[i]))}) : t('evades.pickTwo'), face, ctx, {cls: 'primary'}),
      button('ev-take-blind', t('evades.takeBlind'), blind, ctx),
      button('ev-draw-pp', t('evades.drawPP'), pp, ctx)));
}

function moveStep(v, ctx, me) {
  const ui = ctx.ui;
  const objects = choices(ctx, 'take_object');
  const end = pick(ctx, {type: 'end_turn'});
  const pays = ui.payDoor ? choices(ctx, 'cross_door').filter((a) => a.door === ui.payDoor) : [];
  const d = ui.payDoor ? doorAt[ui.payDoor] : null;
  const to = d ? (d.a === me.area ? d.b : d.a) : null;
  return h('div', {class: 'prompt', id: 'ev-controls'},
    h('p', {}, t(ctx.shortcuts ? 'evades.step2' : 'evades.step2Plain')),
    ui.payDoor ? h('div', {class: 'pay-menu', id: 'ev-pay', role: 'group', 'aria-label': t('evades.crossTo', {area: theArea(to)})},
      h('span', {}, t('evades.crossTo', {area: theArea(to)})),
      pays.length ? pays.map((a, i) => h('button', {type: 'button', 'data-key': 'pay-' + i, 'data-act': 'cross_door', disabled: ctx.busy, onclick: () => { ui.payDoor = null; ctx.play(a); }}, payText(a)))
        : h('span', {class: 'muted'}, t('evades.cannotPay')),
      h('button', {type: 'button', onclick: () => { ui.payDoor = null; ctx.redraw(); }}, t('word.cancel'))) : null,
    h('div', {class: 'choice-bar'},
      objects.map((a, i) => h('button', {type: 'button', id: 'ev-take-object-' + i, 'data-key': 'obj-' + a.token, 'data-act': 'take_object', disabled: ctx.busy, onclick: () => ctx.play(a)}, t('evades.takeObject', {object: theObj(a.token)}))),
      button('ev-end-turn', t('evades.endTurn'), end, ctx)));
}

function decision(v, ctx, me, pend) {
  const ui = ctx.ui;
  const kind = pend.decision;
  // A discard before a draw (a full hand) says so.
  const key = kind === 'discard' && pend.draw ? 'evades.pending.discard_draw' : 'evades.pending.' + kind;
  const params = {card: pend.card ? ppName(pend.card) : '', count: pend.count, name: pend.target != null ? ctx.name(pend.target) : ''};
  const head = h('p', {}, kind === 'give_cards' || kind === 'discard' ? tn(key, pend.count, params) : t(key, params));
  let body = null;
  switch (kind) {
    case 'choose_vent':
      body = choices(ctx, 'choose_vent').map((a, i) => h('button', {type: 'button', 'data-key': 'vent-' + a.area, 'data-act': 'choose_vent', disabled: ctx.busy, onclick: () => ctx.play(a)},
        a.area === 'none' ? t('evades.noVent') : areaName(a.area)));
      break;
    case 'choose_codetainee':
      body = choices(ctx, 'choose_codetainee').map((a) => h('button', {type: 'button', 'data-key': 'codet-' + a.source + (a.slot ?? ''), 'data-act': 'choose_codetainee', disabled: ctx.busy, onclick: () => ctx.play(a)},
        a.source === 'face_up' ? t('evades.codetFace', {card: card(v.row[a.slot]), slot: a.slot + 1}) : t('evades.codet.' + a.source)));
      break;
    case 'choose_target':
      body = choices(ctx, 'choose_target').map((a) => h('button', {type: 'button', 'data-key': 'target-' + a.seat, 'data-act': 'choose_target', disabled: ctx.busy, onclick: () => ctx.play(a)},
        seatMark(a.seat), ' ', ctx.name(a.seat)));
      break;
    case 'choose_doors': {
      const chosen = [...ui.doors].sort();
      const a = pick(ctx, {type: 'choose_doors', doors: chosen});
      body = [h('span', {}, chosen.length ? list(chosen.map(doorName)) : t('evades.noDoorChosen')),
        button('ev-flip', chosen.length ? t('evades.flip') : t('evades.flipNone'), a, ctx, {cls: 'primary'})];
      break;
    }
    case 'give_cards':
    case 'discard':
    case 'answer_blackmail': {
      const cards = sorted(selList(ui.sel));
      const a = kind === 'answer_blackmail' ? pick(ctx, {type: kind, give: cards}) : pick(ctx, {type: kind, cards});
      body = [h('span', {}, t('evades.chosen', {cards: cardsText(cards) || '—'})),
        button('ev-give', t('evades.confirm.' + kind), cards.length ? a : null, ctx, {cls: 'primary'}),
        kind === 'answer_blackmail' ? button('ev-skip', t('evades.blackmailSkip'), pick(ctx, {type: kind, skip: true}), ctx) : null];
      break;
    }
    default:
      return h('p', {class: 'prompt'}, t('evades.useList'));
  }
  return h('div', {class: 'prompt', id: 'ev-controls', 'data-decision': kind}, head, h('div', {class: 'choice-bar'}, body));
}

// selecting says whether hand cards are picked now, and how many at most.
function selecting(v, ctx) {
  if (!ctx.myTurn || ctx.readonly) return 0;
  const p = v.pending;
  if (p && p.seat === v.seat) {
    if (p.decision === 'give_cards' || p.decision === 'discard') return p.count;
    if (p.decision === 'answer_blackmail') return 2;
    return 0;
  }
  return 0;
}

function handPanel(v, ctx, me) {
  const ui = ctx.ui;
  const max = selecting(v, ctx);
  const counts = {};
  for (const c of me.hand || []) counts[c] = (counts[c] || 0) + 1;
  const total = selList(ui.sel).length;
  const cards = CARDS.filter((c) => counts[c]).map((c) => {
    const picked = ui.sel[c] || 0;
    return tip(h('button', {type: 'button', class: 'card-btn', 'data-card': c, 'data-key': 'hand-' + c, 'aria-disabled': max ? null : 'true',
      'aria-pressed': max ? String(picked > 0) : null,
      onclick: () => {
        if (!max) return;
        if (picked < counts[c] && total < max) ui.sel[c] = picked + 1;
        else delete ui.sel[c];
        ctx.redraw();
      }},
    cardFace(c), h('span', {class: 'count'}, counts[c] + ' ×'), ' ', h('span', {}, card(c)), ' ', h('span', {class: 'lvl'}, c === 'joker' ? t('evades.jokerNote') : t('evades.level', {n: LEVEL[c]})),
    picked ? h('span', {class: 'tag'}, tn('evades.picked', picked)) : null), cardTip(c) + (max ? '' : ' ' + t('tip.evades.handIdle')));
  });
  return h('section', {class: 'hand-panel', 'aria-labelledby': 'ev-hand-h'},
    h('h3', {id: 'ev-hand-h'}, tn('evades.yourHand', (me.hand || []).length)),
    max ? h('p', {class: 'help'}, tn('evades.pickCards', max)) : null,
    cards.length ? h('div', {class: 'cards', id: 'ev-hand'}, cards) : h('p', {class: 'muted'}, t('evades.noCards')),
    me.plan ? planCard(me.plan, me, v, true) : null);
}

function cardTip(c) {
  return c === 'joker' ? t('tip.evades.joker') : t('tip.evades.card', {card: card(c), n: LEVEL[c]});
}

function planCard(plan, st, v, mine) {
  const p = PLANS[plan];
  const objs = p.objects.map((o) => t('evades.obj.' + o));
  return tip(h('div', {class: 'plan', id: mine ? 'ev-plan' : null, tabindex: '0', 'data-key': 'plan-' + plan},
    h('strong', {}, mine ? t('evades.yourPlan') : t('evades.planOf'), ' ', t('evades.plan.' + plan)), h('br'),
    t('evades.planExit', {exit: areaName(p.exit)}), h('br'),
    v.objects_required > 1 ? t('evades.planBoth', {a: objs[0], b: objs[1]}) : t('evades.planEither', {a: objs[0], b: objs[1]})), t('tip.evades.plan'));
}

// focusNext: where the keyboard goes when its control is gone.
export function focusNext(root) {
  return root.querySelector('#ev-controls button:not([disabled]), #ev-hand .card-btn, #ev-map [tabindex="0"]');
}

function rowPanel(v, ctx) {
  const ui = ctx.ui;
  const canPick = ctx.myTurn && !ctx.readonly && !v.pending && v.phase === 'action' && (!offered(ctx) || ctx.find((a) => a.type === 'take_face_up').length > 0);
  return h('section', {'aria-labelledby': 'ev-row-h'},
    h('h3', {id: 'ev-row-h'}, t('evades.row')),
    h('div', {class: 'cards', id: 'ev-row'}, v.row.map((c, i) => {
      const on = ui.slots.includes(i);
      return tip(h('button', {type: 'button', class: 'card-btn', 'data-slot': i, 'data-card': c, 'data-key': 'slot-' + i, disabled: !canPick,
        'aria-pressed': canPick ? String(on) : null,
        onclick: () => { ui.slots = on ? ui.slots.filter((x) => x !== i) : [...ui.slots, i].slice(-2); ctx.redraw(); }},
      c === 'none' ? null : cardFace(c), h('span', {}, c === 'none' ? '—' : card(c)), ' ', h('span', {class: 'lvl'}, c === 'none' ? '' : c === 'joker' ? t('evades.jokerNote') : t('evades.level', {n: LEVEL[c]}))),
      c === 'none' ? t('tip.evades.emptySlot') : cardTip(c) + ' ' + (canPick ? t('tip.evades.rowPick') : t('tip.evades.rowIdle')));
    })),
    canPick ? h('p', {class: 'help'}, t('evades.rowHelp')) : null);
}

function seatsPanel(v, ctx) {
  return h('section', {'aria-labelledby': 'ev-seats-h'},
    h('h3', {id: 'ev-seats-h'}, t('evades.prisoners')),
    v.seats.map((st) => h('div', {class: 'seat-box' + (st.seat === v.active && v.phase !== 'over' ? ' acting' : ''), 'data-seat': st.seat},
      seatMark(st.seat), ' ', h('strong', {}, ctx.name(st.seat)),
      ' — ', areaName(st.area), h('br'),
      h('small', {}, tn('evades.cards', st.hand_size),
        st.carried && st.carried.length ? ' · ' + t('evades.carries', {objects: list(st.carried.map(theObj))}) : '',
        st.skip ? ' · ' + tn('evades.skips', st.skip) : '', st.extra ? ' · ' + tn('evades.extras', st.extra) : ''),
      st.plan && st.seat !== v.seat ? planCard(st.plan, st, v, false) : null,
      st.hand && st.seat !== v.seat ? h('small', {class: 'muted'}, h('br'), t('evades.handWas', {cards: cardsText(st.hand) || '—'})) : null)));
}

function pilesPanel(v, ctx) {
  const w = v.warning;
  return h('section', {'aria-labelledby': 'ev-piles-h'},
    h('h3', {id: 'ev-piles-h'}, t('evades.piles')),
    h('p', {}, tn('evades.drawPile', v.draw_pile), h('br'),
      t('evades.discard', {cards: v.discard.length ? cardsText(v.discard.slice(-6)) : '—', n: v.discard.length}), h('br'),
      tn('evades.ppPile', v.pass_pass_pile), v.pass_pass_discard.length ? ' · ' + t('evades.ppLast', {card: ppName(v.pass_pass_discard[v.pass_pass_discard.length - 1])}) : '', h('br'),
      tn('evades.warningPile', w.pile, {colour: w.colour}),
      w.orange_aside.length ? [h('br'), t('evades.aside', {colour: 'orange', tokens: w.orange_aside.map(tokenName).join(', ')})] : null,
      w.black_aside.length ? [h('br'), t('evades.aside', {colour: 'black', tokens: w.black_aside.map(tokenName).join(', ')})] : null),
    v.revealed ? h('p', {class: 'muted'}, t('evades.revealedAside', {plans: v.revealed.aside.map((p) => t('evades.plan.' + p)).join(', ') || '—'})) : null);
}

// ---- words ----

export function describe(ev, ctx) {
  const n = (p) => ctx.who(p);
  switch (ev.type) {
    case 'turn_began': return t('evades.ev.turn_began', {seat: n(ev.seat), turn: ev.turn});
    case 'turn_skipped': return t('evades.ev.turn_skipped', {seat: n(ev.seat)});
    case 'turn_ended': return false;
    case 'direction_changed': return t(ev.direction > 0 ? 'evades.ev.dir_cw' : 'evades.ev.dir_ccw');
    case 'cards_discarded': return t('evades.ev.cards_discarded', {seat: n(ev.seat), cards: cardsText(ev.cards)});
    case 'took_face_up': return t('evades.ev.took_face_up', {seat: n(ev.seat), cards: cardsText(ev.cards)});
    case 'drew_blind': return ev.cards ? t('evades.ev.drew_blind_you', {cards: cardsText(ev.cards)}) : tn('evades.ev.drew_blind', ev.count, {seat: n(ev.seat)});
    case 'row_refilled': return false;
    case 'row_wiped': return t('evades.ev.row_wiped', {cards: cardsText(ev.cards)});
    case 'combines_reshuffled': return t('evades.ev.combines_reshuffled');
    case 'pass_pass_reshuffled': return t('evades.ev.pass_pass_reshuffled');
    case 'pass_pass_drawn': return t('evades.ppDrawn', {name: n(ev.seat), card: ppName(ev.card)}) + ' ' + t('evades.ppEffect.' + ev.card);
    case 'pass_pass_no_effect': return t('evades.ev.pass_pass_no_effect', {card: ppName(ev.card)});
    case 'target_chosen': return t('evades.ev.target_chosen', {seat: n(ev.seat), target: n(ev.target), card: ppName(ev.card)});
    case 'door_crossed': return t('evades.ev.door_crossed', {seat: n(ev.seat), from: theArea(ev.from), to: theArea(ev.to), pay: ev.credit ? t('evades.usedCredit.' + ev.credit) : cardsText(ev.pay), face: card(ev.face)});
    case 'warning_pile_changed': return t('evades.ev.warning_pile_changed', {colour: ev.colour});
    case 'warning_drawn': return t('evades.warningDrawn', {name: n(ev.seat), token: tokenName(ev.token), colour: ev.colour}) + ' ' + t('evades.tokEffect.' + ev.token);
    case 'pawn_moved': return t('evades.ev.pawn_moved', {seat: n(ev.seat), from: theArea(ev.from), to: theArea(ev.to), cause: t('evades.cause.' + ev.cause)});
    case 'door_flipped': return t('evades.ev.door_flipped', {door: doorName(ev.door), face: card(ev.face), cause: t('evades.cause.' + ev.cause)});
    case 'credit_gained': return t('evades.ev.credit_gained.' + ev.credit, {seat: n(ev.seat)});
    case 'reverse_at_end': return t(ev.reverse ? 'evades.ev.reverse_on' : 'evades.ev.reverse_off');
    case 'skip_owed': return t('evades.ev.skip_owed', {seat: n(ev.seat), cause: t('evades.cause.' + ev.cause)});
    case 'extra_turn_owed': return t('evades.ev.extra_turn_owed', {seat: n(ev.seat)});
    case 'cards_moved': return ev.cards ? tn('evades.ev.cards_moved_seen', ev.cards.length, {from: n(ev.from), to: n(ev.to), cards: cardsText(ev.cards)}) : tn('evades.ev.cards_moved', ev.count, {from: n(ev.from), to: n(ev.to)});
    case 'object_taken': return t('evades.ev.object_taken', {seat: n(ev.seat), object: theObj(ev.token), room: theArea(ev.room)});
    case 'game_ended': return ev.winner >= 0 ? t('evades.ev.escaped', {seat: n(ev.winner), exit: theArea(ev.exit)}) : t('evades.ev.turn_limit');
  }
  return null;
}

// heard: the echo of the player's own move is no news to them ("Your turn"
// says their turn began; what they drew blind, and what others do, is).
export function heard(ev, ctx) {
  if (ctx.seat < 0) return true;
  switch (ev.type) {
    case 'turn_began': case 'took_face_up': case 'door_crossed': case 'object_taken': case 'cards_discarded': case 'target_chosen':
      return ev.seat !== ctx.seat;
  }
  return true;
}

export function label(a, ctx) {
  switch (a.type) {
    case 'take_face_up': return t('evades.takeFace', {cards: t('evades.slots', {a: a.slots[0] + 1, b: a.slots[1] + 1})});
    case 'take_blind': return t('evades.takeBlind');
    case 'draw_pass_pass': return t('evades.drawPP');
    case 'cross_door': {
      const d = doorAt[a.door];
      return t('evades.crossLabel', {door: doorName(a.door), a: areaName(d ? d.a : ''), b: areaName(d ? d.b : ''), pay: payText(a)});
    }
    case 'take_object': return t('evades.takeObject', {object: theObj(a.token)});
    case 'end_turn': return t('evades.endTurn');
    case 'choose_vent': return a.area === 'none' ? t('evades.noVent') : t('evades.ventTo', {area: theArea(a.area)});
    case 'choose_codetainee': return a.source === 'face_up' ? t('evades.codetSlot', {slot: a.slot + 1}) : t('evades.codet.' + a.source);
    case 'choose_target': return t('evades.targetLabel', {name: ctx.name(a.seat)});
    case 'choose_doors': return a.doors && a.doors.length ? t('evades.flipDoors', {doors: list(a.doors.map(doorName))}) : t('evades.flipNone');
    case 'give_cards': return t('evades.confirm.give_cards') + colon() + cardsText(a.cards);
    case 'discard': return t('evades.confirm.discard') + colon() + cardsText(a.cards);
    case 'answer_blackmail': return a.skip ? t('evades.blackmailSkip') : t('evades.confirm.answer_blackmail') + colon() + cardsText(a.give);
  }
  return null;
}

export function status(ctx) {
  const v = ctx.view;
  if (!v || v.phase === 'over') return null;
  if (v.pending && v.pending.seat === ctx.seat) return t('evades.status.decide');
  if (ctx.myTurn) return v.phase === 'action' ? t('evades.status.step1') : t('evades.status.step2');
  return null;
}

export function onKey(e, ctx) {
  const v = ctx.view;
  if (!v || !ctx.myTurn || ctx.busy || v.pending) return false;
  const click = (sel) => { const b = document.querySelector(sel); if (b && !b.disabled) { b.click(); return true; } return false; };
  const k = e.key.toLowerCase();
  if (v.phase === 'action') {
    if (/^[1-5]$/.test(k)) return click('#ev-row [data-slot="' + (+k - 1) + '"]');
    if (k === 't') return click('#ev-take-face');
    if (k === 'b') return click('#ev-take-blind');
    if (k === 'p') return click('#ev-draw-pp');
  } else if (k === 'e') {
    return click('#ev-end-turn');
  } else if (k === 'd') {
    const first = document.querySelector('#ev-map .door.can-cross');
    if (first) { first.focus(); return true; }
  }
  return false;
}
