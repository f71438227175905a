package notify

import "strconv"

var en = texts{
	and:   "and",
	guest: "a guest",

	turnTitle: func(game string) string { return "Your turn: " + game },
	turnBody: func(others []string) string {
		switch len(others) {
		case 0:
			return "The match is waiting for you."
		case 1:
			return others[0] + " is waiting for you."
		}
		return joinList("and", others) + " are waiting for you."
	},
	turnManyTitle: func(n int) string { return "Your turn in " + strconv.Itoa(n) + " matches" },
	turnManyBody:  func(games string) string { return games + "." },
	inviteTitle:   func(game string) string { return "Invitation: " + game },
	inviteBody:    func(from string) string { return from + " keeps a seat for you. Take it or decline it in My games." },
	endTitle:      func(game string) string { return "Match over: " + game },
	endYouWon:     "You won.",
	endYouWonWith: func(others string) string { return "You won, with " + others + "." },
	endWon: func(winners []string, joined string) string {
		return joined + " won."
	},
	endNobody:    "Nobody won.",
	endAbandoned: "Abandoned: nobody played for too long.",
	endStopped:   "It was stopped before its end.",

	hello:       func(name string) string { return "Hello " + name + "," },
	with:        func(game, others string) string { return game + " with " + others },
	mailTurn:    "It is your turn in:",
	mailInvites: "Seats kept for you:",
	mailEnd:     "The replay, and your review once it is ready:",
	digestTitle: func(turns, invites int) string {
		switch {
		case turns == 1 && invites == 0:
			return "Your turn in a match"
		case invites == 0:
			return "Your turn in " + strconv.Itoa(turns) + " matches"
		case turns == 0 && invites == 1:
			return "A seat is kept for you"
		case turns == 0:
			return strconv.Itoa(invites) + " seats are kept for you"
		}
		return "Your matches are waiting for you"
	},
	settingsLine: "Choose what Sortie tells you, and how:",
	unsubLine:    "No more e-mails from Sortie, in one click:",
	signature:    "— Sortie",
}
