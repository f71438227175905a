// The server's JSON API and the seat tokens this browser holds.

// ApiError is a refusal of the server: a stable code and a sentence.
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// api calls the JSON API; token, if given, is sent as the bearer token.
export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  let r;
  try {
    r = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store'});
  } catch {
    throw new ApiError('network', '', 0);
  }
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(e.code || 'http_' + r.status, e.message || r.statusText, r.status);
  }
  return data;
}

// Seats this browser holds are kept in localStorage under "sortie.matches":
// {matchId: {game, seats: {seat: token}, last, host, invites: {seat: url}}}.
const KEY = 'sortie.matches';

function readAll() {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}') || {}; } catch { return {}; }
}

function writeAll(all) {
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode: the page still works until it is closed */ }
}

// held returns what this browser holds for a match, or null.
export function held(id) {
  return readAll()[id] || null;
}

// heldAll returns every match this browser holds a seat or the host token of.
export function heldAll() {
  return readAll();
}

// remember merges fields into what this browser holds for a match.
export function remember(id, patch) {
  const all = readAll();
  const cur = all[id] || {seats: {}, invites: {}};
  if (patch.seats) cur.seats = {...cur.seats, ...patch.seats};
  if (patch.invites) cur.invites = {...cur.invites, ...patch.invites};
  for (const [k, v] of Object.entries(patch)) if (k !== 'seats' && k !== 'invites') cur[k] = v;
  all[id] = cur;
  writeAll(all);
  return cur;
}

// forget drops a match from this browser.
export function forget(id) {
  const all = readAll();
  delete all[id];
  writeAll(all);
}

// playerName is the name this browser last played under.
export function playerName() {
  try { return localStorage.getItem('sortie.name') || ''; } catch { return ''; }
}

export function setPlayerName(n) {
  try { localStorage.setItem('sortie.name', n); } catch { /* ignore */ }
}
