// Package web is Sortie's browser client: plain ES modules, SVG and CSS with
// no build step, embedded in the binary and served by `sortie serve` at /.
//
// The lobby (index.html, js/lobby.js) lists the games and matches the server
// offers and creates matches; the match page (js/match.js) is shared by every
// game and draws its board with web/games/<id>.js when the game has one, or
// with a generic board (js/generic.js) that shows the view as data and the
// legal actions as buttons. Every string shown is in i18n/fr.json and
// i18n/en.json.
//
// The client must never compute anything secret: it draws the views and
// events the server sent and nothing else, and it sends actions the server
// judges. This package holds no Go logic beyond serving the files.
package web

import (
	"embed"
	"io/fs"
	"strings"
)

//go:embed index.html style.css js/*.js games/*.js games/*.json pieces/*.js i18n/*.json
var files embed.FS

// Files returns the client's files, index.html at the root. A path under
// play/ (the match page, /play/<match id>, the form of invite links),
// help/ (a game's How to play page, /help/<game id>), players/ (a
// player's profile, /players/<player id>) or leaderboard/ (a game's
// leaderboard, /leaderboard/<game id>), and the pages signin, account
// and friends open index.html, which routes in the browser.
func Files() fs.FS { return spa{files} }

// spa serves index.html for the client's own routes.
type spa struct{ fs.FS }

func (s spa) Open(name string) (fs.File, error) {
	for _, route := range []string{"play/", "help/", "learn/", "players/", "leaderboard/"} {
		if rest, ok := strings.CutPrefix(name, route); ok && rest != "" && !strings.Contains(rest, "/") {
			name = "index.html"
		}
	}
	switch name {
	case "signin", "account", "friends", "learn", "daily":
		name = "index.html"
	}
	return s.FS.Open(name)
}
