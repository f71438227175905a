package term

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"sortie/internal/proofread"
)

// The message format and the grammar where a value meets the words before
// it, in French and English.
func TestMessageFormat(t *testing.T) {
	ana := phrase{text: "Ana", you: true}
	alice, bob := phrase{text: "Alice"}, phrase{text: "Bob"}
	bimbo, savant := phrase{text: "la Bimbo", gender: "f"}, phrase{text: "le Savant", gender: "m"}
	for _, tc := range []struct {
		lang, text string
		params     p
		want       string
	}{
		{"fr", "La tuile de {seat} tombe.", p{"seat": alice}, "La tuile d’Alice tombe."},
		{"fr", "La tuile de {seat} tombe.", p{"seat": bob}, "La tuile de Bob tombe."},
		{"fr", "Il dit que {x} ment.", p{"x": "Émile"}, "Il dit qu’Émile ment."},
		{"fr", "Il dit que {x} ment.", p{"x": "Yves"}, "Il dit qu’Yves ment."},
		{"fr", "Il dit que {x} ment.", p{"x": "Yann"}, "Il dit que Yann ment."},
		{"fr", "Il dit que {x} ment.", p{"x": "Hugo"}, "Il dit qu’Hugo ment."},
		{"fr", "{card} va à {seat}.", p{"card": "Bouclier", "seat": "le centre"}, "Bouclier va au centre."},
		{"fr", "Il passe de {a} à {b}.", p{"a": "le couloir nord", "b": "les égouts"}, "Il passe du couloir nord aux égouts."},
		{"fr", "Il rampe jusqu’à {a}.", p{"a": "le couloir nord"}, "Il rampe jusqu’au couloir nord."},
		{"fr", "De {a} au toit.", p{"a": "le couloir"}, "Du couloir au toit."},
		{"fr", "La balise de {char} revient.", p{"char": bimbo}, "La balise de la Bimbo revient."},
		{"fr", "La balise de {char} revient.", p{"char": savant}, "La balise du Savant revient."},
		{"fr", "{Char} est {char, select, f {programmée} other {programmé}}.", p{"char": bimbo}, "La Bimbo est programmée."},
		{"fr", "{Char} est {char, select, f {programmée} other {programmé}}.", p{"char": savant}, "Le Savant est programmé."},
		{"fr", "{seat, select, you {Vous posez une tuile.} other {{Seat} pose une tuile.}}", p{"seat": ana}, "Vous posez une tuile."},
		{"fr", "{seat, select, you {Vous posez une tuile.} other {{Seat} pose une tuile.}}", p{"seat": alice}, "Alice pose une tuile."},
		{"fr", "{c, select, black {noire} other {orange}}", p{"c": "black"}, "noire"},
		{"fr", "{c, select, black {noire} other {orange}}", p{"c": "orange"}, "orange"},
		{"en", "{name} draws a {colour} token.", p{"name": bob, "colour": "orange"}, "Bob draws an orange token."},
		{"en", "{name} draws a {colour} token.", p{"name": bob, "colour": "black"}, "Bob draws a black token."},
		{"en", "It is a {x}.", p{"x": "uniform"}, "It is a uniform."},
		{"en", "{seat}’s tile", p{"seat": alice}, "Alice’s tile"},
		{"en", "Missing {x} and {Y}.", p{}, "Missing {x} and {Y}."},
		{"en", "Not a message {x", p{"x": 1}, "Not a message {x"},
	} {
		if got := format(tc.text, tc.params, tc.lang); got != tc.want {
			t.Errorf("%s %q %v:\n got %q\nwant %q", tc.lang, tc.text, tc.params, got, tc.want)
		}
	}
	fr, _ := newTexts("fr")
	en, _ := newTexts("en")
	for _, tc := range []struct {
		got, want string
	}{
		{pluralOf(0, "fr"), "one"}, {pluralOf(1, "fr"), "one"}, {pluralOf(1.5, "fr"), "one"}, {pluralOf(2, "fr"), "other"},
		{pluralOf(1e6, "fr"), "many"}, {pluralOf(0, "en"), "other"}, {pluralOf(1, "en"), "one"}, {pluralOf(2, "en"), "other"},
		{fr.people([]phrase{bob, ana}).text, "Bob et vous"},
		{en.people([]phrase{ana}).text, "you"},
		{en.people([]phrase{alice, bob, phrase{text: "Chloé"}}).text, "Alice, Bob and Chloé"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}

// messageCase is one text to write in the test of every message: t(key,
// params), or tn(key, count, params) for a family of plural keys.
type messageCase struct {
	Lang   string         `json:"lang"`
	Key    string         `json:"key"`
	Count  *int           `json:"count,omitempty"`
	Params map[string]any `json:"params"`
}

// MarshalJSON writes a phrase for the page as {"$phrase": …}.
func (ph phrase) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"$phrase": map[string]any{"text": ph.text, "gender": ph.gender, "you": ph.you}})
}

