package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"sortie/internal/account"
	"sortie/internal/match"
	"sortie/internal/notify"
	"sortie/internal/store"
)

// Notifications (docs/api.md, "Notifications"): the server's VAPID key,
// each device's Web Push subscription, each account's settings, and the
// one-click unsubscribe of e-mails. The notifier (internal/notify) sends;
// the matches tell it what happens through match.Config.Notice.

// Codes of the refusals about notifications.
const (
	CodeBadEndpoint = "bad_endpoint" // not a push service the server posts to, or bad keys
	CodeTooManySubs = "too_many_subscriptions"
	CodeBadSettings = "bad_settings"
)

// maxDevices bounds an account's subscriptions: past it, the oldest goes.
const maxDevices = 20

func init() {
	statusOf[CodeBadEndpoint] = http.StatusBadRequest
	statusOf[CodeTooManySubs] = http.StatusTooManyRequests
	statusOf[CodeBadSettings] = http.StatusBadRequest
}

// openNotify sets the notifier up, on a server that keeps accounts.
func (s *Server) openNotify() error {
	if s.acc == nil {
		return nil
	}
	st, ok := s.store.(notify.Store)
	if !ok {
		return errors.New("server: this store keeps no notifications")
	}
	services := notify.DefaultPushServices
	if s.cfg.PushServices != "" {
		var err error
		if services, err = notify.ParsePushServices(s.cfg.PushServices); err != nil {
			return err
		}
	}
	u, err := publicURL(s.cfg.PublicURL)
	if err != nil {
		return err
	}
	nc := notify.Config{Store: st, Matches: s.mgr, Games: s.cfg.Games, PublicURL: u, Node: s.node,
		Delay: s.cfg.NotifyDelay, PushServices: services, Claim: s.cfg.NotifyClaim, Logger: s.log}
	if s.smtp != nil {
		nc.Mailer = s.smtp
	}
	if s.cfg.notifyTune != nil {
		s.cfg.notifyTune(&nc)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := notify.New(ctx, nc)
	if err != nil {
		return err
	}
	s.notifier.Store(n)
	return nil
}

// notice hands a match's event to the notifier (match.Config.Notice).
func (s *Server) notice(x match.Notice) {
	if n := s.notifier.Load(); n != nil {
		n.Notice(x)
	}
}

// invited tells the notifier of an invitation made.
func (s *Server) invited(inv store.Invitation) {
	if n := s.notifier.Load(); n != nil {
		n.Invited(inv)
	}
}

func (s *Server) notifyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/push/key", s.needAccounts(s.pushKey))
	mux.HandleFunc("POST /api/me/push", s.needAccounts(s.subscribePush))
	mux.HandleFunc("DELETE /api/me/push", s.needAccounts(s.unsubscribePush))
	mux.HandleFunc("DELETE /api/me/push/{device}", s.needAccounts(s.removeDevice))
	mux.HandleFunc("GET /api/me/notifications", s.needAccounts(s.getNotifications))
	mux.HandleFunc("PUT /api/me/notifications", s.needAccounts(s.putNotifications))
	mux.HandleFunc("GET /unsubscribe", s.needAccounts(s.unsubscribePage))
	mux.HandleFunc("POST /unsubscribe", s.needAccounts(s.unsubscribePage))
}

// pushKey serves GET /api/push/key: the VAPID public key browsers
// subscribe with (applicationServerKey).
func (s *Server) pushKey(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, struct {
		Key string `json:"key"`
	}{s.notifier.Load().PublicKey()})
}

// pushBody is a PushSubscription as the browser's toJSON() gives it, and
// a name for the device.
type pushBody struct {
	Endpoint       string `json:"endpoint"`
	ExpirationTime *int64 `json:"expirationTime"`
	Keys           struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
	Label string `json:"label"`
}

// checkKeys says why a subscription's keys cannot encrypt a push, or nil:
// p256dh is an uncompressed P-256 point, auth 16 bytes (RFC 8291).
func checkKeys(p256dh, auth string) error {
	dec := func(v string) ([]byte, error) {
		v = strings.TrimRight(v, "=")
		return base64.RawURLEncoding.DecodeString(strings.NewReplacer("+", "-", "/", "_").Replace(v))
	}
	k, err1 := dec(p256dh)
	a, err2 := dec(auth)
	if err1 != nil || len(k) != 65 || k[0] != 4 {
		return errors.New("keys.p256dh is the browser's P-256 public key, 65 bytes in base64url.")
	}
	if err2 != nil || len(a) != 16 {
		return errors.New("keys.auth is the browser's 16-byte secret, in base64url.")
	}
	return nil
}

