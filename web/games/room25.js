// Room 25: the 5×5 complex with face-down and revealed rooms, the rooms this
// seat has looked at marked for it alone, the characters and beacons, the
// exit zones, slide arrows on the rows and columns (the central ones
// disabled), the secret programming of one or two actions with a confirm
// step, the turn counter and the alarm, roles in Suspicion, and the colour
// hints seats share after a Look.

import {h, s} from '/js/ui.js';
import {t, tn, list, phrase, people, capital} from '/js/i18n.js';
import {tip, attachTips} from '/js/tips.js';
import {roving, centreInPan} from '/js/focus.js';
import {announce, withdraw} from '/js/announce.js';
import {icon, symbol, seatMark} from '/pieces/common.js';
import {CLASS, TOKENS, roomName, tokenName, roomTile, figure, figureSpots, hintChips, beaconSpot, classIcon, tokenIcon} from '/pieces/room25.js';

const N = 5;
const EXIT_CELLS = new Set([0, 1, 3, 4, 5, 9, 15, 19, 20, 21, 23, 24]);
const DIRS = {up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1]};
const ARROW_ROT = {up: 0, right: 90, down: 180, left: 270};

// A character's name is a phrase with its gender, which French sentences
// agree with ("la Bimbo est programmée").
const charName = (c) => phrase(t('room25.char.' + c), {gender: t('room25.char.' + c + '.gender')});
// theRoom names a room in a sentence, with its article ("the Vision Room",
// "la salle de vision").
const theRoom = (r) => t('room25.the.' + r);
const dirName = (d) => t('room25.dir.' + d);
const lineName = (l) => t('room25.line.' + l.slice(0, 3), {n: +l.slice(3) + 1});
const cellName = (c) => t('room25.cell', {row: Math.floor(c / N) + 1, col: (c % N) + 1});

// ---- rendering ----

export function render(root, ctx) {
  const v = ctx.view;
  if (!v) return;
  const ui = ctx.ui;
  const key = v.phase + ':' + v.turn + ':' + (v.round || 0) + ':' + (v.slot || '') + ':' + (v.decision ? v.decision.kind : '');
  if (ui.key !== key) { ui.key = key; ui.beacon = false; }
  ui.prog = ui.prog || {};
  const board = h('div', {class: 'r25'},
    strip(v, ctx),
    // What the player decides next, before the complex in the keyboard's
    // order (the page puts the focus here after each move: data-decide).
    h('div', {class: 'decide', 'data-decide': '', role: 'group', 'aria-label': t('match.nextMove')}, prompt(v, ctx)),
    h('div', {class: 'r25-main'}, h('div', {class: 'pan', id: 'r25-pan'}, grid(v, ctx)), side(v, ctx)),
    v.result ? h('p', {class: 'prompt', id: 'r25-result'}, t('room25.result.' + v.result.reason)) : null);
  root.append(board);
  roving(board.querySelector('#r25-grid'), '.r25-cell, .r25-arrow', '.can');
  attachTips(board);
  // On a phone the complex pans: it opens on the Central Room.
  if (!ui.centred) centreInPan(board.querySelector('#r25-pan'), board.querySelector('[data-cell="12"]'), () => { ui.centred = true; });
  if (!ctx.readonly && ctx.myTurn) {
    // The prompt is news only when it changes (a new decision, the next
    // character to program).
    const p = board.querySelector('#r25-controls > p');
    if (p && ui.said !== p.textContent) {
      ui.said = p.textContent;
      withdraw('r25-program'); // (the program of the last prompt, confirmed or gone)
      announce(p.textContent, {key: 'r25-prompt'});
    }
  }
}

function strip(v, ctx) {
  return h('div', {class: 'strip'},
    h('span', {class: 'stat'}, t('room25.mode.' + v.mode)),
    h('span', {class: 'stat', id: 'r25-turn'}, t('room25.turnOf', {turn: v.turn, counter: v.counter}), v.phase === 'over' ? '' : [' · ', tn('room25.turnsLeft', v.turns_left)]),
    v.alarm ? h('span', {class: 'stat alarm'}, icon('bell'), ' ', t('room25.alarm')) : null,
    h('span', {class: 'stat'}, t('room25.phase.' + v.phase), v.round ? ' · ' + t('room25.round', {n: v.round}) : ''));
}

