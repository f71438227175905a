// The client's entry point: loads the languages, draws the language switch
// and the header's sign-in (js/session.js), and routes: /play/<match id> is
// the match page, /help/<game id> a game's How to play, /learn and
// /learn/<game id> the tutorials, /daily today's challenge, /signin,
// /account, /account/notifications, /friends and /players/<player id> the
// pages of accounts, /leaderboard/<game id> a game's leaderboard, anything
// else the lobby.

import {initI18n, t, setLang, getLang, LANGS, onLang} from './i18n.js';
import {h, fill} from './ui.js';
import {drawAccountNav} from './session.js';

function drawLangSwitch() {
  const nav = document.querySelector('header .lang');
  nav.setAttribute('aria-label', t('lang.label'));
  fill(nav, LANGS.map((l) => h('button', {
    type: 'button', class: 'lang-' + l, lang: l, 'aria-pressed': String(l === getLang()),
    title: t('lang.' + l), onclick: () => setLang(l),
  }, l.toUpperCase())));
}

function drawStatic() {
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  const skip = document.querySelector('a.skip');
  if (skip) skip.textContent = t('app.skip');
}

// The service worker (sw.js) makes Sortie installable, shows the offline
// page when the server cannot be reached, and shows pushed notifications.
function installWorker() {
  if (!('serviceWorker' in navigator)) return; // (an http page other than localhost has none)
  navigator.serviceWorker.register('/sw.js').catch(() => { /* the client works without it */ });
}

async function main() {
  installWorker();
  await initI18n();
  drawLangSwitch();
  drawStatic();
  onLang(() => { drawLangSwitch(); drawStatic(); });
  drawAccountNav();
  const root = document.getElementById('main');
  const path = location.pathname.replace(/\/$/, '') || '/';
  const m = path.match(/^\/play\/([A-Za-z0-9_-]+)$/);
  const help = path.match(/^\/help\/([a-z0-9_]+)$/);
  const player = path.match(/^\/players\/([A-Za-z0-9_-]+)$/);
  const board = path.match(/^\/leaderboard\/([a-z0-9_]+)$/);
  const learn = path.match(/^\/learn\/([a-z0-9_]+)$/);
  const pages = {
    '/signin': async () => new (await import('./signin.js')).SignInPage(root),
    '/account': async () => new (await import('./account.js')).AccountPage(root),
    '/account/notifications': async () => new (await import('./notifications.js')).NotificationsPage(root),
    '/friends': async () => new (await import('./friends.js')).FriendsPage(root),
    '/learn': async () => new (await import('./learn.js')).LearnIndex(root),
    '/daily': async () => new (await import('./daily.js')).DailyPage(root),
  };
  if (pages[path]) {
    (await pages[path]()).start();
  } else if (player) {
    const {ProfilePage} = await import('./profile.js');
    new ProfilePage(root, player[1]).start();
  } else if (board) {
    const {LeaderboardPage} = await import('./ratings.js');
    new LeaderboardPage(root, board[1]).start();
  } else if (learn) {
    const {LearnPage} = await import('./learn.js');
    new LearnPage(root, learn[1]).start();
  } else if (help) {
    const {HelpPage} = await import('./help.js');
    new HelpPage(root, help[1]).start();
  } else if (m) {
    const {MatchPage} = await import('./match.js');
    new MatchPage(root, m[1]).start();
  } else {
    const {Lobby} = await import('./lobby.js');
    new Lobby(root).start();
  }
}

main().catch((e) => {
  document.getElementById('main').textContent = 'Sortie could not start: ' + e;
});
