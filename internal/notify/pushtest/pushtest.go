// Package pushtest is a Web Push service for tests, in the test's process
// (an httptest server on loopback), that checks what it receives as a real
// push service and the browser behind it would: the VAPID authorisation
// (RFC 8292: an ES256 token for this service's origin, not expired, with a
// contact, signed by the key it names), the message's encryption (RFC 8291,
// aes128gcm, decrypted here with the subscription's private key), its TTL,
// and its Topic (RFC 8030): a message not yet delivered is replaced by a
// newer one of the same topic, as real push services do. Each subscription
// is a device that takes its messages when the test says (Deliver), or at
// once (Online).
//
// It is a test fixture: nothing outside tests imports it. The decryption
// is written here from RFC 8291 with golang.org/x/crypto/hkdf, crypto/ecdh
// and AES-GCM, so that the server's encryption (webpush-go's) is checked by
// code that is not its own.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/hkdf"
)

// Message is one push received, decrypted.
type Message struct {
	Sub     string // the subscription's id
	Topic   string
	TTL     int
	Urgency string
	// Plain is the decrypted payload; Payload its JSON, if it is.
	Plain   []byte
	Payload map[string]any
	// VAPIDKey is the public key that signed its authorisation.
	VAPIDKey string
	At       time.Time
}

// Title, Body, URL and Tag read the payload's fields.
func (m Message) Title() string { return m.field("title") }
func (m Message) Body() string  { return m.field("body") }
func (m Message) URL() string   { return m.field("url") }
func (m Message) Tag() string   { return m.field("tag") }

func (m Message) field(k string) string { s, _ := m.Payload[k].(string); return s }

// Subscription is a browser's subscription: its endpoint on this service,
// and the keys the browser would give the server.
type Subscription struct {
	ID       string
	Endpoint string
	P256dh   string // base64url
	Auth     string // base64url
	priv     *ecdh.PrivateKey
	auth     []byte
}

// JSON is the subscription as PushSubscription.toJSON() gives it.
func (s *Subscription) JSON() map[string]any {
	return map[string]any{"endpoint": s.Endpoint, "expirationTime": nil, "keys": map[string]string{"p256dh": s.P256dh, "auth": s.Auth}}
}

// Service is a running push service.
type Service struct {
	srv *httptest.Server

	mu        sync.Mutex
	subs      map[string]*Subscription
	pending   map[string][]Message // not delivered yet, by subscription
	delivered map[string][]Message
	online    map[string]bool
	status    map[string]int // an answer forced for a subscription (410: gone)
	hold      chan struct{}  // while set, posts are stored and then wait
	held      chan Message   // each post held, once stored
	errs      []error
	posts     int
}

// Start starts a service on 127.0.0.1.
func Start() *Service {
	s := &Service{subs: map[string]*Subscription{}, pending: map[string][]Message{}, delivered: map[string][]Message{},
		online: map[string]bool{}, status: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close stops the service.
func (s *Service) Close() {
	s.Release()
	s.srv.Close()
}

// Host is the service's host:port, for the server's allow-list.
func (s *Service) Host() string { return strings.TrimPrefix(s.srv.URL, "http://") }

// Subscribe makes a new subscription with keys of its own.
func (s *Service) Subscribe() *Subscription {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	sub := &Subscription{ID: fmt.Sprintf("%x", id), priv: priv, auth: auth,
		P256dh: base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes()), Auth: base64.RawURLEncoding.EncodeToString(auth)}
	sub.Endpoint = s.srv.URL + "/push/" + sub.ID
	s.mu.Lock()
	s.subs[sub.ID] = sub
	s.mu.Unlock()
	return sub
}

// Online has the subscription's device take its messages as they come
// (and those waiting now).
func (s *Service) Online(sub *Subscription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.online[sub.ID] = true
	s.delivered[sub.ID] = append(s.delivered[sub.ID], s.pending[sub.ID]...)
	delete(s.pending, sub.ID)
}

// Deliver gives the subscription's device the messages waiting for it, and
// returns every message it was given so far.
func (s *Service) Deliver(sub *Subscription) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delivered[sub.ID] = append(s.delivered[sub.ID], s.pending[sub.ID]...)
	delete(s.pending, sub.ID)
	return append([]Message(nil), s.delivered[sub.ID]...)
}

// Delivered returns the messages the subscription's device was given.
func (s *Service) Delivered(sub *Subscription) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.delivered[sub.ID]...)
}

// Pending returns the messages waiting for the subscription's device.
func (s *Service) Pending(sub *Subscription) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.pending[sub.ID]...)
}

// Posts counts the posts received, accepted or not.
func (s *Service) Posts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.posts
}

// Gone has the service answer 410 Gone for the subscription, as for one
// the browser dropped.
func (s *Service) Gone(sub *Subscription) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status[sub.ID] = http.StatusGone
}

// Hold has each post from now on stored, then kept waiting for its
// answer until Release: a sender killed meanwhile posted a message it
// never heard was taken. Each post held is sent on the channel returned.
func (s *Service) Hold() <-chan Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold = make(chan struct{})
	s.held = make(chan Message, 100)
	return s.held
}

// Release answers the posts held, and holds no more.
func (s *Service) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hold != nil {
		close(s.hold)
		s.hold = nil
	}
}

