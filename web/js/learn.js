// Tutorials (/learn, /learn/<game id>): a real match on a deal fixed
// beforehand, against bots that play it the same way every time, in which
// a coach panel above the board asks for each move, one rule at a time,
// shows what to press, turns other moves down gently ("Not yet. First, …")
// and says after each move what it did; then a short check. The script
// (steps, moves, what to press) is the game's data, served by
// GET /api/learn/<game>; its texts are under learn.<game>.<step>.*.

import {api, playerName} from './api.js';
import {t, tn, tx, has, onLang, errorText} from './i18n.js';
import {h, fill, canon} from './ui.js';
import {MatchPage} from './match.js';
import {announce} from './announce.js';
import {emblem} from './pictures.js';

// The tutorial under way in this tab, by game: its match and where the
// learner stands, so that a reload goes on where it was.
const KEY = 'sortie.learn.';

function saved(game) {
  try { return JSON.parse(sessionStorage.getItem(KEY + game) || 'null'); } catch { return null; }
}

function save(game, v) {
  try {
    if (v) sessionStorage.setItem(KEY + game, JSON.stringify(v));
    else sessionStorage.removeItem(KEY + game);
  } catch { /* private mode: a reload starts again */ }
}

// matches says whether action is the partial action want: each of want's
// fields is action's, with the same value (coach.Matches on the server).
export function matches(want, action) {
  if (!action || typeof action !== 'object') return false;
  return Object.keys(want).every((k) => k in action && canon(want[k]) === canon(action[k]));
}

// LearnIndex is /learn: every game's tutorial.
export class LearnIndex {
  constructor(root) { this.root = root; }

  async start() {
    try {
      const [games, list] = await Promise.all([api('GET', '/api/games'), api('GET', '/api/learn')]);
      this.games = games.games || [];
      this.list = list.tutorials || [];
    } catch (e) {
      this.error = e;
    }
    onLang(() => this.draw());
    this.draw();
  }

  draw() {
    document.title = t('learn.indexTitle') + ' — Sortie';
    if (this.error) {
      fill(this.root, h('h1', {}, t('learn.indexTitle')), h('p', {class: 'error', role: 'alert'}, errorText(this.error)));
      return;
    }
    const name = (id) => tx((this.games.find((g) => g.id === id) || {name: {en: id}}).name);
    fill(this.root, h('div', {class: 'learn-index', id: 'learn-index'},
      h('p', {class: 'crumbs'}, h('a', {href: '/'}, t('match.backToLobby'))),
      h('h1', {}, t('learn.indexTitle')),
      h('p', {class: 'lead'}, t('learn.indexLead')),
      h('ul', {class: 'learn-list'}, this.list.map((x) => h('li', {'data-game': x.game},
        h('span', {class: 'game-picture', 'aria-hidden': 'true'}, emblem(x.game)),
        h('a', {href: '/learn/' + x.game, class: 'learn-link'}, t('learn.linkFor', {game: name(x.game)})))))));
  }
}

