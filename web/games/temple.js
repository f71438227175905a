// Escape: The Curse of the Temple, in real time: the chamber map growing as
// rooms are discovered, each adventurer's dice (roll, keep, locked black
// masks, gold masks to give), the gem fields' shared pools, the gems left
// and the cost of the escape, the big countdown with a gong and a door slam
// made with the Web Audio API, curses and treasures.

import {h, s, fmtClock} from '/js/ui.js';
import {t, tn, list, num, people, colon} from '/js/i18n.js';
import {tip, attachTips} from '/js/tips.js';
import {roving, centreInPan} from '/js/focus.js';
import {announce} from '/js/announce.js';
import {icon, symbol, seatMark} from '/pieces/common.js';
import {dieSVG, dieTip, chamberTile, chamberMarks} from '/pieces/temple.js';

const ROLLABLE = new Set(['live', 'spent']);
const SIDES = ['N', 'E', 'S', 'W'];
const CELL = 120;

const face = (f) => t('temple.face.' + f);
// A chamber's number is its tile's, without the zero that pads it
// ("basic_04" is Chamber 4).
const chamberNo = (id) => (/_\d+$/.test(id) ? +id.match(/_(\d+)$/)[1] : null);
const chamberName = (id) => {
  if (!id) return '';
  const kind = id.replace(/_\d+$/, '').replace(/^gem_.*/, 'gem');
  return t('temple.kind.' + kind) + (chamberNo(id) != null ? ' ' + chamberNo(id) : '');
};
// theChamber names a chamber in a sentence, with its article ("la salle 4",
// "the exit"); a gem chamber says which gems.
const theChamber = (id) => (id ? t('temple.the.' + id.replace(/_\d+$/, ''), {n: chamberNo(id)}) : '');
const curseName = (c) => t('temple.curse.' + c.replace(/_\d+$/, ''));
const treasureName = (c) => t('temple.treasure.' + c.replace(/_\d+$/, ''));

// ---- sound ----

let audio = null;
let muted = false;
try { muted = localStorage.getItem('sortie.mute') === 'true'; } catch { muted = false; }

function ear() {
  if (muted) return null;
  if (!audio) {
    const C = window.AudioContext || window.webkitAudioContext;
    if (!C) return null;
    audio = new C();
  }
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  return audio;
}

// Browsers let a page make sound only after the player touched it.
addEventListener('pointerdown', () => ear(), {once: true});
addEventListener('keydown', () => ear(), {once: true});

// gong: a low bell, a few inharmonic partials dying slowly.
export function gong() {
  const a = ear();
  if (!a) return;
  const now = a.currentTime;
  for (const [f, g, d] of [[98, 0.5, 4], [196 * 1.01, 0.25, 3], [293, 0.15, 2.2], [415, 0.08, 1.5]]) {
    const o = a.createOscillator(), v = a.createGain();
    o.type = 'sine';
    o.frequency.value = f;
    v.gain.setValueAtTime(0.0001, now);
    v.gain.exponentialRampToValueAtTime(g, now + 0.02);
    v.gain.exponentialRampToValueAtTime(0.0001, now + d);
    o.connect(v).connect(a.destination);
    o.start(now);
    o.stop(now + d + 0.1);
  }
}

// slam: a burst of noise through a low filter, and a thud.
export function slam() {
  const a = ear();
  if (!a) return;
  const now = a.currentTime;
  const len = Math.floor(a.sampleRate * 0.6);
  const buf = a.createBuffer(1, len, a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 3);
  const src = a.createBufferSource();
  src.buffer = buf;
  const lp = a.createBiquadFilter();
  lp.type = 'lowpass';
  lp.frequency.value = 400;
  const v = a.createGain();
  v.gain.value = 0.9;
  src.connect(lp).connect(v).connect(a.destination);
  src.start(now);
  const o = a.createOscillator(), g = a.createGain();
  o.frequency.setValueAtTime(90, now);
  o.frequency.exponentialRampToValueAtTime(35, now + 0.4);
  g.gain.setValueAtTime(0.8, now);
  g.gain.exponentialRampToValueAtTime(0.0001, now + 0.5);
  o.connect(g).connect(a.destination);
  o.start(now);
  o.stop(now + 0.6);
}

