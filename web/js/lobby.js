// The lobby: choose a game, its options and seats, create a match, hand out
// the invite links; list open, running and finished matches to join, watch or
// come back to.

import {api, held, heldAll, remember, forget, playerName, setPlayerName} from './api.js';
import {t, tn, tx, onLang, errorText, has, fmtDuration} from './i18n.js';
import {h, fill, toast, copyText} from './ui.js';
import {keyOf, canFocus} from './focus.js';
import {emblem} from './pictures.js';
import {botName, seatNames} from './names.js';
import {ENDED, isOver, endedText} from './ended.js';
import {currentMe, accountsOn} from './session.js';
import {MyGames} from './mygames.js';
import {wantSave, savingWanted, dropIntent, guestSeats, saveProgress} from './progress.js';
import {inviteFriend} from './friends.js';
import {PlayNow} from './playnow.js';
import {isCorrespondence, dueLine} from './deadline.js';

export {botName};

// The lobby's tabs: a status each, and the matches that ended early
// (expired, abandoned, failed, closed) together.
const STATUSES = ['open', 'running', 'finished', 'ended'];
const QUERY = {ended: ENDED.join(',')};
// The difficulty levels every game offers (bot.Levels on the server).
const LEVELS = ['easy', 'medium', 'hard'];
// "Your matches" shows the finished ones this browser holds up to this
// many, the newest; older ones are forgotten.
const MINE_FINISHED = 5;

export class Lobby {
  constructor(root) {
    this.root = root;
    this.games = [];
    this.game = null; // the chosen game's info
    this.form = null; // the create form's values
    this.created = null; // the answer to the last creation
    this.tab = 'running';
    this.matches = [];
    this.mine = new Map(); // id → the summary of a match this browser holds
    this.error = '';
    this.me = null; // the signed-in account, if any
    this.myGames = null; // "My games", signed in
    this.notice = null; // {key, error, link}: what signing in or out did
    this.saved = null; // {saved, failed} or {error}: what saving a guest's matches did
    this.offer = 0; // the matches a guest played here that may be saved
    this.playNow = null; // Play now, on a server with accounts
  }

  async start() {
    onLang(() => this.draw());
    const [games, me] = await Promise.all([api('GET', '/api/games').catch((e) => e), currentMe()]);
    if (games instanceof Error) this.error = errorText(games);
    else this.games = games.games || [];
    this.me = me;
    if (accountsOn()) {
      this.playNow = new PlayNow(this.games, me);
      await this.playNow.start();
    }
    this.returned();
    if (me) {
      this.myGames = new MyGames(me, (id) => this.gameName(id), () => this.draw());
      await this.myGames.load();
      await this.progress();
    }
    const want = new URLSearchParams(location.search).get('game');
    this.choose(this.games.find((g) => g.id === want) || null);
    await Promise.all([this.loadMatches(), this.loadMine()]);
    this.draw();
    if (location.hash === '#my-games') document.getElementById('my-games')?.focus();
    else if (this.notice || this.saved || this.offer) document.getElementById('account-notice')?.focus();
    this.timer = setInterval(() => Promise.all([this.loadMatches(), this.loadMine(), this.myGames && this.myGames.load()])
      .then(() => keepFocus(() => { this.drawMatches(); this.drawMineList(); this.myGames?.drawList(); })), 5000);
  }

  // returned reads what the address says of a sign-in just made (the
  // mail's link and the sign-in page come back to /?signed_in=1, or =new
  // for a new account; a link that no longer works to /?sign_in=spent), or
  // of a sign-out or deletion, and takes it out of the address.
  returned() {
    const q = new URLSearchParams(location.search);
    const says = [['signed_in', '1', 'signedIn'], ['signed_in', 'new', 'welcome'], ['sign_in', 'spent', 'spent'],
      ['sign_in', 'unavailable', 'unavailable'], ['signed_out', '1', 'signedOut'], ['deleted', '1', 'deleted']];
    for (const [k, v, key] of says) {
      if (q.get(k) !== v) continue;
      this.notice = {key, error: k === 'sign_in', link: k === 'sign_in' ? '/signin' : v === 'new' ? '/account' : null};
      q.delete(k);
    }
    if (this.notice) history.replaceState(null, '', location.pathname + (q.size ? '?' + q : '') + location.hash);
  }

  // progress saves the seats this browser played as a guest to the account
  // just signed in to, when the player asked for it before signing in;
  // otherwise it offers to.
  async progress() {
    const seats = guestSeats(this.me.id, (id, seat) => this.myGames.holds(id, seat));
    if (!seats.length) { dropIntent(); this.offer = 0; return; }
    if (!savingWanted()) {
      this.offer = new Set(seats.map((x) => x.match)).size;
      return;
    }
    await this.save(seats);
  }

