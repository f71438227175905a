// Today's challenge (/daily): one deal a game a day, the same for
// everyone, against the same bots (GET /api/daily), played once: a guest
// enters by a name, a signed-in player by their account's; then the
// match's page. Each game's table of the day's results
// (GET /api/daily/<game>) is read again every few seconds.

import {api, remember, playerName, setPlayerName} from './api.js';
import {t, tn, tx, has, onLang, errorText, getLang, fmtDuration} from './i18n.js';
import {h, fill} from './ui.js';
import {currentMe} from './session.js';
import {botName} from './names.js';
import {emblem} from './pictures.js';

// The matches this browser entered, by day and game: {day: {game: {id, seat}}}.
const KEY = 'sortie.daily';

function entered() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}') || {}; } catch { return {}; }
}

function enter(day, game, v) {
  const all = entered();
  // Only today's are kept.
  for (const d of Object.keys(all)) if (d !== day) delete all[d];
  all[day] = {...(all[day] || {}), [game]: v};
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode */ }
}

// keepFocus redraws and puts the focus back on the control that had it
// (by its id), if the redraw replaced it.
function keepFocus(draw) {
  const id = document.activeElement && document.activeElement.id;
  draw();
  if (id && (!document.activeElement || document.activeElement === document.body)) document.getElementById(id)?.focus({preventScroll: true});
}

export class DailyPage {
  constructor(root) {
    this.root = root;
    this.tables = {}; // game → the day's table
    this.errors = {}; // game → a refusal
  }

  async start() {
    try {
      const [daily, games, me] = await Promise.all([api('GET', '/api/daily'), api('GET', '/api/games'), currentMe()]);
      this.day = daily.day;
      this.challenges = daily.challenges || [];
      this.games = games.games || [];
      this.me = me;
    } catch (e) {
      fill(this.root, h('h1', {}, t('daily.title')), h('p', {class: 'error', role: 'alert'}, errorText(e)));
      return;
    }
    await this.load();
    onLang(() => this.draw());
    this.draw();
    this.timer = setInterval(() => this.load().then(() => keepFocus(() => this.drawTables())), 10000);
  }

  async load() {
    await Promise.all(this.challenges.map(async (c) => {
      try { this.tables[c.game] = await api('GET', '/api/daily/' + c.game + '?day=' + this.day); } catch { /* kept as it was */ }
    }));
  }

  info(id) { return this.games.find((g) => g.id === id) || {id, name: {en: id}, timing: ''}; }

  draw() {
    document.title = t('daily.title') + ' — Sortie';
    const date = new Intl.DateTimeFormat(getLang(), {dateStyle: 'full', timeZone: 'UTC'}).format(new Date(this.day + 'T12:00:00Z'));
    fill(this.root, h('div', {class: 'daily-page', id: 'daily', 'data-day': this.day},
      h('p', {class: 'crumbs'}, h('a', {href: '/'}, t('match.backToLobby'))),
      h('h1', {}, t('daily.title')),
      h('p', {class: 'lead'}, t('daily.lead', {date})),
      this.me ? h('p', {class: 'muted', id: 'daily-as'}, t('daily.asAccount', {name: this.me.name})) :
        h('div', {class: 'field daily-name'},
          h('label', {for: 'daily-name'}, t('daily.yourName')),
          h('input', {id: 'daily-name', type: 'text', maxlength: 40, autocomplete: 'nickname', value: this.name ?? playerName(), 'aria-describedby': 'daily-name-help',
            oninput: (e) => { this.name = e.target.value; }}),
          h('small', {class: 'help', id: 'daily-name-help'}, t('daily.nameHelp'))),
      this.challenges.map((c) => this.section(c))));
    this.drawTables();
  }