// ---- rendering ----

// saysUrgently is the events the board reads out itself, urgently, as they
// happen: the match's log adds them without reading them again.
export const saysUrgently = new Set(['gong', 'door_slam', 'sand_out', 'collapse']);

export function render(root, ctx) {
  const v = ctx.view;
  if (!v) return;
  const ui = ctx.ui;
  ui.sel = ui.sel || new Set();
  const me = v.you != null ? v.seats.find((x) => x.seat === v.you) : null;
  for (const ev of ctx.events || []) {
    if (ctx.readonly) break;
    let flash = null;
    if (ev.type === 'gong') { gong(); flash = {text: t('temple.gongNow', {n: ev.n}), kind: 'gong'}; }
    if (ev.type === 'door_slam' || ev.type === 'sand_out') { slam(); flash = {text: t('temple.slamNow'), kind: 'slam'}; }
    if (ev.type === 'collapse') { slam(); flash = {text: t('temple.collapseNow'), kind: 'slam'}; }
    if (flash) {
      // Said once, urgently, in the log's words (which name the dice lost);
      // the banner drawn on the next redraws is silent.
      ui.flash = {...flash, at: performance.now()};
      announce(describe(ev, ctx) || flash.text, true);
    }
    // The player's own roll: the new faces, briefly (the log does not say
    // rolls: there are too many). A newer roll replaces one not said yet.
    if (ev.type === 'rolled' && me && ev.seat === me.seat && (ev.dice || []).length) {
      announce(t('temple.say.rolled', {faces: list(ev.dice.map((d) => face(d.face)))}), {key: 'tp-roll'});
    }
    // Another's gold mask that frees the player's dice says so (the log's
    // sentence names no owner).
    const freed = ev.type === 'unlocked' && me && ev.seat !== me.seat ? (ev.targets || []).filter((id) => (v.dice.find((d) => d.id === id) || {}).owner === me.seat).length : 0;
    if (freed) announce(tn('temple.say.freed', freed, {name: ctx.name(ev.seat)}));
  }
  const board = h('div', {class: 'tp'},
    countdown(v, ctx),
    ui.flash && performance.now() - ui.flash.at < 6000 ? h('p', {class: 'happening ' + ui.flash.kind}, icon('bell'), ' ', ui.flash.text) : null,
    h('div', {class: 'strip'},
      tip(h('span', {class: 'stat', id: 'tp-gems', tabindex: '0'}, tn('temple.gemsLeft', v.reserve), v.side ? ' + ' + tn('temple.sideSupply', v.side) : ''), t('tip.temple.reserve')),
      tip(h('span', {class: 'stat', id: 'tp-cost', tabindex: '0'}, icon('key'), ' ', tn('temple.escapeCost', v.escape_cost)), t('tip.temple.escapeCost')),
      h('span', {class: 'stat'}, tn('temple.stackLeft', v.stack_left)),
      v.breach_mode ? h('span', {class: 'stat'}, t('temple.breach')) : null,
      h('button', {type: 'button', id: 'tp-mute', 'data-key': 'mute', 'aria-pressed': String(!muted), onclick: () => {
        muted = !muted;
        try { localStorage.setItem('sortie.mute', String(muted)); } catch { /* ignore */ }
        ctx.redraw();
      }}, icon(muted ? 'mute' : 'sound'), ' ', t('temple.sound'))),
    me && !ctx.readonly ? tray(v, ctx, me) : null,
    h('div', {class: 'pan', id: 'tp-pan'}, map(v, ctx, me)),
    seats(v, ctx),
    v.over ? h('p', {class: 'prompt', id: 'tp-over'}, v.won ? t('temple.won') : t('temple.lost.' + (v.reason || 'collapse'))) : null);
  root.append(board);
  roving(board.querySelector('#tp-map'), '.tp-chamber, .tp-discover', '.can');
  attachTips(board);
  centreOnMe(board, ui);
}