function mySeat(v) {
  return v.seat >= 0 ? v.seats.find((x) => x.seat === v.seat) : null;
}

function prompt(v, ctx) {
  if (ctx.readonly || v.phase === 'over') return null;
  if (!ctx.myTurn) {
    if (v.decision) return h('p', {class: 'prompt'}, t('room25.waitDecision', {name: ctx.name(v.decision.seat), char: charName(v.decision.character)}));
    return null;
  }
  switch (v.phase) {
    case 'start_look': return startLook(v, ctx);
    case 'start_hint': return hintPanel(v, ctx, t('room25.startHint'));
    case 'programming': return programming(v, ctx);
    case 'action': return decision(v, ctx);
  }
  return null;
}

function actButton(a, text, ctx, extra = {}) {
  return h('button', {type: 'button', class: extra.cls || '', id: extra.id || null, 'data-act': a ? a.type : null, 'data-key': extra.key || (a ? JSON.stringify(a) : null),
    disabled: !a || ctx.busy, onclick: () => a && ctx.play(a)}, text);
}

function startLook(v, ctx) {
  return h('div', {class: 'prompt', id: 'r25-controls', 'data-decision': 'start_look'},
    h('p', {}, t('room25.startLook')),
    h('div', {class: 'choice-bar'},
      ctx.find((a) => a.type === 'start_look').map((a) => actButton(a, t('room25.lookAt', {cell: cellName(cellOfTile(v, a.tile))}), ctx)),
      actButton(ctx.legalOf({type: 'skip_look'}), t('room25.skipLook'), ctx, {id: 'r25-skip'})));
}

function hintPanel(v, ctx, text) {
  return h('div', {class: 'prompt', id: 'r25-controls', 'data-decision': 'hint'},
    h('p', {}, text),
    h('div', {class: 'choice-bar'}, ctx.find((a) => a.type === 'hint').map((a) =>
      actButton(a, [classIcon(a.colour), ' ', t('room25.colour.' + a.colour)], ctx, {cls: 'hint-' + a.colour}))));
}

// programming: each of the seat's characters gets one or two tokens, in
// secret, then the player confirms.
function programming(v, ctx) {
  const ui = ctx.ui;
  const chars = [...new Set(ctx.find((a) => a.type === 'program').map((a) => a.character))];
  if (!chars.length) return h('p', {class: 'prompt'}, t('room25.programmedWait'));
  const c = chars[0];
  const pick = ui.prog[c] || (ui.prog[c] = []);
  const single = !ctx.find((a) => a.type === 'program' && a.character === c && a.second).length;
  const want = {type: 'program', character: c, first: pick[0], second: pick[1]};
  const a = pick.length ? ctx.legalOf(want) : null;
  return h('div', {class: 'prompt', id: 'r25-controls', 'data-decision': 'program'},
    h('p', {}, t('room25.programFor', {char: charName(c)}), single ? ' ' + t('room25.coldSingle') : ''),
    h('div', {class: 'choice-bar', role: 'group', 'aria-label': t('room25.tokens')},
      TOKENS.map((k, i) => {
        const at = pick.indexOf(k);
        return tip(h('button', {type: 'button', class: 'token-btn', 'data-token': k, 'data-key': 'tok-' + k, 'aria-keyshortcuts': String(i + 1),
          'aria-pressed': String(at >= 0), disabled: ctx.busy || (at < 0 && pick.length >= (single ? 1 : 2)),
          onclick: () => {
            ui.prog[c] = at >= 0 ? pick.filter((x) => x !== k) : [...pick, k];
            ctx.redraw();
            const now = ui.prog[c];
            announce(now.length ? t('room25.programIs', {list: now.map(tokenName).join(', ' + t('room25.then') + ' ')}) : t('room25.programHelp'), {key: 'r25-program'});
          }},
        tokenIcon(k), ' ', tokenName(k), at >= 0 ? h('span', {class: 'order'}, ' — ', t('room25.nth.' + (at + 1))) : null, ' ', h('kbd', {'aria-hidden': 'true'}, String(i + 1))),
        t('tip.room25.tok.' + k));
      })),
    h('p', {class: 'help', id: 'r25-program-text'}, pick.length ? t('room25.programIs', {list: pick.map(tokenName).join(', ' + t('room25.then') + ' ')}) : t('room25.programHelp')),
    h('div', {class: 'choice-bar'},
      h('button', {type: 'button', class: 'primary', id: 'r25-confirm', 'data-act': a ? 'program' : null, disabled: !a || ctx.busy,
        'data-key': 'confirm', onclick: () => { delete ui.prog[c]; ctx.play(a); }}, t('room25.confirm')),
      pick.length ? h('button', {type: 'button', 'data-key': 'prog-cancel', onclick: () => { ui.prog[c] = []; ctx.redraw(); }}, t('word.cancel')) : null));
}

