// The signed-in player's notifications (/account/notifications): this
// device (turning pushes on asks the browser's permission, subscribes
// through the service worker with the server's VAPID key, and gives the
// subscription to the server), what Sortie tells them and how (on their
// devices, by e-mail each time or in a daily digest), quiet hours in their
// time zone, and the devices that receive pushes, each removable.

import {api} from './api.js';
import {t, onLang, errorText, getLang, fmtDuration} from './i18n.js';
import {h, fill} from './ui.js';
import {currentMe} from './session.js';
import {deviceName, fromB64u} from './passkey.js';

const KINDS = ['turn', 'invite', 'end'];

// pushWorks says the browser can receive pushes: a service worker, the
// Push API and notifications.
export function pushWorks() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;
}

// registration returns the service worker's registration: the one the page
// has, or /sw.js registered now.
async function registration() {
  if (!(await navigator.serviceWorker.getRegistration('/'))) await navigator.serviceWorker.register('/sw.js');
  return navigator.serviceWorker.ready;
}

// currentSubscription is this browser's push subscription, or null.
async function currentSubscription() {
  if (!pushWorks()) return null;
  try {
    const reg = await navigator.serviceWorker.getRegistration('/');
    return reg ? await reg.pushManager.getSubscription() : null;
  } catch {
    return null;
  }
}

export class NotificationsPage {
  constructor(root) {
    this.root = root;
    this.me = null;
    this.set = null; // the settings as the server keeps them, with the devices
    this.here = null; // this browser's subscription's endpoint, if any
    this.said = {};
    this.busy = false;
  }

  async start() {
    onLang(() => this.draw());
    this.me = await currentMe();
    if (this.me) {
      await this.load();
      const sub = await currentSubscription();
      this.here = sub ? sub.endpoint : null;
    }
    this.draw();
    document.getElementById('notify-h')?.focus();
  }

  async load() {
    try {
      this.set = await api('GET', '/api/me/notifications');
    } catch (e) {
      this.said.device = {text: errorText(e), error: true};
    }
  }

  draw() {
    document.title = t('notify.pageTitle');
    const title = h('h1', {id: 'notify-h', tabindex: '-1'}, t('notify.title'));
    if (!this.me) {
      fill(this.root, title, h('p', {}, t('account.signedOut'), ' ', h('a', {href: '/signin', id: 'to-signin'}, t('account.signIn'))));
      return;
    }
    if (!this.set) {
      fill(this.root, title, this.saidLine('device'));
      return;
    }
    const s = this.set;
    fill(this.root, h('div', {class: 'account-page notify-page'},
      title,
      h('p', {class: 'lead'}, t('notify.lead', {delay: fmtDuration(s.delay_ms)}), ' ', h('a', {href: '/account', id: 'to-account'}, t('notify.toAccount'))),
      this.section('device', this.deviceSection()),
      this.section('what', this.whatSection()),
      this.section('devices', this.devicesSection())));
  }

  section(key, children) {
    return h('section', {class: 'panel', id: 'notify-' + key, 'aria-labelledby': 'notify-' + key + '-h'},
      h('h2', {id: 'notify-' + key + '-h'}, t('notify.section.' + key)),
      children,
      this.saidLine(key));
  }

  saidLine(key) {
    const s = this.said[key];
    return h('p', {id: 'said-' + key, tabindex: '-1', class: s && s.error ? 'error' : 'said', role: s && s.error ? 'alert' : 'status'}, s ? s.text : '');
  }

  deviceSection() {
    if (!pushWorks()) return [h('p', {id: 'device-state'}, t('notify.unsupported')), h('p', {class: 'help'}, t('notify.iosHint'))];
    const on = this.here && this.set.devices.some((d) => d.endpoint === this.here);
    const denied = Notification.permission === 'denied';
    return [
      h('p', {id: 'device-state'}, on ? t('notify.deviceOn') : denied ? t('notify.denied') : t('notify.deviceOff')),
      on
        ? h('button', {type: 'button', id: 'device-off', disabled: this.busy, onclick: () => this.turnOff()}, t('notify.turnOff'))
        : h('button', {type: 'button', id: 'device-on', class: 'primary', disabled: this.busy || denied, onclick: () => this.turnOn()}, t('notify.turnOn')),
      h('p', {class: 'help'}, t('notify.iosHint'))];
  }

