package notify

import (
	"strconv"
	"strings"
)

// The notifications' words, one table per language (texts_en.go,
// texts_fr.go): the web client's are in web/i18n, these are the server's,
// for pushes and e-mails. A text names the game, the players and the
// numbers: never anything of a view, so never a card a seat may not know.

// texts are the sentences of one language.
type texts struct {
	// and joins the last two items of a list ("Alice and Bob").
	and string
	// guest names a seat whose player gave no name.
	guest string

	// "Your turn" of one match: its game; who waits (the other seats'
	// names; none at a table of one).
	turnTitle func(game string) string
	turnBody  func(others []string) string
	// "Your turn" of several: how many; their games (with a count where a
	// game comes more than once).
	turnManyTitle func(n int) string
	turnManyBody  func(games string) string
	// An invitation: the game; who invites.
	inviteTitle func(game string) string
	inviteBody  func(from string) string
	// An end: the game; how it ended.
	endTitle      func(game string) string
	endYouWon     string
	endYouWonWith func(others string) string
	endWon        func(winners []string, joined string) string
	endNobody     string
	endAbandoned  string
	endStopped    string

	// E-mails: the greeting, each line of a list of matches, the footer.
	hello        func(name string) string
	with         func(game, others string) string
	mailTurn     string // before the list of matches waiting
	mailInvites  string // before the list of seats kept
	mailEnd      string // before the link to the match over
	digestTitle  func(turns, invites int) string
	settingsLine string
	unsubLine    string
	signature    string
}

// list joins items as a sentence does: "a, b and c".
func (t *texts) list(items []string) string { return joinList(t.and, items) }

func joinList(and string, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + and + " " + items[len(items)-1]
}

// games lists the games of several matches, a count after a game that
// comes more than once: "Room 25 (2) and Les Évadés".
func (t *texts) games(names []string) string {
	var order []string
	count := map[string]int{}
	for _, n := range names {
		if count[n] == 0 {
			order = append(order, n)
		}
		count[n]++
	}
	out := make([]string, len(order))
	for i, n := range order {
		out[i] = n
		if c := count[n]; c > 1 {
			out[i] += " (" + strconv.Itoa(c) + ")"
		}
	}
	return t.list(out)
}

// textsOf returns the table of a language ("fr" or "en"; English for any
// other).
func textsOf(lang string) *texts {
	if lang == "fr" {
		return &fr
	}
	return &en
}