// Every message of the web page and the terminal, in French and English,
// written with sample values (names that start with a vowel or a
// consonant, the reader, both genders, counts 0, 1 and 2) reads the same
// from the web page's t (in Chromium) and the terminal's, and none of it
// has a slip a careful reader would correct (internal/proofread).
func TestEveryMessageReadsRight(t *testing.T) {
	var cases []messageCase
	for _, lang := range Langs {
		tx, err := newTexts(lang)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, messageCases(t, tx)...)
	}
	mine := make([]string, len(cases))
	texts := map[string]*texts{}
	for i, c := range cases {
		tx := texts[c.Lang]
		if tx == nil {
			tx, _ = newTexts(c.Lang)
			texts[c.Lang] = tx
		}
		if c.Count != nil {
			mine[i] = tx.tn(c.Key, *c.Count, c.Params)
		} else {
			mine[i] = tx.t(c.Key, c.Params)
		}
	}
	bad := 0
	for i, c := range cases {
		// A help page's text that continues its name in bold ("Green
		// rooms" then "(a circle) are safe…") may start with a small letter.
		o := proofread.Options{Written: texts[c.Lang].family(c.Key), Sentence: !texts[c.Lang].has(c.Key + ".name")}
		for _, slip := range proofread.Slips(c.Lang, mine[i], o) {
			if bad++; bad <= 2000 {
				t.Errorf("%s %s %s: %s:\n  %q", c.Lang, c.Key, paramsText(c), slip, mine[i])
			}
		}
	}
	if bad > 2000 {
		t.Errorf("… and %d more slips", bad-2000)
	}
	// The web page writes the same texts (the terminal's own keys, term.*,
	// are not on the page).
	var web []messageCase
	var idx []int
	for i, c := range cases {
		if !strings.HasPrefix(c.Key, "term.") {
			web = append(web, c)
			idx = append(idx, i)
		}
	}
	ctx := webPage(t)
	in, err := json.Marshal(web)
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`(async () => {
  const cases = %s;
  const i18n = await import('/js/i18n.js');
  await i18n.initI18n();
  const revive = (ps) => Object.fromEntries(Object.entries(ps).map(([k, v]) =>
    [k, v && v.$phrase ? i18n.phrase(v.$phrase.text, {gender: v.$phrase.gender, you: v.$phrase.you}) : v]));
  const out = [];
  for (const c of cases) {
    if (i18n.getLang() !== c.lang) i18n.setLang(c.lang);
    out.push(c.count != null ? i18n.tn(c.key, c.count, revive(c.params)) : i18n.t(c.key, revive(c.params)));
  }
  return out;
})()`, in)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(web) {
		t.Fatalf("the page wrote %d texts for %d cases", len(got), len(web))
	}
	differ := 0
	for j, c := range web {
		if got[j] != mine[idx[j]] {
			if differ++; differ <= 20 {
				t.Errorf("%s %s %s:\nweb:      %q\nterminal: %q", c.Lang, c.Key, paramsText(c), got[j], mine[idx[j]])
			}
		}
	}
	t.Logf("%d texts written, %d compared with the web page's", len(cases), len(web))
}

// family is the texts of key, or of the family of plural keys key.*.
func (x *texts) family(key string) []string {
	if s, ok := x.d[key]; ok {
		return []string{s}
	}
	var out []string
	for _, cat := range []string{"zero", "one", "two", "few", "many", "other"} {
		if s, ok := x.d[key+"."+cat]; ok {
			out = append(out, s)
		}
	}
	return out
}

func paramsText(c messageCase) string {
	var parts []string
	if c.Count != nil {
		parts = append(parts, fmt.Sprintf("n=%d", *c.Count))
	}
	for k, v := range c.Params {
		s := jsString(v)
		if ph, ok := v.(phrase); ok && ph.you {
			s += " (you)"
		}
		parts = append(parts, k+"="+s)
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, ", ") + "}"
}

