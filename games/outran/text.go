package outran

import (
	"strconv"
	"strings"

	"sortie/engine"
)

// ParseAction reads an action typed by a person in a terminal, so that the
// arrows can be typed rather than picked from a list (which would show the
// answer). It accepts the JSON form of any action, and:
//
//	98+3        an arrow sequence on the numeric keypad (7 8 9 / 4 5 6 / 1 2 3,
//	            5 is the turn-around), "+" the Detour, "v" the antidote,
//	            "t" the Express shortcut
//	ne n + se   the same with token ids (or glyphs: ↗ ↑ + ↘), space-separated
//	-           give up (an empty submission)
//	vote        vote to stop the run
//	left, stay  the last correct seat's choice
//	infect 2    infect seat 2
//	play reverse_3 1   play a card on seat 1
//	end         end the interference turn
func (Game) ParseAction(line string) (engine.Action, error) {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "{") {
		return decodeAction([]byte(line))
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil, engine.Refuse(engine.CodeMalformed, "Type your arrows (for example 98+3 or \"ne n + se\"), or vote, left, stay, infect N, play CARD N, end.")
	}
	switch strings.ToLower(f[0]) {
	case "-":
		return Submit{Cards: []Token{}}, nil
	case "vote", "stop":
		return VoteStop{}, nil
	case "left":
		return ChoosePlace{Leftmost: true}, nil
	case "stay":
		return ChoosePlace{Leftmost: false}, nil
	case "end":
		return EndTurn{}, nil
	case "infect":
		if len(f) == 2 {
			if n, err := strconv.Atoi(f[1]); err == nil {
				return Infect{Target: engine.Seat(n)}, nil
			}
		}
		return nil, engine.Refuse(engine.CodeMalformed, "Write infect and a seat number: infect 2.")
	case "play":
		if len(f) == 3 {
			c, ok := cardByID(f[1])
			n, err := strconv.Atoi(f[2])
			if ok && err == nil {
				return Play{Card: c, Target: engine.Seat(n)}, nil
			}
		}
		return nil, engine.Refuse(engine.CodeMalformed, "Write play, a card you hold and a seat number: play reverse_3 1.")
	}
	var cards []Token
	for _, w := range f {
		if t, ok := typedToken(w); ok {
			cards = append(cards, t)
			continue
		}
		for _, r := range w { // a compact keypad word: 98+3
			t, ok := typedToken(string(r))
			if !ok {
				return nil, engine.Refuse(engine.CodeMalformed, "%q is not an arrow: use the keypad digits 1–9, + (Detour), v (antidote), t (Express), or token ids.", string(r))
			}
			cards = append(cards, t)
		}
	}
	return Submit{Cards: cards}, nil
}

// typedToken reads one token typed as an id, a glyph, a keypad digit, or a
// special key.
func typedToken(w string) (Token, bool) {
	switch strings.ToLower(w) {
	case "v":
		return Antidote, true
	case "t":
		return Express, true
	}
	for i, spec := range tokens {
		if w == spec.ID || w == spec.Glyph || len(w) == 1 && spec.Numpad != 0 && w[0] == spec.Numpad {
			return Token(i), true
		}
	}
	return noToken, false
}
