// Languages: every string the client shows is in /i18n/<lang>.json. The
// browser's language is the default; the player's choice is kept in
// localStorage. Missing keys fall back to English, then to the key itself.

export const LANGS = ['fr', 'en'];
const dicts = {};
let lang = 'en';
const listeners = new Set();

// initI18n loads both languages and picks the player's.
export async function initI18n() {
  await Promise.all(LANGS.map(async (l) => {
    const r = await fetch('/i18n/' + l + '.json');
    dicts[l] = r.ok ? await r.json() : {};
  }));
  let want = null;
  try { want = localStorage.getItem('sortie.lang'); } catch { /* private mode */ }
  if (!LANGS.includes(want)) {
    want = (navigator.languages || [navigator.language || 'en'])
      .map((l) => String(l).slice(0, 2).toLowerCase())
      .find((l) => LANGS.includes(l)) || 'en';
  }
  apply(want);
}

function apply(l) {
  lang = l;
  document.documentElement.lang = l;
  document.title = t('app.title');
}

// getLang returns the current language.
export const getLang = () => lang;

// setLang switches language and tells every listener.
export function setLang(l) {
  if (!LANGS.includes(l) || l === lang) return;
  try { localStorage.setItem('sortie.lang', l); } catch { /* private mode */ }
  apply(l);
  for (const f of listeners) f(l);
}

// onLang registers f to be called after each language switch.
export function onLang(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

// has says whether key has a text in the current language (or English).
export function has(key) {
  return key in (dicts[lang] || {}) || key in (dicts.en || {});
}

// t returns the text of key with {name} replaced by params.name.
export function t(key, params) {
  let str = (dicts[lang] || {})[key];
  if (str == null) str = (dicts.en || {})[key];
  if (str == null) str = key;
  if (params) str = str.replace(/\{(\w+)\}/g, (m, k) => (params[k] == null ? m : String(params[k])));
  return str;
}

// tn picks key.one or key.other by n (French counts 0 and 1 as singular)
// and passes n as {n}.
export function tn(key, n, params) {
  const one = lang === 'fr' ? n < 2 : n === 1;
  return t(key + (one ? '.one' : '.other'), {n, ...params});
}

// tx returns a text given by the server in several languages
// ({"fr": ..., "en": ...}).
export function tx(text) {
  if (!text) return '';
  if (typeof text === 'string') return text;
  return text[lang] || text.en || Object.values(text)[0] || '';
}

// list joins words as a sentence does: "a, b and c".
export function list(items) {
  items = items.filter((x) => x != null && x !== '');
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' ' + t('word.and') + ' ' + items[items.length - 1];
}

// num writes a number as the language does ("2.5" in English, "2,5" in
// French), with at most digits decimals.
export function num(n, digits = 1) {
  return new Intl.NumberFormat(lang, {maximumFractionDigits: digits}).format(n);
}

// fmtDuration says a duration as a person does: "2.5 s", "45 s", "1 min 30 s",
// "2 h 5 min", "3 days". Seconds are rounded up: a wait is never said
// shorter than it is.
export function fmtDuration(ms) {
  ms = Math.max(0, Number(ms) || 0);
  if (ms < 10000) return t('time.s', {n: num(Math.ceil(ms / 100) / 10)});
  const secs = Math.ceil(ms / 1000);
  if (secs < 60) return t('time.s', {n: secs});
  if (secs < 3600) {
    const m = Math.floor(secs / 60), sec = secs % 60;
    return sec ? t('time.minS', {m, s: sec}) : t('time.min', {n: m});
  }
  if (secs < 86400 || secs % 86400) {
    const h = Math.floor(secs / 3600), m = Math.round((secs % 3600) / 60);
    return m ? t('time.hMin', {h, m}) : t('time.h', {n: h});
  }
  return tn('time.day', secs / 86400);
}

// errorText says a refusal of the server in the player's language: the
// game's own text for its rule code, the client's text for the server's
// codes, else the server's sentence (in English). The refusal's params fill
// the text: durations ("…_ms") said as a person says them, seats by name
// (name(seat), when given), numbers as the language writes them.
export function errorText(err, game, name) {
  const code = err && err.code;
  const params = errorParams(err && err.params, name);
  for (const key of [game && code ? game + '.error.' + code : null, code ? 'error.' + code : null]) {
    if (!key || !has(key)) continue;
    const text = t(key, params);
    if (!/\{\w+\}/.test(text)) return text;
  }
  return (err && err.message) || t('error.unknown');
}

function errorParams(p, name) {
  const out = {};
  for (const [k, v] of Object.entries(p || {})) {
    if (/_ms$/.test(k) && typeof v === 'number') out[k] = out[k.slice(0, -3)] = fmtDuration(v);
    else if ((k === 'seat' || k === 'target') && typeof v === 'number' && name) out[k] = name(v);
    else if (typeof v === 'number') out[k] = num(v, 2);
    else out[k] = v;
  }
  return out;
}