  async save(seats) {
    dropIntent();
    try {
      const r = await saveProgress(this.me.id, seats || guestSeats(this.me.id, (id, seat) => this.myGames.holds(id, seat)));
      this.offer = 0;
      this.saved = r;
    } catch (e) {
      this.saved = {error: e};
    }
    await this.myGames.load();
  }

  // drawNotice says what signing in did, and offers to save a guest's
  // matches: a region the focus goes to when it has something to say.
  drawNotice() {
    const n = this.notice, saved = this.saved;
    if (!n && !saved && !this.offer) return null;
    return h('section', {class: 'panel notice' + (n && n.error || saved && saved.error ? ' bad' : ''), id: 'account-notice', tabindex: '-1', 'aria-labelledby': this.offer ? 'offer-h' : null},
      n ? h('p', {id: 'notice-text', role: n.error ? 'alert' : 'status'}, t('notice.' + n.key), n.link ? [' ', h('a', {href: n.link, id: 'notice-link'}, t('notice.' + n.key + 'Link'))] : null) : null,
      saved ? h('p', {id: 'saved-text', role: saved.error ? 'alert' : 'status'}, savedText(saved)) : null,
      this.offer ? [
        h('h2', {id: 'offer-h'}, t('progress.title')),
        h('p', {id: 'offer-text'}, tn('progress.offer', this.offer)),
        h('div', {class: 'row'},
          h('button', {type: 'button', class: 'primary', id: 'save-progress', onclick: async () => {
            await this.save();
            this.draw();
            document.getElementById('account-notice')?.focus();
          }}, t('progress.save')),
          h('button', {type: 'button', id: 'save-later', onclick: () => { this.offer = 0; this.draw(); document.getElementById('my-games')?.focus(); }}, t('progress.later')))] : null);
  }

  // loadMine fetches the summaries of the matches this browser holds: all
  // at first, then those that may still change. A match the server no
  // longer has, and finished ones past the newest few, are forgotten.
  async loadMine() {
    const ids = Object.keys(heldAll()).filter((id) => !this.mine.has(id) || !isOver(this.mine.get(id).status));
    await Promise.all(ids.map(async (id) => {
      try {
        this.mine.set(id, await api('GET', '/api/matches/' + id));
      } catch (e) {
        if (e.status === 404) { forget(id); this.mine.delete(id); }
      }
    }));
    const finished = [...this.mine.values()].filter((m) => isOver(m.status))
      .sort((a, b) => String(b.finished_at || '').localeCompare(String(a.finished_at || '')));
    for (const m of finished.slice(MINE_FINISHED)) { forget(m.id); this.mine.delete(m.id); }
  }

  async loadMatches() {
    const tab = this.tab;
    let got = [];
    try {
      const r = await api('GET', '/api/matches?status=' + (QUERY[tab] || tab) + '&limit=50');
      got = r.matches || [];
    } catch (e) {
      got = [];
    }
    if (this.tab === tab) this.matches = got; // (a tab left meanwhile keeps its list out)
  }

  gameName(id) {
    const g = this.games.find((x) => x.id === id);
    return g ? tx(g.name) : id;
  }

  choose(g) {
    this.game = g;
    this.created = null;
    if (!g) { this.form = null; return; }
    const opts = {};
    for (const o of g.options || []) opts[o.key] = o.default;
    const players = g.min_players;
    const timers = g.default_timers || {};
    // A correspondence table (turn-based and simultaneous games): a move
    // limit in days, and days off for each player.
    const corr = g.correspondence || {};
    this.form = {players, options: opts, seats: [], botDelay: BOT_PACE, moveLimit: timers.move_limit_ms || 0, takeover: timers.takeover_after_ms || 0,
      clock: 'live', corrLimit: (corr.move_limits_ms || [])[0] || 0, daysOff: corr.days_off || 0};
    this.fitSeats();
  }

  // fitSeats keeps one seat row per player: the first human, the others
  // bots by default.
  fitSeats() {
    const f = this.form, g = this.game;
    const bot = 'medium';
    while (f.seats.length < f.players) {
      f.seats.push({kind: f.seats.length === 0 ? 'human' : 'bot', bot, name: f.seats.length === 0 ? playerName() : ''});
    }
    f.seats.length = f.players;
  }

  draw() {
    keepFocus(() => this.drawPage());
  }

