package evades

import (
	"sortie/coach"
	"sortie/engine"
)

// The explainer: what matters now for a seat that must decide, in one
// sentence of the table below, chosen from its view alone (a hint's first
// level, coach.Explainer).

// nudges are the explainer's sentences, by key.
var nudges = map[string]engine.Text{
	"draw": {
		"en": "Take the cards the doors around you ask for: two from the row when they match, two blind otherwise. A Pass-Pass card is a gamble.",
		"fr": "Prenez les cartes que demandent les portes autour de vous\u00a0: deux de la rangée si elles correspondent, sinon deux à l’aveugle. Une carte Pass-Pass est un pari.",
	},
	"move": {
		"en": "Cross the doors your hand pays for, towards a common room that holds your plan’s object; end your turn when the next door costs more than you hold.",
		"fr": "Franchissez les portes que votre main paie, vers une salle commune qui abrite l’objet de votre plan\u00a0; finissez votre tour quand la porte suivante coûte plus que ce que vous avez.",
	},
	"exit": {
		"en": "You carry what your plan needs: head for your exit, and cross it as soon as your hand pays for it.",
		"fr": "Vous portez ce qu’exige votre plan\u00a0: filez vers votre sortie, et franchissez-la dès que votre main la paie.",
	},
	"discard": {
		"en": "Keep the jokers and the cards your next doors ask for; let go of what your route does not need.",
		"fr": "Gardez les jokers et les cartes que demandent vos prochaines portes\u00a0; lâchez ce dont votre route n’a pas besoin.",
	},
	"give": {
		"en": "Give the cards you need least: kinds that no door of your route shows.",
		"fr": "Donnez les cartes dont vous avez le moins besoin\u00a0: celles qu’aucune porte de votre route ne demande.",
	},
	"blackmail": {
		"en": "Two cards or your next turn: a turn brings about two cards, so pay only if those two matter less than a whole turn to you.",
		"fr": "Deux cartes ou votre prochain tour\u00a0: un tour rapporte environ deux cartes, alors ne payez que si ces deux-là comptent moins pour vous qu’un tour entier.",
	},
	"target": {
		"en": "Aim at the prisoner nearest to escaping: slowing the leader helps you most.",
		"fr": "Visez le prisonnier le plus près de s’évader\u00a0: freiner celui qui mène vous aide le plus.",
	},
	"turnaround": {
		"en": "Flip the doors that stand on a rival’s way out, or one ahead of you that would then cost less.",
		"fr": "Retournez les portes qui barrent la route d’un rival, ou une porte devant vous qui coûterait alors moins cher.",
	},
	"choice": {
		"en": "Choose what brings you nearest to your plan’s object, then to your exit.",
		"fr": "Choisissez ce qui vous rapproche le plus de l’objet de votre plan, puis de votre sortie.",
	},
}

// Explain says what matters now to the seat whose view ev is.
func (Game) Explain(ev engine.View) coach.Nudge {
	say := func(k string) coach.Nudge { return coach.Nudge{Key: k, Text: nudges[k]} }
	v := asView(ev)
	if v == nil || v.Seat < 0 || v.Seat >= len(v.Seats) {
		return say("choice")
	}
	if p := v.Pending; p != nil && p.Seat == v.Seat {
		switch p.Decision {
		case kindDiscard:
			return say("discard")
		case kindGiveCards:
			return say("give")
		case kindAnswerBlackmail:
			return say("blackmail")
		case kindChooseTarget:
			return say("target")
		case kindChooseDoors:
			return say("turnaround")
		}
		return say("choice")
	}
	if v.Phase == "move" {
		if len(v.Seats[v.Seat].Carried) >= v.ObjectsRequired {
			return say("exit")
		}
		return say("move")
	}
	return say("draw")
}

// Nudges lists every sentence the explainer may say.
func (Game) Nudges() []coach.Nudge {
	var out []coach.Nudge
	for k, t := range nudges {
		out = append(out, coach.Nudge{Key: k, Text: t})
	}
	return out
}
