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
//
// The service worker (sw.js) makes the client an installable app: it shows
// the notifications the server pushes and, when the server cannot be
// reached, an offline page (offline.html, which carries its own French and
// English, since it must stand without the client). It keeps no copy of
// any other page, so a board is never shown stale as if it were live.
package web

import (
	"embed"
	"io/fs"
	"mime"
	"strings"
)

//go:embed index.html style.css js/*.js games/*.js games/*.json pieces/*.js i18n/*.json
//go:embed manifest.webmanifest sw.js offline.html offline.css offline.js icons/*
var files embed.FS

func init() {
	// The manifest's type, which Go's own table lacks and a machine's
	// /etc/mime.types may too: browsers want it to install the app.
	_ = mime.AddExtensionType(".webmanifest", "application/manifest+json")
}

// Files returns the client's files, index.html at the root. A path under
// play/ (the match page, /play/<match id>, the form of invite links),
// help/ (a game's How to play page, /help/<game id>), learn/ (a game's
// tutorial, /learn/<game id>), players/ (a player's profile, /players/<player
// id>) or leaderboard/ (a game's leaderboard, /leaderboard/<game id>), and
// the pages signin, account, account/notifications, friends, learn (the
// tutorials) and daily (today's challenge) open index.html, which routes in
// the browser. The web app's manifest (manifest.webmanifest), icons (icons/),
// service worker (sw.js) and the offline page it shows (offline.html) are
// served as they are.
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
	case "signin", "account", "account/notifications", "friends", "learn", "daily":
		name = "index.html"
	}
	return s.FS.Open(name)
}
