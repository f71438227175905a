package notify

import "strconv"

// (Typography: a no-break space before « : ? ! ; », the typographic
// apostrophe, as the web client writes French.)
var fr = texts{
	and:   "et",
	guest: "un invité",

	turnTitle: func(game string) string { return "À vous de jouer\u00a0: " + game },
	turnBody: func(others []string) string {
		switch len(others) {
		case 0:
			return "La partie vous attend."
		case 1:
			return others[0] + " vous attend."
		}
		return joinList("et", others) + " vous attendent."
	},
	turnManyTitle: func(n int) string { return "À vous de jouer dans " + strconv.Itoa(n) + " parties" },
	turnManyBody:  func(games string) string { return games + "." },
	inviteTitle:   func(game string) string { return "Invitation\u00a0: " + game },
	inviteBody: func(from string) string {
		return from + " vous réserve une place. Acceptez-la ou refusez-la dans Mes parties."
	},
	endTitle:      func(game string) string { return "Partie terminée\u00a0: " + game },
	endYouWon:     "Vous avez gagné.",
	endYouWonWith: func(others string) string { return "Vous avez gagné, avec " + others + "." },
	endWon: func(winners []string, joined string) string {
		if len(winners) == 1 {
			return joined + " a gagné."
		}
		return joined + " ont gagné."
	},
	endNobody:    "Personne n’a gagné.",
	endAbandoned: "Abandonnée\u00a0: personne n’a joué depuis trop longtemps.",
	endStopped:   "Elle a été arrêtée avant la fin.",

	hello:       func(name string) string { return "Bonjour " + name + "," },
	with:        func(game, others string) string { return game + " avec " + others },
	mailTurn:    "C’est à vous de jouer\u00a0:",
	mailInvites: "Des places vous sont réservées\u00a0:",
	mailEnd:     "Le replay, et votre bilan dès qu’il est prêt\u00a0:",
	digestTitle: func(turns, invites int) string {
		switch {
		case turns == 1 && invites == 0:
			return "À vous de jouer dans une partie"
		case invites == 0:
			return "À vous de jouer dans " + strconv.Itoa(turns) + " parties"
		case turns == 0 && invites == 1:
			return "Une place vous est réservée"
		case turns == 0:
			return strconv.Itoa(invites) + " places vous sont réservées"
		}
		return "Vos parties vous attendent"
	},
	settingsLine: "Choisissez ce que Sortie vous signale, et comment\u00a0:",
	unsubLine:    "Ne plus recevoir d’e-mails de Sortie, en un clic\u00a0:",
	signature:    "— Sortie",
}
