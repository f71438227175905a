// "Save my progress": the seats a guest played in this browser (their
// tokens, kept in localStorage by api.js) become the account's when the
// player signs in or makes an account, with their history (POST
// /api/me/seats). A match the account already holds, or that it tried and
// could not take (another account holds the seat, the match is gone), is
// not offered again: its entry notes the account (kept).

import {api, heldAll, remember, forget} from './api.js';

// The intent to save, kept while the player signs in (the e-mail link may
// open in another tab): a guest who pressed "Save my progress" has their
// seats saved as soon as they are signed in, without being asked again.
const INTENT = 'sortie.saveProgress';
const INTENT_LIFE = 60 * 60 * 1000;

export function wantSave() {
  try { localStorage.setItem(INTENT, String(Date.now())); } catch { /* private mode */ }
}

export function savingWanted() {
  try { return Date.now() - Number(localStorage.getItem(INTENT) || 0) < INTENT_LIFE; } catch { return false; }
}

export function dropIntent() {
  try { localStorage.removeItem(INTENT); } catch { /* private mode */ }
}

// guestSeats returns the seats this browser holds tokens of,
// [{match, seat, token}], but those of matches account (an id, or null
// for a guest) has dealt with already, and those holds says it holds
// (holds(matchId, seat), from My games).
export function guestSeats(account, holds = () => false) {
  const out = [];
  for (const [id, m] of Object.entries(heldAll())) {
    if (account && m.kept === account) continue;
    for (const [seat, token] of Object.entries(m.seats || {})) {
      if (token && !holds(id, +seat)) out.push({match: id, seat: +seat, token});
    }
  }
  return out;
}

// saveProgress posts the seats to the account: it resolves to
// {saved, failed}, the numbers of matches whose seats became the
// account's, and of those that could not be saved (another account holds
// the seat, the match is gone). A failure of the server (unavailable)
// throws and marks nothing, so that it is offered again.
export async function saveProgress(account, seats) {
  if (!seats.length) return {saved: 0, failed: 0};
  const r = await api('POST', '/api/me/seats', {seats: seats.map((s) => ({match: s.match, token: s.token}))});
  const saved = new Set(), failed = new Set();
  for (const got of r.seats || []) {
    if (got.error && (got.error.code === 'unavailable' || got.error.code === 'pending')) continue;
    if (got.error) failed.add(got.match);
    else saved.add(got.match);
    if (got.error && got.error.code === 'unknown_match') forget(got.match);
  }
  for (const id of [...saved, ...failed]) if (heldAll()[id]) remember(id, {kept: account});
  for (const id of saved) failed.delete(id);
  return {saved: saved.size, failed: failed.size};
}
