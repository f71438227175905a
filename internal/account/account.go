// Package account is who a player is, for those who want to be someone:
// accounts, signing in without a password (passkeys through WebAuthn, or a
// link sent by e-mail), the sessions that remember a browser signed in, and
// the rules around them (a new session on every sign-in, a link used once
// within 15 minutes, the same answer for an address known or not).
//
// Guests need none of it: nothing here is ever asked of a player who does not
// sign in. The package keeps nothing itself: accounts, passkeys, sessions and
// sign-in tokens live in the store (store.Accounts), so that a sign-in on one
// node holds on every node. Its security code comes from libraries made for
// it: sessions from alexedwards/scs, passkeys from go-webauthn, mail from
// wneessen/go-mail. It must never keep a secret in clear (tokens only as
// hashes, passkeys only as public keys) nor show an account's e-mail address
// to anyone but its player.
package account

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/go-webauthn/webauthn/webauthn"

	"sortie/internal/store"
)

// Config sets up a [Service].
type Config struct {
	// Store keeps the accounts; required.
	Store store.Accounts
	// PublicURL is the address players reach the server at
	// (https://sortie.example): the links sent by e-mail lead there, and
	// passkeys belong to its host. Required.
	PublicURL *url.URL
	// Mailer sends the sign-in links; nil: no sign-in by e-mail.
	Mailer Mailer
	// Logger receives the logs; nil means slog.Default().
	Logger *slog.Logger
	// SessionLifetime is how long a sign-in lasts: 60 days if zero. (No
	// idle timeout: it would save the session on every request.)
	SessionLifetime time.Duration
	// Now tells the time (tests); nil means time.Now.
	Now func() time.Time
	// Flaws plant security flaws, for the tests that show that the
	// security checks catch them; always zero outside those tests.
	Flaws Flaws
}

// Flaws are the security flaws a test may plant (see Config.Flaws).
type Flaws struct {
	KeepToken   bool // a sign-in keeps the session's token (fixation)
	LooseCookie bool // the cookie is readable by scripts and sent cross-site
	Enumerate   bool // asking a link for an unknown address says so
	NoLinkLimit bool // any number of links to one address
}

// Service signs players in and keeps their accounts. Its methods are safe
// for concurrent use.
type Service struct {
	st     store.Accounts
	public *url.URL
	mailer Mailer
	log    *slog.Logger
	now    func() time.Time
	sm     *scs.SessionManager
	wa     *webauthn.WebAuthn
	mails  *perAddress // sign-in links asked for, by address
	flaws  Flaws
}

// Codes of the refusals of this package (server maps them to HTTP
// statuses).
const (
	CodeSignedOut    = "signed_out"     // the request needs a signed-in session
	CodeNoSuchPlayer = "unknown_player" // no account has this id
	CodeBadEmail     = "bad_email"      // not an e-mail address
	CodeNoMail       = "no_mail"        // this server sends no e-mail
	CodeBadPasskey   = "bad_passkey"    // a passkey ceremony that does not verify
	CodeLastWayIn    = "last_way_in"    // removing the only way to sign in
	CodeTooFast      = "too_many_links" // too many sign-in links asked for an address
)

// Error is a refusal: a stable code and a sentence for players.
type Error struct {
	Code    string
	Message string
	// Retry says when to ask again, for a refusal by a limit.
	Retry time.Duration
}

func (e *Error) Error() string { return e.Message }

