// Friends: the page of a signed-in player's relations (/friends) — friends
// (who follow each other), those they follow who have not followed back,
// those who follow them (to follow back), those they block — and the
// control that invites a friend straight to a seat of a table they host.
// Players find each other by name here (GET /api/players?q=), or on their
// profiles (/players/<id>), whose address this page gives to share.

import {api} from './api.js';
import {t, tn, onLang, errorText} from './i18n.js';
import {h, fill, toast, copyText} from './ui.js';
import {currentMe} from './session.js';

let relations = null; // the promise of GET /api/me/relations

// loadRelations resolves to the player's relations ({following, followers,
// friends, blocked}, each [{id, name}]); again asks the server anew.
export function loadRelations(again = false) {
  if (!relations || again) relations = api('GET', '/api/me/relations');
  return relations;
}

// inviteFriend is the control that invites a friend to seat of match id:
// a list of friends and a button; nothing while the player has no friend.
// host is the match's host token, if this browser holds it (else the
// account that created the match is the host).
export function inviteFriend(id, seat, host) {
  const box = h('span', {class: 'invite-friend', 'data-invite-seat': seat});
  loadRelations().then((rel) => {
    const friends = rel.friends || [];
    if (!friends.length) return;
    const sel = 'friend-' + seat;
    const status = h('span', {class: 'invite-status', role: 'status', id: 'invite-status-' + seat});
    const select = h('select', {id: sel}, friends.map((f) => h('option', {value: f.id}, f.name)));
    fill(box, h('label', {for: sel}, t('friends.inviteTo', {n: seat + 1})), ' ', select, ' ',
      h('button', {type: 'button', id: 'invite-friend-' + seat, onclick: async () => {
        const f = friends.find((x) => x.id === select.value);
        try {
          await api('POST', '/api/matches/' + id + '/invite', {seat, player: select.value}, host);
          status.textContent = t('friends.invited', {name: f ? f.name : ''});
        } catch (e) {
          status.textContent = errorText(e);
        }
      }}, t('friends.invite')), ' ', status);
  }).catch(() => {});
  return box;
}

export class FriendsPage {
  constructor(root) {
    this.root = root;
    this.rel = null;
    this.error = '';
    this.query = '';
    this.found = null; // the last search's players, or null before any
    this.findError = '';
  }

  async start() {
    onLang(() => this.draw());
    this.me = await currentMe();
    if (this.me) await this.load();
    this.draw();
    document.getElementById('friends-h')?.focus();
  }

  async load() {
    try {
      this.rel = await loadRelations(true);
      this.error = '';
    } catch (e) {
      this.error = errorText(e);
    }
  }

  draw() {
    document.title = t('friends.pageTitle');
    const title = h('h1', {id: 'friends-h', tabindex: '-1'}, t('friends.title'));
    if (!this.me) {
      fill(this.root, title, h('p', {}, t('friends.signedOut'), ' ', h('a', {href: '/signin'}, t('account.signIn'))));
      return;
    }
    const r = this.rel || {friends: [], following: [], followers: [], blocked: []};
    const ids = (l) => new Set(l.map((p) => p.id));
    const friends = ids(r.friends);
    const profile = new URL('/players/' + encodeURIComponent(this.me.id), location.href).href;
    const group = (key, people, actions) => h('section', {class: 'panel', 'aria-labelledby': key + '-h', id: key},
      h('h2', {id: key + '-h', tabindex: '-1'}, t('friends.' + key), ' ', h('span', {class: 'badge'}, String(people.length))),
      people.length ? h('ul', {class: 'people'}, people.map((p) => h('li', {'data-player': p.id},
        h('a', {href: '/players/' + encodeURIComponent(p.id)}, p.name || t('name.deleted')), ' ',
        h('span', {class: 'actions'}, actions(p))))) : h('p', {class: 'muted'}, t('friends.none.' + key)));
    const act = (label, method, path, p) => h('button', {type: 'button', 'data-key': path + '-' + p.id,
      onclick: () => this.act(method, '/api/me/' + path + '/' + encodeURIComponent(p.id))}, label, h('span', {class: 'visually-hidden'}, ' — ' + p.name));
    fill(this.root, h('div', {class: 'friends-page'},
      title,
      h('p', {class: 'lead'}, t('friends.lead')),
      this.error ? h('p', {class: 'error', role: 'alert'}, this.error) : null,
      this.drawFind(r),
      h('section', {class: 'panel', 'aria-labelledby': 'share-h'},
        h('h2', {id: 'share-h'}, t('friends.share')),
        h('p', {class: 'help', id: 'share-help'}, t('friends.shareHelp')),
        h('div', {class: 'row'},
          h('input', {type: 'text', readonly: true, value: profile, id: 'profile-url', class: 'invite-url', 'aria-label': t('friends.share'), 'aria-describedby': 'share-help', onfocus: (e) => e.target.select()}),
          h('button', {type: 'button', id: 'copy-profile', onclick: async () => toast(await copyText(profile) ? t('lobby.copied') : t('lobby.copyFailed'))}, t('lobby.copy')))),
      group('friends', r.friends, (p) => act(t('profile.unfollow'), 'DELETE', 'follows', p)),
      group('followers', r.followers.filter((p) => !friends.has(p.id)), (p) => act(t('friends.followBack'), 'PUT', 'follows', p)),
      group('following', r.following.filter((p) => !friends.has(p.id)), (p) => act(t('profile.unfollow'), 'DELETE', 'follows', p)),
      group('blocked', r.blocked, (p) => act(t('profile.unblock'), 'DELETE', 'blocks', p))));
  }

