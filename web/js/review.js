// The review of a finished match (docs/api.md, "GET /api/matches/{id}/review"),
// on the end screen: for a person's seat, the accuracy, the decisions by
// band, the win chance over the match, the key moments, each costly
// decision with the move the bot preferred (a button shows it in the
// replay), and "learn from your mistakes": the position of a costly
// decision as the seat saw it, drawn by the replay, with its moves to try
// again. The server makes the review in the background; this module asks
// again while it is "working".

import {api} from './api.js';
import {t, tn, num, errorText} from './i18n.js';
import {h, s, fill} from './ui.js';
import {labelAction} from './boards.js';

const POLL = 2000; // ms between two asks while the review is made
const BANDS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

const pct = (p) => t('hints.pct', {p: num(Math.round(p * 100), 0)});
const points = (x) => num(Math.abs(Math.round(x)), 0);

// ReviewPanel draws the review of one person's seat into el.
export class ReviewPanel {
  constructor(page, el) {
    this.page = page;
    this.el = el;
    page.reviews = page.reviews || {}; // by seat: the answers, kept across redraws
    const humans = page.seats.filter((st) => st.kind === 'human').map((st) => st.seat);
    this.humans = humans;
    this.seat = humans.includes(page.seat) ? page.seat : humans[0];
    this.learn = null; // {i, picked}: the decision tried again
  }

  async load() {
    if (this.seat == null) return;
    const seat = this.seat;
    const p = this.page;
    while (!p.reviews[seat] || p.reviews[seat].status === 'working') {
      try {
        // (With the seat's token: a match of today's challenge shows to its player alone.)
        p.reviews[seat] = await api('GET', '/api/matches/' + p.id + '/review?seat=' + seat, undefined, p.token || undefined);
      } catch (e) {
        p.reviews[seat] = {status: 'error', error: e};
      }
      if (this.seat !== seat || !this.el.isConnected) return;
      this.draw();
      if (p.reviews[seat].status === 'working') await new Promise((r) => setTimeout(r, POLL));
    }
    this.draw();
  }

  label(action, seat) {
    const p = this.page;
    return labelAction(p.mod, action, p.ctx([], null, {seat}));
  }

  draw() {
    const p = this.page;
    const rv = p.reviews[this.seat];
    const head = [h('h3', {id: 'analysis-h'}, t('review.title'))];
    if (this.humans.length > 1) {
      head.push(h('div', {class: 'row'}, h('label', {for: 'analysis-seat'}, t('review.of')),
        h('select', {id: 'analysis-seat', onchange: (e) => { this.seat = +e.target.value; this.learn = null; this.draw(); this.load(); }},
          this.humans.map((st) => h('option', {value: st, selected: st === this.seat ? true : null}, p.name(st))))));
    }
    if (!rv || rv.status === 'working') {
      fill(this.el, head, h('p', {class: 'muted', role: 'status'}, t('review.working')));
      return;
    }
    if (p.replay) p.drawStep(); // (the replay's step says its band now)
    if (rv.status === 'error') {
      fill(this.el, head, h('p', {class: 'muted'}, errorText(rv.error)));
      return;
    }
    const seat = this.seat;
    const counts = BANDS.filter((b) => rv.counts[b]).map((b) => tn('review.n.' + b, rv.counts[b]));
    const costly = rv.decisions.filter((d) => d.band === 'inaccuracy' || d.band === 'mistake' || d.band === 'blunder');
    fill(this.el, head,
      h('p', {class: 'review-accuracy', id: 'analysis-accuracy'}, t('review.accuracy', {pct: num(Math.round(rv.accuracy), 0)})),
      h('p', {id: 'analysis-counts'}, rv.decisions.length ? tn('review.decisions', rv.decisions.length, {detail: counts.join(', ')}) : t('review.noDecision')),
      h('p', {id: 'analysis-luck'}, t('review.lostLuck', {lost: points(rv.lost), luck: points(rv.luck), sign: rv.luck >= 0 ? 'gave' : 'took'})),
      this.chart(rv),
      rv.key.length ? [h('h4', {}, t('review.key')), h('ol', {class: 'review-key', id: 'analysis-key'}, rv.key.map((m) => h('li', {}, this.moment(m, rv))))] : null,
      costly.length ? [h('h4', {}, t('review.costly')), h('ul', {class: 'review-costly', id: 'analysis-costly'}, costly.map((d) =>
        h('li', {dataset: {band: d.band, seq: String(d.seq)}},
          t('review.preferred', {step: d.seq, played: this.label(d.played, seat), band: t('hints.band.' + d.band), best: this.label(d.best, seat), points: points(d.loss)}), ' ',
          h('button', {type: 'button', class: 'link', onclick: () => this.show(d.seq - 1)}, t('review.see', {step: d.seq})))))] : null,
      this.learnView(rv));
  }

