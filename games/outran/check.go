package outran

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
	var buf [maxSubmission]Token
	l := buf[:0]
	i := 0
	for _, t := range p {
		if t == m.NotThisWay { // step 1: the printed symbol is skipped
			continue
		}
		if i == skip { // step 2: the Shortcut leaves out one item
			i++
			continue
		}
		i++
		switch t { // step 3: Interchange swaps the two symbols both ways
		case m.SwapA:
			t = m.SwapB
		case m.SwapB:
			t = m.SwapA
		}
		l = append(l, t)
	}
	start := len(dst)
	switch m.Reorder { // step 4
	case KindReverse:
		for j := len(l) - 1; j >= 0; j-- {
			dst = append(dst, l[j])
		}
	case KindRicochetEvenOdd:
		for j := 1; j < len(l); j += 2 {
			dst = append(dst, l[j])
		}
		for j := 0; j < len(l); j += 2 {
			dst = append(dst, l[j])
		}
	case KindRicochetOddEven:
		for j := 0; j < len(l); j += 2 {
			dst = append(dst, l[j])
		}
		for j := 1; j < len(l); j += 2 {
			dst = append(dst, l[j])
		}
	default:
		dst = append(dst, l...)
	}
	if m.Detour > 0 { // step 5: D15, after the slot-th item or last
		at := start + min(m.Detour, len(dst)-start)
		dst = append(dst, 0)
		copy(dst[at+1:], dst[at:])
		dst[at] = Detour
	}
	return dst
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
	skips := 1
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
	out := make([][]Token, 0, n)
	// One backing array for every list: each is at most len(p)+2 long.
	buf := make([]Token, 0, n*(len(p)+2))
	for k := -1; k < skips-1; k++ {
		start := len(buf)
		buf = arrange(buf, p, m, k)
		l := buf[start:len(buf):len(buf)]
		out = append(out, l)
		if antidote {
			start = len(buf)
			buf = append(append(buf, l...), Antidote)
			out = append(out, buf[start:len(buf):len(buf)])
		}
	}
	if m.Express {
		buf = append(buf, Express)
		out = append(out, buf[len(buf)-1:len(buf):len(buf)])
	}
	return out
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

// isAccepted reports whether a submission equals one of the accepted lists.
func isAccepted(sub []Token, acc [][]Token) bool {
	for _, l := range acc {
		if sameTokens(sub, l) {
			return true
		}
	}
	return false
}