  // drawFind is the search for a player by name, with its results: each a
  // link to the profile and, for those the player does not follow yet, a
  // button to follow them.
  drawFind(r) {
    const following = new Set((r.following || []).map((p) => p.id));
    let list = null;
    if (this.found) {
      list = this.found.length ? h('ul', {class: 'people', id: 'found'}, this.found.map((p) => h('li', {'data-player': p.id},
        h('a', {href: '/players/' + encodeURIComponent(p.id)}, p.name), ' ',
        p.id === this.me.id ? h('span', {class: 'muted'}, t('friends.you')) :
          following.has(p.id) ? h('span', {class: 'muted'}, t('friends.followed')) :
            h('span', {class: 'actions'}, h('button', {type: 'button', 'data-key': 'follow-' + p.id,
              onclick: () => this.act('PUT', '/api/me/follows/' + encodeURIComponent(p.id))},
            t('profile.follow'), h('span', {class: 'visually-hidden'}, ' — ' + p.name))))))
        : h('p', {class: 'muted', id: 'found'}, t('friends.foundNone'));
    }
    return h('section', {class: 'panel', 'aria-labelledby': 'find-h', id: 'find'},
      h('h2', {id: 'find-h'}, t('friends.find')),
      h('form', {class: 'row', role: 'search', onsubmit: (e) => { e.preventDefault(); this.find(); }},
        h('label', {for: 'find-q', class: 'visually-hidden'}, t('friends.find')),
        h('input', {type: 'search', id: 'find-q', value: this.query, minlength: 2, maxlength: 40, autocomplete: 'off',
          'aria-describedby': 'find-help', oninput: (e) => { this.query = e.target.value; }}),
        h('button', {type: 'submit', id: 'find-go'}, t('friends.findGo'))),
      h('p', {class: 'help', id: 'find-help'}, t('friends.findHelp')),
      h('p', {class: 'visually-hidden', role: 'status', id: 'find-status'}, this.found ? tn('friends.foundCount', this.found.length) : ''),
      this.findError ? h('p', {class: 'error', role: 'alert'}, this.findError) : null,
      list);
  }

  async find() {
    const q = this.query.trim();
    this.findError = '';
    if ([...q].length < 2) {
      this.findError = t('friends.findHelp');
      this.found = null;
    } else {
      try {
        this.found = (await api('GET', '/api/players?q=' + encodeURIComponent(q))).players || [];
      } catch (e) {
        this.findError = errorText(e);
      }
    }
    this.draw();
    document.getElementById('find-q')?.focus();
  }

  async act(method, path) {
    try {
      await api(method, path);
    } catch (e) {
      toast(errorText(e), 'error', 8000);
    }
    const focused = document.activeElement && document.activeElement.closest('section');
    await this.load();
    this.draw();
    // The focus stays in the list it was in (the person may have moved to
    // another), else on its heading.
    const again = focused && document.getElementById(focused.id);
    (again && again.querySelector('button') || again && again.querySelector('h2') || document.getElementById('friends-h'))?.focus();
  }
}
