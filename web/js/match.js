// The match page, shared by every game: joining a seat, the socket to the
// match (and coming back after a drop), whose turn it is, the legal actions,
// the event log, clocks, errors in words, and at the end the outcome, the
// full reveal and a replay of the match's log.

import {api, held, remember, playerName, setPlayerName} from './api.js';
import {t, tn, tx, has, onLang, errorText, getLang, list, phrase, people} from './i18n.js';
import {h, fill, toast, copyText, fmtClock, sameAction} from './ui.js';
import {loadBoard, describeEvent, labelAction} from './boards.js';
import {botName, seatNames} from './names.js';
import {ENDED, isOver, endedText} from './ended.js';
import {TurnAlert, AlertSettings} from './alerts.js';
import {FocusKeeper, canFocus} from './focus.js';
import {installTips} from './tips.js';
import {announce, announceNews, withdraw} from './announce.js';
import {prefsPanel, shortcutsOn, singleKey} from './prefs.js';
import {seatMark, icon} from '/pieces/common.js';
import {currentMe} from './session.js';
import {inviteFriend} from './friends.js';
import {HintPanel, drawHintsUsed} from './hints.js';
import {ReviewPanel, decisionNote} from './review.js';
import {isCorrespondence, deadlineText, daysOffText, paceText} from './deadline.js';

// Retry delays after a dropped connection, in milliseconds.
const RETRY = [500, 1000, 2000, 4000, 8000, 10000];
// Past this many legal actions the list gets a filter box.
const FILTER_AT = 12;
// The log keeps this many entries (the server's history holds 300).
const LOG_MAX = 500;
// The longest line of table talk (match.MaxChatLen on the server).
const CHAT_MAX = 300;

// Seat marks: a shape and a letter for each seat, so that seats never
// differ by colour alone.
export const SEAT_SHAPES = ['●', '■', '▲', '◆', '★', '⬟'];

export class MatchPage {
  // opts.seat and opts.token, if given, are the seat this page plays and
  // its token, kept by the page that made the match (a tutorial's) rather
  // than by this browser's list of matches.
  constructor(root, id, opts = {}) {
    this.root = root;
    this.id = id;
    this.opts = opts;
    this.seat = -1; // -1: spectator
    this.token = '';
    this.summary = null;
    this.info = null;
    this.mod = null;
    this.msg = null; // the newest state: seq, status, clock, actors, view, legal, outcome
    this.seats = [];
    this.log = []; // entries as data, said again in the language chosen (see entryText)
    this.alertSettings = new AlertSettings(() => this.drawChrome());
    this.ui = {}; // the board module's own state (selections), kept across redraws
    this.ws = null;
    this.retry = 0;
    this.sending = false;
    this.clockAt = 0; // performance.now() when msg.clock was received
    this.replay = null;
    this.step = null;
    window.sortie = {page: this}; // for the browser tests and curious players
  }

  async start() {
    onLang(() => this.drawAll());
    const q = new URLSearchParams(location.search);
    const hash = new URLSearchParams(location.hash.slice(1));
    let seat = q.has('seat') ? parseInt(q.get('seat'), 10) : null;
    if (hash.get('token') && seat != null) {
      remember(this.id, {seats: {[seat]: hash.get('token')}, last: seat});
      // The token leaves the address bar: it is kept in this browser only.
      history.replaceState(null, '', location.pathname + location.search);
    }
    const mine = held(this.id);
    if (seat == null && mine && mine.last != null && mine.seats[mine.last]) seat = +mine.last;
    if (seat != null && mine && mine.seats && mine.seats[seat]) {
      this.seat = seat;
      this.token = mine.seats[seat];
      remember(this.id, {last: seat});
    }
    if (this.opts.token) {
      this.seat = this.opts.seat;
      this.token = this.opts.token;
    }
    try {
      [this.summary, this.me] = await Promise.all([api('GET', '/api/matches/' + this.id), currentMe()]);
      this.info = await api('GET', '/api/games/' + this.summary.game);
    } catch (e) {
      fill(this.root, h('h1', {}, t('match.notFound')), h('p', {class: 'error', role: 'alert'}, errorText(e)),
        h('p', {}, h('a', {href: '/'}, t('match.backToLobby'))));
      return;
    }
    if (mine && !mine.game) remember(this.id, {game: this.summary.game});
    if (this.summary.status === 'failed' || this.summary.status === 'closed') {
      this.drawNotice(); // nothing to replay or show but why
      return;
    }
    this.mod = await loadBoard(this.summary.game);
    this.seats = this.summary.seats || [];
    // Signed in, a seat the account holds is played with the session, no
    // token: the one ?seat= names, or the account's first.
    if (this.seat < 0 && this.me) {
      const held = this.seats.filter((st) => st.account === this.me.id).map((st) => st.seat);
      const pick = seat != null ? held.find((s) => s === seat) : held[0];
      if (pick != null) this.seat = pick;
    }
    this.skeleton();
    const me = this.seats[this.seat];
    if (this.seat >= 0 && me && me.kind === 'human' && !me.joined && !isOver(this.summary.status)) {
      this.drawJoin();
      return;
    }
    this.alert = new TurnAlert(this.id, () => tx(this.info.name));
    this.connect();
    this.tick = setInterval(() => this.drawClock(), 250);
    addEventListener('online', () => { if (!this.ws) this.connect(); });
    addEventListener('keydown', (e) => this.onKey(e));
  }

  get game() { return this.summary.game; }

  // name returns a seat's display name: the one every sentence uses.
  name(s) {
    const names = seatNames(this.seats);
    return names[s] != null ? names[s] : t('seat.n', {n: s + 1});
  }

  // who names a seat in a sentence of the page's own: "you" for the seat
  // this page plays.
  who(s) {
    return phrase(this.name(s), {you: s >= 0 && s === this.seat});
  }

  // ---- layout ----

  skeleton() {
    this.el = {};
    const mk = (k, tag, attrs) => (this.el[k] = h(tag, attrs));
    fill(this.root, h('div', {class: 'match-page', id: 'match'},
      h('div', {class: 'match-head'},
        mk('title', 'h1', {}),
        mk('badge', 'span', {class: 'badge', id: 'status-badge'}),
        mk('clock', 'span', {class: 'clock', id: 'clock', 'aria-live': 'off'}),
        mk('helpLink', 'a', {href: '/help/' + this.game, class: 'help-link', id: 'help-link'}),
        h('a', {href: '/', class: 'back'}, '')),
      mk('banner', 'div', {class: 'banner', id: 'conn-banner', role: 'status', hidden: true}),
      // (Not a live region: what changed is said once, with the rest of
      // the moment's news: see sayTurn.)
      mk('turn', 'p', {class: 'turn', id: 'turn'}),
      mk('error', 'div', {class: 'error-box', id: 'error', role: 'alert', hidden: true}),
      mk('host', 'section', {class: 'panel host', id: 'host', hidden: true}),
      mk('end', 'section', {class: 'panel end', id: 'end', hidden: true, 'aria-labelledby': 'end-h'}),
      h('div', {class: 'match-body'},
        mk('board', 'section', {class: 'board game-' + this.game, id: 'board', 'aria-labelledby': 'board-h'}),
        h('aside', {class: 'side'},
          mk('seatsBox', 'section', {class: 'panel', id: 'seats', 'aria-labelledby': 'seats-h'}),
          mk('actions', 'section', {class: 'panel', id: 'actions', 'aria-labelledby': 'actions-h'}),
          mk('hints', 'section', {class: 'panel hints', id: 'hints', 'aria-labelledby': 'hints-h', hidden: true}),
          mk('logBox', 'section', {class: 'panel log-panel', id: 'log-panel', 'aria-labelledby': 'log-h'}),
          mk('prefs', 'section', {class: 'panel', id: 'prefs-panel'})))));
    this.root.querySelector('.back').textContent = t('match.backToLobby');
    this.drawChrome();
    installTips();
    this.keeper = new FocusKeeper(this.el.board);
    this.hints = new HintPanel(this, this.el.hints);
    // The shortcuts setting changes what the board offers and the turn says.
    this.el.prefs.addEventListener('change', (e) => { if (e.target.id === 'pref-shortcuts') this.draw(); });
    this.actionsKeeper = new FocusKeeper(this.el.actions);
    this.el.board.addEventListener('pointerdown', () => { this.pressed = true; });
    const release = () => {
      if (!this.pressed) return;
      this.pressed = false;
      // After the click event of this press.
      setTimeout(() => {
        const d = this.deferred;
        this.deferred = null;
        if (d && !this.pressed) this.drawBoard(d.events, d.prevView);
      }, 0);
    };
    addEventListener('pointerup', release, true);
    addEventListener('pointercancel', release, true);
  }