  drawPage() {
    document.title = t('lobby.pageTitle');
    fill(this.root,
      h('h1', {}, t('lobby.title')),
      h('p', {class: 'lead'}, t('lobby.lead')),
      // Newcomers learn here; everyone has a deal to beat today.
      h('p', {class: 'lobby-teach', id: 'lobby-teach'}, t('learn.lobbyLine'), ' ',
        h('a', {href: '/learn', id: 'lobby-learn'}, t('learn.indexTitle')), ' · ',
        h('a', {href: '/daily', id: 'lobby-daily'}, t('daily.link'))),
      this.error ? h('p', {class: 'error', role: 'alert'}, this.error) : null,
      this.drawNotice(),
      this.myGames ? this.myGames.section() : null,
      this.playNow ? this.playNow.section() : null,
      h('section', {class: 'panel', 'aria-labelledby': 'new-h'},
        h('h2', {id: 'new-h'}, t('lobby.new')),
        this.drawGames(),
        this.game ? this.drawForm() : null,
        this.created ? this.drawCreated() : null),
      this.drawMine(),
      h('section', {class: 'panel', 'aria-labelledby': 'list-h'},
        h('h2', {id: 'list-h'}, t('lobby.matches')),
        // The tab pattern (WAI-ARIA): one tab stop for the tabs, the
        // arrow keys, Home and End move between them and show theirs.
        h('div', {class: 'tabs', role: 'tablist', 'aria-labelledby': 'list-h', onkeydown: (e) => this.tabKey(e)}, STATUSES.map((st) => h('button', {
          type: 'button', role: 'tab', id: 'tab-' + st, 'aria-selected': String(st === this.tab), 'aria-controls': 'match-list',
          tabindex: st === this.tab ? '0' : '-1', onclick: () => this.showTab(st),
        }, t('status.' + st)))),
        h('div', {id: 'match-list', role: 'tabpanel', tabindex: '0', 'aria-labelledby': 'tab-' + this.tab})),
      h('section', {class: 'panel', 'aria-labelledby': 'inv-h'},
        h('h2', {id: 'inv-h'}, t('lobby.haveInvite')),
        this.drawInviteBox()),
    );
    this.drawMatches();
    this.drawMineList();
    this.myGames?.drawList();
    this.playNow?.draw();
  }

  // showTab shows the matches of a tab; the focus stays on (or goes to)
  // the tab.
  async showTab(st) {
    this.tab = st;
    await this.loadMatches();
    this.draw();
    if (this.tab === st) document.getElementById('tab-' + st)?.focus();
  }

  tabKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const i = STATUSES.indexOf(this.tab), n = STATUSES.length;
    const to = {ArrowRight: (i + 1) % n, ArrowLeft: (i + n - 1) % n, Home: 0, End: n - 1}[e.key];
    if (to == null) return;
    e.preventDefault();
    // The tab is selected as it is reached (its list comes at once).
    this.tab = STATUSES[to];
    for (const b of document.querySelectorAll('[role="tab"]')) {
      const on = b.id === 'tab-' + this.tab;
      b.setAttribute('aria-selected', String(on));
      b.setAttribute('tabindex', on ? '0' : '-1');
    }
    document.getElementById('tab-' + this.tab).focus();
    this.showTab(this.tab);
  }

  drawGames() {
    if (!this.games.length) return h('p', {}, t('lobby.noGames'));
    return h('fieldset', {class: 'games'},
      h('legend', {}, t('lobby.chooseGame')),
      this.games.map((g) => h('div', {class: 'game-card' + (this.game === g ? ' chosen' : ''), 'data-game': g.id},
        h('label', {class: 'game-pick'},
          h('span', {class: 'game-picture'}, decorative(emblem(g.id))),
          h('span', {class: 'game-line'},
            h('input', {type: 'radio', name: 'game', value: g.id, id: 'game-' + g.id, checked: this.game === g,
              'aria-describedby': 'game-meta-' + g.id + ' game-sum-' + g.id,
              onchange: () => { this.choose(g); this.draw(); document.getElementById('create')?.scrollIntoView({block: 'nearest'}); }}),
            h('span', {class: 'game-name'}, tx(g.name)))),
        h('span', {class: 'game-meta', id: 'game-meta-' + g.id}, playerRange(g), ' · ', t('timing.' + g.timing)),
        h('span', {class: 'game-summary', id: 'game-sum-' + g.id}, tx(g.summary)),
        h('span', {class: 'game-links'},
          h('a', {class: 'howto', href: '/help/' + g.id}, t('help.link', {game: tx(g.name)})),
          h('a', {class: 'learn', href: '/learn/' + g.id}, t('learn.linkFor', {game: tx(g.name)}))))));
  }

  drawForm() {
    const g = this.game, f = this.form;
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n++) counts.push(n);
    return h('form', {id: 'create', class: 'create', onsubmit: (e) => { e.preventDefault(); this.create(); }},
      h('h3', {}, t('lobby.setup', {game: tx(g.name)})),
      h('div', {class: 'field'},
        h('label', {for: 'players'}, t('lobby.players')),
        h('select', {id: 'players', onchange: (e) => { f.players = +e.target.value; this.fitSeats(); this.draw(); document.getElementById('players').focus(); }},
          counts.map((n) => h('option', {value: n, selected: n === f.players}, String(n))))),
      (g.options || []).map((o) => this.drawOption(o)),
      h('fieldset', {class: 'seats'},
        h('legend', {}, t('lobby.seats')),
        f.seats.map((st, i) => this.drawSeat(st, i))),
      this.drawTimers(),
      h('button', {type: 'submit', class: 'primary', id: 'create-btn'}, t('lobby.create')));
  }

  // drawTimers offers the time controls, in minutes and seconds, set to the
  // game's usual ones. A real-time game runs on its own clock: it has no
  // move limit and its bots keep their own pace.
  drawTimers() {
    const g = this.game, f = this.form, usual = g.default_timers || {};
    const realTime = g.timing === 'real_time';
    const corr = g.correspondence && f.clock === 'correspondence';
    // (Open or closed, it stays so through redraws and another game.)
    return h('details', {class: 'advanced', open: this.advancedOpen || null, ontoggle: (e) => { this.advancedOpen = e.target.open; }},
      h('summary', {}, t('lobby.advanced')),
      realTime ? h('p', {class: 'help'}, t('lobby.realTimeNote')) : [
        g.correspondence ? h('div', {class: 'field'},
          h('label', {for: 'clock'}, t('lobby.clock')),
          h('select', {id: 'clock', onchange: (e) => { f.clock = e.target.value; this.draw(); document.getElementById('clock')?.focus(); }},
            h('option', {value: 'live', selected: !corr}, t('lobby.clockLive')),
            h('option', {value: 'correspondence', selected: corr}, t('lobby.clockCorr')))) : null,
        corr ? this.drawCorrespondence() : timerField('move-limit', t('lobby.moveLimit'), f.moveLimit, MOVE_LIMITS, usual.move_limit_ms || 0, t('lobby.noLimit'), (v) => { f.moveLimit = v; }),
        timerField('bot-delay', t('lobby.botDelay'), f.botDelay, PACES, BOT_PACE, t('lobby.noPause'), (v) => { f.botDelay = v; }),
      ],
      // A correspondence table never hands a seat over for a closed page.
      corr ? null : timerField('takeover', t('lobby.takeover'), f.takeover, TAKEOVERS, usual.takeover_after_ms || 0, t('lobby.never'), (v) => { f.takeover = v; }),
      // Hints come after the clocks (a game whose clock runs has none):
      // on by default at a table of one person and bots, as the server
      // decides; a table that allows them is not rated.
      realTime ? null : h('div', {class: 'field check'},
        h('input', {id: 'opt-hints', type: 'checkbox', 'aria-describedby': 'opt-hints-help',
          checked: f.hints != null ? f.hints : f.seats.filter((st) => st.kind === 'human').length === 1,
          onchange: (e) => { f.hints = e.target.checked; }}),
        h('label', {for: 'opt-hints'}, t('lobby.hints')),
        h('small', {id: 'opt-hints-help', class: 'help'}, t('lobby.hintsHelp'))));
  }

  // drawCorrespondence offers a correspondence table's move limit (the
  // days the server allows) and each player's days off.
  drawCorrespondence() {
    const c = this.game.correspondence, f = this.form;
    const limits = c.move_limits_ms || [];
    return [
      h('div', {class: 'field'}, h('label', {for: 'corr-limit'}, t('lobby.corrLimit')),
        h('select', {id: 'corr-limit', onchange: (e) => { f.corrLimit = +e.target.value; }},
          limits.map((ms, i) => {
            const text = fmtDuration(ms);
            return h('option', {value: ms, selected: ms === f.corrLimit}, i === 0 ? t('lobby.default', {time: text}) : text);
          }))),
      h('div', {class: 'field'}, h('label', {for: 'days-off'}, t('lobby.daysOff')),
        h('input', {id: 'days-off', type: 'number', min: 0, max: c.max_days_off, step: 1, value: f.daysOff, inputmode: 'numeric',
          'aria-describedby': 'days-off-help',
          onchange: (e) => { f.daysOff = Math.max(0, Math.min(c.max_days_off, Math.round(+e.target.value) || 0)); e.target.value = f.daysOff; }}),
        h('small', {id: 'days-off-help', class: 'help'}, t('lobby.daysOffHelp'))),
    ];
  }

  // drawInviteBox opens an invite link pasted by a friend: a whole link, a
  // path /play/…, or a match id. Anything else is said wrong next to the
  // field, which keeps what was typed.
  drawInviteBox() {
    const example = location.origin + '/play/Ab3dEf6hIj9k?seat=1#token=…';
    const err = h('p', {id: 'invite-error', class: 'error', role: 'alert', hidden: !this.inviteError}, this.inviteError ? t('lobby.badInvite', {example}) : '');
    const input = h('input', {id: 'invite', name: 'invite', type: 'text', inputmode: 'url', autocomplete: 'off', spellcheck: 'false',
      placeholder: location.origin + '/play/…', value: this.inviteText || '', 'aria-invalid': this.inviteError ? 'true' : null,
      'aria-describedby': 'invite-error', oninput: (e) => { this.inviteText = e.target.value; }});
    return h('form', {class: 'invite-form', novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      const to = inviteTarget(input.value);
      this.inviteError = !to;
      if (to) { location.href = to; return; }
      err.textContent = t('lobby.badInvite', {example});
      err.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }},
    h('div', {class: 'row'},
      h('label', {for: 'invite'}, t('lobby.inviteLink')), input,
      h('button', {type: 'submit', id: 'invite-open'}, t('lobby.open'))),
    err);
  }

  drawOption(o) {
    const f = this.form, id = 'opt-' + o.key;
    const help = o.help ? h('small', {id: id + '-help', class: 'help'}, tx(o.help)) : null;
    let input;
    if (o.kind === 'bool') {
      input = h('input', {id, type: 'checkbox', checked: f.options[o.key] === 'true', 'aria-describedby': help ? id + '-help' : null,
        onchange: (e) => { f.options[o.key] = String(e.target.checked); }});
      return h('div', {class: 'field check'}, input, h('label', {for: id}, tx(o.name)), help);
    }
    if (o.kind === 'int') {
      input = h('input', {id, type: 'number', min: o.min, max: o.max, value: f.options[o.key], 'aria-describedby': help ? id + '-help' : null,
        onchange: (e) => { f.options[o.key] = String(e.target.value); }});
    } else if (o.kind === 'string') {
      input = h('input', {id, type: 'text', maxlength: o.max || 200, value: f.options[o.key] || '', 'aria-describedby': help ? id + '-help' : null,
        onchange: (e) => { f.options[o.key] = e.target.value; }});
    } else {
      input = h('select', {id, 'aria-describedby': help ? id + '-help' : null, onchange: (e) => { f.options[o.key] = e.target.value; }},
        (o.choices || []).map((c) => h('option', {value: c, selected: c === f.options[o.key]}, choiceText(this.game.id, o.key, c))));
    }
    return h('div', {class: 'field'}, h('label', {for: id}, tx(o.name)), input, help);
  }

  drawSeat(st, i) {
    const g = this.game;
    const kind = h('select', {id: 'seat-kind-' + i, 'aria-label': t('lobby.seatKind', {n: i + 1}),
      onchange: (e) => { st.kind = e.target.value; this.draw(); document.getElementById('seat-kind-' + i).focus(); }},
      h('option', {value: 'human', selected: st.kind === 'human'}, t('seat.human')),
      h('option', {value: 'bot', selected: st.kind === 'bot'}, t('seat.bot')));
    // The levels every game offers (the server maps them to its bots), then
    // the game's own bots by name.
    const others = (g.bots || []).filter((b) => !LEVELS.includes(b));
    const level = h('select', {id: 'seat-bot-' + i, 'aria-label': st.kind === 'bot' ? t('lobby.botLevel', {n: i + 1}) : t('lobby.standIn', {n: i + 1}),
      onchange: (e) => { st.bot = e.target.value; }},
      h('optgroup', {label: t('lobby.levels')}, LEVELS.map((b) => h('option', {value: b, selected: b === st.bot}, botName(b)))),
      others.length ? h('optgroup', {label: t('lobby.namedBots')}, others.map((b) => h('option', {value: b, selected: b === st.bot}, botName(b)))) : null);
    const name = h('input', {id: 'seat-name-' + i, type: 'text', maxlength: 40, value: st.name,
      'aria-label': t('lobby.seatName', {n: i + 1}), placeholder: st.kind === 'bot' ? seatNames([{seat: i, kind: 'bot', bot: st.bot}])[0] : t('lobby.namePlaceholder'),
      oninput: (e) => { st.name = e.target.value; if (i === 0 && st.kind === 'human') setPlayerName(st.name); }});
    return h('div', {class: 'seat-row', 'data-seat': i},
      h('span', {class: 'seat-no'}, t('seat.n', {n: i + 1})), kind,
      st.kind === 'bot' ? level : null, name);
  }

  async create() {
    const g = this.game, f = this.form;
    const corr = g.correspondence && f.clock === 'correspondence';
    const req = {
      game: g.id, players: f.players, options: f.options, auto_start: true, bot_delay_ms: f.botDelay,
      ...(corr ? {clock: 'correspondence', move_limit_ms: f.corrLimit, days_off: f.daysOff} : {move_limit_ms: f.moveLimit, takeover_after_ms: f.takeover}),
      ...(f.hints != null ? {hints: f.hints} : {}),
      seats: f.seats.map((st) => ({kind: st.kind, bot: st.bot, name: st.name.trim()})),
    };
    const btn = document.getElementById('create-btn');
    if (btn) btn.disabled = true;
    try {
      const c = await api('POST', '/api/matches', req);
      const seats = {}, invites = {};
      for (const st of c.seats) {
        if (st.token) {
          seats[st.seat] = st.token;
          invites[st.seat] = new URL(st.invite, location.href).href;
        }
      }
      const first = c.seats.find((st) => st.token);
      remember(c.match.id, {game: g.id, seats, invites, host: c.host_token, last: first ? first.seat : null, created: Date.now()});
      this.created = c;
      this.mine.set(c.match.id, c.match);
      // The creator's own seat is joined at once under the name given.
      if (first) {
        const name = (f.seats[first.seat].name || '').trim();
        try { await api('POST', '/api/matches/' + c.match.id + '/join', {name}, first.token); } catch (e) { toast(errorText(e), 'error'); }
      }
      // Signed in, the match is the account's: it goes to My games.
      if (this.myGames) await this.myGames.load();
      this.draw();
      document.getElementById('created')?.focus();
    } catch (e) {
      toast(errorText(e, g.id), 'error', 8000);
      if (btn) btn.disabled = false;
    }
  }

  drawCreated() {
    const c = this.created, id = c.match.id;
    const humans = c.seats.filter((st) => st.token);
    const first = humans[0];
    return h('div', {id: 'created', class: 'created', tabindex: '-1', role: 'region', 'aria-label': t('lobby.created')},
      h('h3', {}, t('lobby.created')),
      humans.length > 1 ? h('p', {}, t('lobby.sendInvites')) : null,
      h('ul', {class: 'invites'}, humans.slice(1).map((st) => {
        const url = new URL(st.invite, location.href).href;
        return h('li', {'data-seat': st.seat},
          h('span', {}, t('seat.n', {n: st.seat + 1})), ' ',
          h('input', {type: 'text', readonly: true, value: url, class: 'invite-url', 'aria-label': t('lobby.inviteFor', {n: st.seat + 1}), onfocus: (e) => e.target.select()}),
          h('button', {type: 'button', class: 'copy', onclick: async () => {
            toast(await copyText(url) ? t('lobby.copied') : t('lobby.copyFailed'));
          }}, t('lobby.copy')),
          this.me ? inviteFriend(id, st.seat, c.host_token) : null);
      })),
      first
        ? h('a', {class: 'button primary', id: 'play-link', href: '/play/' + id + '?seat=' + first.seat}, t('lobby.play', {n: first.seat + 1}))
        : h('a', {class: 'button primary', id: 'play-link', href: '/play/' + id}, t('lobby.watch')));
  }

  // drawMine is "Your matches": those still to play (open or running),
  // newest first, then the newest finished ones, each with where it stands.
  // Signed in, "My games" lists the account's matches: this list keeps
  // those this browser holds that are not the account's. A guest who holds
  // seats is offered to keep them in an account ("Save my progress").
  drawMine() {
    if (!this.mineHere().length) return null;
    const guest = accountsOn() && !this.me && guestSeats(null).length;
    return h('section', {class: 'panel', id: 'mine', 'aria-labelledby': 'mine-h'},
      h('h2', {id: 'mine-h'}, this.me ? t('lobby.mineBrowser') : t('lobby.mine')),
      h('div', {id: 'mine-list'}),
      guest ? h('p', {class: 'save-line', id: 'save-line'}, t('progress.guest'), ' ',
        h('a', {href: '/signin', id: 'save-progress-link', onclick: () => wantSave()}, t('progress.save'))) : null);
  }

  // mineHere are the matches this browser holds that "Your matches" lists.
  mineHere() {
    const shown = this.myGames ? this.myGames.ids() : new Set();
    return Object.entries(heldAll()).filter(([id]) => !shown.has(id));
  }

  drawMineList() {
    const box = document.getElementById('mine-list');
    if (!box) return;
    const all = this.mineHere().map(([id, m]) => ({id, m, sum: this.mine.get(id)}));
    const active = all.filter((x) => !x.sum || !isOver(x.sum.status)).sort((a, b) => (b.m.created || 0) - (a.m.created || 0));
    const done = all.filter((x) => x.sum && isOver(x.sum.status))
      .sort((a, b) => String(b.sum.finished_at || '').localeCompare(String(a.sum.finished_at || ''))).slice(0, MINE_FINISHED);
    const item = ({id, m, sum}) => {
      const seat = m.last != null ? m.last : Object.keys(m.seats || {})[0];
      const status = sum ? sum.status : null;
      return h('li', {'data-mine': id, 'data-status': status || ''},
        h('a', {href: '/play/' + id + (seat != null ? '?seat=' + seat : '')},
          t('lobby.mineItem', {game: this.gameName(m.game), id, n: seat != null ? +seat + 1 : '—'})), ' ',
        status ? h('span', {class: 'badge'}, t('status.' + status)) : null, ' ',
        sum ? h('span', {class: 'mine-detail'}, this.mineDetail(sum, seat)) : null);
    };
    fill(box,
      active.length ? [h('h3', {}, t('lobby.mineActive')), h('ul', {class: 'mine'}, active.map(item))] : null,
      done.length ? [h('h3', {}, t('lobby.mineFinished')), h('ul', {class: 'mine'}, done.map(item))] : null);
  }

  // mineDetail says where one of the player's matches stands: who it
  // waits for, who won, why it ended early.
  mineDetail(m, seat) {
    const names = seatNames(m.seats || []);
    if (m.status === 'open') {
      const humans = (m.seats || []).filter((st) => st.kind === 'human');
      const me = (m.seats || [])[+seat];
      const others = humans.filter((st) => st !== me);
      // A correspondence table waits for its players to join, not to be
      // on its page.
      const here = (st) => st.joined && (st.connected || isCorrespondence(m));
      if (me && !here(me) && others.length && others.every(here)) return t('lobby.mineWaitsForYou');
      return t('lobby.mineHere', {here: humans.filter(here).length, total: humans.length});
    }
    if (m.status === 'finished') {
      const w = (m.outcome && m.outcome.winners) || [];
      return w.length ? t('lobby.won', {names: w.map((x) => names[x] || t('seat.n', {n: x + 1})).join(', ')}) : t('end.noWinner');
    }
    if (ENDED.includes(m.status)) return endedText(m.status, m.reason);
    if (m.status === 'running' && isCorrespondence(m)) return dueLine(m, (s) => s === +seat, (s) => names[s]);
    return '';
  }

  drawMatches() {
    const box = document.getElementById('match-list');
    if (!box) return;
    if (!this.matches.length) {
      fill(box, h('p', {}, t('lobby.noMatches.' + this.tab)));
      return;
    }
    fill(box, h('ul', {class: 'matches'}, this.matches.map((m) => {
      const mine = held(m.id);
      const names = seatNames(m.seats || []);
      // A bot's name says it is one ("Medium bot"), unless its host named it.
      const seatTexts = (m.seats || []).map((st, i) => (st.kind === 'bot' ? (namedBot(st) ? t('lobby.namedBot', {name: names[i]}) : names[i])
        : names[i] + (st.joined ? '' : ' (' + t('seat.free') + ')')));
      // A seat held here by its token, or by the account signed in.
      const ours = this.me ? (m.seats || []).find((st) => st.account === this.me.id) : null;
      const mySeat = mine && Object.keys(mine.seats || {}).length ? (mine.last != null ? mine.last : Object.keys(mine.seats)[0]) : ours ? ours.seat : null;
      // A match that failed or was closed has nothing to show but why.
      const open = m.status === 'failed' || m.status === 'closed' ? t('lobby.seeWhy') : isOver(m.status) ? t('lobby.replay') : t('lobby.spectate');
      return h('li', {class: 'match', 'data-match': m.id},
        h('span', {class: 'game-name'}, this.gameName(m.game)), ' ',
        h('span', {class: 'badge'}, t('status.' + m.status)), ' ',
        m.rated ? [h('span', {class: 'badge rated', 'data-rated': 'true'}, t('lobby.rated')), ' '] : null,
        h('span', {class: 'seats-list'}, seatTexts.join(' · ')), ' ',
        m.outcome && m.outcome.winners ? h('span', {class: 'winners'}, t('lobby.won', {names: m.outcome.winners.map((w) => names[w] || t('seat.n', {n: w + 1})).join(', ')})) : null,
        ENDED.includes(m.status) ? h('span', {class: 'reason'}, endedText(m.status, m.reason)) : null,
        h('span', {class: 'actions'},
          mySeat != null && !isOver(m.status) ? h('a', {class: 'button primary', 'data-key': 'resume-' + m.id, href: '/play/' + m.id + '?seat=' + mySeat}, t('lobby.resume'), matchContext(this.gameName(m.game), seatTexts)) : null,
          h('a', {class: 'button', 'data-key': 'open-' + m.id, href: '/play/' + m.id}, open, matchContext(this.gameName(m.game), seatTexts))));
    })));
  }
}