function decision(v, ctx) {
  const d = v.decision;
  if (!d) return null;
  const free = [];
  if (ctx.find((a) => a.type === 'place_beacon').length) {
    free.push(h('button', {type: 'button', id: 'r25-beacon', 'data-key': 'beacon', 'aria-pressed': String(!!ctx.ui.beacon), onclick: () => { ctx.ui.beacon = !ctx.ui.beacon; ctx.redraw(); }}, t('room25.placeBeacon')));
  }
  const reveal = ctx.legalOf({type: 'reveal_role'});
  if (reveal) free.push(actButton(reveal, t('room25.revealRole'), ctx));
  if (d.kind === 'hint') return hintPanel(v, ctx, t('room25.hintAfterLook', {cell: cellName(cellOfTile(v, d.tile))}));
  const main = ctx.find((a) => a.type !== 'place_beacon' && a.type !== 'reveal_role');
  const text = t('room25.decision.' + d.kind, {char: charName(d.character), token: d.token ? tokenName(d.token) : ''});
  return h('div', {class: 'prompt', id: 'r25-controls', 'data-decision': d.kind},
    h('p', {}, text),
    main.length <= 16 ? h('div', {class: 'choice-bar'}, main.map((a) => actButton(a, label(a, ctx), ctx)))
      : h('p', {class: 'help'}, t('room25.clickGrid')),
    ctx.ui.beacon ? h('p', {class: 'help'}, t('room25.beaconHelp')) : null,
    free.length ? h('div', {class: 'choice-bar'}, free) : null);
}

function cellOfTile(v, tile) {
  const c = v.cells.find((x) => x.tile === tile);
  return c ? c.cell : -1;
}

