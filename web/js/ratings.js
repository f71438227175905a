// Ratings as the pages show them: a rating's figure (μ − 3σ, or "?" while
// provisional), a mode family's name, a player's ratings with the chart of
// their history (on the profile), and the leaderboard page
// (/leaderboard/<game>).

import {api} from './api.js';
import {t, tn, tx, num, onLang, errorText, getLang, has} from './i18n.js';
import {h, s, fill} from './ui.js';
import {botName} from './names.js';

export const FAMILIES = ['free_for_all', 'team', 'coop'];

// ratingText is what a rating shows: its figure, or "?" while provisional.
export function ratingText(r) {
  return r.provisional ? '?' : num(r.display, 1);
}

// ratingsSection is a profile's ratings, reputation and history chart.
export function ratingsSection(p, gameName) {
  const rows = [];
  for (const g of Object.keys(p.ratings || {}).sort()) {
    for (const f of FAMILIES) {
      const r = p.ratings[g][f];
      if (r) rows.push({g, f, r});
    }
  }
  const rep = p.reputation || {days: 30, finished: 0, left: 0};
  return h('section', {class: 'panel', 'aria-labelledby': 'ratings-h', id: 'ratings'},
    h('h2', {id: 'ratings-h'}, t('rating.title')),
    h('p', {id: 'reputation'}, tn('rating.reputation', rep.finished + rep.left, {finished: rep.finished, left: rep.left, days: rep.days})),
    rows.length ? h('div', {class: 'by-wrap', 'data-label': 'ratings-h'}, h('table', {class: 'by ratings', 'aria-labelledby': 'ratings-h'},
      h('thead', {}, h('tr', {},
        h('th', {scope: 'col'}, t('rating.game')),
        h('th', {scope: 'col'}, t('rating.family')),
        h('th', {scope: 'col'}, t('rating.rating')),
        h('th', {scope: 'col'}, t('rating.games')))),
      h('tbody', {}, rows.map(({g, f, r}) => h('tr', {'data-game': g, 'data-family': f},
        h('td', {}, h('a', {href: '/leaderboard/' + g}, gameName(g))),
        h('td', {}, t('rating.family.' + f)),
        h('td', {'data-figure': 'rating', title: t('rating.muSigma', {mu: num(r.mu, 1), sigma: num(r.sigma, 1)})},
          ratingText(r), r.provisional ? h('span', {class: 'muted'}, ' ', t('rating.provisional')) : null),
        h('td', {}, String(r.games)))))))
      : h('p', {class: 'muted'}, t('rating.none')),
    historyChart(p.rating_history || [], gameName));
}

// historyChart draws the displayed rating after each rated match, one line
// per game and family, the newest on the right; the figures are also in a
// list for screen readers.
function historyChart(hist, gameName) {
  if (hist.length < 2) return null;
  const W = 400, H = 160, pad = 26;
  const series = new Map();
  hist.forEach((e, i) => {
    const k = e.game + '/' + e.family;
    if (!series.has(k)) series.set(k, []);
    series.get(k).push({i, v: e.display, e});
  });
  const vs = hist.map((e) => e.display);
  const lo = Math.floor(Math.min(0, ...vs)), hi = Math.ceil(Math.max(...vs, lo + 1));
  const x = (i) => pad + (W - 2 * pad) * (hist.length === 1 ? 0.5 : i / (hist.length - 1));
  const y = (v) => H - pad - (H - 2 * pad) * (v - lo) / (hi - lo);
  const label = t('rating.chartLabel', {n: hist.length});
  let k = 0;
  return h('figure', {class: 'rating-chart', id: 'rating-chart'},
    s('svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'rating-chart-cap', focusable: 'false'},
      s('line', {x1: pad, x2: W - pad, y1: y(lo), y2: y(lo), class: 'axis'}),
      s('line', {x1: pad, x2: W - pad, y1: y(hi), y2: y(hi), class: 'grid'}),
      s('text', {x: 4, y: y(hi) + 4, class: 'tick'}, num(hi, 0)),
      s('text', {x: 4, y: y(lo) + 4, class: 'tick'}, num(lo, 0)),
      [...series.values()].map((pts) => {
        const cls = 'series s' + (k++ % 4);
        return s('g', {class: cls},
          s('polyline', {points: pts.map((p) => x(p.i) + ',' + y(p.v)).join(' ')}),
          pts.map((p) => s('circle', {cx: x(p.i), cy: y(p.v), r: 3.5})));
      })),
    h('figcaption', {id: 'rating-chart-cap'}, label, ' ',
      h('span', {class: 'legend'}, [...series.keys()].map((key, i) => {
        const [g, f] = key.split('/');
        return h('span', {class: 'key s' + (i % 4)}, gameName(g) + ' — ' + t('rating.family.' + f));
      }))),
    h('ol', {class: 'visually-hidden'}, hist.map((e) => h('li', {},
      gameName(e.game) + ', ' + t('rating.family.' + e.family) + t('word.colon') + num(e.display, 1) + ' (' +
      new Intl.DateTimeFormat(getLang(), {day: 'numeric', month: 'long'}).format(new Date(e.at)) + ')'))));
}

