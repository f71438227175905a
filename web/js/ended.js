// Matches that ended without an outcome — expired, abandoned, failed,
// closed by their host — and why, in the reader's language: the server sends
// a reason with a stable code and its params (docs/api.md).

import {t, has, fmtDuration} from './i18n.js';

// ENDED are the statuses of matches that ended without an outcome.
export const ENDED = ['expired', 'abandoned', 'failed', 'closed'];

// isOver reports whether a match of this status changes no more.
export function isOver(status) {
  return status === 'finished' || ENDED.includes(status);
}

// endedText says why a match ended: the client's text for the reason's
// code, else the server's sentence, else the status.
export function endedText(status, reason) {
  const code = reason && reason.code;
  const params = {};
  for (const [k, v] of Object.entries((reason && reason.params) || {})) {
    const ms = /_ms$/.test(k) && typeof v === 'number';
    params[k] = ms ? fmtDuration(v) : v;
    if (ms) params[k.slice(0, -3)] = params[k];
  }
  if (code && has('ended.' + code)) return t('ended.' + code, params);
  return (reason && reason.message) || t('status.' + status);
}
