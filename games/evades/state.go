package evades

import "sortie/engine"

// hand is a multiset of Combines types: how many cards of each type (D40).
type hand [numCards]uint8

func (h *hand) size() int {
	n := 0
	for _, c := range h {
		n += int(c)
	}
	return n
}

func (h *hand) add(cs ...Card) {
	for _, c := range cs {
		h[c]++
	}
}

// contains reports whether the hand holds every card of cs (a multiset).
func (h *hand) contains(cs []Card) bool {
	var need hand
	for _, c := range cs {
		if c >= numCards {
			return false
		}
		need[c]++
		if need[c] > h[c] {
			return false
		}
	}
	return true
}

// remove takes cs out of the hand; the caller has checked contains.
func (h *hand) remove(cs []Card) {
	for _, c := range cs {
		h[c]--
	}
}

// forget lowers a lower bound by the cards of cs it counts.
func (h *hand) forget(cs []Card) {
	for _, c := range cs {
		if h[c] > 0 {
			h[c]--
		}
	}
}

// list returns the hand's cards in canonical order.
func (h *hand) list() []Card {
	out := make([]Card, 0, h.size())
	for c, k := range h {
		for range k {
			out = append(out, Card(c))
		}
	}
	return out
}

// nth returns the card at position i of the hand in canonical order.
func (h *hand) nth(i int) Card {
	for c, k := range h {
		if i < int(k) {
			return Card(c)
		}
		i -= int(k)
	}
	panic("evades: hand index out of range")
}

// phase is where the active seat stands in its turn (§4.2).
type phase uint8

const (
	phaseAction phase = iota // step 1: one draw action
	phaseMove                // step 2: crossings, objects, end_turn
	phaseOver                // the game has ended
)

var phaseIDs = [...]string{"action", "move", "over"}

// pendKind is the decision a seat owes before play goes on (§4.12).
type pendKind uint8

const (
	pendNone pendKind = iota
	pendVent
	pendCodetainee
	pendTarget
	pendDoors
	pendGiveCards
	pendBlackmail
	pendDiscard
)

var pendIDs = [...]string{"", kindChooseVent, kindChooseCodet, kindChooseTarget, kindChooseDoors, kindGiveCards, kindAnswerBlackmail, kindDiscard}

// drawKind is the step-1 draw that waits for its discard (I13).
type drawKind uint8

const (
	noDraw     drawKind = iota // a discard after a gain (§4.5)
	drawFaceUp                 // take_face_up, slots in pending.slots
	drawBlind                  // take_blind
)

// pending is the one decision owed now, if any (§4.12: at most one at a time).
type pending struct {
	kind   pendKind
	seat   int8     // who decides
	card   PassPass // pendTarget: the Pass-Pass card being resolved
	target int8     // pendGiveCards: who gets the cards; pendBlackmail: who receives them
	count  int8     // pendGiveCards, pendDiscard: how many cards
	draw   drawKind // pendDiscard: the draw that follows the discard, if any
	slots  uint8    // pendDiscard with drawFaceUp: the index of the slot pair
}

// seatState is what belongs to one seat: its pawn, hand, plan and debts.
type seatState struct {
	area     Area
	lastDoor int8 // the door this pawn crossed to enter its area, or -1 (D4)
	hand     hand
	plan     Plan
	skip     int // turns still to skip (motion detector, Chantage)
	extra    int // extra turns owed (Pleins pouvoirs)
}

// State is a match of Les Évadés in progress. Piles are slices whose last
// element is the top.
type State struct {
	rng             engine.RNG
	n               int
	objectsRequired int
	turnLimit       int

	seats [maxPlayers]seatState
	// known[o][q] is a lower bound on q's hand that seat o can prove from
	// what it has seen (public takes, payments, cards it gave or took). It
	// never reaches a view; Determinize keeps it so that resampled hands
	// stay consistent with the public flow of cards (§7).
	known [maxPlayers][maxPlayers]hand

	doorTab   [numDoors]uint8 // index into innerTabs, or exitTabs for exit doors
	doorFaceB [numDoors]bool  // the door shows its tab's face B

	objRoom   [numObjects]int8 // the room holding the token, or -1
	objHolder [numObjects]int8 // the seat carrying the token, or -1

	aside []Plan // plans dealt to nobody (2–3 players)

	row       [rowSize]Card
	pile      []Card
	discard   []Card
	ppPile    []PassPass
	ppDiscard []PassPass

	warnColour uint8
	warnPile   []Token
	warnUsed   [2][]Token // set-aside tokens of each colour, in draw order

	// The piles above are slices of these arrays, so that Clone copies the
	// state in one allocation (search bots clone and determinize the state
	// for every playout). Their sizes bound the tables of components.go
	// (checked at start-up); no pile ever outgrows them.
	asideBuf     [maxPlayers]Plan
	pileBuf      [maxDeck]Card
	discardBuf   [maxDeck]Card
	ppPileBuf    [maxPassPass]PassPass
	ppDiscardBuf [maxPassPass]PassPass
	warnPileBuf  [maxTokens]Token
	warnUsedBuf  [2][maxTokens]Token

	direction    int8 // +1 clockwise, −1 counter-clockwise
	active       int8
	phase        phase
	pend         pending
	badge        int // credits of this turn (D17)
	corruption   int
	reverseAtEnd bool // a camera was drawn this turn (D20)
	turnsBegun   int
	winner       int8
}

