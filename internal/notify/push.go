package notify

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"sortie/internal/store"
)

// Web Push: the payload is encrypted per RFC 8291 (aes128gcm) and signed
// with the server's VAPID key (RFC 8292) by webpush-go, never by hand. The
// server posts only to the push services of an allow-list, over https
// (plain http only to a loopback host the list names, for tests): an
// endpoint is a URL the browser gives, and a server that posted to any URL
// a client names would let anyone make it call into a private network.

// DefaultPushServices are the push services of the major browsers: Chrome,
// Edge's Chromium and most others (Firebase Cloud Messaging), Firefox
// (Mozilla's autopush), Edge on Windows (WNS) and Safari (Apple).
var DefaultPushServices = []string{
	"fcm.googleapis.com",
	"updates.push.services.mozilla.com",
	"*.notify.windows.com",
	"web.push.apple.com",
}

// PushServices is an allow-list of push services' hosts: "host" is that
// host, "*.domain" any host under domain.
type PushServices []string

// ParsePushServices reads a comma-separated list of hosts.
func ParsePushServices(list string) (PushServices, error) {
	var out PushServices
	for _, h := range strings.Split(list, ",") {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		if host, _, err := net.SplitHostPort(h); err == nil && isLoopback(host) {
			h = strings.Trim(host, "[]") // (a loopback service's port is the test's)
		}
		bare := strings.TrimPrefix(h, "*.")
		if strings.ContainsAny(bare, "/:*@[] ") && !isLoopback(h) || bare == "" {
			return nil, fmt.Errorf("push service %q is a host name (fcm.googleapis.com) or *.domain", h)
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		return nil, errors.New("the list of push services is empty")
	}
	return out, nil
}

// isLoopback reports whether host (a name or an address, without port)
// is this machine's loopback.
func isLoopback(host string) bool {
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Check says why the server must not post to endpoint, or nil: it must be
// an https URL of a host on the list, on the default port, with no user;
// or an http URL of a loopback host the list names.
func (ps PushServices) Check(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || u.User != nil || u.Opaque != "" || len(endpoint) > 1024 {
		return errors.New("The endpoint is not a push service's URL.")
	}
	host := strings.ToLower(u.Hostname())
	listed := false
	for _, p := range ps {
		if p == host || strings.HasPrefix(p, "*.") && strings.HasSuffix(host, p[1:]) && len(host) > len(p)-1 {
			listed = true
		}
	}
	switch {
	case !listed:
		return fmt.Errorf("The endpoint's host %s is not a push service this server posts to.", host)
	case isLoopback(host):
		if u.Scheme != "http" && u.Scheme != "https" {
			return errors.New("The endpoint is not a push service's URL.")
		}
	case u.Scheme != "https":
		return errors.New("The endpoint must be an https URL.")
	case u.Port() != "" && u.Port() != "443":
		return errors.New("The endpoint must be on the push service's usual port.")
	}
	return nil
}

// vapid is the server's VAPID key pair, base64url as webpush-go takes it.
type vapid struct {
	Private string `json:"private"`
	Public  string `json:"public"`
}

// vapidKeys returns the server's VAPID keys, made by the first node that
// asks and kept in the store for every node.
func vapidKeys(ctx context.Context, st store.Notifications) (vapid, error) {
	var k vapid
	priv, pub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		return k, err
	}
	mine, _ := json.Marshal(vapid{Private: priv, Public: pub})
	b, err := st.Secret(ctx, "vapid", mine)
	if err != nil {
		return k, err
	}
	if err := json.Unmarshal(b, &k); err != nil || k.Private == "" || k.Public == "" {
		return k, errors.New("the stored VAPID keys do not read")
	}
	return k, nil
}

// Payload is what a push says: the service worker shows Title and Body
// under Tag (a notification of the same tag replaces it), and opening it
// leads to URL.
type Payload struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
	Tag   string `json:"tag"`
}

// topicOf is the RFC 8030 topic of a notification's key: a push service
// replaces a message not yet delivered by a newer one of the same topic.
// (At most 32 characters of the URL-safe base64 alphabet.)
func topicOf(key string) string {
	h := sha256.Sum256([]byte(key))
	return base64.RawURLEncoding.EncodeToString(h[:])[:32]
}

// pushResult is what a push service answered.
type pushResult int

const (
	pushSent    pushResult = iota
	pushGone               // 404/410: the subscription is no more
	pushRefused            // not posted: not a push service of the list
	pushFailed             // try again later
)

// pusher posts pushes.
type pusher struct {
	keys     vapid
	services PushServices
	client   *http.Client
	subject  string // the VAPID "sub": the server's https address or a mailto:
	ttl      time.Duration
	noTopic  bool // a planted flaw: no Topic header
}

// newPushClient is an HTTP client that follows no redirect: a push
// service answers, it does not send elsewhere.
func newPushClient() *http.Client {
	return &http.Client{
		Timeout:       15 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// send posts payload to subscription p under topic, checking again first
// that its endpoint is on the list.
func (ps *pusher) send(ctx context.Context, p *store.PushSubscription, payload []byte, topic string) (pushResult, error) {
	if err := ps.services.Check(p.Endpoint); err != nil {
		return pushRefused, err
	}
	o := &webpush.Options{
		HTTPClient: ps.client, Subscriber: ps.subject, TTL: int(ps.ttl / time.Second),
		VAPIDPublicKey: ps.keys.Public, VAPIDPrivateKey: ps.keys.Private, Urgency: webpush.UrgencyNormal,
	}
	if !ps.noTopic {
		o.Topic = topic
	}
	res, err := webpush.SendNotificationWithContext(ctx, payload, &webpush.Subscription{
		Endpoint: p.Endpoint, Keys: webpush.Keys{P256dh: p.P256dh, Auth: p.Auth}}, o)
	if err != nil {
		return pushFailed, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 4096))
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return pushSent, nil
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
		return pushGone, nil
	}
	return pushFailed, fmt.Errorf("the push service answered %s", res.Status)
}