// LeaderboardPage is /leaderboard/<game>: the game's established ratings,
// best first, per mode family, and links to the other games' boards.
export class LeaderboardPage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.data = null;
    this.games = [];
    this.error = null;
  }

  async start() {
    onLang(() => this.draw());
    [this.data, this.games] = await Promise.all([
      api('GET', '/api/leaderboard/' + encodeURIComponent(this.game)).catch((e) => { this.error = e; return null; }),
      api('GET', '/api/games').then((r) => r.games || [], () => [])]);
    this.draw();
    document.getElementById('board-h')?.focus();
  }

  gameName(id) {
    const g = this.games.find((x) => x.id === id);
    return g ? tx(g.name) : id;
  }

  draw() {
    const name = this.gameName(this.game);
    document.title = t('board.pageTitle', {game: name});
    const others = h('nav', {class: 'row board-games', 'aria-label': t('board.otherGames')},
      this.games.map((g) => (g.id === this.game ? h('span', {class: 'badge', 'aria-current': 'page'}, tx(g.name))
        : h('a', {href: '/leaderboard/' + g.id}, tx(g.name)))));
    if (!this.data) {
      fill(this.root, h('h1', {id: 'board-h', tabindex: '-1'}, t('board.title', {game: name})),
        h('p', {class: 'error', role: 'alert'}, errorText(this.error)), others);
      return;
    }
    const boards = this.data.boards || [];
    fill(this.root, h('div', {class: 'board-page'},
      h('h1', {id: 'board-h', tabindex: '-1'}, t('board.title', {game: name})),
      h('p', {class: 'lead'}, t('board.lead')),
      others,
      boards.length ? boards.map((b) => this.drawBoard(b)) : h('p', {class: 'muted', id: 'board-empty'}, t('board.empty')),
      h('p', {}, h('a', {href: '/'}, t('match.backToLobby')))));
  }

  drawBoard(b) {
    const id = 'board-' + b.family;
    return h('section', {class: 'panel', 'aria-labelledby': id + '-h', id},
      h('h2', {id: id + '-h'}, t('rating.family.' + b.family)),
      b.entries.length ? h('table', {class: 'by board', 'aria-labelledby': id + '-h'},
        h('thead', {}, h('tr', {},
          h('th', {scope: 'col'}, t('board.rank')),
          h('th', {scope: 'col'}, t('board.player')),
          h('th', {scope: 'col'}, t('rating.rating')),
          h('th', {scope: 'col'}, t('rating.games')))),
        h('tbody', {}, b.entries.map((e) => h('tr', {'data-player': e.player},
          h('td', {}, String(e.rank)),
          h('td', {}, e.bot ? (has('name.bot.' + e.name) ? t('name.bot.' + e.name) : t('name.bot', {level: botName(e.name)})) : h('a', {href: '/players/' + e.player}, e.name)),
          h('td', {'data-figure': 'rating'}, num(e.rating, 1)),
          h('td', {}, String(e.games))))))
        : h('p', {class: 'muted'}, t('board.empty')));
  }
}
