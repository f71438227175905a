// Who is signed in: the account of this browser's session, if any, and the
// header's way to it — a discreet "Sign in" for a guest, the player's name
// with a menu (profile, account, friends, sign out) once signed in.
//
// Nothing here is ever asked of a guest: a server without accounts (GET
// /api/me answers 404 accounts_off) shows neither, and every page works the
// same signed in or not. The session itself is an HttpOnly cookie the pages
// never read: they ask the server who it is.

import {api} from './api.js';
import {t, onLang} from './i18n.js';
import {h, fill} from './ui.js';
import {icon} from '/pieces/common.js';

let asked = null; // the promise of the last GET /api/me
let state = {accounts: false, me: null};
const listeners = new Set();

// currentMe resolves to the signed-in account ({id, name, email, lang,
// created}) or null: signed out, or a server without accounts. again asks
// the server anew.
export function currentMe(again = false) {
  if (!asked || again) {
    asked = api('GET', '/api/me').then((me) => {
      set({accounts: true, me});
      return me;
    }, (e) => {
      // signed_out: the server keeps accounts, this browser is a guest's.
      set({accounts: e.code === 'signed_out', me: null});
      return null;
    });
  }
  return asked;
}

// accountsOn says whether the server keeps accounts (known once
// currentMe has answered).
export const accountsOn = () => state.accounts;

// signedIn returns the account known to be signed in, or null.
export const signedIn = () => state.me;

// setMe records the account a page just signed in or changed (null: signed
// out) and tells every listener.
export function setMe(me) {
  asked = Promise.resolve(me);
  set({accounts: true, me});
}

// onMe registers f, called with the account (or null) when it changes.
export function onMe(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

function set(next) {
  const same = state.accounts === next.accounts && JSON.stringify(state.me) === JSON.stringify(next.me);
  state = next;
  if (!same) for (const f of listeners) f(state.me);
}

// signOut ends this browser's session (everywhere: every session of the
// account) and goes to the lobby.
export async function signOut(everywhere = false) {
  await api('POST', everywhere ? '/api/auth/signout/everywhere' : '/api/auth/signout');
  setMe(null);
  location.href = '/?signed_out=1';
}

// ---- the header ----

// drawAccountNav draws the header's part of accounts, and again on every
// change of language or account.
export function drawAccountNav() {
  const nav = document.getElementById('account-nav');
  if (!nav) return;
  const draw = () => {
    const open = nav.querySelector('#me-menu') && !nav.querySelector('#me-menu').hidden;
    const focused = nav.contains(document.activeElement) ? document.activeElement.id : null;
    nav.setAttribute('aria-label', t('account.nav'));
    nav.hidden = !state.accounts;
    if (!state.accounts) { fill(nav); return; }
    if (!state.me) {
      // (On the sign-in page itself the link would lead nowhere.)
      fill(nav, location.pathname === '/signin' ? null : h('a', {href: '/signin', id: 'signin-link', class: 'signin-link'}, t('account.signIn')));
    } else {
      fill(nav, menu(state.me, open));
    }
    if (focused) document.getElementById(focused)?.focus();
  };
  onLang(draw);
  onMe(draw);
  // A press anywhere else closes the menu.
  document.addEventListener('pointerdown', (e) => {
    const list = nav.querySelector('#me-menu');
    if (list && !list.hidden && !nav.contains(e.target)) {
      list.hidden = true;
      nav.querySelector('#me-button')?.setAttribute('aria-expanded', 'false');
    }
  }, true);
  currentMe().then(draw);
  draw();
}

// menu is the signed-in player's menu: a disclosure (a button that shows a
// list of links), which Escape and a click elsewhere close.
function menu(me, open) {
  const list = h('ul', {id: 'me-menu', class: 'me-menu', hidden: !open},
    h('li', {}, h('a', {href: '/#my-games', id: 'menu-games'}, t('account.myGames'))),
    h('li', {}, h('a', {href: '/players/' + encodeURIComponent(me.id), id: 'menu-profile'}, t('account.profile'))),
    h('li', {}, h('a', {href: '/friends', id: 'menu-friends'}, t('account.friends'))),
    h('li', {}, h('a', {href: '/account', id: 'menu-account'}, t('account.account'))),
    h('li', {}, h('button', {type: 'button', id: 'menu-signout', onclick: () => signOut().catch(() => {})}, t('account.signOut'))));
  const button = h('button', {type: 'button', id: 'me-button', class: 'me-button', 'aria-expanded': String(!!open), 'aria-controls': 'me-menu',
    onclick: () => show(list.hidden)}, icon('person'), ' ', h('span', {class: 'me-name'}, me.name), h('span', {class: 'visually-hidden'}, ' — ' + t('account.menu')));
  const show = (on) => {
    list.hidden = !on;
    button.setAttribute('aria-expanded', String(on));
  };
  const box = h('div', {class: 'me-box', onkeydown: (e) => {
    if (e.key === 'Escape' && !list.hidden) { show(false); button.focus(); e.preventDefault(); }
  }, onfocusout: (e) => { if (e.relatedTarget && !box.contains(e.relatedTarget)) show(false); }}, button, list);
  return box;
}
