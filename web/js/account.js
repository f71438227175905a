// The signed-in player's account (/account): their name and language, how
// they sign in (their e-mail address, their passkeys: list, add, rename,
// remove), a link to their notifications (js/notifications.js), signing
// out here or everywhere, their data to download, and
// deleting the account, confirmed. Only the player sees this page: the
// e-mail address is shown nowhere else.

import {api} from './api.js';
import {t, onLang, errorText, getLang, setLang, LANGS} from './i18n.js';
import {h, fill} from './ui.js';
import {currentMe, setMe, signOut} from './session.js';
import {passkeysWork, registerPasskey, deviceName} from './passkey.js';

export class AccountPage {
  constructor(root) {
    this.root = root;
    this.me = null;
    this.keys = [];
    this.said = {}; // section → {text, error}: what the last action there did
    this.renaming = null; // the passkey being renamed
    this.removeArmed = null; // the passkey whose removal waits for its confirmation
    this.deleting = false; // the deletion's confirmation is open
  }

  async start() {
    onLang(() => this.draw());
    this.me = await currentMe();
    if (this.me) await this.loadKeys();
    this.draw();
    document.getElementById('account-h')?.focus();
  }

  async loadKeys() {
    try {
      this.keys = (await api('GET', '/api/me/passkeys')).passkeys || [];
    } catch (e) {
      this.said.keys = {text: errorText(e), error: true};
    }
  }

  draw() {
    document.title = t('account.pageTitle');
    const title = h('h1', {id: 'account-h', tabindex: '-1'}, t('account.title'));
    if (!this.me) {
      fill(this.root, title, h('p', {}, t('account.signedOut'), ' ', h('a', {href: '/signin', id: 'to-signin'}, t('account.signIn'))));
      return;
    }
    const me = this.me;
    fill(this.root, h('div', {class: 'account-page'},
      title,
      h('p', {class: 'lead'}, t('account.lead'), ' ', h('a', {href: '/players/' + encodeURIComponent(me.id), id: 'to-profile'}, t('account.seeProfile'))),
      this.section('profile', [
        h('form', {id: 'profile-form', class: 'stack', onsubmit: (e) => { e.preventDefault(); this.saveProfile(); }},
          h('label', {for: 'acc-name'}, t('account.name')),
          h('input', {id: 'acc-name', type: 'text', maxlength: 40, value: me.name, autocomplete: 'nickname', required: true, 'aria-describedby': 'acc-name-help'}),
          h('small', {class: 'help', id: 'acc-name-help'}, t('account.nameHelp')),
          h('label', {for: 'acc-lang'}, t('account.lang')),
          h('select', {id: 'acc-lang', 'aria-describedby': 'acc-lang-help'}, LANGS.map((l) => h('option', {value: l, lang: l, selected: l === (me.lang || getLang())}, t('lang.' + l)))),
          h('small', {class: 'help', id: 'acc-lang-help'}, t('account.langHelp')),
          h('button', {type: 'submit', class: 'primary', id: 'save-profile'}, t('account.save')))]),
      this.section('ways', [
        h('h3', {}, t('account.email')),
        me.email
          ? h('p', {id: 'acc-email'}, t('account.emailIs', {address: me.email}))
          : [h('p', {id: 'acc-email'}, t('account.noEmail')), this.emailForm()],
        h('h3', {id: 'keys-h'}, t('account.passkeys')),
        this.keys.length ? h('ul', {class: 'passkeys', 'aria-labelledby': 'keys-h'}, this.keys.map((k) => this.keyItem(k))) : h('p', {class: 'muted'}, t('account.noPasskeys')),
        passkeysWork() ? h('form', {id: 'add-key', class: 'row', onsubmit: (e) => { e.preventDefault(); this.addKey(); }},
          h('label', {for: 'key-name'}, t('account.keyName')),
          h('input', {id: 'key-name', type: 'text', maxlength: 40, value: this.keyName || '', placeholder: deviceName() || t('account.keyPlaceholder'), oninput: (e) => { this.keyName = e.target.value; }}),
          h('button', {type: 'submit', id: 'add-key-btn'}, t('account.addPasskey'))) : h('p', {class: 'help'}, t('signin.noPasskeys'))], 'keys'),
      this.section('notifications', [
        h('p', {class: 'help', id: 'notifications-help'}, t('account.notificationsHelp')),
        h('a', {class: 'button', id: 'to-notifications', href: '/account/notifications', 'aria-describedby': 'notifications-help'}, t('account.notifications'))]),
      this.section('sessions', [
        h('p', {class: 'help', id: 'sessions-help'}, t('account.sessionsHelp')),
        h('div', {class: 'row'},
          h('button', {type: 'button', id: 'signout', onclick: () => this.run('sessions', () => signOut(false))}, t('account.signOut')),
          h('button', {type: 'button', id: 'signout-everywhere', 'aria-describedby': 'sessions-help', onclick: () => this.run('sessions', () => signOut(true))}, t('account.signOutEverywhere')))]),
      this.section('data', [
        h('p', {class: 'help', id: 'export-help'}, t('account.exportHelp')),
        h('a', {class: 'button', id: 'export', href: '/api/me/export', download: 'sortie-' + me.id + '.json', 'aria-describedby': 'export-help'}, t('account.export'))]),
      this.section('delete', this.deleting ? this.deleteConfirm() : [
        h('p', {class: 'help', id: 'delete-help'}, t('account.deleteHelp')),
        h('button', {type: 'button', id: 'delete-start', class: 'danger', 'aria-describedby': 'delete-help', onclick: () => {
          this.deleting = true;
          this.draw();
          document.getElementById('delete-confirm')?.focus();
        }}, t('account.delete'))])));
  }

