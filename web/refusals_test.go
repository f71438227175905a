package web_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sortie/web"
)

// TestRefusalTexts checks that every refusal code a player can meet reads in
// both languages: each game's codes (the constants named code… or Code…
// in games/<id>, and codes written in place in a Refuse call) have a text
// "<game>.error.<code>" or a shared "error.<code>", and the codes of the
// engine, the match package and the server have an "error.<code>". A new
// refusal without its texts fails here, before a French player meets it in
// English.
func TestRefusalTexts(t *testing.T) {
	dicts := readTexts(t)
	games, err := filepath.Glob("../games/*")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	check := func(prefix string, codes []string) {
		for _, code := range codes {
			found++
			for lang, d := range dicts {
				_, own := d[prefix+".error."+code]
				_, shared := d["error."+code]
				if !own && !shared {
					t.Errorf("%s.json has no text for the refusal %q of %s", lang, code, or(prefix, "the server"))
				}
			}
		}
	}
	for _, dir := range games {
		id := filepath.Base(dir)
		if id == "all" {
			continue
		}
		codes := refusalCodes(t, dir)
		if len(codes) == 0 {
			t.Errorf("no refusal code found in %s: has the way codes are written changed?", dir)
		}
		check(id, codes)
	}
	var shared []string
	for _, dir := range []string{"../engine", "../internal/match", "../internal/server", "../internal/account"} {
		shared = append(shared, refusalCodes(t, dir)...)
	}
	check("", shared)
	if found < 150 {
		t.Errorf("only %d refusal codes found", found)
	}
}

var (
	codeConst   = regexp.MustCompile(`(?m)^\s*[cC]ode[A-Z]\w*\s*(?:[A-Za-z.]+\s*)?=\s*"([a-z_]+)"`)
	codeInPlace = regexp.MustCompile(`\b[rR]efuse\(\s*"([a-z_]+)"`)
)

// refusalCodes lists the refusal codes written in the Go files of dir
// (tests aside).
func refusalCodes(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range []*regexp.Regexp{codeConst, codeInPlace} {
			for _, m := range re.FindAllSubmatch(b, -1) {
				seen[string(m[1])] = true
			}
		}
	}
	var out []string
	for c := range seen {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// readTexts reads the client's languages: lang → key → text.
func readTexts(t *testing.T) map[string]map[string]string {
	t.Helper()
	dicts := map[string]map[string]string{}
	for _, lang := range []string{"en", "fr"} {
		b, err := fs.ReadFile(web.Files(), "i18n/"+lang+".json")
		if err != nil {
			t.Fatal(err)
		}
		var d map[string]string
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s.json: %v", lang, err)
		}
		for _, k := range twice(t, b) {
			t.Errorf("%s.json holds %q twice: the browser keeps the last, and the first is dead text", lang, k)
		}
		dicts[lang] = d
	}
	return dicts
}

// twice returns the keys a dictionary's one object holds more than once.
func twice(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var dup []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if key := k.(string); seen[key] {
			dup = append(dup, key)
		} else {
			seen[key] = true
		}
	}
	return dup
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
