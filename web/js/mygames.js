// "My games", the lobby's list of a signed-in player's matches from any
// device (GET /api/me/matches): those under way, where it is their turn
// first and said so; the tables they are invited to, to take or decline;
// their matches over, each with its replay. A seat the account holds opens
// at /play/<id>?seat=N, with no token: the session is enough.

import {api} from './api.js';
import {t, errorText, list, phrase, people} from './i18n.js';
import {h, fill, toast} from './ui.js';
import {seatNames} from './names.js';
import {ENDED, endedText} from './ended.js';
import {icon} from '/pieces/common.js';
import {isCorrespondence, dueLine} from './deadline.js';

// How many finished matches the list shows.
const FINISHED_SHOWN = 10;

export class MyGames {
  // gameName(id) names a game; changed() is called when an invitation was
  // taken or declined (the lobby draws again).
  constructor(me, gameName, changed) {
    this.me = me;
    this.gameName = gameName;
    this.changed = changed;
    this.data = null;
    this.error = '';
  }

  async load() {
    try {
      this.data = await api('GET', '/api/me/matches');
      this.error = '';
    } catch (e) {
      this.error = errorText(e);
    }
  }

  // holds says whether the account holds seat of match id (for "Save my
  // progress": what it holds needs no saving).
  holds(id, seat) {
    if (!this.data) return false;
    return [...this.data.playing, ...this.data.finished].some((m) => m.match.id === id && (m.seats || []).includes(seat));
  }

  // ids are the matches the list shows.
  ids() {
    if (!this.data) return new Set();
    return new Set([...this.data.playing, ...this.data.finished, ...this.data.invited].map((m) => m.match.id));
  }

  section() {
    return h('section', {class: 'panel', id: 'my-games', 'aria-labelledby': 'my-games-h', tabindex: '-1'},
      h('h2', {id: 'my-games-h'}, t('mygames.title')),
      h('div', {id: 'my-games-list'}));
  }

  drawList() {
    const box = document.getElementById('my-games-list');
    if (!box) return;
    if (this.error && !this.data) { fill(box, h('p', {class: 'error'}, this.error)); return; }
    if (!this.data) { fill(box, h('p', {class: 'muted'}, '…')); return; }
    const {playing, invited, finished} = this.data;
    const turn = playing.filter((m) => m.your_turn), others = playing.filter((m) => !m.your_turn);
    if (!playing.length && !invited.length && !finished.length) {
      fill(box, h('p', {class: 'muted'}, t('mygames.none')));
      return;
    }
    const group = (key, items, draw) => (items.length ? [h('h3', {id: 'my-' + key + '-h'}, t('mygames.' + key)),
      h('ul', {class: 'my-games ' + key, 'aria-labelledby': 'my-' + key + '-h'}, items.map(draw))] : null);
    fill(box,
      group('yourTurn', turn, (m) => this.playingItem(m)),
      group('underWay', others, (m) => this.playingItem(m)),
      group('invited', invited, (inv) => this.invitedItem(inv)),
      group('finished', finished.slice(0, FINISHED_SHOWN), (m) => this.finishedItem(m)));
  }

  // others names the players of a match but the reader (and but the
  // account but, if given).
  others(m, mine, but) {
    const names = seatNames(m.seats || []);
    return (m.seats || []).filter((st) => !mine.includes(st.seat) && !(but && st.account === but)).map((st) => names[st.seat]);
  }

