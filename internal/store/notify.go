// Notifications: what the server needs to tell players things while they are
// away (internal/notify): each browser's Web Push subscription, each
// account's notification settings, and the server-wide secrets every node
// shares (the VAPID key pair that signs pushes, the key that signs
// unsubscribe links). [Notifications] is another interface of the same
// stores, asserted as [Accounts] is. The notifications themselves are jobs
// ([Jobs]) of the kind the notify package names, keyed "<account>:…": a
// deleted account's are deleted with it.

package store

import (
	"context"
	"time"
)

// PushSubscription is one browser's Web Push subscription (RFC 8030's push
// resource, RFC 8291's keys), kept for the account signed in there.
type PushSubscription struct {
	// ID names it in the account's list of devices: 12 characters of
	// [A-Za-z0-9_-], given by the caller.
	ID      string
	Account string
	// Endpoint is the push resource's URL, on a push service; at most one
	// subscription has a given endpoint.
	Endpoint string
	// P256dh and Auth are the browser's keys, base64url as the Push API
	// gives them: public, but of use to nobody else than the server.
	P256dh string
	Auth   string
	// Label is what the device is called in the list ("Firefox on
	// Android"), at most 60 characters.
	Label   string
	Created time.Time
}

// Notifications keeps Web Push subscriptions, notification settings and
// the server's secrets. Every method is safe for concurrent use; a write
// that returned nil is durable.
type Notifications interface {
	// Secret returns the server-wide secret named name, storing value as it
	// if there is none yet: the first node to ask sets it for every node.
	Secret(ctx context.Context, name string, value []byte) ([]byte, error)

	// AddPushSubscription keeps p. A subscription of the same endpoint (of
	// any account: a browser now signed in to another) is replaced by it;
	// an account past max subscriptions loses its oldest. An unknown
	// account is an [ErrNoAccount].
	AddPushSubscription(ctx context.Context, p *PushSubscription, max int) error
	// PushSubscriptions returns an account's subscriptions, oldest first.
	PushSubscriptions(ctx context.Context, account string) ([]*PushSubscription, error)
	// DeletePushSubscription deletes the account's subscription of that id
	// ([ErrNotFound] if it has none).
	DeletePushSubscription(ctx context.Context, account, id string) error
	// DropPushEndpoint deletes the subscription of an endpoint, whoever's
	// it is (its push service said it is gone); none is no error.
	DropPushEndpoint(ctx context.Context, endpoint string) error

	// NotifySettings returns an account's settings as the notify package
	// wrote them (opaque here), or nil if it never saved any.
	NotifySettings(ctx context.Context, account string) ([]byte, error)
	// PutNotifySettings keeps an account's settings ([ErrNoAccount] for an
	// unknown account).
	PutNotifySettings(ctx context.Context, account string, settings []byte) error
}