// Bounds of the pile arrays of State: more than the tables of components.go
// hold (82 Combines, 24 Pass-Pass, 20 Warning tokens of each colour).
const (
	maxDeck     = 128
	maxPassPass = 32
	maxTokens   = 32
)

func init() {
	deck, pp := 0, 0
	for _, c := range cards {
		deck += c.Count
	}
	for _, c := range passPassCards {
		pp += c.Count
	}
	if deck > maxDeck || pp > maxPassPass || tokensPerColour > maxTokens {
		panic("evades: the decks outgrow the pile arrays of State")
	}
}

// newState builds a match following §3, drawing every random step from the
// match generator in the order of the setup table.
func newState(setup engine.Setup, objectsRequired, firstPlayer int) *State {
	s := &State{
		rng:             engine.NewRNG(setup.Seed),
		n:               setup.Players,
		objectsRequired: objectsRequired,
		turnLimit:       turnLimitPerSeat * setup.Players,
		direction:       1,
		winner:          noSeat,
	}
	s.usePileArrays()
	// 2. Inner tabs: shuffled onto d01–d34 in id order, then a coin each.
	var order [len(innerTabs)]uint8
	for i := range order {
		order[i] = uint8(i)
	}
	s.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for i, d := range board.innerDoors {
		s.doorTab[d] = order[i]
	}
	for _, d := range board.innerDoors {
		s.doorFaceB[d] = s.rng.IntN(2) == 1
	}
	// 3. Exit tabs, in door order, with a coin each.
	k := 0
	for d := range numDoors {
		if board.exitDoor[d] {
			s.doorTab[d] = uint8(k)
			k++
			s.doorFaceB[d] = s.rng.IntN(2) == 1
		}
	}
	// 4. Object pairs into the rooms.
	var pairs [len(objectPairs)]int
	for i := range pairs {
		pairs[i] = i
	}
	s.rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	for i := range s.objRoom {
		s.objRoom[i], s.objHolder[i] = noSeat, noSeat
	}
	for r, p := range pairs {
		for _, id := range objectPairs[p].Tokens {
			s.objRoom[mustObject(id)] = int8(board.rooms[r])
		}
	}
	// 5. The orange Warning pile.
	s.warnPile = shuffledTokens(s.warnPile, &s.rng)
	// 6. Pawns in the cell.
	for p := range s.seats {
		s.seats[p].area, s.seats[p].lastDoor = cellArea, -1
	}
	// 7. Plans, seat 0 first; the rest set aside.
	var ps [numPlans]Plan
	for i := range ps {
		ps[i] = Plan(i)
	}
	s.rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	for p := range s.n {
		s.seats[p].plan = ps[p]
	}
	s.aside = append(s.aside, ps[s.n:]...)
	// 8. Combines: deal 6 each, seat by seat, then the face-up row.
	for c, info := range cards {
		for range info.Count {
			s.pile = append(s.pile, Card(c))
		}
	}
	s.rng.Shuffle(len(s.pile), func(i, j int) { s.pile[i], s.pile[j] = s.pile[j], s.pile[i] })
	var none []engine.Event
	for p := range s.n {
		for range dealSize {
			c, _ := s.drawCard(&none)
			s.seats[p].hand.add(c)
		}
	}
	s.refillRow(&none, allSlots)
	// 9. Pass-Pass.
	for c, info := range passPassCards {
		for range info.Count {
			s.ppPile = append(s.ppPile, PassPass(c))
		}
	}
	s.rng.Shuffle(len(s.ppPile), func(i, j int) { s.ppPile[i], s.ppPile[j] = s.ppPile[j], s.ppPile[i] })
	// 10. First player (D2).
	first := firstPlayer
	if first < 0 {
		first = s.rng.IntN(s.n)
	}
	s.beginTurn(first, &none)
	return s
}

