// Passkeys in the browser: the two WebAuthn ceremonies, each a request for
// the server's options, the browser's navigator.credentials call, and the
// answer sent back (docs/api.md, "Passkeys"). The server's options carry
// their bytes as base64url strings, and takes the credential as
// PublicKeyCredential.toJSON() writes it: the browser's own converters are
// used where it has them, a small decoder and encoder otherwise.

import {api, ApiError} from './api.js';
import {getLang, t} from './i18n.js';

// passkeysWork says whether this browser can use passkeys at all.
export function passkeysWork() {
  return !!(window.PublicKeyCredential && navigator.credentials && window.isSecureContext);
}

// signInWithPasskey asks for any passkey of this site and signs in with
// it; it resolves to the account.
export async function signInWithPasskey() {
  const opts = await api('POST', '/api/auth/passkey/signin');
  const cred = await ask(() => navigator.credentials.get({publicKey: requestOptions(opts.publicKey)}));
  return api('POST', '/api/auth/passkey/signin/finish', credentialJSON(cred));
}

// registerPasskey makes a passkey: for the signed-in account, or, signed
// out, for a new account named name. device names the passkey in the
// account's list. It resolves to the account, signed in.
export async function registerPasskey(name, device) {
  const opts = await api('POST', '/api/auth/passkey/register', {name: name || '', lang: getLang()});
  const cred = await ask(() => navigator.credentials.create({publicKey: creationOptions(opts.publicKey)}));
  return api('POST', '/api/auth/passkey/register/finish?name=' + encodeURIComponent(device || ''), credentialJSON(cred));
}

// deviceName is a name for a passkey made on this device ("Chrome on
// macOS"), that its player may change; "" when the browser does not say.
export function deviceName() {
  const ua = navigator.userAgentData;
  const brand = ua && (ua.brands || []).map((b) => b.brand).find((b) => !/not.?a.?brand|chromium/i.test(b)) ||
    (ua && (ua.brands || []).some((b) => /chromium/i.test(b.brand)) ? 'Chromium' : '');
  const system = ua && ua.platform;
  return brand && system ? t('account.keyOn', {browser: brand, system}) : '';
}

// ask runs a browser ceremony; a refusal of the browser (the player
// cancelled, or no passkey was found) becomes an ApiError with a code
// the pages say in words: passkey_cancelled, passkey_exists.
async function ask(f) {
  let cred;
  try {
    cred = await f();
  } catch (e) {
    const code = e && e.name === 'InvalidStateError' ? 'passkey_exists' : 'passkey_cancelled';
    throw new ApiError(code, String(e && e.message || e), 0);
  }
  if (!cred) throw new ApiError('passkey_cancelled', '', 0);
  return cred;
}

// ---- options and credentials as JSON ----

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) {
    try { return PublicKeyCredential.parseRequestOptionsFromJSON(json); } catch { /* the decoder below */ }
  }
  return {...json, challenge: fromB64u(json.challenge),
    allowCredentials: (json.allowCredentials || []).map((c) => ({...c, id: fromB64u(c.id)}))};
}

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) {
    try { return PublicKeyCredential.parseCreationOptionsFromJSON(json); } catch { /* the decoder below */ }
  }
  return {...json, challenge: fromB64u(json.challenge), user: {...json.user, id: fromB64u(json.user.id)},
    excludeCredentials: (json.excludeCredentials || []).map((c) => ({...c, id: fromB64u(c.id)}))};
}

// credentialJSON writes a credential as toJSON() does.
export function credentialJSON(cred) {
  if (typeof cred.toJSON === 'function') {
    try { return cred.toJSON(); } catch { /* written below */ }
  }
  const r = cred.response;
  const response = {clientDataJSON: toB64u(r.clientDataJSON)};
  if (r.attestationObject) {
    response.attestationObject = toB64u(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64u(r.authenticatorData);
    response.signature = toB64u(r.signature);
    if (r.userHandle) response.userHandle = toB64u(r.userHandle);
  }
  return {id: cred.id, rawId: toB64u(cred.rawId), type: cred.type, authenticatorAttachment: cred.authenticatorAttachment || undefined,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {}, response};
}

// fromB64u decodes base64url (padded or not) into an ArrayBuffer.
export function fromB64u(s) {
  s = String(s).replace(/-/g, '+').replace(/_/g, '/');
  while (s.length % 4) s += '=';
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

// toB64u encodes bytes as base64url without padding.
export function toB64u(buf) {
  const bytes = new Uint8Array(buf);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
