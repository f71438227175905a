// Passkeys: WebAuthn's two ceremonies, each begun and finished by two
// requests of one browser, whose session keeps what the first asked
// (go-webauthn's SessionData) for the second to check.
//
//   - Registration makes a passkey for the signed-in account, or, signed
//     out, for a new account made when the passkey is (its name chosen
//     at the start): a guest becomes a player with one gesture.
//   - Sign-in asks for any passkey of this site (a discoverable one: no
//     name to type), and signs the session in to the account whose user
//     handle the passkey holds.

package account

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"sortie/internal/store"
)

// ceremony is what the session keeps between a ceremony's two requests.
type ceremony struct {
	Kind string               `json:"kind"` // "register" or "login"
	Data webauthn.SessionData `json:"data"`
	// A registration signed out makes this account with the passkey.
	New *store.Account `json:"new,omitempty"`
}

// user is an account as go-webauthn sees it.
type user struct {
	a     *store.Account
	creds []webauthn.Credential
}

func (u *user) WebAuthnID() []byte                         { return u.a.Handle }
func (u *user) WebAuthnName() string                       { return u.a.Name }
func (u *user) WebAuthnDisplayName() string                { return u.a.Name }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// userOf loads an account's passkeys as go-webauthn's credentials.
func (s *Service) userOf(ctx context.Context, a *store.Account) (*user, []*store.Passkey, error) {
	ps, err := s.st.Passkeys(ctx, a.ID)
	if err != nil {
		return nil, nil, err
	}
	u := &user{a: a}
	for _, p := range ps {
		var c webauthn.Credential
		if err := json.Unmarshal(p.Credential, &c); err != nil {
			return nil, nil, err
		}
		u.creds = append(u.creds, c)
	}
	return u, ps, nil
}

// keep stores a ceremony begun in the session.
func (s *Service) keep(ctx context.Context, c *ceremony) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	s.sm.Put(ctx, keyCeremony, b)
	return nil
}

// ceremonyOf takes the ceremony the session began, of kind; a session
// holds one at a time, used once.
func (s *Service) ceremonyOf(ctx context.Context, kind string) (*ceremony, error) {
	b, _ := s.sm.Pop(ctx, keyCeremony).([]byte)
	var c ceremony
	if b == nil || json.Unmarshal(b, &c) != nil || c.Kind != kind {
		return nil, refuse(CodeBadPasskey, "No passkey request was begun in this browser, or it was used already: begin again.")
	}
	return &c, nil
}

// CheckPasskeyName validates a passkey's name and returns it trimmed:
// what the player calls the device, at most 40 characters of plain text.
func CheckPasskeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > 40 || strings.IndexFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return "", refuse("bad_name", "A passkey's name is at most 40 characters of plain text.")
	}
	return name, nil
}

// BeginRegistration begins making a passkey: for the signed-in account, or,
// signed out, for a new account named name (CheckName's rules, already
// applied by the caller) in language lang. It returns the options the
// browser's navigator.credentials.create takes.
func (s *Service) BeginRegistration(ctx context.Context, name, lang string) (*protocol.CredentialCreation, error) {
	c := &ceremony{Kind: "register"}
	var u *user
	if id := s.Who(ctx); id != "" {
		a, err := s.Me(ctx)
		if err != nil {
			return nil, err
		}
		if u, _, err = s.userOf(ctx, a); err != nil {
			return nil, err
		}
	} else {
		if name == "" {
			return nil, refuse("bad_name", "A new account needs a name.")
		}
		c.New = newAccount(name, "", Lang(lang), s.now())
		u = &user{a: c.New}
	}
	opts := []webauthn.RegistrationOption{
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()),
	}
	creation, data, err := s.wa.BeginRegistration(u, opts...)
	if err != nil {
		return nil, err
	}
	c.Data = *data
	return creation, s.keep(ctx, c)
}

// FinishRegistration checks the browser's answer to the registration
// begun in this session (r's body), stores the passkey under the name the
// player gave it, and signs the session in to its account (made now if it
// is new).
func (s *Service) FinishRegistration(ctx context.Context, r *http.Request, passkeyName string) (*store.Account, error) {
	name, err := CheckPasskeyName(passkeyName)
	if err != nil {
		return nil, err
	}
	c, err := s.ceremonyOf(ctx, "register")
	if err != nil {
		return nil, err
	}
	a := c.New
	var u *user
	if a == nil {
		if a, err = s.Me(ctx); err != nil {
			return nil, err
		}
		if u, _, err = s.userOf(ctx, a); err != nil {
			return nil, err
		}
	} else {
		u = &user{a: a}
	}
	cred, err := s.wa.FinishRegistration(u, c.Data, r)
	if err != nil {
		s.log.Info("a passkey registration did not verify", "err", err)
		return nil, refuse(CodeBadPasskey, "The passkey could not be checked; try again.")
	}
	raw, err := json.Marshal(cred)
	if err != nil {
		return nil, err
	}
	if c.New != nil {
		if err := s.createAccount(ctx, a); err != nil {
			return nil, err
		}
		s.log.Info("an account was made with a passkey", "account", a.ID)
	}
	if name == "" {
		name = "Passkey"
	}
	now := s.now()
	if err := s.st.AddPasskey(ctx, &store.Passkey{ID: cred.ID, Account: a.ID, Name: name, Credential: raw, Created: now}); err != nil {
		if errors.Is(err, store.ErrTaken) {
			return nil, refuse(CodeBadPasskey, "This passkey is another account's already.")
		}
		return nil, err
	}
	return a, s.signIn(ctx, a.ID)
}

