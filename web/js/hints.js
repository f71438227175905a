// Hints at the table (docs/api.md, "GET /api/matches/{id}/hint"): a panel
// of the match page that asks the server, for the decision the player has
// to make now, a nudge (one sentence about what matters), the bot's choice
// (its win chance and top three) or a check of a move from the list of
// actions. The server computes them from the seat's view alone; this panel
// only says them. Shown to a seat's player at a table that gives hints,
// in games whose clock does not run (a real-time game has none while it
// runs). The end screen says the hints each person asked for
// (drawHintsUsed).

import {api} from './api.js';
import {t, tn, tx, num, errorText, list, phrase} from './i18n.js';
import {h, fill, sameAction} from './ui.js';
import {labelAction} from './boards.js';

// pct says a chance (0 to 1) as a percentage.
const pct = (p) => t('hints.pct', {p: num(Math.round(p * 100), 0)});

// HintPanel is the hints' panel of a match page.
export class HintPanel {
  constructor(page, el) {
    this.page = page;
    this.el = el;
    this.answer = null; // {seq, level, hint} or {seq, error}
    this.asking = 0; // the level being asked, 0 when none
    this.checked = null; // the action chosen to check
  }

  // offered says whether the page's person may ask for hints in this match.
  offered() {
    const p = this.page;
    return p.seat >= 0 && !!p.summary && !!(p.summary.settings && p.summary.settings.hints) &&
      p.info.timing !== 'real_time' && !!p.msg && p.msg.status === 'running';
  }

  draw() {
    const el = this.el;
    if (!this.offered()) {
      el.hidden = true;
      fill(el);
      return;
    }
    const p = this.page;
    const seq = p.msg.seq;
    if (this.answer && this.answer.seq !== seq) this.answer = null;
    const mine = p.isMyTurn();
    const focused = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : null;
    const busy = this.asking !== 0;
    const ctx = p.ctx();
    const legal = mine ? p.msg.legal || [] : [];
    if (this.checked && !legal.some((a) => sameAction(a, this.checked))) this.checked = null;
    const ask = (level, action) => this.ask(level, action);
    const button = (id, level, text) => h('button', {
      type: 'button', id, class: 'hint-ask', disabled: !mine || busy ? true : null,
      'aria-pressed': this.answer && this.answer.level === level && !this.answer.error ? 'true' : 'false',
      onclick: () => ask(level),
    }, text);
    let check = null;
    if (legal.length > 1) {
      const select = h('select', {id: 'hint-action', disabled: busy ? true : null, onchange: (e) => { this.checked = legal[+e.target.value]; }},
        legal.map((a, i) => h('option', {value: String(i), selected: this.checked && sameAction(a, this.checked) ? true : null}, labelAction(p.mod, a, ctx))));
      check = h('form', {class: 'hint-check', id: 'hint-check', onsubmit: (e) => {
        e.preventDefault();
        ask(3, legal[+select.value]);
      }},
      h('label', {for: 'hint-action'}, t('hints.checkWhat')), select,
      h('button', {type: 'submit', id: 'hint-check-btn', class: 'hint-ask', disabled: busy ? true : null}, t('hints.check')));
    }
    fill(el,
      h('h2', {id: 'hints-h'}, t('hints.title')),
      mine ? null : h('p', {class: 'muted', id: 'hints-wait'}, t('hints.onYourTurn')),
      h('div', {class: 'hint-buttons'},
        p.hasNudges === false ? null : button('hint-nudge', 1, t('hints.nudge')),
        button('hint-best', 2, t('hints.best'))),
      check,
      // What the server answered, said once when it comes.
      h('div', {id: 'hint-answer', class: 'hint-answer', role: 'status', 'aria-live': 'polite', 'aria-busy': busy ? 'true' : 'false'},
        busy ? h('p', {class: 'muted'}, t('hints.thinking')) : this.answerView(ctx)));
    el.hidden = false;
    if (focused) {
      const again = el.querySelector('#' + CSS.escape(focused));
      if (again && !again.disabled) again.focus();
      else if (again) el.querySelector('#hint-answer').setAttribute('tabindex', '-1');
    }
  }

