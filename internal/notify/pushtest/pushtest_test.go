package pushtest

import (
	"net/http"
	"strings"
	"testing"

	webpush "github.com/SherClockHolmes/webpush-go"
)

func send(t *testing.T, sub *Subscription, keys [2]string, p256dh, payload, topic string) int {
	t.Helper()
	res, err := webpush.SendNotification([]byte(payload), &webpush.Subscription{Endpoint: sub.Endpoint, Keys: webpush.Keys{P256dh: p256dh, Auth: sub.Auth}},
		&webpush.Options{Subscriber: "test@example.org", TTL: 60, Topic: topic, VAPIDPrivateKey: keys[0], VAPIDPublicKey: keys[1]})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// The test push service takes what a browser's would, decrypted as it
// was sent, replacing an undelivered message of the same topic; it refuses
// a push encrypted for other keys, and one whose VAPID token another key
// signed.
func TestServiceChecksWhatItTakes(t *testing.T) {
	svc := Start()
	defer svc.Close()
	sub := svc.Subscribe()
	priv, pub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		t.Fatal(err)
	}
	keys := [2]string{priv, pub}
	if code := send(t, sub, keys, sub.P256dh, `{"title":"one"}`, "t1"); code != http.StatusCreated {
		t.Fatalf("a good push: %d %v", code, svc.Errors())
	}
	send(t, sub, keys, sub.P256dh, `{"title":"two"}`, "t1")
	send(t, sub, keys, sub.P256dh, `{"title":"three"}`, "t2")
	got := svc.Deliver(sub)
	if len(got) != 2 || got[0].Title() != "two" || got[1].Title() != "three" || got[0].VAPIDKey != pub || got[0].TTL != 60 {
		t.Fatalf("delivered: %+v", got)
	}
	// Encrypted for another browser's keys.
	other := svc.Subscribe()
	if code := send(t, sub, keys, other.P256dh, `{"title":"x"}`, ""); code != http.StatusBadRequest || !strings.Contains(svc.Errors()[0].Error(), "does not decrypt") {
		t.Fatalf("a push for other keys: %d %v", code, svc.Errors())
	}
	// Signed by a key that is not the one it names.
	priv2, _, _ := webpush.GenerateVAPIDKeys()
	if code := send(t, sub, [2]string{priv2, pub}, sub.P256dh, `{"title":"x"}`, ""); code != http.StatusUnauthorized || !strings.Contains(svc.Errors()[1].Error(), "signature") {
		t.Fatalf("a forged VAPID token: %d %v", code, svc.Errors())
	}
	if n := len(svc.Deliver(sub)); n != 2 {
		t.Fatalf("refused pushes were delivered: %d", n)
	}
}
