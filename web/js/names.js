// Names of seats as every page says them: the name a player gave, else a
// bot named by its level ("Medium bot", "Bot moyen") and a human by seat
// number, with numbers added where two seats would read the same ("Medium
// bot 1", "Medium bot 2"), so that no sentence leaves a player wondering
// which seat it means.

import {t, has} from './i18n.js';

// botName names a bot policy or level for a menu ("Medium").
export function botName(b) {
  return has('bot.' + b) ? t('bot.' + b) : b;
}

// botSeatName names a seat played by bot b ("Medium bot").
function botSeatName(b) {
  return has('name.bot.' + b) ? t('name.bot.' + b) : t('name.bot', {level: botName(b)});
}

// seatNames returns the display name of each seat of a seat list (as the
// server's summaries give them), in the current language.
export function seatNames(seats) {
  const base = seats.map((st, i) => {
    const seat = st && st.seat != null ? st.seat : i;
    if (!st) return t('seat.n', {n: seat + 1});
    // A player who deleted their account keeps their seat, nameless.
    if (st.deleted) return t('name.deleted');
    // Bot seats were once given "<bot> bot" as their name by the server.
    if (st.name && !(st.kind === 'bot' && st.name === st.bot + ' bot')) return st.name;
    return st.kind === 'bot' ? botSeatName(st.bot) : t('seat.n', {n: seat + 1});
  });
  const count = new Map();
  for (const b of base) count.set(b, (count.get(b) || 0) + 1);
  const seen = new Map();
  return base.map((b) => {
    if (count.get(b) < 2) return b;
    const k = (seen.get(b) || 0) + 1;
    seen.set(b, k);
    return t('name.numbered', {name: b, n: k});
  });
}
