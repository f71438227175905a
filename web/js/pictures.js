// The games' pictures, drawn from their own pieces (web/pieces/<game>.js),
// for the lobby and the help pages.

import {emblem as pds} from '/pieces/plandesecours.js';
import {emblem as evades} from '/pieces/evades.js';
import {emblem as room25} from '/pieces/room25.js';
import {emblem as temple} from '/pieces/temple.js';
import {emblem as outran} from '/pieces/outran.js';

const PICTURES = {plandesecours: pds, evades, room25, temple, outran};

// emblem returns a game's picture, or null for a game without pieces.
export function emblem(game) {
  const f = PICTURES[game];
  return f ? f() : null;
}
