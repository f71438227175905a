// Sign-in by e-mail: a player gives an address and gets a link that signs
// the browser that opens it in, to the account of that address (made then
// if there is none), once, within 15 minutes.
//
// Asking for a link answers the same whether the address has an account or
// not, and sends the mail off the request's time, so that nobody can tell
// from the answer which addresses play here.

package account

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"

	"sortie/internal/store"
)

// LinkLife is how long a sign-in link holds.
const LinkLife = 15 * time.Minute

// Mailer sends one message.
type Mailer interface {
	Send(ctx context.Context, to, subject, text string) error
}

// SMTP is a [Mailer] that sends through an SMTP server.
type SMTP struct {
	host       string
	port       int
	ssl        bool
	user, pass string
	from       string
	tls        *tls.Config
}

// NewSMTP makes a mailer from a URL: smtp://user:pass@host:port speaks
// STARTTLS when the server offers it (port 587 by default), smtps:// speaks
// TLS from the start (port 465 by default); the user and password, if any,
// sign in. from is the sender's address ("Sortie <sortie@example.org>").
// roots, if not nil, are the certificate authorities trusted instead of the
// system's (tests).
func NewSMTP(rawURL, from string, roots *tls.Config) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") {
		return nil, errors.New("the mail server is smtp://user:password@host:port (STARTTLS when offered) or smtps://… (TLS from the start)")
	}
	if _, err := mail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("the sender %q is not an e-mail address", from)
	}
	m := &SMTP{host: u.Hostname(), ssl: u.Scheme == "smtps", from: from, tls: roots}
	m.port = 587
	if m.ssl {
		m.port = 465
	}
	if p := u.Port(); p != "" {
		if m.port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("the mail server's port %q is not a number", p)
		}
	}
	if u.User != nil {
		m.user = u.User.Username()
		m.pass, _ = u.User.Password()
	}
	return m, nil
}

// Send sends one plain-text message.
func (m *SMTP) Send(ctx context.Context, to, subject, text string) error {
	return m.SendWith(ctx, to, subject, text, Extra{})
}

// Extra are header fields of a message beyond its sender, recipient and
// subject.
type Extra struct {
	// MessageID, if set, is the message's Message-ID (without its angle
	// brackets): the same for a message sent again, so that mail servers
	// and clients that drop a repeat do.
	MessageID string
	// Unsubscribe, if set, is the address of a one-click unsubscribe: it
	// is given as List-Unsubscribe (RFC 2369), with List-Unsubscribe-Post
	// (RFC 8058) for mail clients that offer the button.
	Unsubscribe string
}

// SendWith sends one plain-text message with extra header fields.
func (m *SMTP) SendWith(ctx context.Context, to, subject, text string, x Extra) error {
	opts := []gomail.Option{gomail.WithPort(m.port), gomail.WithTimeout(20 * time.Second)}
	if m.ssl {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if m.tls != nil {
		opts = append(opts, gomail.WithTLSConfig(m.tls))
	} else {
		opts = append(opts, gomail.WithTLSConfig(&tls.Config{ServerName: m.host, MinVersion: tls.VersionTLS12}))
	}
	if m.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(m.user), gomail.WithPassword(m.pass))
	}
	c, err := gomail.NewClient(m.host, opts...)
	if err != nil {
		return err
	}
	msg := gomail.NewMsg()
	if err := msg.From(m.from); err != nil {
		return err
	}
	if err := msg.To(to); err != nil {
		return err
	}
	msg.Subject(subject)
	if x.MessageID != "" {
		msg.SetMessageIDWithValue(x.MessageID)
	}
	if x.Unsubscribe != "" {
		// (Set as given: SetListUnsubscribeOneClick takes https alone,
		// and a server tried on this machine serves http.)
		msg.SetGenHeaderPreformatted(gomail.HeaderListUnsubscribe, "<"+x.Unsubscribe+">")
		msg.SetGenHeaderPreformatted(gomail.HeaderListUnsubscribePost, "List-Unsubscribe=One-Click")
	}
	msg.SetBodyString(gomail.TypeTextPlain, text)
	return c.DialAndSendWithContext(ctx, msg)
}

// CheckEmail returns an address in the form accounts keep it (lower case),
// or a refusal.
func CheckEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || len(email) > 254 || !strings.Contains(email[strings.LastIndexByte(email, '@')+1:], ".") {
		return "", refuse(CodeBadEmail, "This is not an e-mail address.")
	}
	return strings.ToLower(email), nil
}