  // drawChrome writes the page's title, the help link and the settings,
  // which change only with the language.
  drawChrome() {
    const name = tx(this.info.name);
    document.title = t('match.pageTitle', {game: name});
    fill(this.el.helpLink, icon('info'), ' ', t('help.link', {game: name}));
    fill(this.el.prefs, h('h2', {}, t('prefs.title')), prefsPanel(), this.seat >= 0 ? this.alertSettings.render() : null);
  }

  drawAll() {
    if (this.notice) { this.drawNotice(); return; }
    if (!this.el) return;
    this.root.querySelector('.back').textContent = t('match.backToLobby');
    this.drawChrome();
    if (this.joining) { this.drawJoin(); return; }
    this.draw();
    this.drawLog(true);
    if (this.summary && this.summary.status === 'finished' || (this.msg && this.msg.status === 'finished')) this.drawEnd();
  }

  drawJoin() {
    this.joining = true;
    this.el.title.textContent = tx(this.info.name);
    this.el.turn.textContent = t('match.joinAs', {n: this.seat + 1});
    const input = h('input', {id: 'join-name', type: 'text', maxlength: 40, value: (this.me && this.me.name) || playerName(), autocomplete: 'nickname'});
    fill(this.el.board, h('form', {class: 'join', onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      setPlayerName(name);
      try {
        // (Without a token, the seat ?seat= names that the account holds.)
        const r = await api('POST', '/api/matches/' + this.id + '/join' + (this.token ? '' : '?seat=' + this.seat), {name}, this.token);
        this.summary = r.match;
        this.seats = r.match.seats;
        this.joining = false;
        fill(this.el.board);
        this.alert = new TurnAlert(this.id, () => tx(this.info.name));
        this.connect();
        this.tick = setInterval(() => this.drawClock(), 250);
        addEventListener('keydown', (ev) => this.onKey(ev));
      } catch (err) {
        this.showError(err);
      }
    }},
    h('h2', {id: 'board-h'}, t('match.join')),
    h('p', {}, tx(this.info.summary)),
    h('label', {for: 'join-name'}, t('match.yourName')), input,
    h('button', {type: 'submit', class: 'primary', id: 'join-btn'}, t('match.joinBtn'))));
    input.focus();
  }

  // ---- the socket ----

  connect() {
    const u = new URL('/api/matches/' + this.id + '/ws', location.href);
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    if (this.token) u.searchParams.set('token', this.token);
    // A seat without its token is the signed-in account's (its cookie
    // goes with the socket's request).
    if (this.seat >= 0) u.searchParams.set('seat', String(this.seat));
    const ws = new WebSocket(u);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
    };
    ws.reconnect = this.dropped; // (a state message on this socket then says "connected again")
    this.dropped = false;
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      this.onMessage(m);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.dropped = true;
      this.sending = false;
      // The board stays, dimmed: it is how things stood, no longer live.
      this.root.querySelector('.match-page').dataset.connected = 'false';
      if (e.code === 4001) {
        this.banner(t('match.replaced'), t('match.takeBack'), () => this.connect());
        return;
      }
      if (this.msg && this.msg.status === 'finished' && this.stopped) return;
      const wait = RETRY[Math.min(this.retry, RETRY.length - 1)];
      this.retry++;
      this.banner(t('match.reconnecting', {s: Math.ceil(wait / 1000)}), t('match.reconnectNow'), () => { clearTimeout(this.retryTimer); this.connect(); });
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => { if (!this.ws) this.connect(); }, wait);
    };
  }

  // drop closes the socket as a network failure would (the tests use it).
  drop() {
    if (this.ws) this.ws.close();
  }

  banner(text, button, action) {
    fill(this.el.banner, h('span', {}, text), button ? h('button', {type: 'button', onclick: action}, button) : null);
    this.el.banner.hidden = false;
  }

  onMessage(m) {
    switch (m.type) {
      case 'state': {
        // A socket's first state after a drop; a later one (the match
        // starting) is no reconnection.
        const reconnected = !!(this.ws && this.ws.reconnect);
        if (this.ws) this.ws.reconnect = false;
        this.seats = m.seats || this.seats;
        this.team = m.team;
        this.root.querySelector('.match-page').dataset.connected = 'true';
        if (m.history) this.setHistory(m.history, m.view);
        else if (this.msg && m.seq > this.msg.seq) this.logSys('match.missed');
        this.setState(m, []);
        this.el.banner.hidden = true;
        if (reconnected) toast(t('match.reconnected'));
        break;
      }
      case 'chat': case 'left': case 'back':
        this.onLine(m);
        break;
      case 'update':
        if (this.msg && m.seq <= this.msg.seq) return; // already shown
        this.setState(m, m.events || []);
        break;
      case 'seats': {
        const before = seatNames(this.seats).join('\n');
        this.noteAway(m.seats || []);
        this.seats = m.seats || this.seats;
        this.draw(); // (a seat left or taken back changes what this page may do)
        // A renamed seat is said again everywhere in the log.
        if (seatNames(this.seats).join('\n') !== before) this.drawLog(true);
        else this.drawLog();
        this.alertTurn();
        break;
      }
      case 'error':
        if (this.isTalkError(m.error)) { this.showTalkError(m.error); break; }
        this.sending = false;
        if (m.error && m.error.code === 'stale_seq' && this.lastSent && !this.resent && this.stillOffered(this.lastSent)) {
          // The match moved on (another seat acted, or time passed): the
          // same action, still legal, goes again on the new state, once.
          this.resent = true;
          this.send(this.lastSent);
          break;
        }
        this.showError(m.error || {});
        this.draw();
        break;
    }
  }

  setState(m, events) {
    const prev = this.msg;
    const was = prev ? prev.status : null;
    // An update may carry only what changed in the view since the state
    // before, which is the one held: rebuild the whole view from it.
    let view = m.view;
    if (view === undefined && m.patch && prev) {
      view = Object.assign({}, prev.view, m.patch);
      for (const k of m.drop || []) delete view[k];
    }
    m.view = view;
    this.msg = {
      seq: m.seq, status: m.status, clock: m.clock || 0, actors: m.actors || [], view,
      legal: m.legal || [], outcome: m.outcome || null, deadlines: m.deadlines || [], reason: m.reason || null,
    };
    this.clockAt = performance.now();
    this.sending = false;
    // A refusal stays until its reader dismisses it or acts again: other
    // seats' moves (bots play every second) must not wipe it unread.
    if (m.ack != null) {
      this.hideError();
      this.played = true; // (the keyboard goes on to the next decision: see drawBoard)
    }
    for (const ev of events) this.logEntry({kind: 'ev', ev, seq: m.seq, view, prev: prev ? prev.view : null});
    this.drawLog();
    this.draw(events, prev ? prev.view : null);
    if (m.status === 'finished' && was !== 'finished') {
      this.summary.status = 'finished';
      this.finishedSeen = Date.now();
      this.drawEnd();
    }
    this.alertTurn();
  }

  // play sends an action chosen on the state shown.
  play(action) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.showError({code: 'offline'});
      return;
    }
    if (this.sending) return;
    this.lastSent = action;
    this.resent = false;
    this.send(action);
  }

  // stillOffered says whether an action refused as stale may go again:
  // it is still this seat's turn and the action is among those offered
  // (a game that lists none leaves the judging to its rules).
  stillOffered(action) {
    if (!this.isMyTurn()) return false;
    const legal = this.msg.legal || [];
    return legal.length === 0 || legal.some((l) => sameAction(l, action));
  }

  send(action) {
    this.sending = true;
    this.hideError();
    this.ws.send(JSON.stringify({seq: this.msg.seq, action}));
    this.root.querySelector('.match-page').dataset.busy = 'true';
    clearTimeout(this.sendTimer);
    this.sendTimer = setTimeout(() => { this.sending = false; this.draw(); }, 8000);
  }

  showError(e) {
    const text = errorText(e, this.game, (s) => this.name(s));
    // A move kept until the server can save it is not refused: its
    // acknowledgement comes later and clears this.
    const head = e && e.code === 'pending' ? t('ended.notSaved') : t('match.refused');
    fill(this.el.error, h('strong', {}, head), ' ', h('span', {class: 'error-text'}, text),
      h('button', {type: 'button', class: 'close', onclick: () => this.hideError()}, icon('cross', {label: t('match.dismiss')})));
    this.el.error.hidden = false;
    this.el.error.dataset.code = (e && e.code) || '';
  }

  hideError() {
    this.el.error.hidden = true;
  }

  // ---- drawing ----

  // isMyTurn: this page's person must act now (not while their seat is
  // left to its bot).
  isMyTurn() {
    const me = this.seats[this.seat];
    return !!this.msg && this.msg.status === 'running' && this.seat >= 0 && this.msg.actors.includes(this.seat) && !(me && me.left);
  }

  ctx(events = [], prevView = null, over = {}) {
    const page = this;
    const legal = this.msg && this.seat >= 0 ? this.msg.legal : [];
    const c = {
      game: this.game, view: this.msg ? this.msg.view : null, prev: prevView, seat: this.seat,
      players: this.seats.length || (this.summary ? this.summary.players : 0),
      legal, actors: this.msg ? this.msg.actors : [], status: this.msg ? this.msg.status : this.summary.status,
      myTurn: this.isMyTurn(), busy: this.sending, events, readonly: false, ui: this.ui, lang: getLang(),
      shortcuts: shortcutsOn(),
      clock: this.msg ? this.currentClock() : 0,
      name: (s) => page.name(s),
      shape: (s) => SEAT_SHAPES[s % SEAT_SHAPES.length],
      play: (a) => page.play(a),
      find: (pred) => legal.filter(pred),
      isLegal: (a) => legal.some((b) => sameAction(a, b)),
      legalOf: (a) => legal.find((b) => sameAction(a, b)) || null,
      redraw: () => page.draw(),
      label: (a) => labelAction(page.mod, a, page.ctx()),
      ...over,
    };
    // who names a seat in a sentence: "you" when it is the seat this page
    // plays, or the seat a replay is seen by ("You laid a tile").
    c.who = (s) => phrase(page.name(s), {you: s >= 0 && s === c.seat});
    return c;
  }

  draw(events = [], prevView = null) {
    if (!this.el || !this.msg) return;
    const page = this.root.querySelector('.match-page');
    page.dataset.status = this.msg.status;
    page.dataset.seq = String(this.msg.seq);
    page.dataset.myTurn = String(this.isMyTurn());
    page.dataset.seat = String(this.seat);
    page.dataset.busy = String(this.sending);
    page.dataset.shortcuts = String(shortcutsOn());
    this.el.title.textContent = tx(this.info.name);
    this.el.badge.textContent = t('status.' + this.msg.status);
    this.drawTurn();
    this.drawSeats();
    this.drawBoard(events, prevView);
    this.drawActions();
    this.hints.draw();
    this.drawHost();
    this.drawClock();
    this.sayTurn();
  }

  drawBoard(events, prevView) {
    if (this.pressed) {
      // A pointer is down on the board: drawing now would swap the element
      // under it and lose the click. Draw once it is released.
      this.deferred = this.deferred || {events: [], prevView};
      this.deferred.events.push(...events);
      return;
    }
    this.deferred = null;
    const played = this.played;
    this.played = false;
    const key = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const inBoard = key && this.el.board.contains(document.activeElement);
    // Maps wider than the screen (a phone's) keep where their reader
    // panned them, or where the board first centred them.
    const pans = [...this.el.board.querySelectorAll('.pan[id]')].map((p) => [p.id, p.scrollLeft, p.scrollTop]);
    const ctx = this.ctx(events, prevView);
    const inner = h('div', {class: 'board-inner'});
    try {
      this.mod.render(inner, ctx);
    } catch (e) {
      console.error(e);
      inner.replaceChildren(h('p', {class: 'error'}, t('match.boardFailed')));
    }
    // Single-key shortcuts turned off are not offered to screen readers
    // either (their key hints are hidden by the page's style).
    if (!ctx.shortcuts) for (const el of inner.querySelectorAll('[aria-keyshortcuts]')) el.removeAttribute('aria-keyshortcuts');
    fill(this.el.board, h('h2', {id: 'board-h', class: 'visually-hidden'}, t('match.board')), inner);
    for (const [id, x, y] of pans) {
      const p = document.getElementById(id);
      if (p) { p.scrollLeft = x; p.scrollTop = y; }
    }
    // The board's decision area (data-decide) holds what the player
    // decides next: after they played from the board, the keyboard goes
    // there, to its first control, or to the area itself while nothing is
    // to decide, so that the next decision is one Tab away when it comes.
    const decide = inner.querySelector('[data-decide]');
    if (decide) {
      decide.setAttribute('tabindex', '-1');
      if (!decide.dataset.key) decide.dataset.key = 'decide';
      // Where the focus waits between turns says what it waits for.
      if (this.seat >= 0 && !decide.textContent.trim()) decide.append(h('p', {class: 'muted decide-wait'}, t('match.nextMoveSoon')));
    }
    if (played && decide && this.keeper.inside) {
      const all = (sel) => [...decide.querySelectorAll(sel)].filter(canFocus);
      const first = all('[data-act]')[0] || all('button, [tabindex="0"], a[href], input, select')[0] || decide;
      first.focus({preventScroll: true});
      return;
    }
    if (inBoard) {
      const again = this.el.board.querySelector('[data-key="' + CSS.escape(key) + '"]');
      if (again) again.focus();
    }
    this.keeper.restore(() => (this.mod.focusNext ? this.mod.focusNext(inner, ctx) : null));
  }

  drawTurn() {
    if (!this.msg) return;
    let text;
    const st = this.msg.status;
    this.turnNews = null;
    if (st === 'open') {
      const humans = this.seats.filter((s) => s.kind === 'human');
      // A match made in the lobby starts when every player has it open
      // (the server's auto_start): say who is not here yet.
      const away = humans.filter((s) => !s.joined || !s.connected);
      if (this.summary.settings && this.summary.settings.auto_start && isCorrespondence(this.summary)) {
        // A correspondence table starts once everyone has joined, pages
        // open or not.
        const out = humans.filter((s) => !s.joined);
        text = out.length ? t('deadline.waitingJoin', {names: list(out.map((s) => this.name(s.seat)))}) : t('match.starting');
      } else if (this.summary.settings && this.summary.settings.auto_start) {
        text = away.length ? t('match.waitingHere', {names: list(away.map((s) => this.name(s.seat)))}) : t('match.starting');
      } else {
        text = t('match.waitingJoin', {joined: humans.filter((s) => s.joined).length, total: humans.length});
      }
    } else if (st === 'finished') {
      text = t('match.over');
    } else if (ENDED.includes(st)) {
      text = endedText(st, this.msg.reason);
    } else {
      const actors = this.msg.actors;
      let extra = null;
      if (this.mod.status) {
        try { extra = this.mod.status(this.ctx()); } catch (e) { console.warn(e); }
      }
      if (this.isMyTurn()) {
        text = actors.length > 1 ? t('match.youAndOthers', {others: list(actors.filter((a) => a !== this.seat).map((a) => this.name(a)))}) : t('match.yourTurn');
        this.turnNews = {extra};
      } else if (!actors.length) text = t('match.nobody');
      else text = tn('match.waitingFor', actors.length, {names: people(actors.map((a) => this.who(a)))});
      if (extra) text += ' ' + extra;
    }
    // Written only when it changes: a live region rewritten with the same
    // words is read again.
    if (this.el.turn.textContent !== text) this.el.turn.textContent = text;
    this.el.turn.classList.toggle('mine', this.isMyTurn());
  }

  // sayTurn tells a screen reader that the player's turn has come, once,
  // briefly, after the news that brought it (a turn that passed before it
  // was said is not said). What the board asks (its status) is added the
  // first time it is asked: the same instructions are not read again every
  // turn.
  sayTurn() {
    const n = this.turnNews;
    if (!n) {
      this.turnHeard = false;
      withdraw('turn');
      return;
    }
    this.extrasHeard = this.extrasHeard || new Set();
    const parts = [];
    if (!this.turnHeard) parts.push(t('match.yourTurn'));
    if (n.extra && !this.extrasHeard.has(n.extra)) parts.push(n.extra);
    if (!parts.length) { withdraw('turn'); return; }
    announce(parts.join(' '), {key: 'turn', said: () => { this.turnHeard = true; if (n.extra) this.extrasHeard.add(n.extra); }});
  }

  drawSeats() {
    const actors = this.msg ? this.msg.actors : [];
    // Before the end, a rated table says so, with each side's chance
    // (each seat's, or the whole team's in co-op) where it is known.
    const sum = this.summary || {};
    const chances = sum.status === 'finished' ? [] : sum.chances || [];
    const pct = (c) => t('table.chance', {pct: new Intl.NumberFormat(getLang(), {style: 'percent'}).format(c.chance)});
    const seatChance = (seat) => chances.find((c) => c.seats.length === 1 && c.seats[0] === seat);
    const team = chances.find((c) => c.seats.length > 1);
    fill(this.el.seatsBox, h('h2', {id: 'seats-h'}, t('match.players')),
      h('p', {class: 'muted rated-line', id: 'rated-line'}, sum.rated ? t('table.rated') : t('table.unrated'), team ? ' · ' + pct(team) : '',
        isCorrespondence(sum) ? ' · ' + paceText(sum.settings) : ''),
      this.seatControls(),
      h('ul', {class: 'seat-list'}, this.seats.map((st) => h('li', {
        class: 'seat' + (actors.includes(st.seat) && this.msg.status === 'running' ? ' acting' : '') + (st.seat === this.seat ? ' me' : ''),
        'data-seat': st.seat,
      },
      seatMark(st.seat),
      // A player with an account has a profile.
      st.account ? h('a', {class: 'seat-name', href: '/players/' + encodeURIComponent(st.account)}, this.name(st.seat)) : h('span', {class: 'seat-name'}, this.name(st.seat)),
      st.seat === this.seat ? h('span', {class: 'tag'}, t('match.you')) : null,
      h('span', {class: 'tag'}, st.kind === 'bot' ? t('seat.botLevel', {level: botName(st.bot)}) : st.left ? t('table.seatLeft') : st.played_by === 'bot' ? t('seat.byBot') : st.connected ? t('seat.online') : st.joined ? t('seat.offline') : t('seat.notJoined')),
      seatChance(st.seat) ? h('span', {class: 'tag chance', 'data-chance': seatChance(st.seat).chance}, pct(seatChance(st.seat))) : null,
      actors.includes(st.seat) && this.msg.status === 'running' ? h('span', {class: 'tag acting-tag'}, t('match.toAct')) : null))));
  }

  // seatControls lets a player hand their seat to its bot for the rest of
  // the match (a second press confirms), or take it back.
  seatControls() {
    const me = this.seats[this.seat];
    if (!me || me.kind !== 'human' || !this.msg || this.msg.status !== 'running') return null;
    const send = (type) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { this.showError({code: 'offline'}); return; }
      this.ws.send(JSON.stringify({type}));
    };
    if (me.left) {
      return h('div', {class: 'seat-controls'}, h('p', {class: 'muted'}, t('table.youLeft')),
        h('button', {type: 'button', id: 'take-back', class: 'primary', onclick: () => send('return')}, t('table.takeBack')));
    }
    const armed = this.leaveArmed;
    return h('div', {class: 'seat-controls'}, h('button', {type: 'button', id: 'leave-seat', class: armed ? 'danger' : null,
      'data-key': 'leave-seat', onclick: () => {
        if (!this.leaveArmed) {
          this.leaveArmed = true;
          this.drawSeats();
          document.getElementById('leave-seat')?.focus();
          clearTimeout(this.leaveTimer);
          this.leaveTimer = setTimeout(() => { this.leaveArmed = false; this.drawSeats(); }, 8000); // not confirmed: never mind
          return;
        }
        clearTimeout(this.leaveTimer);
        this.leaveArmed = false;
        send('leave');
      }}, armed ? t('table.leaveConfirm') : t('table.leave')));
  }

  drawActions() {
    const legal = this.msg.legal || [];
    const mine = this.isMyTurn();
    const box = this.el.actions;
    const openBefore = box.querySelector('details') ? box.querySelector('details').open : !!this.mod.generic;
    const filterVal = box.querySelector('input.filter') ? box.querySelector('input.filter').value : '';
    const focusedIdx = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    if (!mine || !legal.length) {
      // A seat to act with no list: the server lists only short lists of
      // choices (engine.Offer); longer ones are composed on the board.
      const why = this.seat < 0 ? t('match.spectating') : mine ? t('match.onBoard') : this.msg.status === 'running' ? t('match.notYourTurn') : '—';
      fill(box, h('h2', {id: 'actions-h'}, t('match.actions')), h('p', {class: 'muted'}, why));
      this.actionsKeeper.restore(() => this.el.board.querySelector('[data-act]'));
      return;
    }
    const ctx = this.ctx();
    // A module may keep actions out of the list: Outran's legal submissions
    // during a run are the answers themselves.
    const shown = this.mod.listed ? legal.map((a, i) => [a, i]).filter(([a]) => this.mod.listed(a, ctx)) : legal.map((a, i) => [a, i]);
    if (!shown.length) {
      fill(box, h('h2', {id: 'actions-h'}, t('match.actions')), h('p', {class: 'muted'}, t('match.onBoard')));
      this.actionsKeeper.restore(() => this.el.board.querySelector('[data-act]'));
      return;
    }
    const items = shown.map(([a, i]) => ({a, i, label: labelAction(this.mod, a, ctx)}));
    const list = h('ul', {class: 'legal-list'});
    const paint = (q) => {
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      const shown = items.filter((it) => words.every((w) => it.label.toLowerCase().includes(w))).slice(0, 150);
      fill(list, shown.map((it) => h('li', {}, h('button', {
        type: 'button', class: 'legal', 'data-key': 'legal-' + it.i, 'data-action': it.a.type,
        disabled: this.sending, onclick: () => this.play(it.a),
      }, it.label))));
    };
    paint(filterVal);
    const generic = !!this.mod.generic;
    const details = h('details', {open: generic || openBefore ? true : null},
      h('summary', {}, tn('match.legalCount', items.length)),
      items.length > FILTER_AT ? h('input', {type: 'search', class: 'filter', value: filterVal, 'aria-label': t('match.filter'), placeholder: t('match.filter'), oninput: (e) => paint(e.target.value)}) : null,
      list);
    fill(box, h('h2', {id: 'actions-h'}, t('match.actions')), details);
    if (focusedIdx) {
      const again = box.querySelector('[data-key="' + CSS.escape(focusedIdx) + '"]');
      if (again) again.focus();
    }
    this.actionsKeeper.restore(() => box.querySelector('button.legal'));
  }

  drawHost() {
    const mine = held(this.id);
    const open = this.msg.status === 'open';
    // The host token this browser keeps, or else the signed-in account that
    // created the match (its cookie stands for the token; no invite links
    // then, which only the creating browser knows).
    const host = mine && mine.host;
    if (!open || (!host && !(this.summary && this.summary.you_host))) { this.el.host.hidden = true; return; }
    const invites = host ? Object.entries(mine.invites || {}) :
      (this.seats || []).map((st, i) => [String(i), null]).filter(([s]) => this.seats[+s].kind === 'human');
    const others = invites.filter(([s]) => +s !== this.seat);
    fill(this.el.host, h('h2', {}, t('match.hostTitle')),
      others.length ? h('ul', {class: 'invites'}, others.map(([s, url]) => {
        const st = this.seats[+s];
        return h('li', {'data-seat': s}, h('span', {}, t('seat.n', {n: +s + 1}), st && st.joined ? [' ', icon('check'), ' ', t('seat.joined')] : ''), ' ',
          url ? [h('input', {type: 'text', readonly: true, value: url, class: 'invite-url', 'aria-label': t('lobby.inviteFor', {n: +s + 1}), onfocus: (e) => e.target.select()}),
            h('button', {type: 'button', onclick: async () => toast(await copyText(url) ? t('lobby.copied') : t('lobby.copyFailed'))}, t('lobby.copy'))] : null,
          this.me && st && !st.joined ? this.inviteBox(+s, host || undefined) : null);
      })) : null,
      h('button', {type: 'button', id: 'start-btn', onclick: async () => {
        try { await api('POST', '/api/matches/' + this.id + '/start', undefined, host || undefined); } catch (e) { this.showError(e); }
      }}, t('match.startNow')),
      ' ', this.closeButton(host || undefined, () => this.drawHost()));
    this.el.host.hidden = false;
  }

  // inviteBox is the control that invites a friend to a seat, kept across
  // redraws (the friend chosen stays chosen).
  inviteBox(seat, host) {
    this.invites = this.invites || new Map();
    if (!this.invites.has(seat)) this.invites.set(seat, inviteFriend(this.id, seat, host));
    return this.invites.get(seat);
  }

  // closeButton lets the host close a match that never started, or that
  // failed: a second press within 8 s confirms. redraw draws it again.
  closeButton(host, redraw) {
    const armed = this.closeArmed;
    return h('button', {type: 'button', id: 'close-match', 'data-key': 'close-match', class: armed ? 'danger' : null, onclick: async () => {
      if (!this.closeArmed) {
        this.closeArmed = true;
        redraw();
        document.getElementById('close-match')?.focus();
        clearTimeout(this.closeTimer);
        this.closeTimer = setTimeout(() => { this.closeArmed = false; redraw(); }, 8000);
        return;
      }
      clearTimeout(this.closeTimer);
      this.closeArmed = false;
      try {
        this.summary = await api('POST', '/api/matches/' + this.id + '/close', undefined, host);
        redraw();
      } catch (e) {
        toast(errorText(e), 'error');
      }
    }}, armed ? t('ended.closeConfirm') : t('ended.close'));
  }

  // drawNotice is the whole page of a match that failed or was closed:
  // why, and for its host a way to close a failed one.
  drawNotice() {
    this.notice = true;
    const s = this.summary, mine = held(this.id);
    const host = s.status === 'failed' && mine && mine.host;
    document.title = t('match.pageTitle', {game: s.game});
    fill(this.root, h('div', {class: 'match-page notice', id: 'match', 'data-status': s.status},
      h('div', {class: 'match-head'},
        h('h1', {}, s.game),
        h('span', {class: 'badge', id: 'status-badge'}, t('status.' + s.status))),
      h('p', {class: 'turn', id: 'turn'}, endedText(s.status, s.reason)),
      host ? h('section', {class: 'panel host', id: 'host'}, h('p', {}, t('ended.closeHelp')), this.closeButton(mine.host, () => this.drawNotice())) : null,
      h('p', {}, h('a', {href: '/', class: 'back'}, t('match.backToLobby')))));
    api('GET', '/api/games/' + s.game).then((info) => {
      const name = tx(info.name);
      document.title = t('match.pageTitle', {game: name});
      const title = this.root.querySelector('h1');
      if (title) title.textContent = name;
    }).catch(() => {});
  }

  currentClock() {
    if (!this.msg) return 0;
    if (this.msg.status !== 'running') return this.msg.clock;
    return this.msg.clock + (performance.now() - this.clockAt);
  }

  drawClock() {
    if (!this.msg || !this.el) return;
    if (isCorrespondence(this.summary)) { this.drawDeadlines(); return; }
    const parts = [];
    const realTime = this.info.timing === 'real_time';
    if (realTime || this.msg.status === 'running') parts.push(t('match.clock', {time: fmtClock(this.currentClock())}));
    // The server says when each seat's move limit runs out.
    if (this.msg.status === 'running') {
      for (const d of this.msg.deadlines || []) {
        const left = d.at - this.currentClock();
        parts.push(d.seat === this.seat ? t('match.yourTime', {time: fmtClock(left)}) : t('match.theirTime', {name: this.name(d.seat), time: fmtClock(left)}));
      }
    }
    this.el.clock.textContent = parts.join(' · ');
    if (this.mod.tick) {
      try { this.mod.tick(this.el.board, this.ctx()); } catch (e) { console.warn(e); }
    }
  }

  // drawDeadlines says, at a correspondence table, when each seat that must
  // move has to, in the reader's time zone, and the reader's days off
  // left; its match clock (the time since the start) says nothing to
  // anyone.
  drawDeadlines() {
    const parts = [];
    if (this.msg.status === 'running') {
      const due = (this.msg.deadlines || []).filter((d) => d.by);
      due.sort((a, b) => Number(b.seat === this.seat) - Number(a.seat === this.seat));
      for (const d of due) {
        const mine = d.seat === this.seat;
        parts.push(deadlineText(d.by, mine, this.name(d.seat)) + (mine && d.days_off_left != null ? ' · ' + daysOffText(d.days_off_left) : ''));
      }
    }
    const text = parts.join(' · ');
    if (this.el.clock.textContent !== text) this.el.clock.textContent = text;
  }

  // ---- the log ----
  // The log is kept as data — {kind: 'ev', ev, seq, view, prev} for an
  // event, {kind: 'line', line} for table talk and a seat left or taken
  // back, {kind: 'sys', key, params} for the page's own notes — and said
  // in words when drawn, so that switching language says it all again.

  logEntry(e) {
    this.log.push(e);
    this.logTotal = (this.logTotal || 0) + 1;
    if (this.log.length > LOG_MAX) this.log.splice(0, this.log.length - LOG_MAX);
  }

  logSys(key, params) {
    this.logEntry({kind: 'sys', key, params});
  }

  // setHistory rebuilds the log from the history of a state message: what
  // this audience was told so far, the same as a page that stayed open.
  setHistory(history, view) {
    this.log = [];
    this.logTotal = 0;
    for (const e of history) {
      if (e.type === 'events') for (const ev of e.events || []) this.logEntry({kind: 'ev', ev, seq: e.seq, view});
      else this.logEntry({kind: 'line', line: e});
    }
    this.drawLog(true);
  }

  // entryText says a log entry in the current language, or null.
  entryText(e) {
    switch (e.kind) {
      case 'ev': {
        const view = e.view || (this.msg ? this.msg.view : null);
        return describeEvent(this.mod, e.ev, this.ctx([e.ev], e.prev || null, {view}));
      }
      case 'line': {
        const l = e.line, name = this.who(l.seat);
        if (l.type === 'left') return t('table.left', {name});
        if (l.type === 'back') return t('table.back', {name});
        return null; // drawn by lineItem
      }
      case 'sys': return t(e.key, e.params);
    }
    return null;
  }

  // logItem draws one entry; talk is shown as text, never as HTML.
  logItem(e) {
    if (e.kind === 'line' && e.line.type === 'chat') {
      const l = e.line;
      return h('li', {class: 'chat' + (l.seat === this.seat ? ' mine' : '') + (l.team != null ? ' team' : ''), 'data-n': l.n},
        l.team != null ? h('span', {class: 'tag'}, t('table.teamTag')) : null,
        h('span', {class: 'who seat-' + l.seat}, t('table.who', {name: this.name(l.seat)})), ' ',
        h('span', {class: 'said'}, l.text));
    }
    const text = this.entryText(e);
    if (!text) return null;
    return h('li', {class: e.kind === 'ev' ? 'ev' : 'sys', 'data-seq': e.seq}, text);
  }

  drawLog(full) {
    let ol = this.el.logBox.querySelector('ol');
    if (!ol || full) {
      fill(this.el.logBox, h('h2', {id: 'log-h'}, t('match.log')));
      ol = h('ol', {class: 'log', id: 'log', tabindex: '0', 'aria-label': t('match.log')});
      this.el.logBox.append(ol);
      this.drawTalk();
      this.shownTotal = (this.logTotal || 0) - this.log.length;
    }
    // The entries added since the last drawing (a full log drops its
    // oldest ones, so count from the end).
    const fresh = Math.min(this.log.length, (this.logTotal || 0) - (this.shownTotal || 0));
    const said = [];
    const added = this.log.slice(this.log.length - fresh);
    for (const e of added) {
      const li = this.logItem(e);
      if (!li) continue;
      ol.append(li);
      // News is read as it comes (a log drawn whole, on opening or in
      // another language, is not).
      if (!full && this.heard(e, added)) said.push(li.textContent);
    }
    announceNews(said);
    this.shownTotal = this.logTotal || 0;
    while (ol.children.length > 300) ol.firstChild.remove();
    ol.scrollTop = ol.scrollHeight;
  }

  // heard says whether a screen reader hears a new log entry: not the
  // echo of the player's own line of talk, not what the board already read
  // out urgently (saysUrgently), nor what the board says is no news to
  // this reader (heard: another runner's time while one runs, the echo of
  // one's own move).
  // added is the entries drawn with it: the board's heard(ev, ctx) sees the
  // events of the same update in ctx.events.
  heard(e, added) {
    if (e.kind === 'line') return !(e.line.type === 'chat' && e.line.seat === this.seat);
    if (e.kind !== 'ev') return true;
    if (this.mod?.saysUrgently?.has(e.ev.type)) return false;
    if (!this.mod?.heard) return true;
    const events = added.filter((x) => x.kind === 'ev' && x.seq === e.seq).map((x) => x.ev);
    try {
      return this.mod.heard(e.ev, this.ctx(events, e.prev || null, {view: e.view || (this.msg ? this.msg.view : null)})) !== false;
    } catch (err) {
      console.warn(err);
      return true;
    }
  }

  // ---- table talk ----

  // drawTalk keeps the talk form under the log: the input survives redraws
  // (and language switches) with what is being typed.
  drawTalk() {
    if (!this.el || !this.el.logBox) return;
    const box = this.el.talkBox || (this.el.talkBox = h('div', {class: 'talk', id: 'talk'}));
    if (this.seat < 0) {
      fill(box, h('p', {class: 'muted'}, t('table.readOnly')));
    } else {
      if (!this.el.talkInput) {
        this.el.talkInput = h('input', {id: 'chat-input', type: 'text', maxlength: CHAT_MAX, autocomplete: 'off'});
        this.el.talkTeam = h('input', {id: 'chat-team', type: 'checkbox'});
        this.el.talkError = h('p', {id: 'chat-error', class: 'error', role: 'alert', hidden: true});
      }
      this.el.talkInput.setAttribute('placeholder', t('table.say'));
      const etiquette = 'table.etiquette.' + this.game;
      fill(box,
        h('form', {id: 'chat-form', class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.say(); }},
          h('label', {for: 'chat-input', class: 'visually-hidden'}, t('table.say')),
          this.el.talkInput,
          h('button', {type: 'submit', id: 'chat-send'}, t('table.send')),
          this.team != null ? h('label', {class: 'check'}, this.el.talkTeam, ' ', t('table.teamOnly')) : null),
        has(etiquette) ? h('p', {class: 'help'}, t(etiquette)) : null,
        this.el.talkError);
    }
    if (box.parentNode !== this.el.logBox) this.el.logBox.append(box);
  }

  // say sends the line typed; it is cleared when the server tells it back.
  say() {
    const input = this.el.talkInput;
    const text = input.value;
    if (!text.trim()) return;
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { this.showTalkError({code: 'offline'}); return; }
    this.talkSent = text;
    this.el.talkError.hidden = true;
    this.ws.send(JSON.stringify({type: 'chat', text, team: this.team != null && this.el.talkTeam.checked}));
  }

  onLine(l) {
    if (l.type === 'chat' && l.seat === this.seat && this.el.talkInput && this.el.talkInput.value === this.talkSent) {
      this.el.talkInput.value = '';
      this.talkSent = null;
    }
    this.logEntry({kind: 'line', line: l});
    this.drawLog();
  }

  isTalkError(e) {
    return !!e && /^(chat_|no_team_chat$)/.test(e.code || '');
  }

  showTalkError(e) {
    if (!this.el.talkError) return;
    this.el.talkError.textContent = errorText(e, this.game, (s) => this.name(s));
    this.el.talkError.dataset.code = e.code || '';
    this.el.talkError.hidden = false;
  }

  // noteAway logs the seats whose bot stood in or stood down since the last
  // seats message (a seat left or taken back has its own line).
  noteAway(next) {
    for (const st of next) {
      const was = this.seats[st.seat];
      if (!was || st.kind !== 'human' || was.left !== st.left || was.played_by === st.played_by) continue;
      this.logSys(st.played_by === 'bot' ? 'table.away' : 'table.returned', {name: this.who(st.seat)});
    }
  }

  // ---- turn alerts ----

  // alertTurn tells the turn alert whether this page's seat must act now,
  // played by its person (not while its bot plays it, never for spectators).
  alertTurn() {
    if (!this.alert) return;
    const me = this.seats[this.seat];
    this.alert.update(this.isMyTurn() && !!me && me.played_by !== 'bot');
  }

  // ---- keyboard ----

  onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (this.replay && this.el.end.contains(e.target) && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) return;
    // Single-key shortcuts can be turned off (WCAG 2.1.4).
    if (singleKey(e) && !shortcutsOn()) return;
    if (this.mod.onKey && this.msg) {
      try { if (this.mod.onKey(e, this.ctx())) { e.preventDefault(); return; } } catch (err) { console.warn(err); }
    }
    if (e.key === 'a' && this.isMyTurn()) {
      const d = this.el.actions.querySelector('details');
      if (d) { d.open = true; const b = d.querySelector('button.legal'); if (b) b.focus(); e.preventDefault(); }
    } else if (e.key === 'l') {
      this.el.logBox.querySelector('ol')?.focus();
      e.preventDefault();
    }
  }

  // ---- the end: outcome, full reveal, replay ----

  async drawEnd() {
    const out = (this.msg && this.msg.outcome) || this.summary.outcome;
    const end = this.el.end;
    end.hidden = false;
    const winners = out && out.winners ? out.winners : [];
    const rows = this.seats.map((st) => ({seat: st.seat, rank: out && out.ranks ? out.ranks[st.seat] : null, score: out && out.scores ? out.scores[st.seat] : null}))
      .sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
    let headline;
    if (!winners.length) headline = t('end.noWinner');
    else if (this.seat >= 0 && winners.includes(this.seat)) headline = winners.length > 1 ? t('end.youShare') : t('end.youWin');
    else headline = tn('end.winners', winners.length, {names: list(winners.map((w) => this.name(w)))});
    // Seats that all share one rank (a co-operative game won or lost
    // together) are not ranked: "1st" for everyone says nothing, and
    // contradicts a table that lost.
    const ranked = new Set(rows.map((r) => r.rank)).size > 1;
    const trophy = (r) => (winners.includes(r.seat) ? [' ', icon('trophy', {label: t('end.winner')})] : '');
    fill(end,
      h('h2', {id: 'end-h'}, t('end.title')),
      h('p', {class: 'headline', id: 'end-headline'}, headline),
      h('table', {class: 'outcome'},
        h('thead', {}, h('tr', {}, ranked ? h('th', {scope: 'col'}, t('end.rank')) : null, h('th', {scope: 'col'}, t('end.player')), h('th', {scope: 'col'}, t('end.score')))),
        h('tbody', {}, rows.map((r) => h('tr', {class: winners.includes(r.seat) ? 'winner' : ''},
          ranked ? h('td', {}, r.rank ?? '—', trophy(r)) : null, h('td', {}, seatMark(r.seat), ' ', this.name(r.seat), ranked ? '' : trophy(r)), h('td', {}, r.score ?? '—'))))),
      // (The outcome's summary is the game's English sentence about seat
      // numbers: the headline and the table say it in words and names.)
      h('div', {id: 'hints-used', class: 'hints-used'}),
      h('div', {id: 'rematch', class: 'rematch'}),
      h('section', {id: 'analysis', class: 'analysis', 'aria-labelledby': 'analysis-h'}),
      h('div', {id: 'review'}, h('p', {}, t('end.loading'))));
    this.drawRematch();
    drawHintsUsed(this, end.querySelector('#hints-used'));
    if (this.summary.status === 'finished' || (this.msg && this.msg.status === 'finished')) new ReviewPanel(this, end.querySelector('#analysis')).load();
    if (!this.replay) {
      try {
        // (A match of today's challenge shows to its player alone: the
        // seat's token goes with the request.)
        this.replay = await api('GET', '/api/matches/' + this.id + '/replay', undefined, this.token || undefined);
      } catch (e) {
        fill(end.querySelector('#review'), h('p', {class: 'error'}, errorText(e)));
        return;
      }
      this.step = this.replay.log.length;
      this.perspective = this.seat;
    }
    this.drawReview();
  }

  // ---- rematch ----

  // drawRematch offers a player of the match signed in to play it again in
  // one click: the same game, settings and players, everyone invited (POST
  // …/rematch). A rematch another player asked for shows here as their
  // invitation, to take at once (the page looks for one every few
  // seconds), and is then the one offered.
  drawRematch() {
    const box = this.el && this.el.end.querySelector('#rematch');
    if (!box || !this.me || !this.seats.some((st) => st.account === this.me.id)) return;
    const inv = this.rematchInvite;
    if (inv) {
      fill(box, h('p', {id: 'rematch-asked'}, t('end.rematchAsked', {name: inv.from.name || t('name.deleted')})),
        h('button', {type: 'button', class: 'primary', id: 'rematch-take', onclick: async () => {
          try {
            await api('POST', '/api/matches/' + inv.match.id + '/seats/' + inv.seat + '/take');
            location.href = '/play/' + inv.match.id + '?seat=' + inv.seat;
          } catch (e) {
            toast(errorText(e), 'error', 8000);
          }
        }}, t('end.rematchTake')));
    } else {
      fill(box, h('button', {type: 'button', class: 'primary', id: 'rematch-btn', 'aria-describedby': 'rematch-help', onclick: () => this.rematch()}, t('end.rematch')),
        ' ', h('small', {class: 'help', id: 'rematch-help'}, t('end.rematchHelp')));
    }
    if (!this.rematchTimer) {
      const until = Date.now() + 15 * 60 * 1000;
      this.rematchTimer = setInterval(() => {
        if (Date.now() > until) { clearInterval(this.rematchTimer); return; }
        if (!document.hidden && !this.rematchInvite) this.lookForRematch();
      }, 4000);
      this.lookForRematch();
    }
  }

  // lookForRematch finds an invitation to a rematch of this match: a seat
  // of the same game kept for the player by another player of this match
  // since it ended.
  async lookForRematch() {
    let mine;
    try { mine = await api('GET', '/api/me/matches'); } catch { return; }
    const players = new Set(this.seats.map((st) => st.account).filter(Boolean));
    // (When this page saw the match end, if its summary does not say: a
    // minute's leeway for the clocks of the browser and the server.)
    const ended = Date.parse(this.summary.finished_at || '') || this.finishedSeen || 0;
    const inv = (mine.invited || []).find((i) => i.match.game === this.game && i.from && players.has(i.from.id) &&
      Date.parse(i.match.created_at) >= ended - 60000);
    if (inv && !this.rematchInvite) {
      this.rematchInvite = inv;
      const had = document.activeElement && document.activeElement.id === 'rematch-btn';
      this.drawRematch();
      announce(t('end.rematchAsked', {name: inv.from.name || t('name.deleted')}));
      if (had) document.getElementById('rematch-take')?.focus();
    }
  }

  async rematch() {
    const btn = document.getElementById('rematch-btn');
    if (btn) btn.disabled = true;
    try {
      const c = await api('POST', '/api/matches/' + this.id + '/rematch');
      if (!c.seats) {
        // Another player asked first: the server seated us at theirs.
        location.href = '/play/' + c.match.id + '?seat=' + c.seat;
        return;
      }
      const mine = c.match.seats.find((st) => st.account === this.me.id);
      const seats = {}, invites = {};
      for (const st of c.seats) {
        if (!st.token) continue;
        if (mine && st.seat === mine.seat) seats[st.seat] = st.token;
        else invites[st.seat] = new URL(st.invite, location.href).href;
      }
      remember(c.match.id, {game: this.game, seats, invites, host: c.host_token, last: mine ? mine.seat : null, created: Date.now()});
      location.href = '/play/' + c.match.id + (mine ? '?seat=' + mine.seat : '');
    } catch (e) {
      toast(errorText(e), 'error', 8000);
      if (btn) btn.disabled = false;
    }
  }

  drawReview() {
    const box = this.el.end.querySelector('#review');
    if (!box || !this.replay) return;
    const n = this.replay.log.length;
    const persp = h('select', {id: 'perspective', onchange: (e) => { this.perspective = +e.target.value; this.drawReview(); }},
      h('option', {value: -1, selected: this.perspective === -1}, t('end.spectator')),
      this.seats.map((st) => h('option', {value: st.seat, selected: this.perspective === st.seat}, this.name(st.seat))));
    const range = h('input', {type: 'range', id: 'scrubber', min: 0, max: n, value: this.step, 'aria-label': t('end.step'),
      'aria-valuetext': t('end.stepOf', {k: this.step, n}), oninput: (e) => { this.step = +e.target.value; this.drawStep(); }});
    const go = (d) => () => { this.step = Math.max(0, Math.min(n, this.step + d)); range.value = this.step; this.drawStep(); };
    // Arrows step, Home and End jump, from the controls and from the board
    // (the range input steps by itself).
    const keys = (e) => {
      if (e.target === range || e.altKey || e.ctrlKey || e.metaKey) return;
      const d = {ArrowLeft: -1, ArrowRight: 1, Home: -n, End: n}[e.key];
      if (d) { go(d)(); e.preventDefault(); }
    };
    fill(box,
      h('h3', {}, t('end.review')),
      h('div', {class: 'row'}, h('label', {for: 'perspective'}, t('end.perspective')), persp),
      h('div', {class: 'scrub row', onkeydown: keys},
      h('button', {type: 'button', id: 'step-first', onclick: go(-n)}, icon('first', {label: t('end.first')})),
      h('button', {type: 'button', id: 'step-prev', onclick: go(-1)}, icon('prev', {label: t('end.prev')})),
      range,
      h('button', {type: 'button', id: 'step-next', onclick: go(1)}, icon('next', {label: t('end.next')})),
      h('button', {type: 'button', id: 'step-last', onclick: go(n)}, icon('last', {label: t('end.last')}))),
      h('p', {id: 'step-text', class: 'step-text', 'aria-live': 'polite'}),
      h('div', {id: 'review-board', class: 'board review game-' + this.game, role: 'region', tabindex: '0', onkeydown: keys}));
    this.drawStep();
  }

  // drawStep shows the match after `step` records of its log, as the seat
  // chosen in "Seen by" saw it: the final views come with the replay,
  // earlier ones from the server's views at a step.
  async drawStep() {
    const n = this.replay.log.length, k = this.step, seat = this.perspective;
    const text = this.el.end.querySelector('#step-text');
    const boardBox = this.el.end.querySelector('#review-board');
    const range = this.el.end.querySelector('#scrubber');
    if (range) range.setAttribute('aria-valuetext', t('end.stepOf', {k, n}));
    let line = k === 0 ? t('end.start') : this.recordText(this.replay.log[k - 1]);
    text.textContent = t('end.stepOf', {k, n}) + ' — ' + line + decisionNote(this, k);
    // The board is drawn at the step's time (its countdowns, a real-time
    // game's clock), not at the match's last.
    let view = null, events = [], clock = this.msg ? this.msg.clock : 0;
    if (k === n) {
      view = this.perspective >= 0 ? this.replay.reveal.seats[this.perspective] : this.replay.reveal.spectator;
    } else {
      const got = await this.stepView(k);
      if (this.step !== k || this.perspective !== seat) return; // the scrubber or the seat moved on
      if (got) { view = got.view; events = got.events || []; clock = got.clock || 0; }
    }
    if (!view) {
      fill(boardBox, h('p', {class: 'muted'}, t('end.noView')));
      return;
    }
    const ctx = this.ctx(events, null, {view, seat, legal: [], actors: [], myTurn: false, readonly: true, ui: {}, play: () => {}, clock});
    const inner = h('div', {class: 'board-inner'});
    try { this.mod.render(inner, ctx); } catch (e) { console.error(e); inner.textContent = t('match.boardFailed'); }
    fill(boardBox, inner);
    boardBox.setAttribute('aria-label', t('end.view', {name: seat >= 0 ? this.who(seat) : t('end.spectator'), k}));
    boardBox.dataset.step = String(k);
    boardBox.dataset.seat = String(seat);
    this.reviewShown = {step: k, seat, view}; // what the replay draws (the browser tests compare it with the server's)
  }

  // stepView fetches what the chosen seat (or the spectators) saw after
  // record k, from the server's views at a step.
  async stepView(k) {
    this.stepCache = this.stepCache || new Map();
    const key = k + '/' + this.perspective;
    if (this.stepCache.has(key)) return this.stepCache.get(key);
    let got = null;
    try {
      const who = this.perspective >= 0 ? String(this.perspective) : 'spectator';
      got = await api('GET', '/api/matches/' + this.id + '/view?seat=' + who + '&step=' + k, undefined, this.token || undefined);
      this.stepCache.set(key, got);
    } catch (e) {
      console.warn('no view of step ' + k, e);
    }
    return got;
  }

  recordText(raw) {
    const r = typeof raw === 'string' ? JSON.parse(raw) : raw;
    if (!r.action) return t('end.timePasses', {time: fmtClock(r.at)});
    const ctx = this.ctx([], null, {seat: r.seat});
    return t('end.played', {name: this.name(r.seat), action: labelAction(this.mod, r.action, ctx)});
  }
}