  // section is one panel of the page with its heading, and what the last
  // action in it did (a status, or a refusal). said names the entry of
  // this.said it shows (its key by default).
  section(key, children, said = key) {
    const s = this.said[said];
    return h('section', {class: 'panel', id: 'acc-' + key, 'aria-labelledby': 'acc-' + key + '-h'},
      h('h2', {id: 'acc-' + key + '-h'}, t('account.section.' + key)),
      children,
      h('p', {id: 'said-' + said, tabindex: '-1', class: s && s.error ? 'error' : 'said', role: s && s.error ? 'alert' : 'status'}, s ? s.text : ''));
  }

  emailForm() {
    return h('form', {id: 'acc-email-form', class: 'row', novalidate: true, onsubmit: (e) => { e.preventDefault(); this.addEmail(); }},
      h('label', {for: 'acc-new-email'}, t('signin.address')),
      h('input', {id: 'acc-new-email', type: 'email', autocomplete: 'email', value: this.email || '', oninput: (e) => { this.email = e.target.value; }}),
      h('button', {type: 'submit', id: 'acc-email-send'}, t('signin.sendLink')));
  }

  keyItem(k) {
    const fmt = (d) => new Intl.DateTimeFormat(getLang(), {day: 'numeric', month: 'long', year: 'numeric'}).format(new Date(d));
    const when = k.used ? t('account.keyUsed', {made: fmt(k.created), used: fmt(k.used)}) : t('account.keyMade', {made: fmt(k.created)});
    if (this.renaming === k.id) {
      const input = h('input', {id: 'rename-' + k.id, type: 'text', maxlength: 40, value: k.name, 'aria-label': t('account.keyNewName', {name: k.name})});
      return h('li', {'data-key-id': k.id},
        h('form', {class: 'row', onsubmit: (e) => { e.preventDefault(); this.rename(k, input.value); }},
          input,
          h('button', {type: 'submit', class: 'primary', 'data-key': 'rename-save-' + k.id}, t('account.save')),
          h('button', {type: 'button', 'data-key': 'rename-cancel-' + k.id, onclick: () => { this.renaming = null; this.draw(); this.focusKey(k, 'rename'); }}, t('word.cancel'))));
    }
    const armed = this.removeArmed === k.id;
    return h('li', {'data-key-id': k.id},
      h('span', {class: 'key-name'}, k.name), ' ', h('span', {class: 'muted'}, when),
      h('span', {class: 'actions'},
        h('button', {type: 'button', 'data-key': 'rename-' + k.id, onclick: () => { this.renaming = k.id; this.removeArmed = null; this.draw(); document.getElementById('rename-' + k.id)?.select(); }},
          t('account.rename'), h('span', {class: 'visually-hidden'}, ' — ' + k.name)),
        h('button', {type: 'button', 'data-key': 'remove-' + k.id, class: armed ? 'danger' : null, onclick: () => {
          if (!armed) { this.removeArmed = k.id; this.draw(); this.focusKey(k, 'remove'); return; }
          this.removeArmed = null;
          this.run('keys', async () => {
            await api('DELETE', '/api/me/passkeys/' + encodeURIComponent(k.id));
            await this.loadKeys();
            return t('account.removed', {name: k.name});
          }, () => document.getElementById('keys-h')?.focus());
        }}, armed ? t('account.removeConfirm') : t('account.remove'), h('span', {class: 'visually-hidden'}, ' — ' + k.name))));
  }