// RequestLink sends a sign-in link to email, in language lang, unless the
// address asked for too many lately. It answers as soon as the link is
// stored, the same for an address with an account or without; the mail
// goes off the request's time.
func (s *Service) RequestLink(ctx context.Context, email, lang string) error {
	if s.mailer == nil {
		return refuse(CodeNoMail, "This server sends no e-mail: sign in with a passkey.")
	}
	email, err := CheckEmail(email)
	if err != nil {
		return err
	}
	if s.flaws.Enumerate {
		if _, err := s.st.AccountByEmail(ctx, email); errors.Is(err, store.ErrNoAccount) {
			return refuse(CodeNoSuchPlayer, "No account has this address.")
		}
	}
	if ok, wait := s.mails.take(email, s.now()); !ok && !s.flaws.NoLinkLimit {
		return &Error{Code: CodeTooFast, Retry: wait,
			Message: "Several sign-in links were sent to this address a moment ago: use the newest, or ask again in a few minutes."}
	}
	token := base64.RawURLEncoding.EncodeToString(randomBytes(32))
	hash := sha256.Sum256([]byte(token))
	if err := s.st.PutSignInToken(ctx, hash[:], email, s.now().Add(LinkLife)); err != nil {
		return err
	}
	link := s.public.JoinPath("/auth/email")
	link.RawQuery = url.Values{"token": {token}, "lang": {Lang(lang)}}.Encode()
	subject, text := linkMail(Lang(lang), link.String())
	go func() {
		// The answer does not wait: how long sending takes says nothing of
		// the address.
		sctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.mailer.Send(sctx, email, subject, text); err != nil {
			s.log.Warn("a sign-in link could not be sent", "err", err)
		}
	}()
	return nil
}

// TakeLink signs the session in with a sign-in link's token, used once: to
// the account of its address, made now if there is none (named after the
// address's local part, in language lang). A session signed in to an
// account without an address, opening a link for an address no account
// has, gives its account that address. It reports whether the account is
// new.
func (s *Service) TakeLink(ctx context.Context, token, lang string) (*store.Account, bool, error) {
	hash := sha256.Sum256([]byte(token))
	email, err := s.st.TakeSignInToken(ctx, hash[:], s.now())
	if errors.Is(err, store.ErrNoAccount) {
		return nil, false, refuse(CodeBadPasskey, "This sign-in link was used already, or is older than 15 minutes: ask for a new one.")
	}
	if err != nil {
		return nil, false, err
	}
	a, err := s.st.AccountByEmail(ctx, email)
	switch {
	case err == nil:
		return a, false, s.signIn(ctx, a.ID)
	case !errors.Is(err, store.ErrNoAccount):
		return nil, false, err
	}
	if me := s.Who(ctx); me != "" {
		if a, err := s.st.Account(ctx, me); err == nil && a.Email == "" {
			a.Email = email
			if err := s.st.UpdateAccount(ctx, a); err != nil {
				return nil, false, err
			}
			return a, false, s.signIn(ctx, a.ID)
		}
	}
	a = newAccount(nameOf(email), email, Lang(lang), s.now())
	if err := s.createAccount(ctx, a); err != nil {
		if errors.Is(err, store.ErrTaken) { // made by another link meanwhile
			if a, err = s.st.AccountByEmail(ctx, email); err == nil {
				return a, false, s.signIn(ctx, a.ID)
			}
		}
		return nil, false, err
	}
	s.log.Info("an account was made with an e-mail link", "account", a.ID)
	return a, true, s.signIn(ctx, a.ID)
}

// nameOf is a first name for the account of an address: its local part,
// up to a '+' or a '.', capitalised, at most 40 characters.
func nameOf(email string) string {
	local := email[:strings.IndexByte(email, '@')]
	if i := strings.IndexAny(local, "+._-"); i > 0 {
		local = local[:i]
	}
	r := []rune(local)
	if len(r) > 40 {
		r = r[:40]
	}
	if len(r) == 0 {
		return "Player"
	}
	return strings.ToUpper(string(r[:1])) + string(r[1:])
}

// linkMail is the subject and text of a sign-in mail.
func linkMail(lang, link string) (string, string) {
	if lang == "fr" {
		return "Votre lien de connexion à Sortie",
			"Bonjour,\n\nPour vous connecter à Sortie, ouvrez ce lien dans les 15 minutes :\n\n" + link +
				"\n\nIl ne sert qu'une fois. Si vous n'avez rien demandé, ignorez ce message : sans ce lien, personne ne peut se connecter à votre place.\n\n— Sortie\n"
	}
	return "Your Sortie sign-in link",
		"Hello,\n\nTo sign in to Sortie, open this link within 15 minutes:\n\n" + link +
			"\n\nIt works once. If you did not ask for it, ignore this message: without the link nobody can sign in as you.\n\n— Sortie\n"
}

// perAddress limits the links sent to one address: 3 at once, then one
// every 5 minutes.
type perAddress struct {
	mu   sync.Mutex
	by   map[string]*bucket
	seen int
}

type bucket struct {
	tokens float64
	last   time.Time
}

const (
	linkBurst = 3
	linkEvery = 5 * time.Minute
)

func newPerAddress() *perAddress { return &perAddress{by: map[string]*bucket{}} }

// take takes one link for address at now, or says how long until there is
// one.
func (p *perAddress) take(address string, now time.Time) (bool, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen++; p.seen%1024 == 0 {
		for a, b := range p.by { // forget the addresses whose allowance is full
			if now.Sub(b.last) > linkBurst*linkEvery {
				delete(p.by, a)
			}
		}
	}
	b := p.by[address]
	if b == nil {
		b = &bucket{tokens: linkBurst, last: now}
		p.by[address] = b
	}
	b.tokens = min(linkBurst, b.tokens+float64(now.Sub(b.last))/float64(linkEvery))
	b.last = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) * float64(linkEvery))
	}
	b.tokens--
	return true, 0
}

func encodeID(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func decodeID(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(s) }
