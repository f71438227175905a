package coach

import "sortie/engine"

// Nudge is the first level of a hint: one sentence about what matters now,
// in French and English, from the game's own explainer.
type Nudge struct {
	// Key names the sentence in the explainer (tests and logs use it).
	Key string `json:"key"`
	// Text is the sentence by language ("fr", "en").
	Text engine.Text `json:"text"`
}

// Explainer is implemented by games that can tell a seat what matters now
// (a hint's nudge). Explain reads the seat's view and nothing else, so a
// nudge holds nothing the seat may not know: the view of a seat that must
// decide (never a spectator's). Nudges lists every sentence the explainer
// may say, for the proofreading tests.
type Explainer interface {
	Explain(v engine.View) Nudge
	Nudges() []Nudge
}

// Tutor is implemented by games that have a tutorial: its script, as the
// JSON the tutorial page reads (see docs/api.md, "Tutorials"); the game's
// package keeps it as data (games/<id>/tutorial.json).
type Tutor interface {
	Tutorial() []byte
}