  // moment says one key moment.
  moment(m, rv) {
    if (m.kind === 'luck') return t(m.delta >= 0 ? 'review.luckUp' : 'review.luckDown', {step: m.seq, points: points(m.delta)});
    const d = rv.decisions.find((x) => x.seq === m.seq);
    return t('review.keyDecision', {step: m.seq, played: d ? this.label(d.played, this.seat) : '', points: points(m.delta)});
  }

  // chart draws the win chance over the match.
  chart(rv) {
    const W = 300, H = 80, pts = rv.series;
    const last = Math.max(1, pts[pts.length - 1].seq);
    const line = pts.map((q) => (q.seq / last * W).toFixed(1) + ',' + ((1 - q.win) * H).toFixed(1)).join(' ');
    const label = t(rv.team ? 'review.chartTeam' : 'review.chart', {from: pct(rv.start), to: pct(rv.result)});
    return h('figure', {class: 'review-chart'},
      s('svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, preserveAspectRatio: 'none'},
        s('line', {x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid'}),
        s('polyline', {points: line, class: 'win'})),
      h('figcaption', {}, label));
  }

  // show draws the replay at step k, as the reviewed seat saw it.
  show(k) {
    const p = this.page;
    p.step = k;
    p.perspective = this.seat;
    p.drawReview();
    const board = p.el.end.querySelector('#review-board');
    if (board) { board.scrollIntoView({block: 'nearest'}); board.focus(); }
  }

  // learnView is "learn from your mistakes": the decisions to try again,
  // one at a time, its moves to pick from, then what each was worth.
  learnView(rv) {
    const seat = this.seat;
    const items = rv.learn.map((seq) => rv.decisions.find((d) => d.seq === seq)).filter((d) => d && d.choices && d.choices.length > 1);
    if (!items.length) return h('p', {id: 'analysis-learn', class: 'muted'}, t('review.nothingToLearn'));
    const box = h('div', {id: 'analysis-learn', class: 'review-learn'}, h('h4', {}, t('review.learn')));
    if (!this.learn) {
      box.append(h('button', {type: 'button', id: 'learn-start', onclick: () => { this.learn = {i: 0, picked: null}; this.draw(); this.show(items[0].seq - 1); this.el.querySelector('#learn-choices button').focus(); }},
        tn('review.learnStart', items.length)));
      return box;
    }
    const i = Math.min(this.learn.i, items.length - 1);
    const d = items[i];
    // The moves in a fixed order that says nothing of their worth.
    const choices = d.choices.map((c) => ({...c, label: this.label(c.action, seat)})).sort((a, b) => a.label.localeCompare(b.label));
    const best = d.choices[0];
    box.append(h('p', {}, t('review.learnAsk', {step: d.seq, k: i + 1, n: items.length})),
      h('div', {id: 'learn-choices', class: 'hint-buttons', role: 'group', 'aria-label': t('review.learnChoices')}, choices.map((c) =>
        h('button', {type: 'button', 'aria-pressed': this.learn.picked === c.label ? 'true' : 'false', onclick: () => { this.learn.picked = c.label; this.draw(); this.el.querySelector('#learn-verdict').focus(); }}, c.label))));
    if (this.learn.picked != null) {
      const c = choices.find((x) => x.label === this.learn.picked);
      const right = c.win >= best.win - 0.02;
      box.append(h('p', {id: 'learn-verdict', tabindex: '-1', role: 'status', class: right ? 'good' : ''},
        right ? t('review.learnRight', {pct: pct(c.win)}) : t('review.learnWrong', {pct: pct(c.win), best: this.label(best.action, seat), bestPct: pct(best.win)})));
      if (i + 1 < items.length) {
        box.append(h('button', {type: 'button', id: 'learn-next', onclick: () => { this.learn = {i: i + 1, picked: null}; this.draw(); this.show(items[i + 1].seq - 1); }}, t('review.learnNext')));
      }
    }
    return box;
  }
}

// decisionNote is what the review says of record k of the replay, when it
// is a decision of a reviewed seat: its band, and the move the bot
// preferred when it cost something ("" otherwise).
export function decisionNote(page, k) {
  const seat = page.reviews ? Object.keys(page.reviews).map(Number).find((st) => {
    const rv = page.reviews[st];
    return rv && rv.status === 'ready' && rv.decisions.some((d) => d.seq === k);
  }) : undefined;
  if (seat === undefined) return '';
  const d = page.reviews[seat].decisions.find((x) => x.seq === k);
  const label = (a) => labelAction(page.mod, a, page.ctx([], null, {seat}));
  if (d.band === 'best' || d.band === 'good') return ' (' + t('hints.band.' + d.band) + ')';
  return ' (' + t('review.stepNote', {band: t('hints.band.' + d.band), best: label(d.best), points: points(d.loss)}) + ')';
}
