package outran

import "sortie/engine"

// This file is §4.3 of the reference: what a seat must lay, given the path
// card and the interference cards that apply to it, in the exact evaluation
// order of D16.

// mods is the interference that applies to one seat for one run: at most one
// card of each kind (no duplicates), at most one reordering (one at a time).
type mods struct {
	NotThisWay Token // noToken when none
	Shortcut   bool
	SwapA      Token // Interchange: noToken when none
	SwapB      Token
	Reorder    Kind // KindReverse, KindRicochetEvenOdd, KindRicochetOddEven, or kindCount for none
	Detour     int  // the Detour slot, 0 when none
	Express    bool
	Boost      bool
}

// noMods is the interference of a seat nothing applies to.
var noMods = mods{NotThisWay: noToken, SwapA: noToken, SwapB: noToken, Reorder: kindCount}

// modsOf gathers the cards that apply to a seat.
func modsOf(front []held) mods {
	m := noMods
	for _, h := range front {
		m.add(h.Card)
	}
	return m
}

// modsOfCards gathers the cards that apply to a seat, from a view.
func modsOfCards(cs []Card) mods {
	m := noMods
	for _, c := range cs {
		m.add(c)
	}
	return m
}

// answers is what a seat must lay on one path card under one interference:
// the run's representative submissions (§8.3), whose first NAccepted are
// the lists of Accepted(X), the canonical answer first. It is never changed
// once made: seats, clones and callers of Legal share it.
type answers struct {
	Legal     []engine.Action
	NAccepted int
}

// plainAnswers holds the answers of every path card under no interference,
// without and with the antidote, made once: most seats lay plain path cards.
var plainAnswers = func() (t [][2]answers) {
	t = make([][2]answers, len(pathCards))
	for i := range t {
		for a, antidote := range []bool{false, true} {
			skips, n, room := acceptedSize(pathCards[i].Symbols, noMods, antidote)
			_, legal, _ := makeAnswers(make([]Submit, 0, n), nil, make([]Token, 0, room), i, noMods, skips, antidote)
			t[i][a] = answers{Legal: legal, NAccepted: n}
		}
	}
	return t
}()

// answersFor returns the answers of the revealed path card under m. Those
// under interference are carved from the state's chunks: there are too many
// kinds of them to keep them all.
func (s *state) answersFor(m mods, antidote bool) answers {
	m.Boost = false // a Boost does not change what must be laid
	if m == noMods {
		a := 0
		if antidote {
			a = 1
		}
		return plainAnswers[s.path][a]
	}
	p := pathCards[s.path].Symbols
	if !m.Shortcut && !m.Express { // one list, and the same with the antidote: most seats
		toks := s.mem.tokens.open(2*len(p)+3, tokenChunk)
		toks = arrange(toks, p, m, -1)
		k := len(toks)
		n, legal := 1, s.mem.actions.open(4, actionChunk)
		subs := s.mem.submits.open(2, submitChunk)
		subs = append(subs, Submit{Cards: toks[:k:k]})
		if antidote {
			toks = append(toks, toks[:k]...)
			toks = append(toks, Antidote)
			subs = append(subs, Submit{Cards: toks[k:len(toks):len(toks)]})
			n = 2
		}
		s.mem.tokens.keep(toks)
		subs = s.mem.submits.keep(subs)
		legal = append(legal, &subs[0])
		if antidote {
			legal = append(legal, &subs[1])
		}
		if !sameTokens(p, subs[0].Cards) { // the literal path card, when it is wrong
			legal = append(legal, &literalSubmits[s.path])
		}
		return answers{Legal: s.mem.actions.keep(append(legal, giveUp)), NAccepted: n}
	}
	skips, n, room := acceptedSize(p, m, antidote)
	toks := s.mem.tokens.open(room, tokenChunk)
	subs := s.mem.submits.open(n, submitChunk)
	legal := s.mem.actions.open(n+2, actionChunk)
	subs, legal, toks = makeAnswers(subs, legal, toks, s.path, m, skips, antidote)
	s.mem.tokens.keep(toks)
	s.mem.submits.keep(subs)
	return answers{Legal: s.mem.actions.keep(legal), NAccepted: n}
}

