package room25

import (
	"sortie/coach"
	"sortie/engine"
)

// The explainer: what matters now for a seat that must decide, in one
// sentence of the table below, chosen from its view alone (a hint's first
// level, coach.Explainer).

// nudges are the explainer's sentences, by key.
var nudges = map[string]engine.Text{
	"start_look": {
		"en": "Look at a room next to the Central Room before the game begins: what you know keeps your characters alive.",
		"fr": "Regardez une salle voisine de la salle centrale avant le début de la partie\u00a0: ce que vous savez garde vos personnages en vie.",
	},
	"hint": {
		"en": "Tell the others the colour of the room you saw: they cannot look at it themselves this turn, and may step into it.",
		"fr": "Donnez aux autres la couleur de la salle que vous avez vue\u00a0: ils ne peuvent pas la regarder eux-mêmes ce tour-ci, et risquent d’y entrer.",
	},
	"program": {
		"en": "Plan each character’s actions in secret: look at a face-down room before stepping into it, and keep the turns left in mind.",
		"fr": "Programmez en secret les actions de chaque personnage\u00a0: regardez une salle cachée avant d’y entrer, et gardez en tête les tours qui restent.",
	},
	"room25": {
		"en": "Room 25 is found: bring every character onto it, then slide its row or column until it leaves the complex through an exit zone.",
		"fr": "La salle 25 est trouvée\u00a0: réunissez-y tous les personnages, puis faites glisser sa rangée ou sa colonne jusqu’à ce qu’elle sorte du complexe par une zone de sortie.",
	},
	"hurry": {
		"en": "Few turns are left: every action must now bring the group to Room 25 or Room 25 towards an exit zone.",
		"fr": "Il reste peu de tours\u00a0: chaque action doit désormais mener le groupe à la salle 25, ou la salle 25 vers une zone de sortie.",
	},
	"look": {
		"en": "Look at a face-down room you may step into next, or one on a partner’s way.",
		"fr": "Regardez une salle cachée où vous pourriez entrer ensuite, ou une salle sur le chemin d’un partenaire.",
	},
	"move": {
		"en": "Step into a room you know is safe, or one a partner hinted green; a face-down room nobody has seen is a gamble.",
		"fr": "Entrez dans une salle que vous savez sûre, ou qu’un partenaire a indiquée verte\u00a0; une salle cachée que personne n’a vue est un pari.",
	},
	"push": {
		"en": "Push a character out of a dangerous room or nearer Room 25, never into a room you have not seen.",
		"fr": "Poussez un personnage hors d’une salle dangereuse ou plus près de la salle 25, jamais dans une salle que vous n’avez pas vue.",
	},
	"control": {
		"en": "Slide a row or column to move Room 25 towards an exit zone, or a deadly room out of the group’s way; the central row and column never move.",
		"fr": "Faites glisser une rangée ou une colonne pour rapprocher la salle 25 d’une zone de sortie, ou écarter une salle mortelle du chemin du groupe\u00a0; la rangée et la colonne centrales ne bougent jamais.",
	},
	"wait": {
		"en": "Act now, or wait to act last this round when what the others do first decides your best move.",
		"fr": "Agissez maintenant, ou attendez d’agir en dernier dans ce tour si ce que font les autres d’abord décide de votre meilleur choix.",
	},
	"act": {
		"en": "Choose the answer that keeps the group safest and brings it nearer Room 25.",
		"fr": "Choisissez la réponse qui protège le mieux le groupe et le rapproche de la salle 25.",
	},
}

// Explain says what matters now to the seat whose view ev is.
func (Game) Explain(ev engine.View) coach.Nudge {
	say := func(k string) coach.Nudge { return coach.Nudge{Key: k, Text: nudges[k]} }
	v, ok := ev.(View)
	if !ok {
		return say("act")
	}
	if d := v.Decision; d != nil && v.Phase == "action" {
		switch d.Kind {
		case "hint":
			return say("hint")
		case "play_or_wait":
			return say("wait")
		case "target":
			switch d.Token {
			case TokenLook:
				return say("look")
			case TokenMove:
				return say("move")
			case TokenPush:
				return say("push")
			case TokenControl:
				return say("control")
			}
		}
		return say("act")
	}
	switch v.Phase {
	case "start_look":
		return say("start_look")
	case "start_hint":
		return say("hint")
	}
	found := false
	for _, c := range v.Cells {
		found = found || c.FaceUp && c.Room == "room25"
	}
	switch {
	case found:
		return say("room25")
	case v.TurnsLeft <= 2:
		return say("hurry")
	}
	return say("program")
}

// Nudges lists every sentence the explainer may say.
func (Game) Nudges() []coach.Nudge {
	var out []coach.Nudge
	for k, t := range nudges {
		out = append(out, coach.Nudge{Key: k, Text: t})
	}
	return out
}