// savedText says what saving a guest's matches did.
function savedText(r) {
  if (r.error) return errorText(r.error);
  const parts = [];
  if (r.saved) parts.push(tn('progress.saved', r.saved));
  if (r.failed) parts.push(tn('progress.failed', r.failed));
  return parts.join(' ') || t('progress.nothing');
}

// namedBot says whether a bot seat was given a name of its own (bot seats
// were once named "<bot> bot" by the server).
function namedBot(st) {
  return !!st.name && st.name !== st.bot + ' bot';
}

// decorative hides a picture from screen readers where words beside it
// already say what it shows.
function decorative(el) {
  if (el) {
    el.setAttribute('aria-hidden', 'true');
    el.removeAttribute('role');
    el.removeAttribute('aria-label');
  }
  return el;
}

// matchContext tells a screen reader which match a link opens: the lobby
// lists many links that all read "Watch".
function matchContext(game, seats) {
  return h('span', {class: 'visually-hidden'}, ' — ' + t('lobby.linkContext', {game, seats: seats.join(', ')}));
}

// keepFocus redraws and puts the keyboard focus back on the same control
// (found again by its id or data-key), so that a refresh of the list or a
// choice never drops it to the page's body.
function keepFocus(draw) {
  const a = document.activeElement;
  const key = a && a !== document.body ? keyOf(a) || (a.name && a.value ? `input[name="${CSS.escape(a.name)}"][value="${CSS.escape(a.value)}"]` : null) : null;
  draw();
  if (!key || (document.activeElement && document.activeElement !== document.body && document.activeElement.isConnected)) return;
  const again = document.querySelector(key);
  if (canFocus(again)) again.focus({preventScroll: true});
}

