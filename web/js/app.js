// The client's entry point: loads the languages, draws the language switch
// and routes: /play/<match id> is the match page, anything else the lobby.

import {initI18n, t, setLang, getLang, LANGS, onLang} from './i18n.js';
import {h, fill} from './ui.js';

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

async function main() {
  await initI18n();
  drawLangSwitch();
  drawStatic();
  onLang(() => { drawLangSwitch(); drawStatic(); });
  const root = document.getElementById('main');
  const m = location.pathname.match(/^\/play\/([A-Za-z0-9_-]+)\/?$/);
  const help = location.pathname.match(/^\/help\/([a-z0-9_]+)\/?$/);
  if (help) {
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