func refuse(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// SessionCookie is the name of the session's cookie.
const SessionCookie = "sortie_session"

// New makes a service.
func New(c Config) (*Service, error) {
	if c.Store == nil || c.PublicURL == nil || c.PublicURL.Host == "" {
		return nil, errors.New("account: a store and a public URL are required")
	}
	if c.PublicURL.Scheme != "http" && c.PublicURL.Scheme != "https" {
		return nil, fmt.Errorf("account: the public URL %q is neither http nor https", c.PublicURL)
	}
	s := &Service{st: c.Store, public: c.PublicURL, mailer: c.Mailer, log: c.Logger, now: c.Now, mails: newPerAddress(), flaws: c.Flaws}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	life := c.SessionLifetime
	if life <= 0 {
		life = 60 * 24 * time.Hour
	}
	s.sm = scs.New()
	s.sm.Store = &sessionStore{st: c.Store}
	s.sm.HashTokenInStore = true // the store keeps SHA-256s, never a token
	s.sm.Lifetime = life
	s.sm.Cookie = scs.SessionCookie{Name: SessionCookie, HttpOnly: true, Path: "/", SameSite: http.SameSiteLaxMode,
		Secure: c.PublicURL.Scheme == "https", Persist: true}
	if c.Flaws.LooseCookie {
		s.sm.Cookie.HttpOnly, s.sm.Cookie.SameSite, s.sm.Cookie.Secure = false, http.SameSiteDefaultMode, false
	}
	s.sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		s.log.Warn("a session could not be read or saved", "err", err)
		http.Error(w, `{"error":{"code":"unavailable","message":"The server cannot read or save your session now; try again."}}`, http.StatusServiceUnavailable)
	}
	wa, err := webauthn.New(&webauthn.Config{
		RPID:          c.PublicURL.Hostname(),
		RPDisplayName: "Sortie",
		RPOrigins:     []string{c.PublicURL.Scheme + "://" + c.PublicURL.Host},
	})
	if err != nil {
		return nil, fmt.Errorf("account: passkeys for %s: %v", c.PublicURL, err)
	}
	s.wa = wa
	return s, nil
}

// Sessions wraps h so that its requests carry their session (the cookie's),
// saved after h answers if it changed.
func (s *Service) Sessions(h http.Handler) http.Handler {
	return s.sm.LoadAndSave(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), loadedKey{}, true)))
	}))
}

// loadedKey marks a context that carries a session.
type loadedKey struct{}

// Who returns the account the request's session is signed in to, or "" (a
// context that went through no [Service.Sessions] has none).
func (s *Service) Who(ctx context.Context) string {
	if ctx.Value(loadedKey{}) == nil {
		return ""
	}
	return s.sm.GetString(ctx, keyAccount)
}

// WhoOf reads the session of a request that did not go through
// [Service.Sessions] (a socket's upgrade), and returns its account or "".
func (s *Service) WhoOf(r *http.Request) string {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return ""
	}
	ctx, err := s.sm.Load(r.Context(), c.Value)
	if err != nil {
		return ""
	}
	return s.sm.GetString(ctx, keyAccount)
}

// The session's keys.
const (
	keyAccount  = "account"
	keyCeremony = "passkey"
)

// signIn makes the session signed in to account id, under a new token (so
// that a token known before, planted or seen, signs nobody in).
func (s *Service) signIn(ctx context.Context, id string) error {
	if !s.flaws.KeepToken {
		if err := s.sm.RenewToken(ctx); err != nil {
			return err
		}
	}
	s.sm.Put(ctx, keyAccount, id)
	s.sm.Remove(ctx, keyCeremony)
	return nil
}

// SignOut ends the request's session.
func (s *Service) SignOut(ctx context.Context) error { return s.sm.Destroy(ctx) }

// SignOutEverywhere ends every session of the request's account, this one
// too.
func (s *Service) SignOutEverywhere(ctx context.Context) error {
	id := s.Who(ctx)
	if id == "" {
		return refuse(CodeSignedOut, "You are not signed in.")
	}
	if _, err := s.st.DeleteSessionsOf(ctx, id); err != nil {
		return err
	}
	return s.sm.Destroy(ctx)
}

