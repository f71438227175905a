// Turn alerts: when this page's seat must act and the tab is hidden (the
// player is in another tab or window), the tab's title and icon say so, a
// sound plays if the player turned it on, and a browser notification shows
// if they allowed notifications. Everything is put back when the tab is
// seen again or the turn has passed. The match page calls update after each
// change; it never alerts for a spectator or a seat its bot plays.

import {t} from './i18n.js';
import {h} from './ui.js';

const SOUND_KEY = 'sortie.turnSound';

// The tab icons: Sortie's door, and the same with a bright dot.
const ICON = icon('');
const ICON_ALERT = icon('<circle cx="24" cy="8" r="7" fill="#d55e00" stroke="#fff" stroke-width="2"/>');

function icon(extra) {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    '<rect x="6" y="3" width="18" height="27" rx="2" fill="#0072b2"/><rect x="10" y="7" width="10" height="23" fill="#fff"/>' +
    '<circle cx="17" cy="19" r="1.6" fill="#0072b2"/>' + extra + '</svg>';
  return 'data:image/svg+xml,' + encodeURIComponent(svg);
}

function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === '1'; } catch { return false; }
}

export class TurnAlert {
  // matchId tags the notifications; gameName() names the game in them.
  constructor(matchId, gameName) {
    this.matchId = matchId;
    this.gameName = gameName;
    this.mine = false; // the seat must act now
    this.due = false; // a turn began that the player has not seen yet
    this.on = false; // the title and icon are changed
    this.link = document.querySelector('link[rel="icon"]');
    if (!this.link) {
      this.link = h('link', {rel: 'icon', id: 'favicon', type: 'image/svg+xml', href: ICON});
      document.head.append(this.link);
    }
    document.addEventListener('visibilitychange', () => this.check());
  }

  // update says whether the seat must act now.
  update(mine) {
    if (mine && !this.mine) this.due = true;
    if (!mine) this.due = false;
    this.mine = mine;
    this.check();
  }

  check() {
    if (!document.hidden || !this.mine) {
      // Seen, or nothing to do: the turn is no longer news.
      if (!document.hidden) this.due = false;
      this.restore();
      return;
    }
    if (this.due) {
      this.due = false;
      this.fire();
    }
  }

  fire() {
    const game = this.gameName();
    if (!this.on) this.title = document.title;
    this.on = true;
    document.title = '● ' + t('alert.title', {game});
    this.link.href = ICON_ALERT;
    this.link.dataset.alert = 'true';
    if (soundOn()) chime();
    if ('Notification' in window && Notification.permission === 'granted') {
      try {
        const n = new Notification(t('alert.title', {game}), {body: t('alert.body', {game}), tag: 'sortie-' + this.matchId, icon: ICON_ALERT});
        n.onclick = () => { window.focus(); n.close(); };
      } catch { /* some browsers only notify from a service worker */ }
    }
  }

  restore() {
    if (!this.on) return;
    this.on = false;
    document.title = this.title;
    this.link.href = ICON;
    delete this.link.dataset.alert;
  }
}

// AlertSettings draws the player's choices: the sound (off until turned on)
// and the browser's notifications (asked for only when the player wants
// them). onChange redraws the panel holding it.
export class AlertSettings {
  constructor(onChange) {
    this.onChange = onChange;
  }

  render() {
    const sound = h('input', {type: 'checkbox', id: 'turn-sound', checked: soundOn(), onchange: (e) => {
      try { localStorage.setItem(SOUND_KEY, e.target.checked ? '1' : '0'); } catch { /* private mode */ }
      if (e.target.checked) chime(); // the player hears what it sounds like (and the browser lets it play)
    }});
    let notify = null;
    if ('Notification' in window) {
      const p = Notification.permission;
      notify = p === 'granted' ? h('span', {class: 'muted', id: 'turn-notify'}, t('alert.notifyOn'))
        : p === 'denied' ? h('span', {class: 'muted', id: 'turn-notify'}, t('alert.notifyBlocked'))
          : h('button', {type: 'button', id: 'turn-notify', onclick: async () => {
            try { await Notification.requestPermission(); } catch { /* ignored */ }
            this.onChange();
          }}, t('alert.notify'));
    }
    return h('div', {class: 'alert-settings'}, h('label', {class: 'check'}, sound, ' ', t('alert.sound')), notify);
  }
}

let audio = null;

// chime plays two short soft notes.
function chime() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    for (const [i, f] of [[0, 660], [1, 880]]) {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, now + i * 0.18);
      g.gain.exponentialRampToValueAtTime(0.2, now + i * 0.18 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.18 + 0.16);
      o.connect(g).connect(audio.destination);
      o.start(now + i * 0.18);
      o.stop(now + i * 0.18 + 0.2);
    }
  } catch { /* no sound here */ }
}