// makeAnswers works out the answers of path card path under m (skips from
// acceptedSize): it appends the accepted submissions to subs, the actions
// pointing at them to legal, then the literal card when it is wrong and the
// give-up, and carves the lists from buf. subs and buf must have room for
// all they get (see acceptedSize): what was handed out points into them.
func makeAnswers(subs []Submit, legal []engine.Action, buf []Token, path int, m mods, skips int, antidote bool) ([]Submit, []engine.Action, []Token) {
	start := len(subs)
	p := pathCards[path].Symbols
	subs, buf = appendAccepted(subs, buf, p, m, skips, antidote)
	for i := start; i < len(subs); i++ {
		legal = append(legal, &subs[i])
	}
	if !isAcceptedSub(p, subs[start:]) {
		legal = append(legal, &literalSubmits[path])
	}
	return subs, append(legal, giveUp), buf
}

// The submissions every seat may make: each path card as printed, and
// giving up. Nobody may change them.
var (
	literalSubmits = func() []Submit {
		t := make([]Submit, len(pathCards))
		for i := range t {
			t[i].Cards = pathCards[i].Symbols
		}
		return t
	}()
	giveUp = &Submit{Cards: []Token{}}
)

// add records one applying card.
func (m *mods) add(id Card) {
	c := &cards[id]
	switch c.Kind {
	case KindNotThisWay:
		m.NotThisWay = c.A
	case KindShortcut:
		m.Shortcut = true
	case KindInterchange:
		m.SwapA, m.SwapB = c.A, c.B
	case KindReverse, KindRicochetEvenOdd, KindRicochetOddEven:
		m.Reorder = c.Kind
	case KindDetour:
		m.Detour = c.Slot
	case KindExpress:
		m.Express = true
	case KindBoost:
		m.Boost = true
	}
}

// arrange runs steps 1 to 5 of the evaluation order on path card p: Not this
// way (on path-card symbols), the Shortcut skip (skip is an index in the list
// left after step 1, or -1 for no skip), Interchange, Reverse or Ricochet
// (positions counted on the list after steps 1–3), Detour. It appends the
// result to dst.
func arrange(dst []Token, p []Token, m mods, skip int) []Token {
	var l, o [maxSubmission]Token
	n, i := 0, 0
	for _, t := range p {
		if t == m.NotThisWay { // step 1: the printed symbol is skipped
			continue
		}
		if i == skip { // step 2: the Shortcut leaves out one item
			i++
			continue
		}
		i++
		if t == m.SwapA { // step 3: Interchange swaps the two symbols both ways
			t = m.SwapB
		} else if t == m.SwapB {
			t = m.SwapA
		}
		l[n] = t
		n++
	}
	switch m.Reorder { // step 4
	case KindReverse:
		for j := range n {
			o[j] = l[n-1-j]
		}
	case KindRicochetEvenOdd:
		k := 0
		for j := 1; j < n; j += 2 {
			o[k] = l[j]
			k++
		}
		for j := 0; j < n; j += 2 {
			o[k] = l[j]
			k++
		}
	case KindRicochetOddEven:
		k := 0
		for j := 0; j < n; j += 2 {
			o[k] = l[j]
			k++
		}
		for j := 1; j < n; j += 2 {
			o[k] = l[j]
			k++
		}
	default:
		o = l
	}
	if m.Detour > 0 { // step 5: D15, after the slot-th item or last
		at := min(m.Detour, n)
		for j := n; j > at; j-- {
			o[j] = o[j-1]
		}
		o[at] = Detour
		n++
	}
	return append(dst, o[:n]...)
}

// afterNotThisWay is the length of p once step 1 has removed its symbol.
func afterNotThisWay(p []Token, m mods) int {
	n := len(p)
	for _, t := range p {
		if t == m.NotThisWay {
			n--
		}
	}
	return n
}