  // ask asks the server for a hint of the level (and the action to check).
  async ask(level, action) {
    const p = this.page;
    if (this.asking) return;
    const seq = p.msg.seq;
    this.asking = level;
    this.draw();
    let q = '/api/matches/' + p.id + '/hint?level=' + level;
    if (action) q += '&action=' + encodeURIComponent(JSON.stringify(action));
    if (!p.token && p.seat >= 0) q += '&seat=' + p.seat;
    try {
      const hint = await api('GET', q, undefined, p.token);
      this.answer = {seq, level, hint};
    } catch (e) {
      if (e.code === 'bad_parameters' && level === 1) p.hasNudges = false;
      this.answer = {seq, level, error: e};
    }
    this.asking = 0;
    const focused = document.activeElement;
    this.draw();
    // The keyboard stays where it was: the button pressed, drawn again.
    if (focused && !this.el.contains(document.activeElement)) {
      const b = this.el.querySelector(level === 3 ? '#hint-check-btn' : level === 1 ? '#hint-nudge' : '#hint-best');
      if (b) b.focus();
    }
  }

  // answerView says the answer held, in the page's language.
  answerView(ctx) {
    const a = this.answer;
    if (!a) return null;
    if (a.error) return h('p', {class: 'error', dataset: {code: a.error.code || ''}}, errorText(a.error, this.page.game));
    const hint = a.hint;
    const label = (x) => labelAction(this.page.mod, x, ctx);
    const chance = (p) => t(hint.team ? 'hints.teamChance' : 'hints.winChance', {pct: pct(p)});
    if (a.level === 1) return h('p', {class: 'hint-nudge', dataset: {key: hint.nudge.key}}, tx(hint.nudge.text));
    if (a.level === 2) {
      return [
        h('p', {class: 'hint-best'}, t('hints.bestIs', {action: label(hint.best)}), ' ', chance(hint.win)),
        h('p', {class: 'hint-top-h', id: 'hint-top-h'}, t('hints.top')),
        h('ol', {class: 'hint-top', 'aria-labelledby': 'hint-top-h'}, hint.top.map((c) =>
          h('li', {}, t('hints.topItem', {action: label(c.action), pct: pct(c.win)})))),
      ];
    }
    const c = hint.check;
    return [
      h('p', {class: 'hint-verdict', dataset: {band: c.band}}, t('hints.verdict', {action: label(c.action), band: t('hints.band.' + c.band)})),
      h('p', {class: 'hint-compare'}, c.band === 'best'
        ? chance(c.win)
        : t(hint.team ? 'hints.compare.team' : 'hints.compare.win', {pct: pct(hint.win), mine: pct(c.win), best: label(hint.best)})),
    ];
  }
}

// drawHintsUsed writes into el what hints each person of the match asked
// for (GET /api/matches/{id}/hints), or nothing at a table without hints.
export async function drawHintsUsed(page, el) {
  if (!page.summary || !page.summary.settings || !page.summary.settings.hints) return;
  let seats;
  try {
    seats = (await api('GET', '/api/matches/' + page.id + '/hints')).seats || [];
  } catch {
    return; // (the end screen says the rest; the hints are a detail)
  }
  const lines = seats.map((u) => {
    const n = u.nudges + u.choices + u.checks;
    const who = phrase(page.name(u.seat), {you: u.seat === page.seat});
    if (!n) return h('li', {}, t('end.hintsNone', {who}));
    const parts = [];
    if (u.nudges) parts.push(tn('hints.nNudges', u.nudges));
    if (u.choices) parts.push(tn('hints.nChoices', u.choices));
    if (u.checks) parts.push(tn('hints.nChecks', u.checks));
    return h('li', {}, tn('end.hintsUsed', n, {who, detail: list(parts)}));
  });
  fill(el, h('h3', {}, t('hints.title')), h('ul', {class: 'hints-used'}, lines));
}