// LearnPage is /learn/<game>: the welcome, the tutorial's match with its
// coach, then the check.
export class LearnPage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.step = 0; // the step under way
    this.phase = 'welcome'; // welcome, match, check, done
    this.q = 0; // the question of the check under way
    this.answered = null; // {pick, right} for the question under way
    window.sortie = {learn: this}; // (the match page sets its own once it runs)
    // The keys held down, each with what it was pressed on (see ownPress).
    this.held = new Map();
    addEventListener('keydown', (e) => { if (!e.repeat || !this.held.has(e.key)) this.held.set(e.key, e.target); }, true);
    addEventListener('keyup', (e) => this.held.delete(e.key), true);
    addEventListener('blur', () => this.held.clear());
  }

  // ownPress says whether a click on button is a press of its own: no key
  // that presses buttons (Enter, Space) is held down since it was pressed
  // on something other than button (or the button it was drawn again as).
  // A key press belongs to what it began on: the Enter that sends a move
  // is still down when the move's answer comes back and puts the focus on
  // the coach's Next, and its keypress, or its repeats when held, would
  // press Next too and skip an explanation unread.
  ownPress(button) {
    return ['Enter', ' '].every((k) => {
      const on = this.held.get(k);
      return !on || on === button || (!!on.id && on.id === button.id);
    });
  }

  async start() {
    try {
      [this.script, this.info] = await Promise.all([api('GET', '/api/learn/' + this.game), api('GET', '/api/games/' + this.game)]);
    } catch (e) {
      document.title = t('learn.notFound') + ' — Sortie';
      fill(this.root, h('h1', {}, t('learn.notFound')), h('p', {class: 'error', role: 'alert'}, errorText(e)),
        h('p', {}, h('a', {href: '/learn'}, t('learn.indexTitle'))));
      return;
    }
    onLang(() => this.drawAll());
    const was = saved(this.game);
    if (was && was.check != null) {
      this.phase = 'check';
      this.q = was.check;
      this.drawAll();
      return;
    }
    if (was && was.id) {
      try {
        const sum = await api('GET', '/api/matches/' + was.id);
        if (sum.status === 'running' || sum.status === 'open') {
          this.step = was.step;
          this.run(was);
          return;
        }
      } catch { /* gone: start again */ }
      save(this.game, null);
    }
    this.drawAll();
  }

  get name() { return tx(this.info.name); }
  k(key, part) { return 'learn.' + this.game + '.' + key + '.' + part; }
  get steps() { return this.script.steps; }
  get current() { return this.steps[this.step] || null; }
  // (The welcome says the first step when it is one to read.)
  get first() { return this.steps[0] && this.steps[0].read ? 1 : 0; }

  drawAll() {
    document.title = t('learn.pageTitle', {game: this.name});
    if (this.phase === 'welcome') this.drawWelcome();
    else if (this.phase === 'match') this.drawCoach(); // (the match page draws itself again)
    else this.drawCheck();
  }

  drawWelcome() {
    const intro = this.steps[0] && this.steps[0].read ? t(this.k(this.steps[0].key, 'do')) : '';
    fill(this.root, h('article', {class: 'learn-page', id: 'learn', 'data-game': this.game, 'data-phase': 'welcome'},
      h('p', {class: 'crumbs'}, h('a', {href: '/'}, t('match.backToLobby')), ' · ', h('a', {href: '/learn'}, t('learn.indexTitle'))),
      h('h1', {}, t('learn.title', {game: this.name})),
      h('div', {class: 'help-intro'},
        h('div', {class: 'help-emblem', 'aria-hidden': 'true'}, emblem(this.game)),
        h('div', {},
          h('p', {class: 'lead', id: 'learn-intro'}, intro),
          h('p', {class: 'muted'}, tn('learn.about', this.steps.filter((s) => !s.read).length)))),
      this.error ? h('p', {class: 'error', role: 'alert'}, errorText(this.error)) : null,
      h('p', {}, h('button', {type: 'button', class: 'primary', id: 'learn-start', onclick: () => this.begin()}, t('learn.start'))),
      h('p', {class: 'muted'}, h('a', {href: '/help/' + this.game}, t('help.link', {game: this.name})))));
    document.getElementById('learn-start').focus();
  }

  // begin makes the tutorial's match and opens it.
  async begin() {
    const b = document.getElementById('learn-start');
    if (b) b.disabled = true;
    let cm;
    try {
      cm = await api('POST', '/api/learn/' + this.game, {name: playerName()});
    } catch (e) {
      this.error = e;
      this.drawWelcome();
      return;
    }
    const seat = this.script.seat;
    const run = {id: cm.match.id, seat, token: cm.seats[seat].token, host: cm.host_token, step: this.first};
    this.step = run.step;
    save(this.game, run);
    this.run(run);
  }

  run(r) {
    this.phase = 'match';
    this.runInfo = r;
    this.match = new TutorialMatch(this.root, r.id, {seat: r.seat, token: r.token}, this);
    window.sortie.learn = this;
    this.match.start();
  }

  // ---- the coach, above the board ----

  // allows says whether the learner may play action now: the move the
  // step asks for, and nothing else.
  allows(action) {
    const st = this.current;
    if (st && !st.read && st.expect.some((want) => matches(want, action))) {
      this.sent = this.step;
      return true;
    }
    this.refused = true;
    // The board is drawn again from what it kept (a board clears the
    // choices that made a move as it sends it: dice picked, arrows laid),
    // the refusal above it.
    this.match.draw();
    const el = document.getElementById('coach-not');
    if (el) announce(el.textContent, true);
    return false;
  }

  // acked: the server took the learner's move; the coach says what it did
  // and goes on.
  acked() {
    if (this.sent !== this.step || !this.current || this.current.read) return;
    this.sent = null;
    this.refused = false;
    const then = this.k(this.current.key, 'then');
    this.then = has(then) ? then : null;
    this.next();
  }

  next() {
    this.step++;
    this.refused = false;
    save(this.game, {...this.runInfo, step: this.step});
    if (this.step >= this.steps.length) {
      this.toCheck();
      return;
    }
    this.said = null;
    this.drawCoach();
    if (this.current.read) document.getElementById('coach-next')?.focus();
  }

  // read: the learner has read the step; the focus goes to what the next
  // one asks to press, or to the coach's words.
  read() {
    this.then = null;
    this.next();
    if (this.phase !== 'match' || this.current.read) return;
    const target = this.root.querySelector('.learn-target');
    if (target && typeof target.focus === 'function' && (target.tabIndex >= 0 || target.matches('button:not([disabled]), a[href]'))) target.focus();
    else document.getElementById('coach-do')?.focus();
  }

  // drawCoach draws the coach's panel: the step, what the last move did,
  // what to do now (or to read), a refusal, and what to press.
  drawCoach() {
    const box = this.coachBox;
    if (!box || this.phase !== 'match') return;
    const st = this.current;
    if (!st) return;
    const mine = this.match.isMyTurn();
    const doText = t(this.k(st.key, 'do'));
    const total = this.steps.length;
    box.dataset.step = st.key;
    box.dataset.kind = st.read ? 'read' : 'move';
    // (Drawn again at every update: the focus stays on the control it was on.)
    const had = box.contains(document.activeElement) ? document.activeElement.id : null;
    fill(box,
      h('h2', {id: 'coach-h'}, t('learn.stepOf', {n: this.step + 1, total})),
      this.then ? h('p', {class: 'coach-then', id: 'coach-then'}, t(this.then)) : null,
      h('p', {class: 'coach-do', id: 'coach-do', tabindex: '-1'}, doText),
      this.refused ? h('p', {class: 'coach-not', id: 'coach-not'},
        st.read ? t('learn.notYetRead') : t('learn.notYet', {goal: t(this.k(st.key, 'goal'))})) : null,
      st.read ? h('p', {}, h('button', {type: 'button', class: 'primary', id: 'coach-next', onclick: (e) => { if (this.ownPress(e.currentTarget)) this.read(); }},
        this.step === total - 1 ? t('learn.toCheck') : t('learn.next'))) :
        !mine ? h('p', {class: 'muted coach-wait', id: 'coach-wait'}, t('learn.wait')) : null);
    // What changed is said once: the explanation of the move, then what
    // to do (or read) now, when it is the learner's to do.
    if (had) document.getElementById(had)?.focus({preventScroll: true});
    const say = [this.then ? t(this.then) : '', st.read || mine ? doText : ''].filter(Boolean).join(' ');
    const key = this.step + ':' + (st.read || mine);
    if (say && this.said !== key) {
      this.said = key;
      announce(say);
    }
    this.highlight();
  }

  // highlight marks what the step asks to press, while it is the
  // learner's turn.
  highlight() {
    for (const el of this.root.querySelectorAll('.learn-target')) el.classList.remove('learn-target');
    const st = this.current;
    if (!st || st.read || !this.match || !this.match.isMyTurn()) return;
    for (const sel of st.target || []) {
      for (const el of this.root.querySelectorAll('#board ' + sel)) el.classList.add('learn-target');
    }
  }

  // ---- the check ----

  async toCheck() {
    const r = this.runInfo;
    // The match has served: its host ends it.
    if (r && r.host) api('POST', '/api/matches/' + r.id + '/close', undefined, r.host).catch(() => {});
    if (this.match) this.match.stop();
    this.match = null;
    this.phase = 'check';
    this.q = 0;
    save(this.game, {check: 0});
    this.drawCheck();
    document.getElementById('check-h')?.focus();
    announce([this.then ? t(this.then) : '', document.getElementById('check-h').textContent, document.getElementById('check-q').textContent].filter(Boolean).join(' '));
  }

  drawCheck() {
    const qs = this.script.check;
    if (this.q >= qs.length) { this.drawDone(); return; }
    const q = qs[this.q];
    const key = (part) => 'learn.' + this.game + '.check.' + q.key + '.' + part;
    const a = this.answered;
    fill(this.root, h('article', {class: 'learn-page', id: 'learn', 'data-game': this.game, 'data-phase': 'check'},
      h('h1', {}, t('learn.title', {game: this.name})),
      // (What the last move did, when the tutorial ends on one.)
      this.then && this.q === 0 ? h('p', {class: 'coach-then', id: 'coach-then'}, t(this.then)) : null,
      h('section', {class: 'panel check', 'aria-labelledby': 'check-h'},
        h('h2', {id: 'check-h', tabindex: '-1'}, t('learn.checkTitle', {n: this.q + 1, total: qs.length})),
        h('fieldset', {class: 'answers', id: 'check-answers'},
          h('legend', {id: 'check-q'}, t(key('q'))),
          Array.from({length: q.answers}, (_, i) => h('button', {type: 'button', class: 'answer' + (a && a.pick === i + 1 ? (a.right ? ' right' : ' wrong') : ''),
            'data-answer': i + 1, 'aria-pressed': a && a.pick === i + 1 ? 'true' : 'false', disabled: a && a.right ? true : null,
            onclick: () => this.answer(i + 1)}, t(key('a' + (i + 1)))))),
        a ? h('p', {class: a.right ? 'check-right' : 'check-wrong', id: 'check-says', tabindex: '-1'},
          a.right ? t('learn.right', {why: t(key('why'))}) : t('learn.wrong')) : null,
        a && a.right ? h('p', {}, h('button', {type: 'button', class: 'primary', id: 'check-next', onclick: () => {
          this.q++;
          this.answered = null;
          save(this.game, {check: this.q});
          this.drawCheck();
          (document.getElementById('check-h') || document.getElementById('learn-done-h'))?.focus();
        }}, this.q + 1 < qs.length ? t('learn.nextQuestion') : t('learn.finish'))) : null)));
  }

  answer(pick) {
    const q = this.script.check[this.q];
    this.answered = {pick, right: pick === q.right};
    this.drawCheck();
    announce(document.getElementById('check-says').textContent, !this.answered.right);
    document.getElementById(this.answered.right ? 'check-next' : 'check-says')?.focus();
    if (!this.answered.right) document.querySelector('#check-answers [data-answer="' + pick + '"]')?.focus();
  }

  drawDone() {
    this.phase = 'done';
    save(this.game, null);
    fill(this.root, h('article', {class: 'learn-page', id: 'learn', 'data-game': this.game, 'data-phase': 'done'},
      h('h1', {}, t('learn.title', {game: this.name})),
      h('section', {class: 'panel done', 'aria-labelledby': 'learn-done-h'},
        h('h2', {id: 'learn-done-h', tabindex: '-1'}, t('learn.doneTitle')),
        h('p', {}, t('learn.done', {game: this.name})),
        h('ul', {class: 'learn-next'},
          h('li', {}, h('a', {class: 'button primary', id: 'learn-play', href: '/?game=' + this.game}, t('learn.playBots', {game: this.name}))),
          h('li', {}, h('a', {class: 'button', href: '/daily'}, t('daily.link'))),
          h('li', {}, h('a', {href: '/help/' + this.game}, t('help.link', {game: this.name}))),
          h('li', {}, h('a', {href: '/learn'}, t('learn.others')))))));
  }
}