// centreOnMe scrolls a map wider than the screen (a phone) to the
// player's chamber when it changes.
function centreOnMe(board, ui) {
  const here = board.querySelector('.tp-chamber.here');
  if (!here || ui.centred === here.dataset.chamber) return;
  centreInPan(board.querySelector('#tp-pan'), here, () => { ui.centred = here.dataset.chamber; });
}

// liveClock is the match clock now, interpolated between updates; a
// replayed step is drawn at its own time, the view's.
function liveClock(v, ctx) {
  if (ctx.readonly) return v.now;
  return Math.max(v.now, ctx.clock || v.now);
}

function countdown(v, ctx) {
  const c = v.clock || {};
  const now = liveClock(v, ctx);
  const left = Math.max(0, (c.end || 0) - now);
  const slam = c.next_slam ? Math.max(0, c.next_slam - now) : null;
  const urgent = c.countdown > 0;
  return h('div', {class: 'tp-countdown' + (urgent ? ' urgent' : ''), id: 'tp-countdown', role: 'timer', 'aria-live': 'off'},
    icon('hourglass', {cls: 'big-icon'}),
    h('div', {class: 'big', id: 'tp-time-left', 'data-end': c.end || 0}, fmtClock(left)),
    h('div', {}, t('temple.collapseIn'),
      slam != null ? [h('br'), h('span', {id: 'tp-slam', 'data-at': c.next_slam}, urgent ? t('temple.slamIn', {time: fmtClock(slam)}) : t('temple.nextSlam', {time: fmtClock(slam)}))] : null,
      c.timer === 'sand' ? [h('br'), t('temple.sandRun', {n: c.sand_run || 1})] : null));
}

// coolingDown says whether this seat's roll cooldown still runs: the page
// then sends no roll (the server would refuse it).
function coolingDown(v, ctx, me) {
  return !!me && liveClock(v, ctx) < (me.next_roll_at || 0);
}

// tick keeps the countdown and the roll cooldown moving between updates.
export function tick(root, ctx) {
  const v = ctx.view;
  if (!v || !v.clock) return;
  const now = liveClock(v, ctx);
  const el = root.querySelector('#tp-time-left');
  if (el) el.textContent = fmtClock(Math.max(0, +el.dataset.end - now));
  const sl = root.querySelector('#tp-slam');
  if (sl) {
    const left = Math.max(0, +sl.dataset.at - now);
    sl.textContent = v.clock.countdown > 0 ? t('temple.slamIn', {time: fmtClock(left)}) : t('temple.nextSlam', {time: fmtClock(left)});
  }
  const cd = root.querySelector('#tp-cooldown');
  if (cd) {
    const left = Math.max(0, +cd.dataset.at - now);
    const text = left > 0 ? t('temple.cooldown', {s: num(left / 1000)}) : t('temple.ready');
    if (cd.textContent !== text) cd.textContent = text;
    const roll = root.querySelector('#tp-roll');
    if (roll && roll.dataset.can === 'true') {
      const wait = left > 0 ? 'true' : null;
      if (roll.getAttribute('aria-disabled') !== wait) {
        if (wait) roll.setAttribute('aria-disabled', wait); else roll.removeAttribute('aria-disabled');
      }
    }
  }
}

function myDice(v, me) {
  return v.dice.filter((d) => d.owner === me.seat);
}