// grid draws the complex with its slide arrows.
function grid(v, ctx) {
  const S = 100, M = 34; // cell size, margin for the arrows
  const mine = ctx.myTurn && !ctx.readonly;
  const byTile = {}; // tile → the legal actions naming it
  const slides = {}; // "row1:right" → action
  const moves = {}; // cell → action
  const me = mySeat(v);
  const slotChar = v.decision ? v.decision.character : null;
  const slotCell = slotChar ? (v.characters.find((c) => c.id === slotChar) || {}).cell : -1;
  if (mine) {
    for (const a of ctx.legal) {
      if (a.type === 'place_beacon') { if (ctx.ui.beacon) (byTile[a.tile] = byTile[a.tile] || []).push(a); continue; }
      if (a.tile && a.type !== 'hint') (byTile[a.tile] = byTile[a.tile] || []).push(a);
      const slide = a.type === 'control' || a.type === 'control_room_slide' || (a.type === 'act' && a.action === 'control');
      if (slide) slides[a.line + ':' + a.dir] = a;
      const mv = a.type === 'move' || (a.type === 'act' && a.action === 'move');
      if (mv && slotCell >= 0) {
        const [dr, dc] = DIRS[a.dir];
        const r = Math.floor(slotCell / N) + dr, c = (slotCell % N) + dc;
        if (r >= 0 && r < N && c >= 0 && c < N) moves[r * N + c] = a;
      }
    }
  }
  const out = [];
  const marks = Object.fromEntries((v.marks || []).map((m) => [m.line, m.dir]));
  // What just happened blinks: the cell entered, the line slid, the tiles
  // swapped.
  const fresh = new Set();
  for (const ev of ctx.events || []) {
    if (ev.type === 'entered') fresh.add(ev.cell);
    if (ev.type === 'swapped') { fresh.add(ev.cell); fresh.add(ev.other_cell); }
    if (ev.type === 'slid') for (let i = 0; i < N; i++) fresh.add(ev.line.startsWith('row') ? +ev.line.slice(3) * N + i : i * N + +ev.line.slice(3));
  }
  for (const cell of v.cells) {
    const r = Math.floor(cell.cell / N), c = cell.cell % N;
    const x = M + c * S, y = M + r * S;
    const acts = byTile[cell.tile] || [];
    const mv = moves[cell.cell];
    const act = acts.length === 1 ? acts[0] : mv && !acts.length ? mv : null;
    const label = cellLabel(cell, v, ctx) + (act ? '. ' + t('room25.clickTo', {what: labelFor(act, ctx)}) : '');
    const go = () => act && ctx.play(act);
    // At the end the view names every room: those never turned face up
    // are shown as such, not left face down.
    const state = cell.face_up ? 'up' : cell.known ? 'known' : cell.room ? 'unturned' : 'down';
    const figures = cell.characters || [];
    out.push(tip(s('g', {class: 'r25-cell' + (cell.face_up ? ' up' : ' down') + (cell.known ? ' known' : '') + (state === 'unturned' ? ' unturned' : '') + (act ? ' can' : '') + (EXIT_CELLS.has(cell.cell) ? ' exit' : '') + (fresh.has(cell.cell) && !ctx.readonly ? ' fresh' : ''),
      'data-cell': cell.cell, 'data-tile': cell.tile, 'data-room': cell.face_up || cell.known ? cell.room : null,
      role: act ? 'button' : 'img', 'aria-label': label, 'data-key': 'cell-' + cell.cell, transform: `translate(${x} ${y})`,
      onclick: act ? go : null, onkeydown: keyStop, onkeyup: act ? (e) => { if (e.key === 'Enter' || e.key === ' ') go(); } : null},
    roomTile(state === 'down' ? null : cell.room, state),
    cell.flooded ? s('rect', {class: 'r25-water', x: 3, y: 33, width: 94, height: 64, rx: 8, fill: 'url(#r25-water)'}) : null, // (below the name)
    cell.known && !cell.face_up ? symbol('eye', 84, 84, 16, {cls: 'r25-seen'}) : null,
    hintChips(cell.hints, state !== 'down'),
    figureSpots(figures.length).map((at, i) => {
      const ch = figures[i];
      const who = v.characters.find((x) => x.id === ch) || {seat: 0};
      return figure(ch, who.seat, at.x, at.y, {scale: at.scale, cls: (v.slot === ch ? 'slot' : '') + (who.trapped ? ' trapped' : '')});
    }),
    (cell.beacons || []).map((b, i) => symbol('flag', ...beaconSpot(i), 16, {cls: 'r25-beacon'})),
    EXIT_CELLS.has(cell.cell) ? s('rect', {class: 'r25-exitzone', x: 1, y: 1, width: S - 2, height: S - 2, rx: 9}) : null),
    cellTip(cell, act, ctx)));
  }
  // Slide arrows: rows left and right, columns up and down; the central
  // row and column never slide.
  const arrow = (line, dir, ax, ay, glyph) => {
    const central = line === 'row2' || line === 'col2';
    const a = slides[line + ':' + dir];
    const marked = marks[line] === dir;
    const text = t('room25.slideAria', {line: lineName(line), dir: dirName(dir)}) + (central ? ' ' + t('room25.centralLocked') : '') + (marked ? ' ' + t('room25.marked') : '');
    return tip(s('g', {class: 'r25-arrow' + (a ? ' can' : '') + (central ? ' locked' : '') + (marked ? ' marked' : ''), 'data-slide': line + ':' + dir,
      role: a ? 'button' : 'img', 'aria-label': text, 'data-key': 'slide-' + line + dir,
      onclick: a ? () => ctx.play(a) : null, onkeydown: keyStop, onkeyup: a ? (e) => { if (e.key === 'Enter' || e.key === ' ') ctx.play(a); } : null},
    s('circle', {cx: ax, cy: ay, r: 14}),
    central ? symbol('lock', ax, ay, 16) : symbol('arrow', ax, ay, 18, {rotate: ARROW_ROT[dir]})),
    central ? t('tip.room25.centralLocked') : a ? t('tip.room25.slideNow') : marked ? t('tip.room25.marked') : t('tip.room25.slide'));
  };
  for (let i = 0; i < N; i++) {
    const mid = M + i * S + S / 2;
    out.push(arrow('row' + i, 'left', M / 2, mid), arrow('row' + i, 'right', M + N * S + M / 2, mid));
    out.push(arrow('col' + i, 'up', mid, M / 2), arrow('col' + i, 'down', mid, M + N * S + M / 2));
  }
  const W = 2 * M + N * S;
  return s('svg', {class: 'r25-grid', id: 'r25-grid', viewBox: `0 0 ${W} ${W}`, role: 'group', 'aria-label': t('room25.complex') + '. ' + t('a11y.arrowsMove')},
    s('defs', {}, s('pattern', {id: 'r25-water', width: 12, height: 12, patternUnits: 'userSpaceOnUse'}, s('path', {d: 'M0,6 q3,-4 6,0 t6,0', stroke: '#0072b2', fill: 'none', 'stroke-width': 2}))),
    out);
}

