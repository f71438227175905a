package enginetest

import (
	"encoding/json"
	"fmt"

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