// Me returns the request's account, or a CodeSignedOut refusal.
func (s *Service) Me(ctx context.Context) (*store.Account, error) {
	id := s.Who(ctx)
	if id == "" {
		return nil, refuse(CodeSignedOut, "You are not signed in.")
	}
	a, err := s.st.Account(ctx, id)
	if errors.Is(err, store.ErrNoAccount) {
		// Deleted meanwhile (on another node): this session is nobody's.
		_ = s.sm.Destroy(ctx)
		return nil, refuse(CodeSignedOut, "You are not signed in.")
	}
	return a, err
}

// Player returns an account by id, for its public profile.
func (s *Service) Player(ctx context.Context, id string) (*store.Account, error) {
	a, err := s.st.Account(ctx, id)
	if errors.Is(err, store.ErrNoAccount) {
		return nil, refuse(CodeNoSuchPlayer, "There is no player %q.", id)
	}
	return a, err
}

// Update sets the request's account's name and language ("" keeps them).
func (s *Service) Update(ctx context.Context, name, lang string) (*store.Account, error) {
	a, err := s.Me(ctx)
	if err != nil {
		return nil, err
	}
	if name != "" {
		a.Name = name
	}
	if lang != "" {
		a.Lang = lang
	}
	return a, s.st.UpdateAccount(ctx, a)
}

// Delete deletes the request's account, everything of it, and its
// sessions; its seats stay in their matches as a deleted player's.
func (s *Service) Delete(ctx context.Context) error {
	a, err := s.Me(ctx)
	if err != nil {
		return err
	}
	if err := s.st.DeleteAccount(ctx, a.ID); err != nil {
		return err
	}
	s.log.Info("an account was deleted", "account", a.ID)
	return s.sm.Destroy(ctx)
}

// newAccount makes an account (not stored) with a new id and handle.
func newAccount(name, email, lang string, now time.Time) *store.Account {
	return &store.Account{ID: randomID(), Name: name, Email: email, Lang: lang, Handle: randomBytes(32), Created: now}
}

// createAccount stores a new account, with a new id if the one drawn was
// taken (never in practice: 72 random bits).
func (s *Service) createAccount(ctx context.Context, a *store.Account) error {
	for range 3 {
		err := s.st.CreateAccount(ctx, a)
		if !errors.Is(err, store.ErrTaken) || a.Email != "" {
			return err
		}
		a.ID, a.Handle = randomID(), randomBytes(32)
	}
	return errors.New("account: no free id")
}

// Lang returns a supported language: l if it is one, else English.
func Lang(l string) string {
	if l = strings.ToLower(l); l == "fr" {
		return l
	}
	return "en"
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	return b
}

// randomID is an account id: 12 characters of base64url, 72 random bits.
func randomID() string { return base64.RawURLEncoding.EncodeToString(randomBytes(9)) }

// sessionStore keeps scs's sessions in the store, by the hash scs gives
// (HashTokenInStore), with the account each is signed in to.
type sessionStore struct{ st store.Accounts }

func (ss *sessionStore) FindCtx(ctx context.Context, hash string) ([]byte, bool, error) {
	return ss.st.FindSession(ctx, []byte(hash))
}

func (ss *sessionStore) CommitCtx(ctx context.Context, hash string, b []byte, expiry time.Time) error {
	account := ""
	if _, values, err := (scs.GobCodec{}).Decode(b); err == nil {
		account, _ = values[keyAccount].(string)
	}
	return ss.st.CommitSession(ctx, []byte(hash), b, account, expiry)
}

func (ss *sessionStore) DeleteCtx(ctx context.Context, hash string) error {
	return ss.st.DeleteSession(ctx, []byte(hash))
}

func (ss *sessionStore) Find(hash string) ([]byte, bool, error) {
	return ss.FindCtx(context.Background(), hash)
}

func (ss *sessionStore) Commit(hash string, b []byte, expiry time.Time) error {
	return ss.CommitCtx(context.Background(), hash, b, expiry)
}

func (ss *sessionStore) Delete(hash string) error { return ss.DeleteCtx(context.Background(), hash) }