function keyStop(e) {
  if (e.key === 'Enter' || e.key === ' ') e.preventDefault();
}

// cellTip explains a room: its effect, what the player may do with it now.
function cellTip(cell, act, ctx) {
  const parts = [];
  if (cell.room) parts.push(t('tip.room25.class.' + CLASS[cell.room]) + ' ' + t('room25.roomEffect.' + cell.room));
  else parts.push(t('tip.room25.faceDown'));
  if (cell.known && !cell.face_up) parts.push(t('tip.room25.known'));
  else if (cell.room && !cell.face_up) parts.push(t('tip.room25.unturned'));
  if (EXIT_CELLS.has(cell.cell)) parts.push(t('tip.room25.exitZone'));
  if (act) parts.push(t('tip.room25.clickToAct'));
  return parts.join(' ');
}

function cellLabel(cell, v, ctx) {
  const parts = [cellName(cell.cell)];
  if (EXIT_CELLS.has(cell.cell)) parts.push(t('room25.exitZone'));
  if (cell.face_up) parts.push(roomName(cell.room));
  else if (cell.known) parts.push(t('room25.seenByYou', {room: roomName(cell.room)}));
  else if (cell.room) parts.push(t('room25.unturned', {room: roomName(cell.room)}));
  else parts.push(t('room25.faceDown'));
  if (cell.flooded) parts.push(t('room25.flooded'));
  for (const c of cell.characters || []) parts.push(charName(c));
  for (const hn of cell.hints || []) parts.push(t('room25.hintBy', {name: ctx.who(hn.seat), colour: t('room25.colour.' + hn.colour)}));
  if (cell.viewed_by && cell.viewed_by.length) parts.push(t('room25.viewedBy', {names: people(cell.viewed_by.map(ctx.who))}));
  return parts.join(', ');
}

function side(v, ctx) {
  const me = mySeat(v);
  return h('div', {class: 'r25-side'},
    h('section', {'aria-labelledby': 'r25-line-h'},
      h('h3', {id: 'r25-line-h'}, t('room25.line')),
      h('ol', {class: 'r25-line'}, (v.line || []).map((c) => h('li', {class: v.slot === c ? 'slot' : ''}, capital(charName(c)), v.slot === c ? [' ', icon('arrow', {rotate: 270}), h('span', {class: 'visually-hidden'}, t('room25.acting'))] : '')))),
    h('section', {'aria-labelledby': 'r25-chars-h'},
      h('h3', {id: 'r25-chars-h'}, t('room25.characters')),
      h('ul', {class: 'r25-chars'}, v.characters.map((c) => h('li', {class: c.alive ? '' : 'dead', 'data-char': c.id},
        seatMark(c.seat), ' ',
        h('strong', {}, capital(charName(c.id))), ' (', ctx.name(c.seat), c.team ? ', ' + t('room25.team', {team: c.team}) : '', ')',
        !c.alive ? ' — ' + t('room25.dead', {char: charName(c.id)}) : '',
        c.trapped ? ' — ' + t('room25.trapped', {char: charName(c.id)}) : '', c.drowns_turn ? ' — ' + t('room25.drowns', {turn: c.drowns_turn}) : '',
        h('br'),
        h('small', {class: 'r25-tokens'},
          c.program && c.program.length ? t('room25.program', {list: c.program.map(tokenName).join(', ' + t('room25.then') + ' ')}) :
            c.programmed ? tn('room25.tokensHidden', c.tokens || 0) : c.immediate ? t('room25.immediate') : t('room25.notProgrammed', {char: charName(c.id)}),
          shownText(c)))))),
    v.mode === 'suspicion' || v.seats.some((x) => x.role) ? h('section', {},
      h('h3', {}, t('room25.roles')),
      h('ul', {}, v.seats.map((x) => h('li', {}, t('room25.roleOf', {name: ctx.name(x.seat), role: x.role ? t('room25.role.' + x.role) + (x.role_revealed ? ' (' + t('room25.public') + ')' : x.seat === v.seat ? ' (' + t('room25.secret') + ')' : '') : t('room25.unknownRole')}))))) : null,
    me && me.team ? h('p', {}, t('room25.yourTeam', {team: me.team})) : null,
    v.deaths && v.deaths.length ? h('p', {}, t('room25.deaths', {list: list(v.deaths.map(charName))})) : null);
}