// TutorialMatch is the match page of a tutorial: the same page, with the
// coach's panel above the board, only the step's move let through, and no
// seat to leave.
class TutorialMatch extends MatchPage {
  constructor(root, id, opts, coach) {
    super(root, id, opts);
    this.coach = coach;
  }

  skeleton() {
    super.skeleton();
    const box = h('section', {class: 'panel coach', id: 'coach', 'aria-labelledby': 'coach-h'});
    this.el.turn.after(box);
    // Enter and Space on the coach's own buttons are theirs, not the
    // board's shortcuts.
    box.addEventListener('keydown', (e) => { if ((e.key === 'Enter' || e.key === ' ') && e.target.closest('button')) e.stopPropagation(); });
    this.coach.coachBox = box;
    this.root.querySelector('.match-page').classList.add('tutorial');
  }

  play(action) {
    if (this.sending || !this.coach.allows(action)) return;
    super.play(action);
  }

  setState(m, events) {
    super.setState(m, events);
    if (m.ack != null) this.coach.acked();
    this.coach.drawCoach();
  }

  drawBoard(events, prevView) {
    super.drawBoard(events, prevView);
    this.coach.highlight();
  }

  draw(events, prevView) {
    super.draw(events, prevView);
    this.coach.drawCoach();
  }

  // (No seat to hand to a bot, no host's panel: the tutorial is the
  // learner's alone.)
  seatControls() { return null; }

  drawHost() { this.el.host.hidden = true; }

  // stop closes the page's socket for good.
  stop() {
    this.stopped = true;
    this.msg = null; // (its keys no longer reach a board)
    clearInterval(this.tick);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }
}
