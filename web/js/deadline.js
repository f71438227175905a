// Correspondence tables' deadlines, said in the page's language and the
// reader's time zone: "Your move by Tue 1 Dec, 14:05", "À vous de jouer
// avant le mar. 1er déc. à 14 h 05". The server gives each deadline as a
// wall time (the summary's seats' `deadline`, the socket's `deadlines[].by`);
// this module only says it.

import {getLang, t, tn, list} from './i18n.js';

// isCorrespondence says whether a match summary is a correspondence table's.
export function isCorrespondence(summary) {
  return !!(summary && summary.settings && summary.settings.clock === 'correspondence');
}

// fmtWhen says an instant as a person reads it on a calendar, in the
// browser's time zone (zone overrides it): English as in Britain ("Tue 1
// Dec, 14:05"), French with "1er" for the first of the month and the hour
// written "14 h 05" ("mar. 1er déc. à 14 h 05").
export function fmtWhen(when, zone) {
  const d = when instanceof Date ? when : new Date(when);
  if (Number.isNaN(d.getTime())) return '';
  const opts = {weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23'};
  if (zone) opts.timeZone = zone;
  if (getLang() !== 'fr') return new Intl.DateTimeFormat('en-GB', opts).format(d);
  const p = {};
  for (const part of new Intl.DateTimeFormat('fr-FR', {...opts, hour: 'numeric'}).formatToParts(d)) p[part.type] = part.value;
  const day = p.day === '1' ? '1er' : p.day;
  return `${p.weekday} ${day} ${p.month} à ${p.hour}\u00a0h\u00a0${p.minute}`;
}

// deadlineText says when a seat's move is due: the reader's own ("Your move
// by …"), or another's, named by name (a phrase or a string).
export function deadlineText(by, mine, name) {
  const when = fmtWhen(by);
  return mine ? t('deadline.yours', {when}) : t('deadline.theirs', {name, when});
}

// daysOffText says how many days off a player has left.
export function daysOffText(n) {
  return n > 0 ? tn('deadline.daysOff', n) : t('deadline.noDaysOff');
}

// paceText says a correspondence table's pace: "Correspondence: 2 days a
// move, 3 days off each".
export function paceText(settings) {
  const days = Math.round((settings.move_limit_ms || 0) / 86400000);
  const off = settings.days_off ? tn('deadline.daysOffEach', settings.days_off) : t('deadline.noDaysOffEach');
  return t('deadline.pace', {limit: tn('deadline.perMove', days), off});
}

// dueLine says, in a list of matches ("My games", "Your matches"), when a
// correspondence table's moves are due: "Your move by …" when the reader
// must move (mine(seat) says which seats are theirs), else whom it waits
// for until when ("waiting for Ana until …"), by name(seat); '' when
// nobody must move.
export function dueLine(sum, mine, name) {
  const due = (sum.seats || []).filter((st) => st.deadline);
  const own = due.find((st) => mine(st.seat));
  if (own) return deadlineText(own.deadline, true);
  const by = new Map(); // when → the names due then
  for (const st of due) {
    const when = fmtWhen(st.deadline);
    by.set(when, [...(by.get(when) || []), name(st.seat)]);
  }
  return [...by].map(([when, names]) => t('deadline.waitingUntil', {names: list(names), when})).join(' · ');
}
