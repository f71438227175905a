// The "How to play" page of a game (/help/<game id>): what the game is
// about, its pieces drawn by the same modules as the board, how a turn
// goes, a first-turn walkthrough, how it ends and the board's keys. The
// texts are in i18n under help.<game>.*, written for a first-time player.

import {t, has, tx, onLang} from './i18n.js';
import {h, s, fill} from './ui.js';
import {api} from './api.js';
import {emblem} from './pictures.js';
import {installTips} from './tips.js';
import {tileSVG, lostSVG, cardArt, picto} from '/pieces/plandesecours.js';
import {dieSVG} from '/pieces/temple.js';
import {roomTile, figure, tokenIcon as r25Token} from '/pieces/room25.js';
import {pathCard, arrowCard} from '/pieces/outran.js';
import {cardFace} from '/pieces/evades.js';
import {seatShape, symbol} from '/pieces/common.js';

const pic = (viewBox, label, children) => s('svg', {class: 'help-pic', viewBox, role: 'img', 'aria-label': label}, s('title', {}, label), children);

// PIECES lists, for each game, the pieces the page shows: a drawing and
// the key of the sentence that explains it.
const PIECES = {
  plandesecours: () => [
    [tileSVG('straight_5', 0, {character: ''}), 'straight'],
    [tileSVG('left_4', 0, {character: ''}), 'turns'],
    [tileSVG('double_right_2', 0, {character: ''}), 'double'],
    [tileSVG('repetition_2', 0, {character: ''}), 'repetition'],
    [pic('0 0 100 100', t('pds.char.runner'), [s('rect', {class: 'plate-bg', x: 4, y: 4, width: 92, height: 92, rx: 10}), picto('runner', 50, 50, 70, 'picto help-picto')]), 'characters'],
    [lostSVG(1, ''), 'lost'],
    [cardArt('floor_initial'), 'floor'],
    [cardArt('danger_play_again'), 'danger'],
  ],
  evades: () => [
    [pic('0 0 100 70', t('help.evades.pic.door'), [s('rect', {class: 'door-pic', x: 10, y: 10, width: 80, height: 50, rx: 8}), s('text', {class: 'door-pic-t', x: 50, y: 34}, t('evades.card.file.short')), s('circle', {class: 'pip-pic', cx: 44, cy: 48, r: 3.5}), s('circle', {class: 'pip-pic', cx: 56, cy: 48, r: 3.5})]), 'door'],
    [h('span', {class: 'cards-pic'}, cardFace('spoon'), cardFace('file'), cardFace('crowbar')), 'cards'],
    [h('span', {class: 'cards-pic'}, cardFace('joker')), 'joker'],
    [pic('-12 -12 24 24', t('help.evades.pic.pawn'), seatShape(0, 9, {text: '1'})), 'pawn'],
    [pic('0 0 100 60', t('help.evades.pic.plan'), [s('rect', {class: 'plan-pic', x: 4, y: 4, width: 92, height: 52, rx: 6}), symbol('door', 50, 30, 30, {cls: 'plan-sym'})]), 'plan'],
    [pic('0 0 60 60', t('help.evades.pic.warning'), [s('circle', {class: 'warn-pic', cx: 30, cy: 30, r: 24}), s('text', {class: 'warn-pic-t', x: 30, y: 40}, '!')]), 'warning'],
  ],
  room25: () => [
    [pic('0 0 100 100', t('room25.room.empty'), roomTile('empty')), 'green'],
    [pic('0 0 100 100', t('room25.room.cold'), roomTile('cold')), 'yellow'],
    [pic('0 0 100 100', t('room25.room.deadly'), roomTile('deadly')), 'red'],
    [pic('0 0 100 100', t('room25.room.room25'), roomTile('room25')), 'room25'],
    [pic('0 0 100 100', t('room25.faceDown'), roomTile(null, 'down')), 'down'],
    [pic('0 0 100 60', t('room25.char.scientist'), [figure('scientist', 0, 30, 30), figure('geek', 0, 70, 30)]), 'figures'],
    [h('span', {class: 'tokens-pic'}, ['look', 'move', 'push', 'control'].map((k) => r25Token(k))), 'tokens'],
  ],
  temple: () => [
    [dieSVG('adventurer', 'live'), 'adventurer'],
    [dieSVG('key', 'live'), 'key'],
    [dieSVG('torch', 'live'), 'torch'],
    [dieSVG('gold_mask', 'live'), 'gold'],
    [dieSVG('black_mask', 'locked'), 'black'],
    [pic('0 0 120 120', t('help.temple.pic.chamber'), emblemChamber()), 'chamber'],
  ],
  outran: () => [
    [pic('0 0 214 214', t('help.outran.pic.path'), pathCard({symbols: ['ne', 's', 'spin', 'w', 'e'], trail: ['a3', 'b2', 'b3', 'c3', 'c2']})), 'path'],
    [pic('0 0 200 60', t('help.outran.pic.arrows'), ['n', 'e', 'spin'].map((k, i) => s('g', {transform: `translate(${i * 68} 0)`}, arrowCard(k)))), 'arrows'],
    [pic('0 0 60 60', t('help.outran.pic.finish'), [s('rect', {class: 'finish-pic', x: 3, y: 3, width: 54, height: 54, rx: 9}), symbol('flag', 30, 30, 32)]), 'finish'],
    [pic('0 0 100 60', t('help.outran.pic.interference'), [s('rect', {class: 'card-pic', x: 4, y: 4, width: 92, height: 52, rx: 6}), symbol('cards', 50, 30, 30)]), 'interference'],
    [pic('0 0 200 40', t('help.outran.pic.track'), [s('line', {class: 'track-pic', x1: 10, y1: 20, x2: 190, y2: 20}), seatShape(0, 9, {x: 40, y: 20, text: '1'}), seatShape(1, 9, {x: 110, y: 20, text: '2'}), symbol('door', 180, 20, 22)]), 'track'],
  ],
};

