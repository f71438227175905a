// A player's profile (/players/<id>), as anyone sees it: their name, since
// when they play, their ratings with their history and how often they finish
// what they start (js/ratings.js), their figures in each game (matches, wins, by number of
// players and mode, a match's mean length, the time played) and their
// recent matches with their replays. Signed in, a visitor may follow or
// block them from here. It never shows an e-mail address: the server's
// profile holds none.

import {api} from './api.js';
import {t, tn, tx, num, onLang, errorText, getLang, fmtDuration, list} from './i18n.js';
import {h, fill, toast} from './ui.js';
import {currentMe} from './session.js';
import {loadRelations} from './friends.js';
import {seatNames} from './names.js';
import {choiceText} from './lobby.js';
import {ratingsSection} from './ratings.js';

export class ProfilePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.p = null;
    this.games = [];
    this.rel = null;
    this.blockArmed = false;
  }

  async start() {
    onLang(() => this.draw());
    let err = null;
    [this.p, this.games, this.me] = await Promise.all([
      api('GET', '/api/players/' + encodeURIComponent(this.id)).catch((e) => { err = e; return null; }),
      api('GET', '/api/games').then((r) => r.games || [], () => []),
      currentMe()]);
    this.error = err;
    if (this.me && this.p && this.me.id !== this.p.id) this.rel = await loadRelations(true).catch(() => null);
    this.draw();
    document.getElementById('profile-h')?.focus();
  }

  gameName(id) {
    const g = this.games.find((x) => x.id === id);
    return g ? tx(g.name) : id;
  }

  draw() {
    if (!this.p) {
      document.title = t('profile.notFound');
      fill(this.root, h('h1', {id: 'profile-h', tabindex: '-1'}, t('profile.notFound')),
        h('p', {class: 'error', role: 'alert'}, errorText(this.error)), h('p', {}, h('a', {href: '/'}, t('match.backToLobby'))));
      return;
    }
    const p = this.p;
    document.title = t('profile.pageTitle', {name: p.name});
    const since = new Intl.DateTimeFormat(getLang(), {month: 'long', year: 'numeric'}).format(new Date(p.created));
    const games = Object.keys(p.stats || {}).sort((a, b) => p.stats[b].matches - p.stats[a].matches || a.localeCompare(b));
    const total = games.reduce((n, g) => n + p.stats[g].matches, 0);
    fill(this.root, h('div', {class: 'profile-page'},
      h('h1', {id: 'profile-h', tabindex: '-1'}, p.name),
      h('p', {class: 'lead'}, t('profile.since', {date: since}), ' · ', tn('profile.matchesPlayed', total)),
      this.drawRelation(),
      ratingsSection(p, (g) => this.gameName(g)),
      h('section', {class: 'panel', 'aria-labelledby': 'stats-h', id: 'stats'},
        h('h2', {id: 'stats-h'}, t('profile.stats')),
        games.length ? games.map((g) => this.drawGame(g, p.stats[g])) : h('p', {class: 'muted'}, t('profile.noStats'))),
      h('section', {class: 'panel', 'aria-labelledby': 'recent-h', id: 'recent'},
        h('h2', {id: 'recent-h'}, t('profile.recent')),
        p.recent.length ? h('ul', {class: 'matches recent'}, p.recent.map((r) => this.drawRecent(r))) : h('p', {class: 'muted'}, t('profile.noRecent')))));
    this.scrollers();
  }

  // scrollers lets the keyboard scroll a table wider than the screen (it
  // scrolls inside its panel): such a table's box is a tab stop.
  scrollers() {
    for (const box of this.root.querySelectorAll('.by-wrap')) {
      if (box.scrollWidth > box.clientWidth) {
        box.setAttribute('tabindex', '0');
        box.setAttribute('role', 'region');
        box.setAttribute('aria-labelledby', box.dataset.label);
      } else {
        for (const a of ['tabindex', 'role', 'aria-labelledby']) box.removeAttribute(a);
      }
    }
    if (!this.watching) {
      this.watching = true;
      addEventListener('resize', () => this.scrollers());
    }
  }

  // drawRelation: for the player themselves, a word and their account; for
  // a visitor signed in, follow or unfollow, block or unblock.
  drawRelation() {
    const p = this.p;
    if (!this.me) return null;
    if (this.me.id === p.id) {
      return h('p', {class: 'row relation'}, t('profile.yours'), ' ', h('a', {href: '/account', id: 'to-account'}, t('account.account')));
    }
    const rel = this.rel || {following: [], followers: [], blocked: []};
    const has = (l) => (l || []).some((x) => x.id === p.id);
    const following = has(rel.following), follower = has(rel.followers), blocked = has(rel.blocked);
    const tags = [];
    if (following && follower) tags.push(t('profile.friends'));
    else if (follower) tags.push(t('profile.followsYou'));
    if (blocked) tags.push(t('profile.blocked'));
    const go = async (method, path, said) => {
      try {
        await api(method, '/api/me/' + path + '/' + encodeURIComponent(p.id));
        toast(said);
      } catch (e) {
        toast(errorText(e), 'error', 8000);
      }
      this.blockArmed = false;
      const focused = document.activeElement && document.activeElement.id;
      this.rel = await loadRelations(true).catch(() => this.rel);
      this.draw();
      // The buttons change their words: the focus stays on the same place.
      (document.getElementById(focused) || document.getElementById('follow'))?.focus();
    };
    return h('div', {class: 'row relation', id: 'relation'},
      tags.map((x) => h('span', {class: 'badge', id: 'relation-tag'}, x)),
      blocked ? null : h('button', {type: 'button', id: 'follow', class: following ? null : 'primary',
        onclick: () => (following ? go('DELETE', 'follows', t('profile.unfollowed', {name: p.name})) : go('PUT', 'follows', t('profile.followed', {name: p.name})))},
      following ? t('profile.unfollow') : follower ? t('friends.followBack') : t('profile.follow')),
      blocked
        ? h('button', {type: 'button', id: 'block', onclick: () => go('DELETE', 'blocks', t('profile.unblocked', {name: p.name}))}, t('profile.unblock'))
        : h('button', {type: 'button', id: 'block', class: this.blockArmed ? 'danger' : null, 'aria-describedby': 'block-help', onclick: () => {
          if (!this.blockArmed) {
            this.blockArmed = true;
            this.draw();
            document.getElementById('block')?.focus();
            return;
          }
          go('PUT', 'blocks', t('profile.blockedNow', {name: p.name}));
        }}, this.blockArmed ? t('profile.blockConfirm') : t('profile.block')),
      blocked ? null : h('small', {class: 'help', id: 'block-help'}, t('profile.blockHelp')));
  }

  drawGame(g, st) {
    const id = 'stats-' + g;
    const modes = st.by.some((b) => b.mode);
    const rate = (w, n) => (n ? t('profile.rate', {pct: num(100 * w / n, 0)}) : '');
    return h('div', {class: 'game-stats', 'data-game': g},
      h('h3', {id: id + '-h'}, this.gameName(g)),
      h('dl', {class: 'figures'},
        h('div', {}, h('dt', {}, t('profile.matches')), h('dd', {'data-figure': 'matches'}, String(st.matches))),
        h('div', {}, h('dt', {}, t('profile.wins')), h('dd', {'data-figure': 'wins'}, String(st.wins), ' ', rate(st.wins, st.matches))),
        h('div', {}, h('dt', {}, t('profile.meanLength')), h('dd', {'data-figure': 'mean'}, st.mean_ms ? fmtDuration(st.mean_ms) : '—')),
        h('div', {}, h('dt', {}, t('profile.timePlayed')), h('dd', {'data-figure': 'played'}, st.played_ms ? fmtDuration(st.played_ms) : '—'))),
      h('div', {class: 'by-wrap', 'data-label': id + '-h'}, h('table', {class: 'by', 'aria-labelledby': id + '-h'},
        h('caption', {class: 'visually-hidden'}, t('profile.byCaption', {game: this.gameName(g)})),
        h('thead', {}, h('tr', {},
          h('th', {scope: 'col'}, t('profile.table')),
          modes ? h('th', {scope: 'col'}, t('profile.mode')) : null,
          h('th', {scope: 'col'}, t('profile.matches')),
          h('th', {scope: 'col'}, t('profile.wins')))),
        h('tbody', {}, st.by.map((b) => h('tr', {},
          h('td', {}, tn('lobby.playersExact', b.players)),
          modes ? h('td', {}, b.mode ? choiceText(g, 'mode', b.mode) : '—') : null,
          h('td', {}, String(b.matches)),
          h('td', {}, String(b.wins), ' ', rate(b.wins, b.matches))))))));
  }

  drawRecent(r) {
    const m = r.match, game = this.gameName(m.game);
    const names = seatNames(m.seats || []);
    const others = (m.seats || []).filter((st) => !r.seats.includes(st.seat)).map((st) => names[st.seat]);
    const w = (m.outcome && m.outcome.winners) || [];
    const won = w.some((x) => r.seats.includes(x));
    const when = m.finished_at ? new Intl.DateTimeFormat(getLang(), {day: 'numeric', month: 'long', year: 'numeric'}).format(new Date(m.finished_at)) : '';
    return h('li', {class: 'match', 'data-match': m.id},
      h('span', {class: 'game-name'}, game), ' ',
      h('span', {class: 'badge' + (won ? ' won' : '')}, won ? t('profile.won') : w.length ? t('profile.lost') : t('mygames.nobodyWon')), ' ',
      others.length ? h('span', {class: 'seats-list'}, t('mygames.with', {names: list(others)})) : null, ' ',
      when ? h('span', {class: 'muted'}, when) : null,
      h('span', {class: 'actions'}, h('a', {class: 'button', href: '/play/' + m.id, 'data-key': 'replay-' + m.id}, t('lobby.replay'),
        h('span', {class: 'visually-hidden'}, ' — ' + (others.length ? t('lobby.linkContext', {game, seats: others.join(', ')}) : game)))));
  }
}
