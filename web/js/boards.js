// Board modules: web/games/<id>.js draws one game; games without a module
// get the generic board. A module exports:
//
//   render(root, ctx)      draw ctx.view into root (required)
//   describe(ev, ctx)      a sentence for an event, or null for the generic one
//   label(action, ctx)     a short label for a legal action, or null
//   status(ctx)            a sentence saying what is expected now, or null
//   onKey(event, ctx)      handle a key press; return true if handled
//   listed(action, ctx)    false keeps a legal action out of the page's list
//   tick(root, ctx)        called 4 times a second (live clocks)
//   heard(ev, ctx)         false: a screen reader does not hear this event
//                          of the log (the echo of one's own move, another
//                          runner's time during one's own run); ctx.events
//                          holds the events of the same update
//   saysUrgently           a Set of event types the board reads out itself
//   focusNext(root, ctx)   where the keyboard goes when its control is gone
//   init()                 load static data once (optional, async)
//
// A board marks the area of what the player decides next with data-decide:
// after the player's move the keyboard goes there (to its first control, or
// to the area while nothing is to decide), so that the next decision is one
// Tab away. ctx.shortcuts says whether single-key shortcuts are on: a
// board names its keys only then.
//
// ctx is made by the match page (see match.js, ctx). A module draws
// only what ctx.view holds: it never guesses a secret.

import * as generic from './generic.js';
import {t, has} from './i18n.js';

// Games that have their own module under /games/.
const MODULES = ['plandesecours', 'evades', 'room25', 'temple', 'outran'];

const cache = new Map();

// loadBoard returns the board module of a game, or the generic board.
export async function loadBoard(game) {
  if (cache.has(game)) return cache.get(game);
  let mod = generic;
  if (MODULES.includes(game)) {
    try {
      mod = await import('/games/' + game + '.js');
      if (mod.init) await mod.init();
    } catch (e) {
      console.error('board module of ' + game + ' failed; the generic board is used', e);
      mod = generic;
    }
  }
  cache.set(game, mod);
  return mod;
}

// describeEvent turns an event into a sentence: the module's, else the
// game's i18n template "<game>.ev.<type>", else the generic form.
export function describeEvent(mod, ev, ctx) {
  let s = null;
  if (mod.describe) {
    try { s = mod.describe(ev, ctx); } catch (e) { console.warn(e); }
  }
  if (s === false) return null; // the module hides it
  if (s) return s;
  const key = ctx.game + '.ev.' + ev.type;
  const params = generic.params(ev, ctx);
  if (has(key)) return t(key, params);
  return generic.describe(ev, ctx);
}

// labelAction names a legal action for a button.
export function labelAction(mod, a, ctx) {
  let s = null;
  if (mod.label) {
    try { s = mod.label(a, ctx); } catch (e) { console.warn(e); }
  }
  if (s) return s;
  const key = ctx.game + '.act.' + a.type;
  if (has(key)) return t(key, generic.params(a, ctx));
  return generic.label(a, ctx);
}
