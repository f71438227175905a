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

// ---- messages ----
//
// A text is words with placeholders, a small part of ICU's message format:
//
//   {seat}      the parameter seat
//   {Seat}      the same, with its first letter made a capital: a value that
//               opens a sentence ("{Char} révèle…" → "Le Savant révèle…");
//               so a parameter's name starts with a small letter
//   {seat, select, you {…} f {…} other {…}}
//               the first arm whose key is one of the value's features, else
//               the arm other (which every select has); arms hold words and
//               placeholders. A phrase's features are "you" when it names the
//               reader, then its gender ("f", "m"); a plain value's feature is
//               its own text.
//
// Counts choose between keys: tn(key, n) reads key.one, key.other… by the
// language's plural rule (Intl.PluralRules; a category the dictionary lacks
// falls back to other).
//
// Where a value meets the word written before it, the language's grammar
// applies (joinValue): French elides (de Alice → d’Alice, que Émile →
// qu’Émile) and contracts (à le centre → au centre, de les égouts → des
// égouts); English writes "an" before a vowel (an orange token). So a text
// says "de {name}" and never has to guess the name.

// Phrase is a value with what a sentence needs to know of it: its gender
// and whether it names the reader (the seat whose page it is).
export class Phrase {
  constructor(text, {gender = '', you = false} = {}) {
    this.text = String(text);
    this.gender = gender;
    this.you = you;
  }
  toString() { return this.text; }
  features() {
    const f = [];
    if (this.you) f.push('you');
    if (this.gender) f.push(this.gender);
    return f;
  }
}

// phrase makes a Phrase.
export const phrase = (text, features) => new Phrase(text, features);

const parsed = new Map();

// parse reads a text into parts: strings, and placeholders {name, cap,
// arms} (arms: [[key, parts]…] for a select).
export function parse(text) {
  let got = parsed.get(text);
  if (got) return got;
  let i = 0;
  const fail = (why) => { throw new Error('message ' + JSON.stringify(text) + ': ' + why + ' at ' + i); };
  const parts = (depth) => {
    const out = [];
    let run = '';
    while (i < text.length) {
      const c = text[i];
      if (c === '}') {
        if (!depth) fail('a } closes nothing');
        break;
      }
      if (c !== '{') { run += c; i++; continue; }
      if (run) { out.push(run); run = ''; }
      out.push(placeholder(depth));
    }
    if (run) out.push(run);
    return out;
  };
  const word = () => {
    const m = /^\s*([A-Za-z0-9_]+)\s*/.exec(text.slice(i));
    if (!m) fail('a name is missing');
    i += m[0].length;
    return m[1];
  };
  const placeholder = (depth) => {
    i++; // {
    const name = word();
    const p = {name: name[0].toLowerCase() + name.slice(1), cap: name[0] !== name[0].toLowerCase()};
    if (text[i] === ',') {
      i++;
      if (word() !== 'select' || text[i] !== ',') fail('only select is known');
      i++;
      p.arms = [];
      for (;;) {
        while (/\s/.test(text[i] || '')) i++;
        if (text[i] === '}') break;
        const key = word();
        if (text[i] !== '{') fail('an arm lacks its text');
        i++;
        p.arms.push([key, parts(depth + 1)]);
        if (text[i] !== '}') fail('an arm is not closed');
        i++;
      }
      if (!p.arms.some(([k]) => k === 'other')) fail('a select has no arm other');
    }
    if (text[i] !== '}') fail('a placeholder is not closed');
    i++;
    return p;
  };
  got = parts(0);
  parsed.set(text, got);
  return got;
}

// format writes a text in language l with params; a placeholder without a
// value stays as written.
export function format(text, params, l = lang) {
  let parts;
  try { parts = parse(text); } catch (e) { console.warn(e.message); return text; }
  return write(parts, params || {}, l, '');
}

