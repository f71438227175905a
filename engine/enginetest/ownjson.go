package enginetest

import (
	"encoding/json"
	"fmt"
	"strings"

	"sortie/engine"
)

// OwnJSON checks a view that writes its own JSON (engine.JSONAppender):
// appended after other bytes, as the server appends into its buffers, it
// must be exactly what encoding/json writes. It returns the view's JSON, or
// an error that shows where the two part (usually a field added to a view
// type but not to the game's viewjson.go).
func OwnJSON(v engine.View) (string, error) {
	want, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("the view does not encode: %v", err)
	}
	a, ok := v.(engine.JSONAppender)
	if !ok {
		return "", fmt.Errorf("the view (%T) does not write its own JSON", v)
	}
	got := string(a.AppendJSON([]byte("x"))[1:])
	if got != string(want) {
		return got, fmt.Errorf("the view writes its own JSON unlike encoding/json (a field missing from viewjson.go?): %s",
			diff(string(want), got))
	}
	return got, nil
}

// ViewJSONChecker runs OwnJSON on every audience's view of the states it is
// shown, counts them, and notes which of Optional (fields encoding/json
// leaves out when empty, written as `"name":`) it saw written, so that a
// test can make sure both cases were compared.
type ViewJSONChecker struct {
	Optional []string
	States   int
	seen     map[string]bool
}

// State checks the views of every seat of st and the spectator's.
func (c *ViewJSONChecker) State(st engine.State, players int) error {
	c.States++
	for p := engine.Spectator; int(p) < players; p++ {
		if err := c.View(st.View(p), p.String()); err != nil {
			return err
		}
	}
	return nil
}

// View checks one view, of audience who.
func (c *ViewJSONChecker) View(v engine.View, who string) error {
	got, err := OwnJSON(v)
	if err != nil {
		return fmt.Errorf("the view of %s: %v", who, err)
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	for _, k := range c.Optional {
		if !c.seen[k] && strings.Contains(got, k) {
			c.seen[k] = true
		}
	}
	return nil
}

// Unseen returns the optional fields no checked view has written.
func (c *ViewJSONChecker) Unseen() []string {
	var out []string
	for _, k := range c.Optional {
		if !c.seen[k] {
			out = append(out, k)
		}
	}
	return out
}