// shuffledTokens puts the 20 tokens of one colour in random order into pile,
// emptied first.
func shuffledTokens(pile []Token, r *engine.RNG) []Token {
	pile = pile[:0]
	for t, info := range tokens {
		for range info.PerColour {
			pile = append(pile, Token(t))
		}
	}
	r.Shuffle(len(pile), func(i, j int) { pile[i], pile[j] = pile[j], pile[i] })
	return pile
}

// Clone returns an independent copy, random generator included.
func (s *State) Clone() engine.State { return s.clone() }

func (s *State) clone() *State {
	c := *s
	c.usePileArrays()
	c.aside = append(c.aside, s.aside...)
	c.pile = append(c.pile, s.pile...)
	c.discard = append(c.discard, s.discard...)
	c.ppPile = append(c.ppPile, s.ppPile...)
	c.ppDiscard = append(c.ppDiscard, s.ppDiscard...)
	c.warnPile = append(c.warnPile, s.warnPile...)
	c.warnUsed[0] = append(c.warnUsed[0], s.warnUsed[0]...)
	c.warnUsed[1] = append(c.warnUsed[1], s.warnUsed[1]...)
	return &c
}

// usePileArrays points every pile, emptied, at the state's own arrays.
func (s *State) usePileArrays() {
	s.aside = s.asideBuf[:0]
	s.pile = s.pileBuf[:0]
	s.discard = s.discardBuf[:0]
	s.ppPile = s.ppPileBuf[:0]
	s.ppDiscard = s.ppDiscardBuf[:0]
	s.warnPile = s.warnPileBuf[:0]
	s.warnUsed[0] = s.warnUsedBuf[0][:0]
	s.warnUsed[1] = s.warnUsedBuf[1][:0]
}

// ---- Reading the board ----

// tab returns the tab in door d.
func (s *State) tab(d Door) *tabInfo {
	if board.exitDoor[d] {
		return &exitTabs[s.doorTab[d]]
	}
	return &innerTabs[s.doorTab[d]]
}

// face returns the Combines type door d shows now (D5).
func (s *State) face(d Door) Card {
	t := s.tab(d)
	if s.doorFaceB[d] {
		return t.B
	}
	return t.A
}

// otherFace returns the type door d would show once flipped.
func (s *State) otherFace(d Door) Card {
	t := s.tab(d)
	if s.doorFaceB[d] {
		return t.A
	}
	return t.B
}

func (s *State) flip(d Door) { s.doorFaceB[d] = !s.doorFaceB[d] }

// carried returns how many object tokens seat p carries, and whether one of
// them is of type t.
func (s *State) carried(p int, t ObjectType) (n int, hasType bool) {
	for o, h := range s.objHolder {
		if int(h) == p {
			n++
			if objects[o].Type == t {
				hasType = true
			}
		}
	}
	return n, hasType
}

func (s *State) carriedCount(p int) int {
	n, _ := s.carried(p, numObjectTypes)
	return n
}

// onPlan reports whether object type t is named on plan pl.
func onPlan(pl Plan, t ObjectType) bool {
	return plans[pl].Objects[0] == t || plans[pl].Objects[1] == t
}

func (s *State) nextSeat(p int) int { return (p + int(s.direction) + s.n) % s.n }

// ---- Piles ----

// drawCard takes the top Combines card, first reshuffling the whole discard
// pile into a new draw pile if the pile is empty (D11).
func (s *State) drawCard(ev *[]engine.Event) (Card, bool) {
	if len(s.pile) == 0 {
		if len(s.discard) == 0 {
			return noCard, false
		}
		s.pile = append(s.pile, s.discard...)
		s.discard = s.discard[:0]
		s.rng.Shuffle(len(s.pile), func(i, j int) { s.pile[i], s.pile[j] = s.pile[j], s.pile[i] })
		tell(ev, CombinesReshuffled{Cards: len(s.pile)})
	}
	c := s.pile[len(s.pile)-1]
	s.pile = s.pile[:len(s.pile)-1]
	return c, true
}

// supply is how many Combines cards can still be drawn.
func (s *State) supply() int { return len(s.pile) + len(s.discard) }

// refillRow deals the given empty slots (in increasing order; the event
// keeps the read-only slice), then runs the wipe check (§4.4).
func (s *State) refillRow(ev *[]engine.Event, slots []int) {
	var dealt Cards
	for _, i := range slots {
		c, _ := s.drawCard(ev)
		s.row[i] = c
		dealt.a[dealt.n] = c
		dealt.n++
	}
	tell(ev, RowRefilled{Slots: slots, Cards: dealt})
	for range wipeCap {
		if !s.rowHasTriple() {
			return
		}
		var wiped Cards
		for _, c := range s.row {
			if c != noCard {
				wiped.a[wiped.n] = c
				wiped.n++
			}
		}
		s.discard = append(s.discard, wiped.items()...)
		tell(ev, RowWiped{Cards: wiped})
		var all Cards
		for i := range s.row {
			c, _ := s.drawCard(ev)
			s.row[i], all.a[i] = c, c
		}
		all.n = rowSize
		tell(ev, RowRefilled{Slots: allSlots, Cards: all})
	}
}

