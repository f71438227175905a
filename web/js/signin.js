// The sign-in page (/signin): with a passkey (nothing to type), by a link
// sent by e-mail, or a new account made with a passkey. Nobody needs one to
// play: the page says what an account adds, and leads back to the lobby.
// Once signed in the lobby takes over (/?signed_in=1, or =new for a new
// account), where the matches this browser played as a guest are saved or
// offered to be (js/progress.js).

import {api} from './api.js';
import {t, onLang, errorText, getLang} from './i18n.js';
import {h, fill} from './ui.js';
import {currentMe, accountsOn, setMe} from './session.js';
import {passkeysWork, signInWithPasskey, registerPasskey, deviceName} from './passkey.js';
import {savingWanted, guestSeats} from './progress.js';

export class SignInPage {
  constructor(root) {
    this.root = root;
    this.sent = ''; // the address a link was sent to
    this.errors = {}; // form → the refusal shown next to it
    this.busy = false;
  }

  async start() {
    onLang(() => this.draw());
    this.me = await currentMe();
    this.draw();
    document.getElementById('signin-h')?.focus();
  }

  draw() {
    document.title = t('signin.pageTitle');
    if (!accountsOn()) {
      fill(this.root, h('h1', {id: 'signin-h', tabindex: '-1'}, t('signin.title')), h('p', {}, t('signin.off')),
        h('p', {}, h('a', {href: '/'}, t('match.backToLobby'))));
      return;
    }
    if (this.me) {
      fill(this.root, h('h1', {id: 'signin-h', tabindex: '-1'}, t('signin.title')),
        h('p', {}, t('signin.already', {name: this.me.name})),
        h('p', {class: 'row'}, h('a', {class: 'button primary', href: '/'}, t('match.backToLobby')), h('a', {class: 'button', href: '/account'}, t('account.account'))));
      return;
    }
    const keys = passkeysWork();
    const keep = savingWanted() && guestSeats(null).length > 0;
    fill(this.root, h('div', {class: 'signin-page'},
      h('h1', {id: 'signin-h', tabindex: '-1'}, t('signin.title')),
      h('p', {class: 'lead'}, keep ? t('signin.leadSave') : t('signin.lead')),
      h('div', {class: 'signin-grid'},
        h('section', {class: 'panel', 'aria-labelledby': 'pk-h'},
          h('h2', {id: 'pk-h'}, t('signin.passkey')),
          h('p', {class: 'help', id: 'pk-help'}, keys ? t('signin.passkeyHelp') : t('signin.noPasskeys')),
          keys ? h('button', {type: 'button', class: 'primary', id: 'passkey-signin', 'aria-describedby': 'pk-help', disabled: this.busy,
            onclick: () => this.withPasskey()}, t('signin.passkeyButton')) : null,
          this.error('passkey')),
        h('section', {class: 'panel', 'aria-labelledby': 'mail-h'},
          h('h2', {id: 'mail-h'}, t('signin.email')),
          this.sent ? this.drawSent() : this.drawEmailForm()),
        keys ? h('section', {class: 'panel', 'aria-labelledby': 'new-acc-h'},
          h('h2', {id: 'new-acc-h'}, t('signin.create')),
          h('p', {class: 'help', id: 'new-acc-help'}, t('signin.createHelp')),
          h('form', {id: 'create-account', class: 'stack', onsubmit: (e) => { e.preventDefault(); this.create(); }},
            h('label', {for: 'new-name'}, t('signin.name')),
            h('input', {id: 'new-name', type: 'text', maxlength: 40, autocomplete: 'nickname', required: true, 'aria-describedby': 'new-acc-help new-acc-error',
              value: this.newName || '', oninput: (e) => { this.newName = e.target.value; }, 'aria-invalid': this.errors.create ? 'true' : null}),
            h('button', {type: 'submit', id: 'create-account-btn', disabled: this.busy}, t('signin.createButton')),
            this.error('create', 'new-acc-error'))) : null),
      h('p', {}, h('a', {href: '/'}, t('signin.guest')))));
  }

  error(form, id) {
    return h('p', {class: 'error', role: 'alert', id: id || form + '-error', hidden: !this.errors[form]}, this.errors[form] || '');
  }

  drawEmailForm() {
    return h('form', {id: 'email-form', class: 'stack', novalidate: true, onsubmit: (e) => { e.preventDefault(); this.sendLink(); }},
      h('p', {class: 'help', id: 'mail-help'}, t('signin.emailHelp')),
      h('label', {for: 'email'}, t('signin.address')),
      h('input', {id: 'email', type: 'email', autocomplete: 'email', inputmode: 'email', spellcheck: 'false', required: true,
        value: this.email || '', oninput: (e) => { this.email = e.target.value; }, 'aria-describedby': 'mail-help email-error',
        'aria-invalid': this.errors.email ? 'true' : null}),
      h('button', {type: 'submit', id: 'email-send', class: 'primary', disabled: this.busy}, t('signin.sendLink')),
      this.error('email'));
  }

  drawSent() {
    return h('div', {id: 'email-sent', class: 'sent', role: 'status', tabindex: '-1'},
      h('p', {}, h('strong', {}, t('signin.checkInbox'))),
      h('p', {}, t('signin.sentTo', {address: this.sent})),
      h('button', {type: 'button', id: 'email-again', onclick: () => { this.sent = ''; this.draw(); document.getElementById('email')?.focus(); }}, t('signin.otherAddress')));
  }

  // run does one request of the page (f), its refusal shown next to form
  // and the focus put back on the field it is about; then() runs after the
  // page is drawn again, on success.
  async run(form, f, then) {
    if (this.busy) return;
    this.busy = true;
    this.errors = {};
    this.draw();
    let ok = true;
    try {
      await f();
    } catch (e) {
      ok = false;
      this.errors[form] = errorText(e);
    }
    this.busy = false;
    this.draw();
    if (ok) {
      if (then) then();
      return;
    }
    const field = {email: 'email', create: 'new-name', passkey: 'passkey-signin'}[form];
    document.getElementById(field)?.focus();
  }

  withPasskey() {
    return this.run('passkey', async () => {
      const me = await signInWithPasskey();
      this.done(me, false);
    });
  }

  create() {
    const name = (this.newName || '').trim();
    if (!name) {
      this.errors = {create: t('signin.nameNeeded')};
      this.draw();
      document.getElementById('new-name')?.focus();
      return;
    }
    return this.run('create', async () => {
      const me = await registerPasskey(name, deviceName() || t('account.keyPlaceholder'));
      this.done(me, true);
    });
  }

  sendLink() {
    const email = (this.email || '').trim();
    return this.run('email', async () => {
      await api('POST', '/api/auth/email', {email, lang: getLang()});
      this.sent = email;
    }, () => document.getElementById('email-sent')?.focus());
  }

  // done goes to the lobby signed in, as the link of a mail does.
  done(me, created) {
    setMe(me);
    location.href = '/?signed_in=' + (created ? 'new' : '1');
  }
}
