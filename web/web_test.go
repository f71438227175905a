package web_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sortie/web"
)

// TestFiles checks what the binary serves: the page at / and at the match
// page's address (the form of invite links), at a profile's, at the pages
// of accounts, the tutorials' and today's challenge's, the modules with a
// JavaScript type, the languages.
func TestFiles(t *testing.T) {
	srv := httptest.NewServer(http.FileServerFS(web.Files()))
	defer srv.Close()
	for path, want := range map[string]string{
		"/":                         "text/html",
		"/play/AbC-12_x":            "text/html",
		"/play/AbC-12_x?seat=1":     "text/html",
		"/players/Wrj-UeIfEXhG":     "text/html",
		"/signin":                   "text/html",
		"/account":                  "text/html",
		"/account/notifications":    "text/html",
		"/friends":                  "text/html",
		"/learn":                    "text/html",
		"/learn/temple":             "text/html",
		"/daily":                    "text/html",
		"/js/app.js":                "javascript",
		"/games/plandesecours.js":   "javascript",
		"/i18n/fr.json":             "application/json",
		"/style.css":                "text/css",
		"/games/evades.layout.json": "application/json",
	} {
		r, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Type"), want) {
			t.Errorf("GET %s: %d %s, want 200 %s", path, r.StatusCode, r.Header.Get("Content-Type"), want)
		}
		if want == "text/html" && !strings.Contains(string(body), `<script type="module" src="/js/app.js">`) {
			t.Errorf("GET %s is not the client's page", path)
		}
	}
	for _, path := range []string{"/play/a/b", "/players/a/b", "/accounts", "/learn/a/b", "/dailies"} {
		if r, err := http.Get(srv.URL + path); err == nil {
			r.Body.Close()
			if r.StatusCode != 404 {
				t.Errorf("GET %s: %d, want 404", path, r.StatusCode)
			}
		}
	}
}

// TestTexts checks the languages: French and English have the same keys,
// no text is empty, and every key the client names literally exists (t()
// with the key, tn() with key.one and key.other).
func TestTexts(t *testing.T) {
	dicts := readTexts(t)
	for lang, d := range dicts {
		for k, v := range d {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s.json: %s is empty", lang, k)
			}
		}
	}
	for k := range dicts["en"] {
		if _, ok := dicts["fr"][k]; !ok {
			t.Errorf("fr.json lacks %s", k)
		}
	}
	for k := range dicts["fr"] {
		if _, ok := dicts["en"][k]; !ok {
			t.Errorf("en.json lacks %s", k)
		}
	}
	call := regexp.MustCompile(`\b(t|tn)\('([a-zA-Z0-9_.]+)'`)
	var missing []string
	err := fs.WalkDir(web.Files(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
			return err
		}
		b, err := fs.ReadFile(web.Files(), path)
		if err != nil {
			return err
		}
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			key := m[2]
			if strings.HasSuffix(key, ".") {
				continue // a key completed at run time
			}
			keys := []string{key}
			if m[1] == "tn" {
				keys = []string{key + ".one", key + ".other"}
			}
			for _, k := range keys {
				if _, ok := dicts["en"][k]; !ok {
					missing = append(missing, path+": "+k)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("no text for %s", m)
	}
}
