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

// errorText says a refusal of the server in the player's language: the
// game's own text for its rule code, the client's text for the server's
// codes, else the server's sentence (in English).
export function errorText(err, game) {
  const code = err && err.code;
  if (code && game && has(game + '.error.' + code)) return t(game + '.error.' + code);
  if (code && has('error.' + code)) return t('error.' + code);
  return (err && err.message) || t('error.unknown');
}