// BeginSignIn begins signing in with a passkey, any of this site's: it
// returns the options navigator.credentials.get takes.
func (s *Service) BeginSignIn(ctx context.Context) (*protocol.CredentialAssertion, error) {
	assertion, data, err := s.wa.BeginDiscoverableLogin()
	if err != nil {
		return nil, err
	}
	return assertion, s.keep(ctx, &ceremony{Kind: "login", Data: *data})
}

// FinishSignIn checks the browser's answer to the sign-in begun in this
// session (r's body) and signs the session in to the passkey's account.
func (s *Service) FinishSignIn(ctx context.Context, r *http.Request) (*store.Account, error) {
	c, err := s.ceremonyOf(ctx, "login")
	if err != nil {
		return nil, err
	}
	var found *store.Passkey
	byHandle := func(rawID, handle []byte) (webauthn.User, error) {
		p, err := s.st.PasskeyByID(ctx, rawID)
		if err != nil {
			return nil, err
		}
		a, err := s.st.Account(ctx, p.Account)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(a.Handle, handle) {
			return nil, errors.New("the passkey's user handle is not its account's")
		}
		u, ps, err := s.userOf(ctx, a)
		if err != nil {
			return nil, err
		}
		for _, q := range ps {
			if bytes.Equal(q.ID, rawID) {
				found = q
			}
		}
		return u, nil
	}
	wu, cred, err := s.wa.FinishPasskeyLogin(byHandle, c.Data, r)
	if err != nil || found == nil {
		s.log.Info("a passkey sign-in did not verify", "err", err)
		return nil, refuse(CodeBadPasskey, "This passkey does not sign in to any account here.")
	}
	a := wu.(*user).a
	// The sign count and flags the authenticator now reports.
	if raw, err := json.Marshal(cred); err == nil {
		found.Credential, found.Used = raw, s.now()
		if err := s.st.UpdatePasskey(ctx, found); err != nil {
			s.log.Warn("a passkey's use could not be saved", "err", err)
		}
	}
	return a, s.signIn(ctx, a.ID)
}

// PasskeyInfo is a passkey as its player sees it.
type PasskeyInfo struct {
	ID      string     `json:"id"` // base64url
	Name    string     `json:"name"`
	Created time.Time  `json:"created"`
	Used    *time.Time `json:"used,omitempty"`
}

// Passkeys returns the request's account's passkeys.
func (s *Service) Passkeys(ctx context.Context) ([]PasskeyInfo, error) {
	a, err := s.Me(ctx)
	if err != nil {
		return nil, err
	}
	ps, err := s.st.Passkeys(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	out := []PasskeyInfo{}
	for _, p := range ps {
		pi := PasskeyInfo{ID: encodeID(p.ID), Name: p.Name, Created: p.Created}
		if !p.Used.IsZero() {
			pi.Used = &p.Used
		}
		out = append(out, pi)
	}
	return out, nil
}

// RenamePasskey renames one of the request's account's passkeys.
func (s *Service) RenamePasskey(ctx context.Context, id, name string) error {
	p, err := s.ownPasskey(ctx, id)
	if err != nil {
		return err
	}
	if p.Name, err = CheckPasskeyName(name); err != nil {
		return err
	}
	return s.st.UpdatePasskey(ctx, p)
}

// RemovePasskey removes one of the request's account's passkeys, unless it
// is the account's only way to sign in (no other passkey, no e-mail).
func (s *Service) RemovePasskey(ctx context.Context, id string) error {
	a, err := s.Me(ctx)
	if err != nil {
		return err
	}
	p, err := s.ownPasskey(ctx, id)
	if err != nil {
		return err
	}
	ps, err := s.st.Passkeys(ctx, a.ID)
	if err != nil {
		return err
	}
	if len(ps) == 1 && a.Email == "" {
		return refuse(CodeLastWayIn, "This is your account's only way to sign in: add another passkey or an e-mail address first.")
	}
	return s.st.DeletePasskey(ctx, a.ID, p.ID)
}

// ownPasskey returns the request's account's passkey of (base64url) id.
func (s *Service) ownPasskey(ctx context.Context, id string) (*store.Passkey, error) {
	a, err := s.Me(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := decodeID(id)
	if err == nil {
		var p *store.Passkey
		if p, err = s.st.PasskeyByID(ctx, raw); err == nil && p.Account == a.ID {
			return p, nil
		}
	}
	return nil, refuse(CodeBadPasskey, "You have no such passkey.")
}
