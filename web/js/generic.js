// The generic board: any game is playable before it has its own module. It
// shows the view as readable data; the match page lists the legal actions as
// buttons.

import {h} from './ui.js';
import {t, has, colon} from './i18n.js';

// humanize turns "hand_sizes" into "hand sizes".
export function humanize(k) {
  return String(k).replace(/_/g, ' ');
}

// value writes one value of an event or action for a sentence: seats become
// names, ids the game names in i18n ("<game>.id.<id>"), lists are joined.
export function value(k, v, ctx) {
  if (v == null) return '';
  if (Array.isArray(v)) return v.map((x) => value(k, x, ctx)).join(', ');
  if (typeof v === 'object') return Object.entries(v).map(([a, b]) => humanize(a) + ' ' + value(a, b, ctx)).join(', ');
  if (/^(seat|from|to|target|starter|winner|asked|actor|first_player)$/.test(k) && typeof v === 'number' && ctx.name) {
    return v < 0 ? '—' : ctx.name(v);
  }
  if (/^(seats|winners|joined|declined)$/.test(k) && typeof v === 'number' && ctx.name) return ctx.name(v);
  if (typeof v === 'string' && has(ctx.game + '.id.' + v)) return t(ctx.game + '.id.' + v);
  if (typeof v === 'boolean') return v ? t('word.yes') : t('word.no');
  return String(v);
}

// params turns the fields of an event or action into template parameters.
export function params(o, ctx) {
  const p = {};
  for (const [k, v] of Object.entries(o)) if (k !== 'type') p[k] = value(k, v, ctx);
  return p;
}

function details(o, ctx) {
  return Object.entries(o).filter(([k]) => k !== 'type').map(([k, v]) => humanize(k) + colon() + value(k, v, ctx)).join(', ');
}

export function describe(ev, ctx) {
  const d = details(ev, ctx);
  return humanize(ev.type) + (d ? ' — ' + d : '');
}

export function label(a, ctx) {
  const d = details(a, ctx);
  return humanize(a.type) + (d ? ' (' + d + ')' : '');
}

// render shows the view as nested lists of fields.
export function render(root, ctx) {
  root.replaceChildren(
    h('p', {class: 'help'}, t('generic.note')),
    h('div', {class: 'generic-view'}, tree(ctx.view, ctx, 0)));
}

function tree(v, ctx, depth) {
  if (v == null) return h('span', {class: 'nil'}, '—');
  if (Array.isArray(v)) {
    if (!v.length) return h('span', {class: 'nil'}, t('generic.empty'));
    if (v.every((x) => x == null || typeof x !== 'object')) return h('span', {}, v.map((x) => (x == null ? '—' : String(x))).join(', '));
    return h('ol', {start: 0}, v.map((x) => h('li', {}, tree(x, ctx, depth + 1))));
  }
  if (typeof v === 'object') {
    const rows = Object.entries(v).map(([k, x]) => [h('dt', {}, humanize(k)), h('dd', {}, tree(x, ctx, depth + 1))]);
    const dl = h('dl', {}, rows);
    if (depth >= 2 && Object.keys(v).length > 4) return h('details', {}, h('summary', {}, t('generic.more')), dl);
    return dl;
  }
  if (typeof v === 'boolean') return h('span', {}, v ? t('word.yes') : t('word.no'));
  return h('span', {}, String(v));
}

// generic marks this module as the fallback board: the match page opens the
// list of legal actions, which is how its actions are played.
export const generic = true;
