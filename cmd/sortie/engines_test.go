package main

import (
	"strings"
	"testing"
)

// serve refuses a --store that is not PostgreSQL and a --bus that is not
// NATS, with a sentence, before opening anything; a password in a URL never
// shows in the message.
func TestServeChecksStoreAndBus(t *testing.T) {
	t.Cleanup(func() {
		// The command's flags outlive a run: leave none set for the
		// tests that come after.
		if serve, _, err := root.Find([]string{"serve"}); err == nil {
			serve.Flags().Set("store", "")
			serve.Flags().Set("bus", "")
			serve.Flags().Set("help", "false")
		}
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--store=mysql://root:hunter2@db/sortie", "--bus="}, "--store takes a PostgreSQL URL"},
		{[]string{"--store=./sortie.db", "--bus="}, "an SQLite file goes in --data"},
		{[]string{"--store=", "--bus=http://nats:4222"}, "--bus takes NATS URLs"},
		{[]string{"--store=", "--bus=nats://a:4222,redis://b"}, `not "redis://b"`},
		{[]string{"--store=postgres://sortie@db/sortie", "--bus=", "--data=/tmp/x.db"}, "not both"},
	} {
		t.Setenv("SORTIE_STORE", "")
		t.Setenv("SORTIE_BUS", "")
		out, err := run(t, nil, append([]string{"serve", "--addr=127.0.0.1:0"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("serve %v: %v (%s), want an error with %q", c.args, err, out, c.want)
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("the password shows: %v", err)
		}
	}
	// From the environment too, and help never shows its password.
	t.Setenv("SORTIE_STORE", "mysql://root:hunter2@db/sortie")
	if _, err := run(t, nil, "serve", "--addr=127.0.0.1:0", "--store=", "--bus="); err == nil || !strings.Contains(err.Error(), "--store takes") {
		t.Fatalf("SORTIE_STORE of MySQL: %v", err)
	}
	if out, _ := run(t, nil, "serve", "--help"); strings.Contains(out, "hunter2") || !strings.Contains(out, "SORTIE_STORE") {
		t.Fatalf("serve --help: %s", out)
	}
}