// subscribePush serves POST /api/me/push: the signed-in player turns
// notifications on for this browser. 201 with the device's id.
func (s *Server) subscribePush(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	var body pushBody
	if err := s.decodeBody(w, r, &body, false); err != nil {
		writeError(w, err)
		return
	}
	n := s.notifier.Load()
	if err := n.CheckEndpoint(body.Endpoint); err != nil {
		writeError(w, &match.Error{Code: CodeBadEndpoint, Message: err.Error()})
		return
	}
	if err := checkKeys(body.Keys.P256dh, body.Keys.Auth); err != nil {
		writeError(w, &match.Error{Code: CodeBadEndpoint, Message: err.Error()})
		return
	}
	label := strings.TrimSpace(body.Label)
	if r := []rune(label); len(r) > 60 {
		label = string(r[:60])
	}
	if ok, wait := n.AllowSubscribe(me, time.Now()); !ok {
		writeError(w, s.refuseLimit(CodeTooManySubs, wait, "This account turned notifications on too often lately; try again later."))
		return
	}
	p := &store.PushSubscription{ID: newDeviceID(), Account: me, Endpoint: body.Endpoint, P256dh: body.Keys.P256dh,
		Auth: body.Keys.Auth, Label: label, Created: time.Now()}
	if err := s.store.(store.Notifications).AddPushSubscription(r.Context(), p, maxDevices); err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusCreated, deviceOf(p))
}