function tray(v, ctx, me) {
  const ui = ctx.ui;
  const dice = myDice(v, me);
  for (const id of [...ui.sel]) {
    const d = dice.find((x) => x.id === id);
    if (!d || !ROLLABLE.has(d.status)) ui.sel.delete(id);
  }
  const rollable = dice.filter((d) => ROLLABLE.has(d.status));
  const chosen = ui.sel.size ? [...ui.sel].sort((a, b) => a - b) : rollable.map((d) => d.id);
  const canAct = ctx.myTurn && !me.escaped;
  const can = canAct && chosen.length > 0 && !ctx.busy;
  const cooling = coolingDown(v, ctx, me);
  const others = ctx.legal.filter((a) => a.type !== 'roll' && a.type !== 'enter' && a.type !== 'discover' && a.type !== 'signal');
  const locked = dice.filter((d) => d.status === 'locked').length;
  return h('section', {class: 'tp-tray', 'aria-labelledby': 'tp-tray-h'},
    h('h3', {id: 'tp-tray-h'}, t('temple.yourDice'), ' ', h('small', {id: 'tp-cooldown', class: 'muted', 'data-at': me.next_roll_at || 0}, '')),
    h('div', {class: 'dice', id: 'tp-dice'}, dice.map((d, i) => {
      const free = ROLLABLE.has(d.status);
      const picked = ui.sel.has(d.id);
      return tip(h('button', {type: 'button', class: 'die st-' + d.status + ' f-' + d.face, 'data-die': d.id, 'data-key': 'die-' + d.id,
        'aria-pressed': free ? String(picked) : null, 'aria-disabled': free && canAct ? null : 'true', 'aria-keyshortcuts': i < 7 ? String(i + 1) : null,
        onclick: () => { if (!free || !canAct) return; if (picked) ui.sel.delete(d.id); else ui.sel.add(d.id); ctx.redraw(); }},
      dieSVG(d.face, d.status),
      h('span', {class: 'die-t'}, h('span', {class: 'visually-hidden'}, t('temple.dieN', {n: i + 1}) + colon()), t('temple.face.' + d.face), h('br'), h('small', {}, t('temple.status.' + d.status)))),
      dieTip(d.face, d.status) + (free && canAct ? ' ' + t('tip.temple.pick') : ''));
    })),
    // Roll and the other actions: where the keyboard goes after each move
    // (data-decide), wherever on the board it was made.
    h('div', {class: 'choice-bar', 'data-decide': '', role: 'group', 'aria-label': t('match.nextMove')},
      tip(h('button', {type: 'button', class: 'primary', id: 'tp-roll', 'data-act': 'roll', 'data-key': 'roll', 'data-can': String(can), 'aria-keyshortcuts': 'R',
        'aria-disabled': can && !cooling ? null : 'true',
        onclick: (e) => {
          // (The cooldown as tick keeps it now: this drawing's clock may be
          // seconds old when nothing else has happened since, alone in the
          // temple.)
          if (!can || e.currentTarget.getAttribute('aria-disabled') === 'true') return;
          ui.sel.clear();
          ctx.play({type: 'roll', dice: chosen});
        }},
      icon('spin'), ' ', ui.sel.size ? tn('temple.rollSome', ui.sel.size) : t('temple.rollAll'), ' ', h('kbd', {'aria-hidden': 'true'}, 'R')),
      locked && !rollable.length ? t('tip.temple.allLocked') : t('tip.temple.roll')),
      others.slice(0, 12).map((a) => h('button', {type: 'button', 'data-act': a.type, 'data-key': 'act-' + JSON.stringify(a), disabled: ctx.busy, onclick: () => ctx.play(a)}, label(a, ctx)))),
    locked ? h('p', {class: 'help', id: 'tp-locked-help'}, icon('lock'), ' ', rollable.length ? tn('temple.lockedHelp', locked) : t('tip.temple.allLocked')) : null,
    me.curses && me.curses.length ? h('p', {}, t('temple.curses', {list: list(me.curses.map(curseName))})) : null,
    me.treasures && me.treasures.length ? h('p', {}, t('temple.treasures', {list: list(me.treasures.map(treasureName))})) : null,
    h('p', {class: 'help'}, t('temple.help')));
}

// focusNext: after an action the keyboard goes back to Roll.
export function focusNext(root) {
  return root.querySelector('#tp-roll, #tp-map [tabindex="0"]');
}

