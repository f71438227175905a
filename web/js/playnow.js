// Play now, in the lobby: one row per game (number of players, or any
// number the game takes where it has no modes; mode where the game has
// modes; the pace where the game is also played by correspondence; rated
// or casual) and its button; then a waiting panel
// with the number of players waiting in the same pool, live, the time
// waited, and a button to stop waiting. Once seated, the page goes to the
// table. The ticket is kept in sessionStorage, so that a reload waits on.
//
// The wait before bots is the server's 30 s; a test may shorten it with
// ?bot_fill_after_ms= in the lobby's address.

import {api, remember} from './api.js';
import {t, tn, tx, num, errorText} from './i18n.js';
import {h, fill} from './ui.js';
import {choiceText} from './lobby.js';

const KEY = 'sortie.ticket';

function savedTicket() {
  try { return sessionStorage.getItem(KEY) || ''; } catch { return ''; }
}

function saveTicket(v) {
  try {
    if (v) sessionStorage.setItem(KEY, v);
    else sessionStorage.removeItem(KEY);
  } catch { /* private mode: the wait lasts as long as the page */ }
}

// paceText says a correspondence move limit: "2 days a move".
function paceText(ms) {
  return tn('deadline.perMove', Math.round(ms / 86400000));
}

export class PlayNow {
  // games are the games' infos; me the signed-in account (null: signed out).
  constructor(games, me) {
    this.games = games;
    this.me = me;
    // game id → {players, playersMax, mode, pace, rated}: playersMax above
    // players asks for any number between; pace is 0 (live) or a
    // correspondence move limit.
    this.choice = {};
    this.humansOnly = false;
    this.ticket = null; // the ticket's answer while waiting
    this.error = '';
    this.timer = null;
  }

  async start() {
    const saved = savedTicket();
    if (this.me && saved) {
      try {
        this.ticket = await api('GET', '/api/play/' + encodeURIComponent(saved));
        if (this.ticket.status === 'cancelled') this.stopped();
        else this.follow();
      } catch {
        this.stopped();
      }
    }
  }

  section() {
    return h('section', {class: 'panel', id: 'play-now', 'aria-labelledby': 'play-now-h'},
      h('h2', {id: 'play-now-h'}, t('playnow.title')),
      h('div', {id: 'play-now-body'}));
  }

  draw() {
    const box = document.getElementById('play-now-body');
    if (!box) return;
    if (!this.me) {
      fill(box, h('p', {class: 'muted'}, t('playnow.signIn'), ' ', h('a', {href: '/signin'}, t('playnow.signInLink'))));
      return;
    }
    if (this.ticket && this.ticket.status !== 'cancelled') {
      fill(box, this.drawWaiting());
      return;
    }
    fill(box,
      h('p', {class: 'lead'}, t('playnow.lead')),
      this.error ? h('p', {class: 'error', role: 'alert'}, this.error) : null,
      h('ul', {class: 'play-now-games'}, this.games.map((g) => this.drawGame(g))),
      h('label', {class: 'check'}, h('input', {type: 'checkbox', id: 'play-humans-only', checked: this.humansOnly,
        onchange: (e) => { this.humansOnly = e.target.checked; }}), ' ', t('playnow.humansOnly')));
  }

  choiceOf(g) {
    if (!this.choice[g.id]) {
      const mode = (g.options || []).find((o) => o.key === 'mode');
      this.choice[g.id] = {players: g.min_players, playersMax: 0, mode: mode ? mode.default : '', pace: 0, rated: true};
    }
    return this.choice[g.id];
  }

  drawGame(g) {
    const c = this.choiceOf(g), id = 'play-' + g.id;
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push([n, tn('lobby.playersExact', n)]);
    // Any number, where every number is a table of the game (a mode may
    // take only some).
    const any = `${g.min_players}-${g.max_players}`;
    const mode = (g.options || []).find((o) => o.key === 'mode');
    if (!mode && g.max_players > g.min_players) counts.push([any, t('lobby.playersRange', {min: g.min_players, max: g.max_players})]);
    const field = (key, label, options, value, set) => h('label', {class: 'play-field'},
      h('span', {class: 'visually-hidden'}, label + ' — ' + tx(g.name)),
      h('select', {id: id + '-' + key, 'data-key': id + '-' + key, onchange: (e) => set(e.target.value)},
        options.map(([v, text]) => h('option', {value: v, selected: String(v) === String(value)}, text))));
    return h('li', {class: 'play-now-game', 'data-game': g.id},
      h('span', {class: 'game-name', id: id + '-name'}, tx(g.name)),
      h('span', {class: 'play-fields'},
        field('players', t('playnow.players'), counts, c.playersMax ? `${c.players}-${c.playersMax}` : c.players, (v) => {
          const [lo, hi] = String(v).split('-').map(Number);
          c.players = lo;
          c.playersMax = hi || 0;
        }),
        mode ? field('mode', t('playnow.mode'), mode.choices.map((m) => [m, choiceText(g.id, 'mode', m)]), c.mode, (v) => { c.mode = v; }) : null,
        g.correspondence ? field('pace', t('playnow.pace'), [[0, t('playnow.live')], ...(g.correspondence.move_limits_ms || []).map((ms) => [ms, paceText(ms)])],
          c.pace, (v) => { c.pace = Number(v); }) : null,
        field('rated', t('playnow.kind'), [['rated', t('playnow.rated')], ['casual', t('playnow.casual')]], c.rated ? 'rated' : 'casual',
          (v) => { c.rated = v === 'rated'; })),
      h('button', {type: 'button', class: 'primary', id: id, 'data-key': id, 'aria-describedby': id + '-name', onclick: () => this.ask(g)},
        t('playnow.button')),
      h('a', {class: 'board-link', href: '/leaderboard/' + g.id}, t('playnow.leaderboard'), h('span', {class: 'visually-hidden'}, ' — ' + tx(g.name))));
  }

