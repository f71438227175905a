package main

import (
	"encoding/json"
	"errors"
	"strconv"

	"sortie/engine"
	"sortie/engine/jsonw"
	"sortie/internal/match"
	"sortie/internal/store"
)

// loadMsg is the part of a server message the load clients read. View,
// Patch and the legal actions are slices of the message read, not copies.
type loadMsg struct {
	Type   string            `json:"type"`
	Seq    uint64            `json:"seq"`
	Ack    *uint64           `json:"ack"`
	Status store.Status      `json:"status"`
	Clock  engine.Millis     `json:"clock"`
	Actors []int             `json:"actors"`
	View   json.RawMessage   `json:"view"`
	Patch  json.RawMessage   `json:"patch"`
	Drop   []string          `json:"drop"`
	Legal  []json.RawMessage `json:"legal"`
	Error  *match.Error      `json:"error"`
}

var errNotObject = errors.New("loadtest: the server sent something that is not a JSON object")

// readLoadMsg reads what the load clients need of a message, cheaply, so
// that the clients leave the machine's cores to the server: the top-level
// members are found by skipping over their values (the view and the events
// are not decoded), and only an error is decoded in full. The server wrote
// the message, so it is trusted to be valid JSON with plain keys.
func readLoadMsg(b []byte) (loadMsg, error) {
	var m loadMsg
	var err error
	ok := jsonMembers(b, func(key, val []byte) bool {
		switch string(key) {
		case "type":
			m.Type = string(unquote(val))
		case "seq":
			m.Seq, err = strconv.ParseUint(string(val), 10, 64)
		case "ack":
			var ack uint64
			ack, err = strconv.ParseUint(string(val), 10, 64)
			m.Ack = &ack
		case "status":
			m.Status = store.Status(unquote(val))
		case "clock":
			var c int64
			c, err = strconv.ParseInt(string(val), 10, 64)
			m.Clock = engine.Millis(c)
		case "actors":
			m.Actors = []int{}
			jsonElements(val, func(e []byte) bool {
				var n int
				n, err = strconv.Atoi(string(e))
				m.Actors = append(m.Actors, n)
				return err == nil
			})
		case "view":
			m.View = val
		case "patch":
			m.Patch = val
		case "drop":
			jsonElements(val, func(e []byte) bool {
				m.Drop = append(m.Drop, string(unquote(e)))
				return true
			})
		case "legal":
			jsonElements(val, func(e []byte) bool {
				m.Legal = append(m.Legal, e)
				return true
			})
		case "error":
			m.Error = new(match.Error)
			err = json.Unmarshal(val, m.Error)
		}
		return err == nil
	})
	if err == nil && !ok {
		err = errNotObject
	}
	return m, err
}

// jsonMembers calls fn with the key and the raw value of each member of the
// JSON object b, in order, until fn returns false. Keys are given without
// their quotes, unescaped: the server's keys hold no escapes. It reports
// false if b is not an object it could walk through.
func jsonMembers(b []byte, fn func(key, val []byte) bool) bool {
	i := jsonw.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = jsonw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end := jsonw.SkipString(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		i = jsonw.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = jsonw.SkipSpace(b, i+1)
		end = jsonw.SkipValue(b, i)
		if end <= i {
			return false
		}
		if !fn(key, b[i:end]) {
			return true
		}
		i = jsonw.SkipSpace(b, end)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return true
		}
		if b[i] != ',' {
			return false
		}
		i = jsonw.SkipSpace(b, i+1)
	}
	return false
}

// jsonElements calls fn with each raw element of the JSON array b until fn
// returns false.
func jsonElements(b []byte, fn func(elem []byte) bool) {
	i := jsonw.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return
	}
	i = jsonw.SkipSpace(b, i+1)
	for i < len(b) && b[i] != ']' {
		end := jsonw.SkipValue(b, i)
		if end <= i || !fn(b[i:end]) {
			return
		}
		i = jsonw.SkipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = jsonw.SkipSpace(b, i+1)
		}
	}
}

// unquote returns the inside of a JSON string without escapes.
func unquote(b []byte) []byte {
	if len(b) >= 2 && b[0] == '"' {
		return b[1 : len(b)-1]
	}
	return b
}