  section(c) {
    const g = this.info(c.game), name = tx(g.name);
    const mine = (entered()[this.day] || {})[c.game];
    const against = c.players === 1 ? t('daily.alone') : has('daily.vs.' + c.bot + '.other') ? tn('daily.vs.' + c.bot, c.players - 1) : t('name.bot', {level: botName(c.bot)});
    return h('section', {class: 'panel daily-game', 'data-game': c.game, 'aria-labelledby': 'daily-h-' + c.game},
      h('div', {class: 'daily-head'},
        h('span', {class: 'game-picture', 'aria-hidden': 'true'}, emblem(c.game)),
        h('div', {},
          h('h2', {id: 'daily-h-' + c.game}, name),
          h('p', {class: 'muted'}, against),
          has('daily.rule.' + c.game) ? h('p', {class: 'muted daily-rule'}, t('daily.rule.' + c.game)) : null)),
      mine ? h('p', {}, t('daily.yours'), ' ', h('a', {href: '/play/' + mine.id + '?seat=' + mine.seat, id: 'daily-mine-' + c.game}, t('daily.openYours'))) :
        h('p', {}, h('button', {type: 'button', class: 'primary', id: 'daily-play-' + c.game, 'data-key': 'daily-play-' + c.game,
          'aria-describedby': 'daily-h-' + c.game, onclick: () => this.play(c)}, t('daily.play'))),
      this.errors[c.game] ? h('p', {class: 'error', role: 'alert', id: 'daily-error-' + c.game}, errorText(this.errors[c.game])) : null,
      h('div', {class: 'daily-table', id: 'daily-table-' + c.game}));
  }

  // play enters the day's challenge of a game and opens its match.
  async play(c) {
    const name = this.me ? '' : (this.name ?? playerName()).trim();
    delete this.errors[c.game];
    try {
      const cm = await api('POST', '/api/daily/' + c.game, this.me ? {} : {name});
      const seat = cm.seats.findIndex((s) => s.token);
      remember(cm.match.id, {game: c.game, seats: {[seat]: cm.seats[seat].token}, last: seat});
      enter(this.day, c.game, {id: cm.match.id, seat});
      if (name) setPlayerName(name);
      location.href = '/play/' + cm.match.id + '?seat=' + seat;
    } catch (e) {
      this.errors[c.game] = e;
      this.draw();
      document.getElementById(e.code === 'bad_name' || e.code === 'daily_name_taken' ? 'daily-name' : 'daily-play-' + c.game)?.focus();
    }
  }

  drawTables() {
    for (const c of this.challenges) {
      const box = document.getElementById('daily-table-' + c.game);
      if (box) fill(box, this.table(c));
    }
  }

  table(c) {
    const tb = this.tables[c.game];
    const rows = tb ? tb.entries : [];
    if (!rows.length) return h('p', {class: 'muted'}, t('daily.empty'));
    const points = has('daily.score.' + c.game);
    const clock = tb.by === 'clock';
    return h('table', {class: 'daily-results'},
      h('caption', {}, t('daily.results', {game: tx(this.info(c.game).name)})),
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col'}, t('daily.rank')), h('th', {scope: 'col'}, t('daily.player')), h('th', {scope: 'col'}, t('daily.result')),
        points ? h('th', {scope: 'col'}, t('daily.score.' + c.game)) : null,
        h('th', {scope: 'col'}, t(clock ? 'daily.time' : 'daily.moves')))),
      h('tbody', {}, rows.map((r) => h('tr', {'data-match': r.match, class: r.status === 'finished' ? null : 'playing'},
        h('td', {}, r.rank ? String(r.rank) : '—'),
        h('th', {scope: 'row'}, r.account ? h('a', {href: '/players/' + encodeURIComponent(r.account)}, r.name) : r.name),
        h('td', {}, r.status === 'finished' ? t(r.won ? 'daily.won' : 'daily.lost') : r.status === 'running' || r.status === 'open' ? t('daily.playing') : t('daily.notFinished')),
        points ? h('td', {}, r.status === 'finished' ? String(r.score) : '—') : null,
        h('td', {}, r.status !== 'finished' ? '—' : clock ? fmtDuration(r.clock_ms) : String(r.moves))))));
  }
}