function emblemChamber() {
  return [s('rect', {class: 'chamber-pic', x: 6, y: 6, width: 108, height: 108, rx: 10}),
    s('rect', {class: 'cost-pic', x: 32, y: 20, width: 56, height: 28, rx: 5}),
    symbol('adventurer', 47, 34, 20, {cls: 'face-sym'}), symbol('key', 73, 34, 20, {cls: 'face-sym f-key'}),
    s('circle', {class: 'field-pic', cx: 60, cy: 80, r: 20}), symbol('torch', 60, 80, 22, {cls: 'face-sym f-torch'})];
}

// count returns how many numbered keys prefix.1, prefix.2… exist.
function count(prefix) {
  let n = 0;
  while (has(prefix + '.' + (n + 1))) n++;
  return n;
}

export class HelpPage {
  constructor(root, game) {
    this.root = root;
    this.game = game;
  }

  async start() {
    installTips();
    try {
      this.info = await api('GET', '/api/games/' + this.game);
    } catch {
      this.info = null;
    }
    onLang(() => this.draw());
    this.draw();
  }

  draw() {
    const g = this.game;
    if (!this.info || !PIECES[g]) {
      document.title = t('help.notFound') + ' — Sortie';
      fill(this.root, h('h1', {}, t('help.notFound')), h('p', {}, h('a', {href: '/'}, t('match.backToLobby'))));
      return;
    }
    const name = tx(this.info.name);
    const k = (x) => 'help.' + g + '.' + x;
    const steps = (prefix) => h('ol', {class: 'steps'}, Array.from({length: count(k(prefix))}, (_, i) => h('li', {}, t(k(prefix) + '.' + (i + 1)))));
    document.title = t('help.pageTitle', {game: name});
    fill(this.root, h('article', {class: 'help-page', id: 'help', 'data-game': g},
      h('p', {class: 'crumbs'}, h('a', {href: '/'}, t('match.backToLobby'))),
      h('h1', {}, t('help.title', {game: name})),
      h('div', {class: 'help-intro'},
        h('div', {class: 'help-emblem'}, emblem(g)),
        h('div', {},
          h('p', {class: 'lead'}, t(k('goal'))),
          h('p', {class: 'muted'}, tx(this.info.summary)),
          h('p', {}, h('a', {class: 'button', id: 'help-learn', href: '/learn/' + g}, t('learn.linkFor', {game: name}))))),
      h('section', {'aria-labelledby': 'help-pieces-h'},
        h('h2', {id: 'help-pieces-h'}, t('help.pieces')),
        h('ul', {class: 'help-pieces'}, PIECES[g]().map(([art, key]) => h('li', {'data-piece': key},
          h('span', {class: 'help-art'}, art),
          h('p', {}, h('strong', {}, t(k('piece.' + key + '.name'))), ' ', t(k('piece.' + key))))))),
      h('section', {'aria-labelledby': 'help-turn-h'},
        h('h2', {id: 'help-turn-h'}, t('help.turn')),
        steps('turn')),
      h('section', {'aria-labelledby': 'help-first-h', class: 'first-turn'},
        h('h2', {id: 'help-first-h'}, t('help.firstTurn')),
        steps('first')),
      h('section', {'aria-labelledby': 'help-end-h'},
        h('h2', {id: 'help-end-h'}, t('help.end')),
        h('p', {}, t(k('end')))),
      h('section', {'aria-labelledby': 'help-keys-h'},
        h('h2', {id: 'help-keys-h'}, t('help.keys')),
        h('p', {}, t(k('keys'))), h('p', {class: 'muted'}, t('help.keysCommon'))),
      h('p', {}, h('a', {class: 'button primary', href: '/?game=' + g}, t('help.play', {game: name})))));
  }
}