function shownText(c) {
  const shown = (c.shown || []).filter(Boolean);
  return shown.length ? ' · ' + tn('room25.shown', shown.length, {list: shown.map(tokenName).join(', ')}) : '';
}

// ---- words ----

function labelFor(a, ctx) {
  return label(a, ctx) || a.type;
}

export function label(a, ctx) {
  const v = ctx.view;
  switch (a.type) {
    case 'start_look': return t('room25.lookAt', {cell: cellName(cellOfTile(v, a.tile))});
    case 'skip_look': return t('room25.skipLook');
    case 'hint': return t('room25.hintLabel', {colour: t('room25.colour.' + a.colour)});
    case 'program': return t('room25.programLabel', {char: charName(a.character), list: [a.first, a.second].filter(Boolean).map(tokenName).join(', ' + t('room25.then') + ' ')});
    case 'play': return t('room25.play');
    case 'wait': return t('room25.wait');
    case 'pass': return t('room25.pass');
    case 'look': return t('room25.lookAt', {cell: cellName(cellOfTile(v, a.tile))});
    case 'move': return t('room25.moveDir', {dir: dirName(a.dir)});
    case 'push': return t('room25.pushDir', {char: charName(a.character), dir: dirName(a.dir)});
    case 'control': return t('room25.slide', {line: lineName(a.line), dir: dirName(a.dir)});
    case 'act': return label({...a, type: a.action}, ctx);
    case 'vision_view': return t('room25.visionAt', {cell: cellName(cellOfTile(v, a.tile))});
    case 'mobile_swap': return t('room25.mobileWith', {cell: cellName(cellOfTile(v, a.tile))});
    case 'illusion_swap': return t('room25.illusionWith', {cell: cellName(cellOfTile(v, a.tile))});
    case 'control_room_slide': return t('room25.slide', {line: lineName(a.line), dir: dirName(a.dir)});
    case 'place_beacon': return t('room25.beaconOn', {char: charName(a.character), cell: cellName(cellOfTile(v, a.tile))});
    case 'reveal_role': return t('room25.revealRole');
  }
  return null;
}