function map(v, ctx, me) {
  const xs = v.chambers.map((c) => c.x), ys = v.chambers.map((c) => c.y);
  const minX = Math.min(...xs) - 1, maxX = Math.max(...xs) + 1, minY = Math.min(...ys) - 1, maxY = Math.max(...ys) + 1;
  const pos = (c) => [(c.x - minX) * CELL, (c.y - minY) * CELL];
  const mine = ctx.myTurn && !ctx.readonly;
  const enters = {};
  const discovers = {};
  if (mine) {
    for (const a of ctx.legal) {
      if (a.type === 'enter') enters[a.to] = enters[a.to] || a;
      if (a.type === 'discover') discovers[a.side] = discovers[a.side] || a;
    }
  }
  const here = me && me.chamber >= 0 ? v.chambers[me.chamber] : null;
  const g = [];
  v.chambers.forEach((c, i) => {
    for (const j of c.links || []) {
      if (j < i) continue;
      const [x1, y1] = pos(c), [x2, y2] = pos(v.chambers[j]);
      g.push(s('line', {class: 'tp-link', x1: x1 + CELL / 2, y1: y1 + CELL / 2, x2: x2 + CELL / 2, y2: y2 + CELL / 2}));
    }
  });
  v.chambers.forEach((c, i) => {
    const [x, y] = pos(c);
    const a = enters[c.id];
    const who = v.seats.filter((st) => st.chamber === i);
    const labelText = chamberLabel(c, v, ctx);
    const go = () => a && ctx.play(a);
    const kind = c.kind === 'gem' || /^gem_/.test(c.id) ? 'gem' : c.kind;
    g.push(tip(s('g', {class: 'tp-chamber k-' + c.kind + (a ? ' can' : '') + (here === c ? ' here' : ''), 'data-chamber': c.id, 'data-key': 'ch-' + c.id,
      role: a ? 'button' : 'img', 'aria-label': labelText + (a ? '. ' + t('temple.clickEnter') : ''), transform: `translate(${x} ${y})`,
      onclick: a ? go : null, onkeydown: keyStop, onkeyup: a ? (e) => { if (e.key === 'Enter' || e.key === ' ') go(); } : null},
    chamberTile(c, {kind, name: chamberName(c.id), marks: false})),
    chamberTip(c, a, here, v, ctx)));
    g.push(s('g', {transform: `translate(${x} ${y})`, 'aria-hidden': 'true'}, chamberMarks(c, {pawns: who.map((st) => st.seat)})));
  });
  if (here) {
    const [x, y] = pos(here);
    for (const [sd, a] of Object.entries(discovers)) {
      const k = SIDES.indexOf(sd);
      const [dx, dy] = [[0, -1], [1, 0], [0, 1], [-1, 0]][k];
      const cx = x + CELL / 2 + dx * CELL, cy = y + CELL / 2 + dy * CELL;
      const text = t('temple.discover', {side: t('temple.toSide.' + sd)});
      g.push(tip(s('g', {class: 'tp-discover can', 'data-side': sd, 'data-key': 'disc-' + sd, role: 'button', 'aria-label': text,
        onclick: () => ctx.play(a), onkeydown: keyStop, onkeyup: (e) => { if (e.key === 'Enter' || e.key === ' ') ctx.play(a); }},
      s('rect', {x: cx - CELL / 2 + 14, y: cy - CELL / 2 + 14, width: CELL - 28, height: CELL - 28, rx: 10}),
      symbol('plus', cx, cy, 40, {cls: 'plus'})), t('tip.temple.discover')));
    }
  }
  const W = (maxX - minX + 1) * CELL, H = (maxY - minY + 1) * CELL;
  return s('svg', {class: 'tp-map', id: 'tp-map', viewBox: `0 0 ${W} ${H}`, role: 'group', 'aria-label': t('temple.map') + '. ' + t('a11y.arrowsMove'),
    style: `width:${Math.round(W * 1.1)}px`}, g);
}

function chamberTip(c, a, here, v, ctx) {
  const parts = [t('tip.temple.chamber.' + (/^gem_/.test(c.id) ? 'gem' : c.id === 'start' ? 'start' : c.id === 'exit' ? 'exit' : 'basic'))];
  if (c.cost && c.cost.length) parts.push(t('tip.temple.cost', {cost: list(c.cost.map(face))}));
  if (c.tiers) parts.push(t('tip.temple.field', {symbol: face(c.symbol), tiers: c.tiers.map((x) => tn('tip.temple.tier', x.gems, {cost: x.cost})).join(', ')}));
  if (a) parts.push(t('tip.temple.canEnter'));
  else if (here !== c && ctx.myTurn && !ctx.readonly) parts.push(t('tip.temple.cannotEnter'));
  return parts.join(' ');
}

function keyStop(e) {
  if (e.key === 'Enter' || e.key === ' ') e.preventDefault();
}