function playerRange(g) {
  return g.min_players === g.max_players ? tn('lobby.playersExact', g.min_players) : t('lobby.playersRange', {min: g.min_players, max: g.max_players});
}

// The bots' pause before each move that the lobby proposes (turn-based and
// simultaneous games), and the choices of each timer, in milliseconds.
const BOT_PACE = 800;
const PACES = [0, 300, 500, 800, 1200, 2000, 3000, 5000];
const MOVE_LIMITS = [0, 30e3, 60e3, 90e3, 120e3, 180e3, 300e3, 600e3, 1800e3, 3600e3, 86400e3];
const TAKEOVERS = [0, 15e3, 30e3, 60e3, 120e3, 180e3, 300e3, 600e3, 1800e3, 3600e3];

// timerField is a choice among durations said as a person says them; the
// game's usual value is marked, and kept even when it is not a preset.
function timerField(id, label, value, choices, usual, zero, set) {
  const all = [...new Set([...choices, usual, value])].sort((a, b) => a - b);
  return h('div', {class: 'field'}, h('label', {for: id}, label),
    h('select', {id, onchange: (e) => set(+e.target.value)},
      all.map((ms) => {
        let text = ms === 0 ? zero : fmtDuration(ms);
        if (ms === usual) text = t('lobby.default', {time: text});
        return h('option', {value: ms, selected: ms === value}, text);
      })));
}

export function choiceText(game, key, c) {
  const k = game + '.opt.' + key + '.' + c;
  if (has(k)) return t(k);
  if (has('opt.choice.' + c)) return t('opt.choice.' + c);
  if (/_ms$/.test(key) && /^\d+$/.test(c)) return t('opt.seconds', {s: +c / 1000});
  return c;
}

// inviteTarget returns where an invite link leads on this site (a whole
// link, a /play/ path, or a bare match id), or null when it is none.
export function inviteTarget(v) {
  v = (v || '').trim();
  if (/^[A-Za-z0-9_-]{12}$/.test(v)) return '/play/' + v; // a match id
  let u;
  try { u = new URL(v, location.href); } catch { return null; }
  if (!/^https?:$/.test(u.protocol) || !/^\/play\/[A-Za-z0-9_-]+\/?$/.test(u.pathname)) return null;
  return u.origin === location.origin ? u.pathname + u.search + u.hash : u.href;
}