  focusKey(k, what) {
    document.querySelector('[data-key="' + CSS.escape(what + '-' + k.id) + '"]')?.focus();
  }

  deleteConfirm() {
    return h('div', {id: 'delete-confirm', class: 'confirm', tabindex: '-1', role: 'group', 'aria-labelledby': 'delete-q'},
      h('p', {id: 'delete-q'}, h('strong', {}, t('account.deleteQuestion'))),
      h('p', {}, t('account.deleteHelp')),
      h('div', {class: 'row'},
        h('button', {type: 'button', id: 'delete-now', class: 'danger primary', onclick: () => this.run('delete', async () => {
          await api('DELETE', '/api/me');
          setMe(null);
          location.href = '/?deleted=1';
        })}, t('account.deleteNow')),
        h('button', {type: 'button', id: 'delete-cancel', onclick: () => { this.deleting = false; this.draw(); document.getElementById('delete-start')?.focus(); }}, t('word.cancel'))));
  }

  // run does one action of section key: f resolves to what it did (said in
  // the section), or throws the server's refusal. then() runs once the page
  // is drawn again.
  async run(key, f, then) {
    let said;
    try {
      const text = await f();
      said = text ? {text} : null;
    } catch (e) {
      said = {text: errorText(e), error: true};
    }
    this.said = said ? {[key]: said} : {};
    this.draw();
    if (then) then();
    else if (said && said.error) document.getElementById('said-' + key)?.focus();
  }

  saveProfile() {
    const name = document.getElementById('acc-name').value.trim();
    const lang = document.getElementById('acc-lang').value;
    this.run('profile', async () => {
      this.me = await api('PATCH', '/api/me', {name, lang});
      setMe(this.me);
      setLang(lang);
      return t('account.saved');
    }, () => document.getElementById('save-profile')?.focus());
  }

  addEmail() {
    const email = (this.email || '').trim();
    this.run('keys', async () => {
      await api('POST', '/api/auth/email', {email, lang: getLang()});
      return t('account.emailSent', {address: email});
    }, () => document.getElementById('acc-email-send')?.focus());
  }

  addKey() {
    const name = (this.keyName || '').trim() || deviceName() || t('account.keyPlaceholder');
    this.run('keys', async () => {
      await registerPasskey('', name);
      this.keyName = '';
      await this.loadKeys();
      return t('account.added', {name});
    }, () => document.getElementById('add-key-btn')?.focus());
  }

  rename(k, name) {
    this.run('keys', async () => {
      await api('PATCH', '/api/me/passkeys/' + encodeURIComponent(k.id), {name});
      this.renaming = null;
      await this.loadKeys();
      return t('account.renamed', {name: name.trim()});
    }, () => this.focusKey(k, 'rename'));
  }
}