export function describe(ev, ctx) {
  const v = ctx.view || {cells: []};
  const where = (tile) => { const c = cellOfTile(v, tile); return c >= 0 ? cellName(c) : tile; };
  switch (ev.type) {
    case 'start_look_chosen': return t('room25.ev.start_look_chosen', {seat: ctx.who(ev.seat)});
    case 'seen': return t('room25.ev.seen', {cell: where(ev.tile), room: theRoom(ev.room)});
    case 'start_hint_chosen': return false;
    case 'start_looks': return t('room25.ev.start_looks', {list: list((ev.looks || []).map((l) => {
      if (!l.tile) return t('room25.noLook', {name: ctx.who(l.seat)});
      if (!l.colour || l.colour === 'none') return t('room25.lookedSilent', {name: ctx.who(l.seat), cell: where(l.tile)});
      return t('room25.lookedHint', {name: ctx.who(l.seat), cell: where(l.tile), colour: t('room25.colour.' + l.colour)});
    }))});
    case 'turn_started': return tn('room25.ev.turn_started', ev.turns_left, {turn: ev.turn});
    case 'programmed': return ev.first ? t('room25.ev.programmed_you', {char: charName(ev.character), list: [ev.first, ev.second].filter(Boolean).map(tokenName).join(', ' + t('room25.then') + ' ')}) : tn('room25.ev.programmed', ev.tokens, {char: charName(ev.character)});
    case 'round_started': return t('room25.ev.round_started', {n: ev.round});
    case 'token_revealed': return t('room25.ev.token_revealed', {char: charName(ev.character), token: tokenName(ev.token)});
    case 'waited': return t('room25.ev.waited', {char: charName(ev.character)});
    case 'passed': return t('room25.ev.passed', {char: charName(ev.character)});
    case 'action_lost': return t('room25.ev.action_lost', {char: charName(ev.character), token: tokenName(ev.token), reason: t('room25.lost.' + ev.reason)});
    case 'looked': return t('room25.ev.looked', {char: charName(ev.character), cell: where(ev.tile)});
    case 'hinted': return t('room25.ev.hinted', {seat: ctx.who(ev.seat), cell: where(ev.tile), colour: t('room25.colour.' + ev.colour)});
    case 'entered': return t('room25.ev.entered', {char: charName(ev.character), room: theRoom(ev.room), cell: cellName(ev.cell)}) + (ev.revealed ? ' ' + t('room25.roomEffect.' + ev.room) : '');
    case 'slid': return t('room25.ev.slid', {char: charName(ev.character), line: lineName(ev.line), dir: dirName(ev.dir)});
    case 'swapped': return t('room25.ev.swapped', {a: cellName(ev.cell), b: cellName(ev.other_cell)});
    case 'trapped': return t('room25.ev.trapped', {char: charName(ev.character)});
    case 'flooding': return t('room25.ev.flooding', {char: charName(ev.character), turn: ev.drowns_turn});
    case 'died': return t('room25.ev.died', {char: charName(ev.character), cause: t('room25.cause.' + ev.cause, {char: charName(ev.character)})});
    case 'beacon_placed': return t('room25.ev.beacon_placed', {char: charName(ev.character), cell: where(ev.tile)});
    case 'beacon_returned': return t('room25.ev.beacon_returned', {char: charName(ev.character)});
    case 'role_revealed': return t('room25.ev.role_revealed', {seat: ctx.who(ev.seat), role: t('room25.role.' + ev.role)});
    case 'alarm': return tn('room25.ev.alarm', ev.turns_left);
    case 'escaped': return t('room25.ev.escaped', {char: charName(ev.character)});
    case 'game_over': return t('room25.result.' + ev.reason);
  }
  return null;
}

// heard: what a reader would hear twice or that is no news. A revealed
// token is followed by what it did (the log keeps both); the others'
// programming is secret and says only that it happened; the echo of the
// player's own look, hint and programming is what they just did (what they
// saw is news).
export function heard(ev, ctx) {
  const v = ctx.view || {characters: []};
  const mine = (ch) => ctx.seat >= 0 && (v.characters.find((c) => c.id === ch) || {}).seat === ctx.seat;
  switch (ev.type) {
    case 'token_revealed': return false;
    case 'programmed': return false;
    case 'start_look_chosen': case 'hinted': return ev.seat !== ctx.seat;
    case 'looked': return !mine(ev.character);
  }
  return true;
}

export function status(ctx) {
  const v = ctx.view;
  if (!v || v.phase === 'over' || !ctx.myTurn) return null;
  return t('room25.status.' + v.phase);
}

export function onKey(e, ctx) {
  const v = ctx.view;
  if (!v || !ctx.myTurn || ctx.busy || v.phase !== 'programming') return false;
  if (/^[1-4]$/.test(e.key)) {
    const b = document.querySelector('.token-btn[data-token="' + TOKENS[+e.key - 1] + '"]');
    if (b && !b.disabled) { b.click(); return true; }
  }
  if (e.key === 'Enter') {
    const b = document.querySelector('#r25-confirm');
    if (b && !b.disabled && document.activeElement === document.body) { b.click(); return true; }
  }
  return false;
}

// focusNext: where the keyboard goes when its control is gone.
export function focusNext(root) {
  return root.querySelector('#r25-controls button:not([disabled]), #r25-grid .can, #r25-grid [tabindex="0"]');
}