  whatSection() {
    const s = this.set;
    const emails = (kind) => kind === 'end' ? ['off', 'each'] : ['off', 'each', 'digest'];
    const rows = KINDS.map((kind) => h('tr', {'data-kind': kind},
      h('th', {scope: 'row', id: 'kind-' + kind}, t('notify.kind.' + kind)),
      h('td', {}, h('input', {type: 'checkbox', id: 'push-' + kind, checked: s[kind].push, 'aria-labelledby': 'kind-' + kind + ' col-push'})),
      h('td', {}, h('select', {id: 'email-' + kind, disabled: !s.email, 'aria-labelledby': 'kind-' + kind + ' col-email'},
        emails(kind).map((v) => h('option', {value: v, selected: s[kind].email === v}, t('notify.email.' + v)))))));
    const quiet = !!(s.quiet_hours.from && s.quiet_hours.to);
    const zones = timeZones(s.time_zone);
    return h('form', {id: 'notify-form', class: 'notify-form', onsubmit: (e) => { e.preventDefault(); this.save(); }},
      h('table', {class: 'notify-kinds'},
        h('thead', {}, h('tr', {}, h('td'), h('th', {scope: 'col', id: 'col-push'}, t('notify.col.push')), h('th', {scope: 'col', id: 'col-email'}, t('notify.col.email')))),
        h('tbody', {}, rows)),
      s.email ? h('p', {class: 'help', id: 'email-help'}, t('notify.emailHelp')) : h('p', {class: 'help', id: 'email-help'}, t('notify.noEmail')),
      h('div', {class: 'field'},
        h('label', {for: 'digest-at'}, t('notify.digestAt')),
        h('input', {type: 'time', id: 'digest-at', value: s.digest_at, required: true})),
      h('fieldset', {class: 'quiet-hours'},
        h('legend', {}, h('input', {type: 'checkbox', id: 'quiet-on', checked: quiet, onchange: (e) => { for (const id of ['quiet-from', 'quiet-to']) document.getElementById(id).disabled = !e.target.checked; }}),
          ' ', h('label', {for: 'quiet-on'}, t('notify.quiet'))),
        h('div', {class: 'row'},
          h('label', {for: 'quiet-from'}, t('notify.quietFrom')),
          h('input', {type: 'time', id: 'quiet-from', value: s.quiet_hours.from || '22:00', disabled: !quiet}),
          h('label', {for: 'quiet-to'}, t('notify.quietTo')),
          h('input', {type: 'time', id: 'quiet-to', value: s.quiet_hours.to || '08:00', disabled: !quiet})),
        h('small', {class: 'help'}, t('notify.quietHelp'))),
      h('div', {class: 'field'},
        h('label', {for: 'time-zone'}, t('notify.timeZone')),
        h('select', {id: 'time-zone'}, zones.map((z) => h('option', {value: z, selected: z === s.time_zone}, z.replace(/_/g, ' '))))),
      h('button', {type: 'submit', class: 'primary', id: 'notify-save'}, t('account.save')));
  }

  devicesSection() {
    const ds = this.set.devices;
    if (!ds.length) return h('p', {class: 'muted', id: 'no-devices'}, t('notify.noDevices'));
    const fmt = (d) => new Intl.DateTimeFormat(getLang(), {day: 'numeric', month: 'long', year: 'numeric'}).format(new Date(d));
    return h('ul', {class: 'passkeys devices', 'aria-labelledby': 'notify-devices-h'}, ds.map((d) => h('li', {'data-device': d.id},
      h('span', {class: 'key-name'}, d.label || d.service), ' ',
      h('span', {class: 'muted'}, d.endpoint === this.here ? t('notify.thisDevice', {made: fmt(d.created)}) : t('notify.since', {made: fmt(d.created)})),
      h('span', {class: 'actions'},
        h('button', {type: 'button', 'data-key': 'remove-' + d.id, onclick: () => this.remove(d)},
          t('account.remove'), h('span', {class: 'visually-hidden'}, ' — ' + (d.label || d.service)))))));
  }

  // run does one action of section key, as the account page does.
  async run(key, f, focus) {
    let said;
    this.busy = true;
    try {
      const text = await f();
      said = text ? {text} : null;
    } catch (e) {
      said = {text: errorText(e), error: true};
    }
    this.busy = false;
    this.said = said ? {[key]: said} : {};
    this.draw();
    if (said && said.error) document.getElementById('said-' + key)?.focus();
    else if (focus) document.getElementById(focus)?.focus();
  }

  turnOn() {
    this.run('device', async () => {
      if (await Notification.requestPermission() !== 'granted') throw {code: 'notify_denied'};
      const reg = await registration();
      const {key} = await api('GET', '/api/push/key');
      const sub = await reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: new Uint8Array(fromB64u(key))});
      await api('POST', '/api/me/push', {...sub.toJSON(), label: deviceName()});
      this.here = sub.endpoint;
      await this.load();
      return t('notify.turnedOn');
    }, 'device-off');
  }

  turnOff() {
    this.run('device', async () => {
      const sub = await currentSubscription();
      const endpoint = this.here;
      if (sub) await sub.unsubscribe();
      await api('DELETE', '/api/me/push', {endpoint});
      this.here = null;
      await this.load();
      return t('notify.turnedOff');
    }, 'device-on');
  }

  remove(d) {
    this.run('devices', async () => {
      await api('DELETE', '/api/me/push/' + encodeURIComponent(d.id));
      if (d.endpoint === this.here) {
        const sub = await currentSubscription();
        if (sub) await sub.unsubscribe();
        this.here = null;
      }
      await this.load();
      return t('notify.removed', {name: d.label || d.service});
    }, 'notify-devices-h');
  }

  save() {
    const v = (id) => document.getElementById(id).value;
    const body = {time_zone: v('time-zone'), digest_at: v('digest-at'), quiet_hours: {from: '', to: ''}};
    if (document.getElementById('quiet-on').checked) body.quiet_hours = {from: v('quiet-from'), to: v('quiet-to')};
    for (const kind of KINDS) body[kind] = {push: document.getElementById('push-' + kind).checked, email: v('email-' + kind)};
    this.run('what', async () => {
      this.set = await api('PUT', '/api/me/notifications', body);
      return t('account.saved');
    }, 'notify-save');
  }
}

// timeZones lists the time zones to choose from, the player's first if
// the browser does not know it.
function timeZones(current) {
  let zones = [];
  try { zones = Intl.supportedValuesOf('timeZone'); } catch { zones = []; }
  const mine = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const z of [current, mine]) if (z && !zones.includes(z)) zones = [z, ...zones];
  return zones;
}