// unsubscribePush serves DELETE /api/me/push {"endpoint"}: this browser
// turns notifications off.
func (s *Server) unsubscribePush(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	var body struct {
		Endpoint string `json:"endpoint"`
	}
	if err := s.decodeBody(w, r, &body, false); err != nil {
		writeError(w, err)
		return
	}
	st := s.store.(store.Notifications)
	subs, err := st.PushSubscriptions(r.Context(), me)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	for _, p := range subs {
		if p.Endpoint == body.Endpoint {
			if err := st.DeletePushSubscription(r.Context(), me, p.ID); err != nil {
				writeError(w, accountError(err))
				return
			}
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// removeDevice serves DELETE /api/me/push/{device}: a device of the list
// is removed.
func (s *Server) removeDevice(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	err := s.store.(store.Notifications).DeletePushSubscription(r.Context(), me, r.PathValue("device"))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, &match.Error{Code: CodeNotFound, Message: "This account has no such device."})
		return
	}
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Device is a browser that receives the account's pushes, as the settings
// list it (its endpoint stays with the server, but for its own browser).
type Device struct {
	ID      string    `json:"id"`
	Label   string    `json:"label"`
	Service string    `json:"service"` // the push service's host
	Created time.Time `json:"created"`
	// Endpoint lets a browser find itself in the list.
	Endpoint string `json:"endpoint"`
}

func deviceOf(p *store.PushSubscription) Device {
	host := p.Endpoint
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	return Device{ID: p.ID, Label: p.Label, Service: host, Created: p.Created, Endpoint: p.Endpoint}
}

// NotificationSettings is what GET /api/me/notifications answers: the
// settings, the devices, and what the account can be reached by.
type NotificationSettings struct {
	notify.Settings
	Devices []Device `json:"devices"`
	// Email says the account has an address and the server sends mail.
	Email bool `json:"email"`
	// DelayMs is how long after an event its notification waits.
	DelayMs int64 `json:"delay_ms"`
}

func (s *Server) notificationSettings(ctx context.Context, me string, set notify.Settings) (NotificationSettings, error) {
	out := NotificationSettings{Settings: set, Devices: []Device{}, DelayMs: s.notifier.Load().Delay().Milliseconds()}
	subs, err := s.store.(store.Notifications).PushSubscriptions(ctx, me)
	if err != nil {
		return out, err
	}
	for _, p := range subs {
		out.Devices = append(out.Devices, deviceOf(p))
	}
	if a, err := s.accounts.Account(ctx, me); err == nil {
		out.Email = a.Email != "" && s.smtp != nil
	}
	return out, nil
}

// getNotifications serves GET /api/me/notifications.
func (s *Server) getNotifications(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	set, err := s.notifier.Load().Settings(r.Context(), me)
	var out NotificationSettings
	if err == nil {
		out, err = s.notificationSettings(r.Context(), me, set)
	}
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// putNotifications serves PUT /api/me/notifications: the settings whole
// (the devices are not settings: they are added and removed by their own
// requests, and ignored here).
func (s *Server) putNotifications(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	var body struct {
		notify.Settings
		Devices json.RawMessage `json:"devices"`
		Email   json.RawMessage `json:"email"`
		DelayMs json.RawMessage `json:"delay_ms"`
	}
	body.Settings = notify.DefaultSettings()
	if err := s.decodeBody(w, r, &body, false); err != nil {
		writeError(w, err)
		return
	}
	set, err := s.notifier.Load().SaveSettings(r.Context(), me, body.Settings)
	var bad *notify.BadSettings
	if errors.As(err, &bad) {
		writeError(w, &match.Error{Code: CodeBadSettings, Message: bad.Why})
		return
	}
	var out NotificationSettings
	if err == nil {
		out, err = s.notificationSettings(r.Context(), me, set)
	}
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// unsubscribePage serves /unsubscribe?a=…&t=…, the link of every e-mail:
// GET shows one button (a page that unsubscribed on GET would be
// unsubscribed by the mail scanners that open links), POST — the button,
// or a mail client's one-click (RFC 8058) — turns every e-mail off.
func (s *Server) unsubscribePage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	acct, token := q.Get("a"), q.Get("t")
	lang := "en"
	if a, err := s.accounts.Account(r.Context(), acct); err == nil {
		lang = account.Lang(a.Lang)
	}
	page := unsubTexts[lang]
	status := http.StatusOK
	state := "ask"
	if r.Method == http.MethodPost {
		done, err := s.notifier.Load().Unsubscribe(r.Context(), acct, token)
		switch {
		case err != nil:
			status, state = http.StatusServiceUnavailable, "later"
		case !done:
			status, state = http.StatusBadRequest, "bad"
		default:
			state = "done"
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = unsubPage.Execute(w, struct {
		Lang, State string
		T           map[string]string
		Action      string
	}{lang, state, page, r.URL.RequestURI()})
}

var unsubPage = template.Must(template.New("unsub").Parse(`<!doctype html>
<html lang="{{.Lang}}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{index .T "title"}} — Sortie</title><link rel="stylesheet" href="/style.css">
<main class="unsubscribe"><h1>{{index .T "title"}}</h1>
{{if eq .State "ask"}}<p>{{index .T "ask"}}</p>
<form method="post" action="{{.Action}}"><button type="submit">{{index .T "button"}}</button></form>
{{else if eq .State "done"}}<p role="status">{{index .T "done"}}</p>
{{else if eq .State "bad"}}<p role="alert">{{index .T "bad"}}</p>
{{else}}<p role="alert">{{index .T "later"}}</p>{{end}}
<p><a href="/account/notifications">{{index .T "settings"}}</a></p></main></html>
`))

var unsubTexts = map[string]map[string]string{
	"en": {
		"title":    "E-mails from Sortie",
		"ask":      "Stop every e-mail about your matches (your turn, invitations, ends, the daily digest)? Pushes on your devices go on.",
		"button":   "Stop the e-mails",
		"done":     "Done: Sortie sends you no more e-mails about your matches. Sign-in links still come when you ask for one.",
		"bad":      "This link is not valid: copy it whole from the e-mail, or choose in your settings.",
		"later":    "The server cannot save this now; try again in a moment.",
		"settings": "Notification settings",
	},
	"fr": {
		"title":    "Les e-mails de Sortie",
		"ask":      "Ne plus recevoir aucun e-mail sur vos parties (à vous de jouer, invitations, fins de partie, le résumé du jour)\u00a0? Les notifications sur vos appareils continuent.",
		"button":   "Arrêter les e-mails",
		"done":     "C’est fait\u00a0: Sortie ne vous envoie plus d’e-mails sur vos parties. Les liens de connexion arrivent toujours quand vous en demandez un.",
		"bad":      "Ce lien n’est pas valable\u00a0: copiez-le en entier depuis l’e-mail, ou choisissez dans vos réglages.",
		"later":    "Le serveur ne peut pas l’enregistrer pour l’instant\u00a0; réessayez dans un moment.",
		"settings": "Réglages des notifications",
	},
}

// newDeviceID is a device's id: 12 random characters of [A-Za-z0-9_-].
func newDeviceID() string {
	b := make([]byte, 9)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