  async ask(g) {
    const c = this.choiceOf(g);
    const body = {game: g.id, players: c.players, rated: c.rated, humans_only: this.humansOnly};
    if (c.playersMax) body.players_max = c.playersMax;
    if (c.mode) body.mode = c.mode;
    if (c.pace) Object.assign(body, {clock: 'correspondence', move_limit_ms: c.pace});
    const wait = new URLSearchParams(location.search).get('bot_fill_after_ms');
    if (wait != null && wait !== '') body.bot_fill_after_ms = Number(wait);
    this.error = '';
    try {
      this.ticket = await api('POST', '/api/play', body);
      saveTicket(this.ticket.ticket);
      this.follow();
    } catch (e) {
      this.error = errorText(e);
    }
    this.draw();
    document.getElementById(this.ticket ? 'play-cancel' : 'play-' + g.id)?.focus();
  }

  gameOf(id) {
    return this.games.find((g) => g.id === id);
  }

  drawWaiting() {
    const tk = this.ticket, g = this.gameOf(tk.pool.game);
    const name = g ? tx(g.name) : tk.pool.game;
    const secs = Math.floor(tk.waited_ms / 1000);
    const found = tk.status === 'matched';
    const what = [tk.pool.players_max ? t('lobby.playersRange', {min: tk.pool.players, max: tk.pool.players_max}) : tn('lobby.playersExact', tk.pool.players)];
    if (tk.pool.mode && g) what.push(choiceText(g.id, 'mode', tk.pool.mode));
    if (tk.pool.clock === 'correspondence') what.push(paceText(tk.pool.move_limit_ms));
    what.push(tk.pool.rated ? t('playnow.rated') : t('playnow.casual'));
    return h('div', {class: 'waiting', id: 'play-waiting'},
      h('p', {class: 'waiting-what'}, h('strong', {}, name), ' · ', what.join(' · ')),
      h('p', {id: 'play-status', role: 'status', 'aria-live': 'polite'},
        found ? t('playnow.found') : tn('playnow.waitingCount', tk.waiting)),
      found ? null : h('p', {class: 'muted', id: 'play-waited'}, t('playnow.waited', {s: num(secs, 0)}), ' · ',
        tk.humans_only ? t('playnow.humansOnlyNote') : tn('playnow.botsAfter', Math.round(tk.bot_fill_after_ms / 1000))),
      this.error ? h('p', {class: 'error', role: 'alert'}, this.error) : null,
      found ? null : h('button', {type: 'button', id: 'play-cancel', onclick: () => this.cancel()}, t('playnow.cancel')));
  }

  // follow reads the ticket every second until seated or stopped.
  follow() {
    clearTimeout(this.timer);
    if (!this.ticket) return;
    if (this.ticket.status === 'matched') {
      this.seated();
      return;
    }
    this.timer = setTimeout(async () => {
      if (!this.ticket) return;
      try {
        this.ticket = await api('GET', '/api/play/' + encodeURIComponent(this.ticket.ticket));
        this.error = '';
      } catch (e) {
        this.error = errorText(e);
      }
      if (this.ticket.status === 'cancelled') this.stopped();
      this.redraw();
      this.follow();
    }, 1000);
  }

  // redraw draws the panel again, the focus kept on the cancel button.
  redraw() {
    const focused = document.activeElement && document.activeElement.id;
    this.draw();
    if (focused) document.getElementById(focused)?.focus();
  }

  seated() {
    const tk = this.ticket;
    saveTicket('');
    remember(tk.match, {game: tk.pool.game, seats: {[tk.seat]: tk.token}, last: tk.seat});
    this.redraw();
    setTimeout(() => location.assign('/play/' + tk.match + '?seat=' + tk.seat), 600);
  }

  stopped() {
    clearTimeout(this.timer);
    this.ticket = null;
    saveTicket('');
  }

  async cancel() {
    const tk = this.ticket;
    if (!tk) return;
    try {
      const r = await api('DELETE', '/api/play/' + encodeURIComponent(tk.ticket));
      this.stopped();
      this.draw();
      document.getElementById('play-' + r.pool.game)?.focus();
    } catch (e) {
      if (e.code === 'ticket_matched') {
        this.ticket = await api('GET', '/api/play/' + encodeURIComponent(tk.ticket)).catch(() => tk);
        this.follow();
        return;
      }
      this.error = errorText(e);
      this.redraw();
    }
  }
}