// messageCases writes the cases of one language: each key (each family of
// plural keys once, at 0, 1 and 2) with every parameter at its first
// sample value, then each parameter through its other samples in turn.
func messageCases(t *testing.T, tx *texts) []messageCase {
	t.Helper()
	keys := make([]string, 0, len(tx.d))
	for k := range tx.d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	plural := regexp.MustCompile(`\.(zero|one|two|few|many|other)$`)
	done := map[string]bool{}
	// A family of plural keys ends with other, which every category lacks
	// falls back to.
	for _, key := range keys {
		if base, ok := strings.CutSuffix(key, ".one"); ok {
			if _, ok := tx.d[base+".other"]; !ok {
				t.Errorf("%s: %s has no %s.other", tx.lang, key, base)
			}
		}
	}
	var out []messageCase
	for _, key := range keys {
		base, texts := key, []string{tx.d[key]}
		counted := false
		if m := plural.FindStringIndex(key); m != nil {
			if _, ok := tx.d[key[:m[0]]+".other"]; ok {
				base, counted = key[:m[0]], true
				if done[base] {
					continue
				}
				done[base] = true
				texts = nil
				for _, cat := range []string{"zero", "one", "two", "few", "many", "other"} {
					if s, ok := tx.d[base+"."+cat]; ok {
						texts = append(texts, s)
					}
				}
			}
		}
		names, selected := map[string]bool{}, map[string]bool{}
		for _, s := range texts {
			parts, err := parseMessage(s)
			if err != nil {
				t.Errorf("%s %s: %v", tx.lang, key, err)
				continue
			}
			placeholders(parts, names, selected)
		}
		if counted {
			delete(names, "n")
		}
		var order []string
		for n := range names {
			order = append(order, n)
		}
		sort.Strings(order)
		first := map[string]any{}
		values := map[string][]any{}
		for _, n := range order {
			// The reader is named "you" only where the text chooses its
			// words for the reader (a select).
			for _, v := range samples(tx, base, n) {
				if ph, ok := v.(phrase); ok && ph.you && !selected[n] {
					continue
				}
				values[n] = append(values[n], v)
			}
			first[n] = values[n][0]
		}
		counts := []*int{nil}
		if counted {
			counts = nil
			for _, n := range []int{0, 1, 2} {
				counts = append(counts, &n)
			}
		}
		for _, n := range counts {
			out = append(out, messageCase{Lang: tx.lang, Key: base, Count: n, Params: first})
		}
		for _, n := range order {
			for _, v := range values[n][1:] {
				ps := map[string]any{}
				for k, x := range first {
					ps[k] = x
				}
				ps[n] = v
				out = append(out, messageCase{Lang: tx.lang, Key: base, Count: counts[len(counts)-1], Params: ps})
			}
		}
	}
	return out
}

// placeholders notes the names of a text's placeholders, and those a select
// chooses by.
func placeholders(parts []part, names, selected map[string]bool) {
	for _, pt := range parts {
		if pt.name != "" {
			names[pt.name] = true
		}
		if pt.arms != nil {
			selected[pt.name] = true
		}
		for _, a := range pt.arms {
			placeholders(a.parts, names, selected)
		}
	}
}