// acceptedLists returns Accepted(X) (§4.3): every list of steps 1–6 over all
// Shortcut choices and both antidote options, then [express] when an Express
// shortcut applies. antidote says whether step 6 applies (Zombie board and a
// card with the icon). The first list is the canonical answer: steps 1–5,
// no skip, no antidote.
func acceptedLists(p []Token, m mods, antidote bool) [][]Token {
	skips, n, room := acceptedSize(p, m, antidote)
	subs, _ := appendAccepted(make([]Submit, 0, n), make([]Token, 0, room), p, m, skips, antidote)
	out := make([][]Token, n)
	for i := range subs {
		out[i] = subs[i].Cards
	}
	return out
}

// acceptedSize returns how many Shortcut choices there are (none counts as
// one), how many lists Accepted(X) holds, and how many tokens they hold at
// most between them.
func acceptedSize(p []Token, m mods, antidote bool) (skips, lists, tokens int) {
	skips = 1
	if m.Shortcut {
		skips += afterNotThisWay(p, m)
	}
	n := skips
	if antidote {
		n *= 2
	}
	if m.Express {
		n++
	}
	return skips, n, n * (len(p) + 2) // each list is at most len(p)+2 long
}

// appendAccepted appends a submission of each list of acceptedLists to out,
// carving the lists from buf, which must have room for them all
// (acceptedSize, which gives skips): the lists point into it.
func appendAccepted(out []Submit, buf []Token, p []Token, m mods, skips int, antidote bool) ([]Submit, []Token) {
	for k := -1; k < skips-1; k++ {
		start := len(buf)
		buf = arrange(buf, p, m, k)
		l := buf[start:len(buf):len(buf)]
		out = append(out, Submit{Cards: l})
		if antidote {
			start = len(buf)
			buf = append(append(buf, l...), Antidote)
			out = append(out, Submit{Cards: buf[start:len(buf):len(buf)]})
		}
	}
	if m.Express {
		buf = append(buf, Express)
		out = append(out, Submit{Cards: buf[len(buf)-1 : len(buf) : len(buf)]})
	}
	return out, buf
}

// paletteOf returns, as a bit set of tokens, what a seat may lay: the nine
// arrows, the Detour "+" when a Detour applies, the antidote on Zombie, and
// the Express shortcut when one applies (§2.3).
func paletteOf(m mods, zombie bool) uint16 {
	p := uint16(1)<<arrowCount - 1
	if m.Detour > 0 {
		p |= 1 << Detour
	}
	if zombie {
		p |= 1 << Antidote
	}
	if m.Express {
		p |= 1 << Express
	}
	return p
}

// sameTokens reports whether two lists are equal.
func sameTokens(a, b []Token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// isAcceptedSub reports whether a submission equals one of the accepted
// submissions.
func isAcceptedSub(sub []Token, acc []Submit) bool {
	for i := range acc {
		if sameTokens(sub, acc[i].Cards) {
			return true
		}
	}
	return false
}

// accepts reports whether a submission is one of the seat's accepted lists.
func (st *seatState) accepts(sub []Token) bool {
	for _, a := range st.Legal[:st.NAccepted] {
		if l := a.(*Submit).Cards; len(l) == len(sub) && (len(l) == 0 || &l[0] == &sub[0] || sameTokens(l, sub)) {
			return true
		}
	}
	return false
}

// accepted returns the seat's accepted lists, Accepted(X) (§4.3).
func (st *seatState) accepted() [][]Token {
	out := make([][]Token, st.NAccepted)
	for i, a := range st.Legal[:st.NAccepted] {
		out[i] = a.(*Submit).Cards
	}
	return out
}

// isAccepted reports whether a submission equals one of the accepted lists.
func isAccepted(sub []Token, acc [][]Token) bool {
	for _, l := range acc {
		if sameTokens(sub, l) {
			return true
		}
	}
	return false
}
