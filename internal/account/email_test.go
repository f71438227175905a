package account

import (
	"context"
	"strings"
	"testing"
	"time"

	"sortie/internal/mailtest"
)

// The mailer speaks to a real SMTP server: STARTTLS when the server offers
// it (smtp://), TLS from the start (smtps://), signing in with the URL's
// user; the message arrives whole, in the language asked, over TLS.
func TestSMTPMailer(t *testing.T) {
	for _, ssl := range []bool{false, true} {
		srv, err := mailtest.Start(ssl)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		m, err := NewSMTP(srv.URL(), "Sortie <sortie@example.org>", srv.ClientTLS())
		if err != nil {
			t.Fatal(err)
		}
		subject, text := linkMail("fr", "https://sortie.example/auth/email?token=abc")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := m.Send(ctx, "ana@example.org", subject, text); err != nil {
			t.Fatalf("ssl=%v: %v", ssl, err)
		}
		got, err := srv.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !got.TLS {
			t.Errorf("ssl=%v: the mail came in clear", ssl)
		}
		if got.To[0] != "ana@example.org" || !strings.Contains(got.Header.Get("Subject"), "connexion") ||
			got.Link() != "https://sortie.example/auth/email?token=abc" || !strings.Contains(got.Body, "15 minutes") {
			t.Errorf("ssl=%v: got %+v", ssl, got)
		}
	}
	for _, bad := range []string{"http://host", "smtp://", "smtp://host:port", "mail.example.org"} {
		if _, err := NewSMTP(bad, "a@b.c", nil); err == nil {
			t.Errorf("%q was taken for a mail server", bad)
		}
	}
}

func TestCheckEmail(t *testing.T) {
	for in, want := range map[string]string{"Ana@Example.ORG": "ana@example.org", " bo@x.fr ": "bo@x.fr"} {
		if got, err := CheckEmail(in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ana", "ana@", "@x.fr", "Ana <ana@x.fr>", "ana@localhost", "a b@x.fr"} {
		if _, err := CheckEmail(bad); err == nil {
			t.Errorf("%q was taken for an address", bad)
		}
	}
}

func TestLinksPerAddress(t *testing.T) {
	p := newPerAddress()
	now := time.Now()
	for i := range linkBurst {
		if ok, _ := p.take("a@x.fr", now); !ok {
			t.Fatalf("link %d of the burst refused", i+1)
		}
	}
	if ok, wait := p.take("a@x.fr", now); ok || wait <= 0 {
		t.Fatalf("a fourth link at once: %v %v", ok, wait)
	}
	if ok, _ := p.take("b@x.fr", now); !ok {
		t.Fatal("another address was held back")
	}
	if ok, _ := p.take("a@x.fr", now.Add(linkEvery)); !ok {
		t.Fatal("no link after the wait")
	}
}