function chamberLabel(c, v, ctx) {
  const parts = [chamberName(c.id), t('temple.costAria', {cost: (c.cost || []).map(face).join(', ')})];
  if (c.tiers) parts.push(t('temple.fieldAria', {symbol: face(c.symbol), value: c.pool_value || 0, tiers: c.tiers.map((x) => tn('tip.temple.tier', x.gems, {cost: x.cost})).join(', ')}));
  if (c.activated) parts.push(t('temple.activated'));
  const who = v.seats.filter((st) => st.chamber === v.chambers.indexOf(c));
  if (who.length) parts.push(list(who.map((st) => ctx.name(st.seat))));
  return parts.join('. ');
}

function seats(v, ctx) {
  return h('section', {'aria-labelledby': 'tp-seats-h'},
    h('h3', {id: 'tp-seats-h'}, t('temple.adventurers')),
    h('ul', {class: 'tp-seats'}, v.seats.map((st) => {
      const dice = v.dice.filter((d) => d.owner === st.seat && d.status !== 'lost' && d.status !== 'out');
      return h('li', {class: 'seat-box', 'data-seat': st.seat},
        seatMark(st.seat), ' ', h('strong', {}, ctx.name(st.seat)), ' — ',
        st.escaped ? t('temple.escaped') : chamberName(st.chamber_id), h('br'),
        h('span', {class: 'mini-dice'}, dice.map((d) => tip(h('span', {class: 'mini-die', tabindex: '0', role: 'img', 'aria-label': t('temple.face.' + d.face) + ', ' + t('temple.status.' + d.status)}, dieSVG(d.face, d.status)), dieTip(d.face, d.status)))),
        h('small', {}, ' ', tn('temple.dice', st.dice),
          dice.some((d) => d.status === 'locked') ? ' · ' + tn('temple.locked', dice.filter((d) => d.status === 'locked').length) : '',
          st.gifting ? ' · ' + t('temple.gifting') : ''));
    })));
}

// ---- words ----

export function label(a, ctx) {
  switch (a.type) {
    case 'roll': return rollLabel(a, ctx);
    case 'unlock': return unlockLabel(a, ctx);
    case 'enter': return t('temple.enter', {to: theChamber(a.to)});
    case 'discover': return t('temple.discover', {side: t('temple.toSide.' + a.side)});
    case 'commit': return tn('temple.commit', a.dice.length, {tier: a.tier || '—'});
    case 'retarget': return t('temple.retarget', {tier: a.tier});
    case 'withdraw': return tn('temple.withdraw', a.dice.length);
    case 'escape': return t('temple.escape');
    case 'give_die': return t('temple.giveDie', {name: ctx.name(a.to)});
    case 'provoke_fate': return t('temple.provokeFate', {chamber: theChamber(a.chamber)});
    case 'claim_treasure': return t('temple.claimTreasure');
    case 'use_treasure': return t('temple.useTreasure', {treasure: treasureName(a.treasure)});
    case 'lift_curse': return t('temple.liftCurse', {curse: curseName(a.card)});
    case 'signal': return t('temple.signal.' + a.kind);
  }
  return null;
}

// unlockLabel names the dice a gold mask frees by their places in their
// owners' trays (the numbers of the keys 1–7), so that two unlocks never
// read alike.
function unlockLabel(a, ctx) {
  const v = ctx.view;
  const dice = (a.targets || []).map((id) => {
    const d = v && v.dice.find((x) => x.id === id);
    if (!d) return t('temple.dieOf.you', {n: id});
    const n = v.dice.filter((x) => x.owner === d.owner).indexOf(d) + 1;
    return d.owner === v.you ? t('temple.dieOf.you', {n}) : t('temple.dieOf.other', {n, name: ctx.name(d.owner)});
  });
  return t('temple.unlock.dice', {dice: list(dice)});
}