// Errors returns what was wrong with the posts refused.
func (s *Service) Errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.posts++
	s.mu.Unlock()
	msg, code, err := s.receive(r)
	if err != nil {
		s.mu.Lock()
		s.errs = append(s.errs, err)
		s.mu.Unlock()
		http.Error(w, err.Error(), code)
		return
	}
	s.mu.Lock()
	if st := s.status[msg.Sub]; st != 0 {
		s.mu.Unlock()
		w.WriteHeader(st)
		return
	}
	if s.online[msg.Sub] {
		s.delivered[msg.Sub] = append(s.delivered[msg.Sub], msg)
	} else {
		q := s.pending[msg.Sub]
		replaced := false
		if msg.Topic != "" {
			for i, m := range q {
				if m.Topic == msg.Topic {
					q[i], replaced = msg, true
				}
			}
		}
		if !replaced {
			q = append(q, msg)
		}
		s.pending[msg.Sub] = q
	}
	hold, held := s.hold, s.held
	s.mu.Unlock()
	if hold != nil {
		held <- msg
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Location", "/message/"+strconv.Itoa(int(time.Now().UnixNano())))
	w.WriteHeader(http.StatusCreated)
}

// receive checks and decrypts one post.
func (s *Service) receive(r *http.Request) (Message, int, error) {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/push/") {
		return Message{}, http.StatusNotFound, fmt.Errorf("%s %s is no push resource", r.Method, r.URL.Path)
	}
	id := strings.TrimPrefix(r.URL.Path, "/push/")
	s.mu.Lock()
	sub := s.subs[id]
	s.mu.Unlock()
	if sub == nil {
		return Message{}, http.StatusNotFound, fmt.Errorf("no subscription %s", id)
	}
	m := Message{Sub: id, Topic: r.Header.Get("Topic"), Urgency: r.Header.Get("Urgency"), At: time.Now()}
	ttl, err := strconv.Atoi(r.Header.Get("TTL"))
	if err != nil || ttl < 0 {
		return m, http.StatusBadRequest, fmt.Errorf("TTL %q is not a number of seconds", r.Header.Get("TTL"))
	}
	m.TTL = ttl
	if t := m.Topic; t != "" && (len(t) > 32 || strings.Trim(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "") {
		return m, http.StatusBadRequest, fmt.Errorf("topic %q is not at most 32 characters of base64url", t)
	}
	key, err := s.checkVAPID(r.Header.Get("Authorization"))
	if err != nil {
		return m, http.StatusUnauthorized, err
	}
	m.VAPIDKey = key
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		return m, http.StatusUnsupportedMediaType, fmt.Errorf("Content-Encoding %q, not aes128gcm", ce)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8192))
	if err != nil {
		return m, http.StatusBadRequest, err
	}
	if m.Plain, err = decrypt(sub, body); err != nil {
		return m, http.StatusBadRequest, err
	}
	if err := json.Unmarshal(m.Plain, &m.Payload); err != nil {
		m.Payload = nil
	}
	return m, 0, nil
}

// checkVAPID checks an RFC 8292 authorisation and returns its key.
func (s *Service) checkVAPID(h string) (string, error) {
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return "", fmt.Errorf("authorization %q is not vapid", h)
	}
	var token, key string
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		switch {
		case strings.HasPrefix(part, "t="):
			token = part[2:]
		case strings.HasPrefix(part, "k="):
			key = part[2:]
		}
	}
	pub, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil || len(pub) != 65 {
		return "", errors.New("the VAPID key is not a P-256 public key")
	}
	pk, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pub)
	if err != nil {
		return "", fmt.Errorf("the VAPID key: %v", err)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", errors.New("the VAPID token is not a JWT")
	}
	var head struct {
		Alg string `json:"alg"`
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	for i, v := range []any{&head, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil || json.Unmarshal(b, v) != nil {
			return "", errors.New("the VAPID token does not read")
		}
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if head.Alg != "ES256" || err != nil || len(sig) != 64 {
		return "", errors.New("the VAPID token is not signed with ES256")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pk, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", errors.New("the VAPID token's signature does not verify with its key")
	}
	now := time.Now().Unix()
	switch {
	case claims.Aud != s.srv.URL:
		return "", fmt.Errorf("the VAPID token is for %q, not this push service (%s)", claims.Aud, s.srv.URL)
	case claims.Exp <= now || claims.Exp > now+24*3600:
		return "", fmt.Errorf("the VAPID token expires at %d, not within 24 hours", claims.Exp)
	case !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:"):
		return "", fmt.Errorf("the VAPID token's contact %q is neither mailto: nor https:", claims.Sub)
	}
	return key, nil
}

// decrypt opens an aes128gcm message (RFC 8188) encrypted for sub (RFC
// 8291): its header is the salt, the record size, and the server's
// one-time public key.
func decrypt(sub *Subscription, body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("the message is shorter than its header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || idlen != 65 {
		return nil, errors.New("the message's key id is not the server's P-256 public key")
	}
	asPublic, ciphertext := body[21:21+idlen], body[21+idlen:]
	if rs < 18 || len(ciphertext) > int(rs) {
		return nil, fmt.Errorf("a single record of at most %d bytes is expected, not %d", rs, len(ciphertext))
	}
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, fmt.Errorf("the server's public key: %v", err)
	}
	secret, err := sub.priv.ECDH(as)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), sub.priv.PublicKey().Bytes()...), asPublic...)
	ikm := make([]byte, 32)
	if _, err := io.ReadFull(hkdf.New(sha256.New, secret, sub.auth, info), ikm); err != nil {
		return nil, err
	}
	cek, nonce := make([]byte, 16), make([]byte, 12)
	if _, err := io.ReadFull(hkdf.New(sha256.New, ikm, salt, []byte("Content-Encoding: aes128gcm\x00")), cek); err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(hkdf.New(sha256.New, ikm, salt, []byte("Content-Encoding: nonce\x00")), nonce); err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, fmt.Errorf("the message does not decrypt with the subscription's keys: %v", err)
	}
	// The last record ends with the delimiter 2, then zero padding.
	end := bytes.LastIndexFunc(plain, func(r rune) bool { return r != 0 })
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("the last record's padding has no delimiter 2")
	}
	return plain[:end], nil
}
