// The player's settings kept in this browser: single-key shortcuts on or
// off (WCAG 2.1.4: a player who speaks commands or types by mistake can
// turn them off), shown as a small panel on the match page.

import {h} from './ui.js';
import {t} from './i18n.js';

const KEY = 'sortie.shortcuts';

// shortcutsOn says whether single-key shortcuts act.
export function shortcutsOn() {
  try { return localStorage.getItem(KEY) !== 'off'; } catch { return true; }
}

export function setShortcuts(on) {
  try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch { /* private mode */ }
}

// singleKey says whether a key press is a single character key (a letter,
// digit, punctuation or symbol) without modifiers: the kind of shortcut the
// setting turns off. Enter, Escape, arrows and Backspace stay.
export function singleKey(e) {
  return !e.ctrlKey && !e.metaKey && !e.altKey && e.key.length === 1 && e.key !== ' ';
}

// prefsPanel draws the settings: a checkbox for the shortcuts.
export function prefsPanel() {
  const box = h('input', {type: 'checkbox', id: 'pref-shortcuts', checked: shortcutsOn(),
    onchange: (e) => setShortcuts(e.target.checked)});
  return h('div', {class: 'prefs', id: 'prefs'},
    box, h('label', {for: 'pref-shortcuts'}, t('prefs.shortcuts')),
    h('small', {class: 'help', id: 'pref-shortcuts-help'}, t('prefs.shortcutsHelp')));
}