  playingItem(mm) {
    const m = mm.match, seat = mm.seats[0];
    const names = seatNames(m.seats || []);
    // A correspondence table says by when each move is due, and whom it
    // waits for then.
    const due = m.status === 'running' && isCorrespondence(m) ? dueLine(m, (s) => mm.seats.includes(s), (s) => names[s]) : '';
    let where;
    if (mm.your_turn || due) where = null;
    else if (m.status === 'open') {
      const humans = (m.seats || []).filter((st) => st.kind === 'human');
      where = t('mygames.waitingPlayers', {here: humans.filter((st) => st.joined).length, total: humans.length});
    } else if (m.actors && m.actors.length) {
      where = t('mygames.waitingFor', {names: people(m.actors.map((a) => phrase(names[a], {you: mm.seats.includes(a)})))});
    } else where = t('status.' + m.status);
    const game = this.gameName(m.game);
    const with_ = this.others(m, mm.seats);
    return h('li', {class: 'my-game' + (mm.your_turn ? ' my-turn' : ''), 'data-my': m.id, 'data-turn': String(!!mm.your_turn)},
      h('span', {class: 'game-name'}, game), ' ',
      mm.your_turn ? h('span', {class: 'badge turn-badge'}, icon('next'), ' ', t('mygames.yourTurnBadge')) : h('span', {class: 'badge'}, t('status.' + m.status)), ' ',
      with_.length ? h('span', {class: 'seats-list'}, t('mygames.with', {names: list(with_)})) : null, ' ',
      where ? h('span', {class: 'my-where'}, where) : null,
      due ? h('span', {class: 'my-deadline'}, due) : null,
      h('span', {class: 'actions'},
        h('a', {class: 'button' + (mm.your_turn ? ' primary' : ''), 'data-key': 'my-play-' + m.id, href: '/play/' + m.id + '?seat=' + seat},
          mm.your_turn ? t('mygames.play') : t('lobby.resume'), context(game, with_))));
  }

  invitedItem(inv) {
    const m = inv.match, game = this.gameName(m.game);
    const from = inv.from && inv.from.name ? inv.from.name : t('name.deleted');
    // (The player who invites is named already.)
    const with_ = this.others(m, [inv.seat], inv.from && inv.from.id);
    return h('li', {class: 'my-game invited', 'data-invite': m.id, 'data-seat': inv.seat},
      h('span', {class: 'my-invite'}, t('mygames.invitedBy', {name: from, game, n: inv.seat + 1})), ' ',
      with_.length ? h('span', {class: 'seats-list'}, t('mygames.with', {names: list(with_)})) : null,
      h('span', {class: 'actions'},
        h('button', {type: 'button', class: 'primary', 'data-key': 'take-' + m.id + '-' + inv.seat, onclick: () => this.take(inv)},
          t('mygames.take'), context(game, with_)),
        h('button', {type: 'button', 'data-key': 'decline-' + m.id + '-' + inv.seat, onclick: () => this.decline(inv)},
          t('mygames.decline'), context(game, with_))));
  }

  finishedItem(mm) {
    const m = mm.match, game = this.gameName(m.game);
    const names = seatNames(m.seats || []);
    const with_ = this.others(m, mm.seats);
    let outcome = '';
    if (m.status === 'finished') {
      const w = (m.outcome && m.outcome.winners) || [];
      if (!w.length) outcome = t('mygames.nobodyWon');
      else if (w.some((x) => mm.seats.includes(x))) outcome = w.length > 1 ? t('mygames.youShared') : t('mygames.youWon');
      else outcome = t('lobby.won', {names: list(w.map((x) => names[x]))});
    } else if (ENDED.includes(m.status)) outcome = endedText(m.status, m.reason);
    return h('li', {class: 'my-game', 'data-my': m.id},
      h('span', {class: 'game-name'}, game), ' ',
      with_.length ? h('span', {class: 'seats-list'}, t('mygames.with', {names: list(with_)})) : null, ' ',
      h('span', {class: 'my-where'}, outcome),
      h('span', {class: 'actions'},
        h('a', {class: 'button', 'data-key': 'my-replay-' + m.id, href: '/play/' + m.id + (m.status === 'finished' ? '?seat=' + mm.seats[0] : '')},
          m.status === 'finished' ? t('lobby.replay') : t('lobby.seeWhy'), context(game, with_))));
  }

  async take(inv) {
    try {
      await api('POST', '/api/matches/' + inv.match.id + '/seats/' + inv.seat + '/take');
      location.href = '/play/' + inv.match.id + '?seat=' + inv.seat;
    } catch (e) {
      toast(errorText(e), 'error', 8000);
      await this.load();
      this.changed();
    }
  }

  async decline(inv) {
    try {
      await api('DELETE', '/api/matches/' + inv.match.id + '/seats/' + inv.seat + '/invitation');
      toast(t('mygames.declined'));
    } catch (e) {
      toast(errorText(e), 'error', 8000);
    }
    await this.load();
    this.changed();
    document.getElementById('my-games')?.focus();
  }
}

// context tells a screen reader which match a button acts on: the list
// holds many that all read "Play".
function context(game, players) {
  return h('span', {class: 'visually-hidden'}, ' — ' + (players.length ? t('lobby.linkContext', {game, seats: players.join(', ')}) : game));
}