// samples are the values a parameter takes in the test of every message:
// what the code gives it, written from the dictionary where the code
// writes it from the dictionary.
func samples(tx *texts, key, name string) []any {
	game, _, _ := strings.Cut(key, ".")
	if strings.HasPrefix(key, "tip.") || strings.HasPrefix(key, "term.") {
		game, _, _ = strings.Cut(strings.SplitN(key, ".", 2)[1], ".")
	}
	from := func(prefix string, ids ...string) []any {
		var out []any
		for _, id := range ids {
			out = append(out, tx.t(prefix+id))
		}
		return out
	}
	people := []any{phrase{text: "Alice"}, phrase{text: "Bob"}, phrase{text: "Ana", you: true}, phrase{text: "Émile"}}
	lists := []any{tx.people([]phrase{{text: "Alice"}}), tx.people([]phrase{{text: "Bob"}, {text: "Émile"}}),
		tx.people([]phrase{{text: "Ana", you: true}}), tx.people([]phrase{{text: "Bob"}, {text: "Ana", you: true}})}
	numbers := []any{2, 0, 1}
	switch {
	case game == "outran" && name == "a" && strings.Contains(key, "detour"), game == "evades" && key == "evades.slots":
		return numbers
	case game == "evades" && (key == "evades.planBoth" || key == "evades.planEither"):
		return from("evades.obj.", "phone", "money", "gas_mask")
	case game == "evades" && (name == "a" || name == "b"):
		return from("evades.the.", "cell", "ring_n", "lobby_s")
	}
	switch name {
	case "seat", "name", "starter", "holder", "target", "winner":
		if game == "pds" && name == "target" {
			return numbers
		}
		if key == "outran.ev.drew_face_up" && name == "seat" {
			return append(people, tx.t("outran.centre")) // a card goes to the Vampire's centre
		}
		return people
	case "from", "to":
		switch game {
		case "evades":
			if strings.HasPrefix(key, "evades.ev.cards_moved") {
				return people
			}
			return from("evades.the.", "cell", "ring_n", "lobby_s", "wing_ne", "room_sw", "exit_sewer", "exit_roof")
		case "temple":
			if key == "temple.ev.die_given" {
				return people
			}
			return []any{tx.t("temple.the.basic", p{"n": 4}), tx.t("temple.the.start"), tx.t("temple.the.exit"), tx.t("temple.the.gem", p{"n": 2})}
		}
		return people
	case "names", "others", "joined":
		return lists
	case "char":
		var out []any
		for _, c := range []string{"scientist", "bimbo", "little_girl", "handsome"} {
			out = append(out, phrase{text: tx.t("room25.char." + c), gender: tx.t("room25.char." + c + ".gender")})
		}
		return out
	case "dir":
		if game == "room25" {
			return from("room25.dir.", "up", "left")
		}
		return from("pds.dir.", "0", "1", "2", "3")
	case "colour":
		if game == "evades" {
			return []any{"orange", "black"}
		}
		return from("room25.colour.", "green", "red", "none")
	case "room":
		if game == "evades" {
			return from("evades.the.", "room_ne", "room_sw")
		}
		return from("room25.the.", "vision", "room25", "acid", "central")
	case "area", "exit":
		return from("evades.the.", "cell", "ring_w", "lobby_e", "exit_parking", "exit_pier")
	case "cell", "a", "b":
		if game == "room25" {
			return []any{tx.t("room25.cell", p{"row": 2, "col": 3})}
		}
		if game == "outran" {
			return from("outran.tok.", "ne", "w", "spin")
		}
		return []any{tx.t("evades.the.cell"), tx.t("evades.the.hall_e")}
	case "card":
		switch game {
		case "outran":
			return from("outran.card.", "shield", "express", "reverse")
		case "evades":
			return from("evades.pp.", "vol", "epreuve_de_force", "chantage")
		case "pds":
			return from("pds.id.", "floor_initial", "danger_rotate_cw")
		}
		return from("evades.card.", "file", "screwdriver", "uniform", "joker")
	case "face", "other":
		if game == "temple" {
			return from("temple.face.", "torch", "adventurer", "gold_mask")
		}
		return from("evades.card.", "file", "uniform", "joker")
	case "character":
		return from("pds.theChar.", "runner", "elder", "wheelchair", "child")
	case "token", "tok":
		switch game {
		case "evades":
			return from("evades.tok.", "badge", "vent", "camera")
		case "outran":
			return from("outran.tok.", "ne", "spin")
		}
		return from("room25.tok.", "look", "move", "control")
	case "line":
		return []any{tx.t("room25.line.row", p{"n": 2}), tx.t("room25.line.col", p{"n": 4})}
	case "role":
		return from("room25.role.", "guard", "prisoner")
	case "cause":
		if game == "evades" {
			return from("evades.cause.", "vent", "guzman", "motion_detector")
		}
		bimbo := phrase{text: tx.t("room25.char.bimbo"), gender: tx.t("room25.char.bimbo.gender")}
		return []any{tx.t("room25.cause.deadly"), tx.t("room25.cause.drowned", p{"char": bimbo})}
	case "reason":
		return from("room25.lost.", "no_one_to_push", "dark_room")
	case "object", "objects":
		return from("evades.theObj.", "phone", "money", "diving_gear")
	case "chamber", "tile":
		if game == "pds" {
			return []any{tx.t("pds.type.straight") + " (" + tx.t("pds.char.elder") + ")"}
		}
		return []any{tx.t("temple.the.basic", p{"n": 4}), tx.t("temple.the.exit"), tx.t("temple.the.start")}
	case "curse":
		return from("temple.curse.", "trap", "silence")
	case "treasure":
		return from("temple.treasure.", "double_torch", "extra_gem")
	case "side":
		return from("temple.side.", "N", "E", "W")
	case "monster":
		return from("outran.monster.", "bear", "vampire")
	case "symbol":
		return from("temple.face.", "torch", "key")
	case "game":
		return []any{"Room 25", "Les Évadés", "Escape"}
	case "door":
		return []any{tx.t("evades.door", p{"n": 7})}
	case "doors":
		return []any{tx.list([]string{tx.t("evades.door", p{"n": 7}), tx.t("evades.door", p{"n": 12})})}
	case "time", "wait", "after", "grace":
		return []any{tx.duration(90000), tx.duration(2500)}
	case "s":
		return []any{tx.num(9.6, 1), 3}
	case "list", "cards", "tokens", "faces", "reasons", "plans", "pay", "tiers", "cost", "what", "status", "top", "dice", "action", "seats", "level", "team", "example", "id", "value", "l":
		return []any{"orange", "lime"}
	}
	return numbers
}
