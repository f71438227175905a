// Package mailtest is a real SMTP server for tests (emersion/go-smtp, in the
// test's process): it speaks STARTTLS, or TLS from the start, with a
// certificate of its own that [Server.ClientTLS] trusts, takes a user and
// password (PLAIN), and keeps every message it receives for the test to
// read. It is a test fixture: nothing outside tests imports it.
package mailtest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// The user and password the server takes.
const (
	User     = "sortie"
	Password = "mail-secret"
)

// Mail is one message received.
type Mail struct {
	From string
	To   []string
	// Header and Body are the message as received (the body decoded from
	// quoted-printable or base64 if the message says so).
	Header mail.Header
	Body   string
	// TLS says the message came over an encrypted connection.
	TLS bool
}

// Server is a running SMTP server.
type Server struct {
	srv     *smtp.Server
	ln      net.Listener
	ssl     bool
	certPEM []byte
	client  *tls.Config
	in      chan Mail
	mu      sync.Mutex
	all     []Mail
}

// Start starts a server on 127.0.0.1: STARTTLS offered, or (ssl) TLS from
// the start. Close it when done.
func Start(ssl bool) (*Server, error) {
	cert, pool, err := selfSigned()
	if err != nil {
		return nil, err
	}
	s := &Server{ssl: ssl, in: make(chan Mail, 100), client: &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12},
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]})}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, tlsOn := c.TLSConnectionState()
		return &session{s: s, tls: tlsOn}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	if ssl {
		s.ln, err = tls.Listen("tcp", "127.0.0.1:0", s.srv.TLSConfig)
	} else {
		s.ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return nil, err
	}
	go func() { _ = s.srv.Serve(s.ln) }()
	return s, nil
}

// URL is the server's address as serve --smtp takes it.
func (s *Server) URL() string {
	scheme := "smtp"
	if s.ssl {
		scheme = "smtps"
	}
	return fmt.Sprintf("%s://%s:%s@%s", scheme, User, Password, s.ln.Addr())
}

// ClientTLS is a TLS configuration that trusts the server's certificate.
func (s *Server) ClientTLS() *tls.Config { return s.client.Clone() }

// CertPEM is the server's certificate, PEM-encoded: a process of its own
// trusts it through SSL_CERT_FILE.
func (s *Server) CertPEM() []byte { return s.certPEM }

// Close stops the server: no new connection, and those under way end
// first (for up to 2 s). go-smtp's Close cuts a connection in the middle
// of its STARTTLS, which the race detector catches in the library and
// which panics in it when a message is being received.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// Next returns the next message received, waiting for it until ctx ends.
func (s *Server) Next(ctx context.Context) (Mail, error) {
	select {
	case m := <-s.in:
		return m, nil
	case <-ctx.Done():
		return Mail{}, errors.New("mailtest: no mail came")
	}
}

// All returns every message received so far.
func (s *Server) All() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.all...)
}

var linkRE = regexp.MustCompile(`https?://\S+`)

// Link returns the first link of a message's body.
func (m Mail) Link() string { return linkRE.FindString(m.Body) }

type session struct {
	s      *Server
	tls    bool
	authed bool
	m      Mail
}

func (se *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (se *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != User || pass != Password {
			return errors.New("bad user or password")
		}
		se.authed = true
		return nil
	}), nil
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	if !se.authed {
		return smtp.ErrAuthRequired
	}
	se.m = Mail{From: from, TLS: se.tls}
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	se.m.To = append(se.m.To, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	body, err := decodeBody(msg)
	if err != nil {
		return err
	}
	se.m.Header, se.m.Body = msg.Header, body
	se.s.mu.Lock()
	se.s.all = append(se.s.all, se.m)
	se.s.mu.Unlock()
	select {
	case se.s.in <- se.m:
	default:
	}
	return nil
}

func (se *session) Reset()        { se.m = Mail{TLS: se.tls} }
func (se *session) Logout() error { return nil }

// decodeBody reads a plain-text body, quoted-printable or base64 if the
// message says so.
func decodeBody(msg *mail.Message) (string, error) {
	b, err := io.ReadAll(msg.Body)
	if err != nil {
		return "", err
	}
	switch strings.ToLower(msg.Header.Get("Content-Transfer-Encoding")) {
	case "quoted-printable":
		return decodeQP(string(b)), nil
	case "base64":
		out, err := decodeB64(string(b))
		return out, err
	}
	return string(b), nil
}

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned() (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, nil
}

func decodeQP(s string) string {
	b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(s)))
	if err != nil {
		return s
	}
	return string(b)
}

func decodeB64(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
	return string(b), err
}