// rowHasTriple reports whether 3 face-up cards share a type; jokers are a
// type of their own here (D9).
func (s *State) rowHasTriple() bool {
	var h hand
	for _, c := range s.row {
		if c == noCard {
			continue
		}
		h[c]++
		if h[c] >= tripleSize {
			return true
		}
	}
	return false
}

// drawPassPassCard reveals the top Pass-Pass card onto the Pass-Pass discard,
// reshuffling the discard first if the pile is empty.
func (s *State) drawPassPassCard(ev *[]engine.Event) PassPass {
	if len(s.ppPile) == 0 {
		s.ppPile = append(s.ppPile, s.ppDiscard...)
		s.ppDiscard = s.ppDiscard[:0]
		s.rng.Shuffle(len(s.ppPile), func(i, j int) { s.ppPile[i], s.ppPile[j] = s.ppPile[j], s.ppPile[i] })
		tell(ev, PassPassReshuffled{Cards: len(s.ppPile)})
	}
	c := s.ppPile[len(s.ppPile)-1]
	s.ppPile = s.ppPile[:len(s.ppPile)-1]
	s.ppDiscard = append(s.ppDiscard, c)
	return c
}

// drawWarning reveals the top token of the current colour; an empty pile
// hands over to the other colour, whose 20 tokens are shuffled (D14).
func (s *State) drawWarning(ev *[]engine.Event) Token {
	if len(s.warnPile) == 0 {
		s.warnColour ^= 1
		s.warnUsed[s.warnColour] = s.warnUsed[s.warnColour][:0]
		s.warnPile = shuffledTokens(s.warnPile, &s.rng)
		tell(ev, WarningPileChanged{Colour: colourIDs[s.warnColour]})
	}
	t := s.warnPile[len(s.warnPile)-1]
	s.warnPile = s.warnPile[:len(s.warnPile)-1]
	s.warnUsed[s.warnColour] = append(s.warnUsed[s.warnColour], t)
	return t
}

// ---- What each seat can prove about the others' hands ----

// gainPublic: seat q took cs in front of everyone.
func (s *State) gainPublic(q int, cs ...Card) {
	s.seats[q].hand.add(cs...)
	for o := range s.n {
		if o != q {
			s.known[o][q].add(cs...)
		}
	}
}

// discardPublic: seat q put cs face up on the discard pile.
func (s *State) discardPublic(q int, cs []Card) {
	s.seats[q].hand.remove(cs)
	s.discard = append(s.discard, cs...)
	for o := range s.n {
		if o != q {
			s.known[o][q].forget(cs)
		}
	}
}

// moveCards: cs go from one hand to another; the two seats see them, the
// others only their number.
func (s *State) moveCards(from, to int, cs []Card) {
	s.seats[from].hand.remove(cs)
	s.seats[to].hand.add(cs...)
	s.known[to][from].forget(cs)
	s.known[from][to].add(cs...)
	for o := range s.n {
		if o == from || o == to {
			continue
		}
		k := &s.known[o][from]
		for c := range k {
			k[c] = uint8(max(0, int(k[c])-len(cs)))
		}
	}
}

// ---- Events ----

func tell(ev *[]engine.Event, b engine.EventBody) { *ev = append(*ev, engine.Tell(b)) }

// tellSplit tells full to seats a and b (the same seat twice for one) and
// redacted to everyone else, spectators included.
func (s *State) tellSplit(ev *[]engine.Event, full, redacted engine.EventBody, a, b int) {
	in := engine.Only(engine.Seat(a), engine.Seat(b))
	*ev = append(*ev,
		engine.Event{To: in, Body: full},
		engine.Event{To: engine.AllBut(engine.Seat(a), s.n) &^ in, Body: redacted})
}

// sortedCards returns a card list in canonical order, for events: an action
// may name its cards in any order (D40).
func sortedCards(l Cards) Cards {
	l.sort()
	return l
}

// slotLists[i][j] is the read-only slot list {i, j} of events (i < j), and
// slotLists[i][i] the list {i}.
var slotLists = func() (t [rowSize][rowSize][]int) {
	for i := range rowSize {
		t[i][i] = []int{i}
		for j := i + 1; j < rowSize; j++ {
			t[i][j] = []int{i, j}
		}
	}
	return t
}()

// allSlots is the read-only slot list of a whole new row.
var allSlots = func() []int {
	out := make([]int, rowSize)
	for i := range out {
		out[i] = i
	}
	return out
}()
