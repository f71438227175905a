package plandesecours

import (
	"sortie/coach"
	"sortie/engine"
)

// The explainer: what matters now for a seat that must decide, in one
// sentence of the table below, chosen from its view alone (a hint's first
// level, coach.Explainer).

// nudges are the explainer's sentences, by key.
var nudges = map[string]engine.Text{
	"chain": {
		"en": "Someone has called LOST. Join only if you too believe the path had already gone wrong: only the first right call scores.",
		"fr": "Quelqu’un a joué PERDU. Ne le suivez que si vous pensez, vous aussi, que le chemin s’était déjà égaré\u00a0: seul le premier appel juste marque.",
	},
	"pass": {
		"en": "Your hand is empty: pass, and keep following the path the others lay.",
		"fr": "Votre main est vide\u00a0: passez, et continuez de suivre le chemin que posent les autres.",
	},
	"free": {
		"en": "The next direction is free: turn your tile so that the path stays clear of itself and of the walls.",
		"fr": "La prochaine direction est libre\u00a0: orientez votre tuile pour que le chemin s’écarte de lui-même et des murs.",
	},
	"after_lost": {
		"en": "A LOST tile tops the pile. If the path was still sound when it was played, the next right call can still score: keep following the path.",
		"fr": "Une tuile PERDU couvre la pile. Si le chemin était encore bon à ce moment-là, le prochain appel juste peut encore marquer\u00a0: continuez de suivre le chemin.",
	},
	"start": {
		"en": "The path leaves the start upwards and your tile continues it: from now on, keep the whole path in mind.",
		"fr": "Le chemin quitte le départ vers le haut et votre tuile le prolonge\u00a0: dès maintenant, gardez tout le chemin en tête.",
	},
	"path": {
		"en": "Picture the path so far. If it has already crossed itself, hit a wall or broken a FLOOR card, play LOST now; otherwise lay the tile that keeps it clear.",
		"fr": "Représentez-vous le chemin parcouru. S’il s’est déjà croisé, a heurté un mur ou enfreint une carte ÉTAGE, jouez PERDU maintenant\u00a0; sinon, posez la tuile qui le garde dégagé.",
	},
}

// floorNudges say what the newest FLOOR card adds, early in the round it
// came into force.
var floorNudges = map[FloorID]engine.Text{
	FloorFiveCharacters: {
		"en": "The newest FLOOR card: the group is lost once the laid tiles show five different characters. Count them.",
		"fr": "La nouvelle carte ÉTAGE\u00a0: le groupe est perdu dès que les tuiles posées montrent cinq personnages différents. Comptez-les.",
	},
	FloorTwinCharacters: {
		"en": "The newest FLOOR card: the group is lost once one character shows on two laid tiles. Remember who has appeared.",
		"fr": "La nouvelle carte ÉTAGE\u00a0: le groupe est perdu dès qu’un même personnage figure sur deux tuiles posées. Retenez qui est déjà apparu.",
	},
	FloorFar: {
		"en": "The newest FLOOR card: the group is lost once a tile lies five cells from the start along a row or column. Watch how far the path goes.",
		"fr": "La nouvelle carte ÉTAGE\u00a0: le groupe est perdu dès qu’une tuile est à cinq cases du départ sur une ligne ou une colonne. Surveillez jusqu’où va le chemin.",
	},
	FloorBehind: {
		"en": "The newest FLOOR card: the group is lost once a tile lies behind the start. Keep the path above it.",
		"fr": "La nouvelle carte ÉTAGE\u00a0: le groupe est perdu dès qu’une tuile se trouve derrière le départ. Gardez le chemin au-dessus de lui.",
	},
	FloorCorridor: {
		"en": "The newest FLOOR card: the group is lost once the path goes straight four times in a row. Count the straight tiles.",
		"fr": "La nouvelle carte ÉTAGE\u00a0: le groupe est perdu dès que le chemin va quatre fois tout droit d’affilée. Comptez les lignes droites.",
	},
	FloorCrossing: {
		"en": "The newest FLOOR card: the group is lost once the path goes through a tile a second time, even where a dashed route allows it.",
		"fr": "La nouvelle carte ÉTAGE\u00a0: le groupe est perdu dès que le chemin repasse par une tuile déjà posée, même là où une voie en pointillés le permet.",
	},
}

// Explain says what matters now to the seat whose view v is.
func (Game) Explain(ev engine.View) coach.Nudge {
	v, ok := asView(ev)
	say := func(k string) coach.Nudge { return coach.Nudge{Key: k, Text: nudges[k]} }
	switch {
	case !ok:
		return say("path")
	case v.Phase == "lost_chain":
		return say("chain")
	case len(v.Hand) == 0:
		return say("pass")
	case v.NextFacing == FacingFree:
		return say("free")
	case v.Top.Kind == "lost":
		return say("after_lost")
	case v.StackTiles == 0 && v.Round == 1:
		return say("start")
	case len(v.Floors) > 1 && v.StackTiles < 4:
		if t, ok := floorNudges[v.Floors[len(v.Floors)-1]]; ok {
			return coach.Nudge{Key: v.Floors[len(v.Floors)-1].String(), Text: t}
		}
	}
	return say("path")
}

// Nudges lists every sentence the explainer may say.
func (Game) Nudges() []coach.Nudge {
	var out []coach.Nudge
	for k, t := range nudges {
		out = append(out, coach.Nudge{Key: k, Text: t})
	}
	for f, t := range floorNudges {
		out = append(out, coach.Nudge{Key: f.String(), Text: t})
	}
	return out
}