function write(parts, params, l, out) {
  for (const p of parts) {
    if (typeof p === 'string') { out += p; continue; }
    const v = params[p.name];
    if (v == null) { out += '{' + (p.cap ? p.name[0].toUpperCase() + p.name.slice(1) : p.name) + '}'; continue; }
    if (p.arms) {
      const feats = v instanceof Phrase ? v.features() : [String(v)];
      const arm = p.arms.find(([k]) => feats.includes(k)) || p.arms.find(([k]) => k === 'other');
      out = write(arm[1], params, l, out);
      continue;
    }
    let s = String(v);
    if (p.cap) s = capital(s);
    out = joinValue(out, s, l);
  }
  return out;
}

// joinValue appends a value to the text written before it, as the language
// joins words (see the top of this section).
export function joinValue(before, value, l = lang) {
  if (!value) return before;
  if (l === 'fr') {
    const art = /^(les?) /.exec(value);
    const prep = /(^|[\s(«\u00a0’'])(à|À|de|De) $/.exec(before);
    if (art && prep) {
      const low = prep[2].toLowerCase();
      let c = {'à le': 'au', 'à les': 'aux', 'de le': 'du', 'de les': 'des'}[low + ' ' + art[1]];
      if (prep[2] !== low) c = c[0].toUpperCase() + c.slice(1);
      return before.slice(0, before.length - prep[2].length - 1) + c + value.slice(art[1].length);
    }
    const el = /(^|[\s(«\u00a0])(de|De|que|Que|le|Le|la|La|ne|se|je|Je|jusque|lorsque|puisque) $/.exec(before);
    if (el && FR_VOWEL.test(value)) return before.slice(0, before.length - 2) + '’' + value;
    return before + value;
  }
  if (l === 'en' && /(^|[\s(])(a|A) $/.test(before) && EN_VOWEL.test(value)) {
    return before.slice(0, before.length - 1) + 'n ' + value;
  }
  return before + value;
}

// French elides before a vowel, a mute h (taken to be a name's capital H:
// Hugo, Hélène) and a y that sounds as a vowel (Yves, not Yann).
const FR_VOWEL = /^(?:[aeiouàâäéèêëîïôöùûüœæAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆH]|[yY][^aeiouyéè])/;
// English writes "an" before a vowel sound: a, e, i, o, and u unless it
// sounds "you" (uniform, user, usual).
const EN_VOWEL = /^(?:[aeioAEIO]|[uU](?!ni|s[eu]|ti))/;

// t returns the text of key filled with params.
export function t(key, params) {
  let str = (dicts[lang] || {})[key];
  if (str == null) str = (dicts.en || {})[key];
  if (str == null) return key;
  return format(str, params);
}

// pluralOf is the plural category of n in the current language.
export function pluralOf(n, l = lang) {
  try { return new Intl.PluralRules(l).select(n); } catch { return n === 1 ? 'one' : 'other'; }
}

// tn picks key.<category> by n (French counts 0 and 1 as singular), else
// key.other, and passes n as {n}.
export function tn(key, n, params) {
  const cat = pluralOf(n);
  return t(has(key + '.' + cat) ? key + '.' + cat : key + '.other', {n, ...params});
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
  items = items.filter((x) => x != null && x !== '').map(String);
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' ' + t('word.and') + ' ' + items[items.length - 1];
}

// people joins the phrases naming people as a sentence does, the reader
// last and called "you" ("Bob and you"); the phrase has the feature you
// when the reader is among them, so that its verb can agree ("Bob et vous
// marquez").
export function people(phrases) {
  const you = phrases.some((p) => p instanceof Phrase && p.you);
  const others = phrases.filter((p) => !(p instanceof Phrase && p.you));
  return new Phrase(list([...others, ...(you ? [t('word.you')] : [])]), {you});
}

// capital writes s with its first letter a capital: a name that opens a
// line of a list ("La Bimbo", where a sentence says "la Bimbo").
export const capital = (s) => {
  s = String(s);
  return s.charAt(0).toUpperCase() + s.slice(1);
};

// colon is the colon between a name and what it names, as the language
// writes it ("Hand: …", « Main : … »).
export const colon = () => t('word.colon');

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