// rollLabel names a roll by the dice it keeps, so that two rolls of as many
// dice never read alike.
function rollLabel(a, ctx) {
  const v = ctx.view;
  const me = v && v.you != null ? v.seats.find((x) => x.seat === v.you) : null;
  const kept = me ? myDice(v, me).filter((d) => ROLLABLE.has(d.status) && !a.dice.includes(d.id)) : [];
  const base = tn('temple.rollSome', a.dice.length);
  // The faces kept, counted: "keeping 2 torches and 1 key".
  const counts = new Map();
  for (const d of kept) counts.set(d.face, (counts.get(d.face) || 0) + 1);
  const faces = [...counts].map(([f, n]) => tn('temple.faces.' + f, n));
  return kept.length ? base + ', ' + t('temple.keeping', {faces: list(faces)}) : base;
}

// heard: in real time, a reader hears what touches them or the whole team,
// not every step of every adventurer (the seats' list shows where each
// is). Their own moves are what they just did; what they discover is news.
export function heard(ev, ctx) {
  const v = ctx.view;
  const me = v && v.you != null ? v.you : -1;
  if (me < 0) return true;
  switch (ev.type) {
    case 'entered': return false;
    case 'unlocked': return false; // (the board says it when the dice are the player's)
    case 'die_given': return ev.to === me || ev.from === me;
    case 'curse_drawn': case 'curse_lifted': case 'treasure_claimed': case 'treasure_used': case 'die_lost': case 'fate_provoked':
      return ev.seat === me;
    case 'signal': return ev.seat !== me;
  }
  return true;
}

export function describe(ev, ctx) {
  const n = (p) => ctx.who(p);
  switch (ev.type) {
    case 'rolled': return false; // too many to read; the tray shows them, and the player's own are said
    case 'die_lost': return t('temple.ev.die_lost', {seat: n(ev.seat)});
    case 'unlocked': return t('temple.ev.unlocked', {seat: n(ev.seat)});
    case 'entered': return t('temple.ev.entered', {seat: n(ev.seat), to: theChamber(ev.to)});
    case 'discovered': return t('temple.ev.discovered', {seat: n(ev.seat), tile: theChamber(ev.tile)});
    case 'curse_drawn': return t('temple.ev.curse_drawn', {seat: n(ev.seat), curse: curseName(ev.card)});
    case 'curse_lifted': return t('temple.ev.curse_lifted', {seat: n(ev.seat), curse: curseName(ev.card)});
    case 'treasure_claimed': return t('temple.ev.treasure_claimed', {seat: n(ev.seat), treasure: treasureName(ev.treasure)});
    case 'treasure_used': return t('temple.ev.treasure_used', {seat: n(ev.seat), treasure: treasureName(ev.treasure)});
    case 'committed': return false;
    case 'withdrawn': return false;
    case 'retargeted': return false;
    case 'activated': return tn('temple.ev.activated', ev.gems, {chamber: theChamber(ev.chamber)});
    case 'fate_provoked': return t('temple.ev.fate_provoked', {seat: n(ev.seat)});
    case 'escaped': return t('temple.ev.escaped', {seat: n(ev.seat)});
    case 'die_given': return t('temple.ev.die_given', {from: n(ev.from), to: n(ev.to)});
    case 'gong': return t('temple.gongNow', {n: ev.n});
    case 'door_slam': return t('temple.slamNow') + ((ev.losses || []).length ? ' ' + tn('temple.ev.losses', ev.losses.length, {names: people(ev.losses.map((l) => n(l.seat)))}) : '');
    case 'sand_out': return t('temple.slamNow');
    case 'sand_turned': return t('temple.ev.sand_turned', {n: ev.run});
    case 'collapse': return t('temple.collapseNow');
    case 'signal': return t('temple.ev.signal', {seat: n(ev.seat), what: t('temple.signal.' + ev.kind)});
    case 'game_over': return ev.won ? t('temple.won') : t('temple.lost.' + ev.reason);
  }
  return null;
}

export function status(ctx) {
  const v = ctx.view;
  if (!v || v.over) return null;
  return t('temple.statusLine');
}

export function onKey(e, ctx) {
  if (!ctx.myTurn) return false;
  const k = e.key.toLowerCase();
  if (k === 'r') { const b = document.querySelector('#tp-roll'); if (b) { b.click(); return true; } }
  if (/^[1-7]$/.test(k)) { const b = document.querySelectorAll('#tp-dice .die')[+k - 1]; if (b) { b.click(); return true; } }
  return false;
}
