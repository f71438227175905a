package outran

import (
	"fmt"
	"strings"

	"sortie/engine"
)

// This file holds every number and card of the game: the arrow symbols, the
// path cards, the monster boards, the interference deck, the timers and the
// bot levels. Values marked (R) in the rules reference
// (shared/rules/outran.md) are reconstructions; each lives in exactly one
// table below so that it can be tuned without touching rule code.

// Token is one card a seat may lay in a run: one of the nine arrow symbols or
// one of the three special tokens (the Detour "+", the antidote, the Express
// shortcut). Its JSON form is its id ("ne", "spin", "detour").
type Token uint8

// The tokens, arrows first in the reference's iteration order (§2.3).
const (
	North Token = iota
	NorthEast
	East
	SouthEast
	South
	SouthWest
	West
	NorthWest
	Spin
	Detour
	Antidote
	Express

	tokenCount
	noToken Token = 255
)

// arrowCount is the number of arrow symbols: every seat holds one of each.
const arrowCount = 9

// tokenSpec describes a token for tables, clients and the terminal.
type tokenSpec struct {
	ID     string
	Glyph  string
	EN, FR string
	Numpad byte   // the numeric keypad key of the 3×3 layout (0 for specials)
	Key    string // the physical key code of the 3×3 letter block
}

// tokens is the table of §2.3 (R, D2): eight compass arrows and a turn-around
// arrow laid out as a keypad, then the special tokens.
var tokens = [tokenCount]tokenSpec{
	North:     {"n", "↑", "up", "haut", '8', "KeyW"},
	NorthEast: {"ne", "↗", "up-right", "haut-droite", '9', "KeyE"},
	East:      {"e", "→", "right", "droite", '6', "KeyD"},
	SouthEast: {"se", "↘", "down-right", "bas-droite", '3', "KeyC"},
	South:     {"s", "↓", "down", "bas", '2', "KeyX"},
	SouthWest: {"sw", "↙", "down-left", "bas-gauche", '1', "KeyZ"},
	West:      {"w", "←", "left", "gauche", '4', "KeyA"},
	NorthWest: {"nw", "↖", "up-left", "haut-gauche", '7', "KeyQ"},
	Spin:      {"spin", "↻", "turn around", "demi-tour", '5', "KeyS"},
	Detour:    {"detour", "+", "detour", "détour", '+', "KeyF"},
	Antidote:  {"antidote", "✚", "antidote", "antidote", 0, "KeyV"},
	Express:   {"express", "»", "express shortcut", "raccourci express", 0, "KeyT"},
}

// maxSubmission is the longest well-formed submission (D37): nine arrows and
// the three special tokens.
const maxSubmission = 12

// String returns the token's id.
func (t Token) String() string {
	if t < tokenCount {
		return tokens[t].ID
	}
	return fmt.Sprintf("token(%d)", uint8(t))
}

// MarshalText writes the token's id.
func (t Token) MarshalText() ([]byte, error) {
	if t >= tokenCount {
		return nil, fmt.Errorf("outran: no token %d", uint8(t))
	}
	return []byte(tokens[t].ID), nil
}

// UnmarshalText reads a token id.
func (t *Token) UnmarshalText(b []byte) error {
	v, ok := tokenByID(string(b))
	if !ok {
		return fmt.Errorf("%q is not an arrow or special token (tokens: n ne e se s sw w nw spin detour antidote express)", b)
	}
	*t = v
	return nil
}

func tokenByID(id string) (Token, bool) {
	for i := range tokens {
		if tokens[i].ID == id {
			return Token(i), true
		}
	}
	return noToken, false
}

// Characters (§2.2, R): they have no rule effect; seat i plays character i.
var characters = [6]struct{ ID, EN, FR, Colour, Mark string }{
	{"witch", "Witch", "Sorcière", "purple", "W"},
	{"pirate", "Pirate", "Pirate", "red", "P"},
	{"astronaut", "Astronaut", "Astronaute", "blue", "A"},
	{"skeleton", "Skeleton", "Squelette", "grey", "S"},
	{"clown", "Clown", "Clown", "yellow", "C"},
	{"cowboy", "Cowboy", "Cow-boy", "brown", "K"},
}

// ---- Path cards (§2.9, R, D3) ----

// pathCard is one of the 48 path cards: the symbols to lay in order, whether
// it carries the antidote icon (Zombie only), and where each symbol is drawn
// on the card's 3×3 grid.
type pathCard struct {
	ID       string
	Symbols  []Token
	Antidote bool
	Trail    []string
}

// pathTable is the reference's table, one card a line: id, symbols in play
// order, antidote icon, trail cells in play order.
var pathTable = []struct {
	ID, Symbols string
	Antidote    bool
	Trail       string
}{
	{"p01", "se nw e s", false, "c3 b2 c2 c1"},
	{"p02", "se sw nw spin", false, "b1 c2 c3 b3"},
	{"p03", "e n ne w", false, "a2 b1 b2 c3"},
	{"p04", "ne n s se", false, "c2 b3 b2 a3"},
	{"p05", "spin w sw n", true, "b3 c3 c2 c1"},
	{"p06", "s ne w e", false, "a2 a1 b1 c2"},
	{"p07", "w sw spin nw se", false, "b3 c3 b2 a1 a2"},
	{"p08", "w spin sw n e", false, "c3 b3 b2 c1 b1"},
	{"p09", "nw s ne sw se", false, "a2 a3 b2 c3 b3"},
	{"p10", "spin e ne n s", false, "a3 b3 a2 a1 b1"},
	{"p11", "e nw sw spin s", false, "c1 b2 a2 a1 b1"},
	{"p12", "se ne sw w n", true, "b1 a2 b3 a3 b2"},
	{"p13", "e nw n spin ne", false, "c3 c2 b2 b1 c1"},
	{"p14", "n se s nw e", false, "b1 a1 b2 a3 a2"},
	{"p15", "spin s w ne nw", true, "a2 b3 c2 b1 c1"},
	{"p16", "sw w se nw spin", false, "a3 b3 a2 b2 c3"},
	{"p17", "ne n sw s e se", false, "b2 b1 c2 c3 b3 a2"},
	{"p18", "spin w ne e n sw", false, "b2 a3 b3 a2 a1 b1"},
	{"p19", "ne nw s se spin n", false, "a3 b2 c1 b1 a2 a1"},
	{"p20", "se w sw s nw e", false, "b3 c2 b2 c1 b1 a2"},
	{"p21", "se w ne e sw n", true, "b2 c3 c2 b1 a1 a2"},
	{"p22", "s w sw nw spin e", false, "c2 b3 c3 b2 a1 a2"},
	{"p23", "sw se n ne s spin", true, "a2 b1 c2 b2 c3 b3"},
	{"p24", "spin w nw ne e n", false, "b2 b3 a3 a2 b1 a1"},
	{"p25", "sw s w nw se ne", false, "b1 a2 a3 b3 c3 b2"},
	{"p26", "ne spin nw n w s", false, "b2 c2 b3 a2 b1 a1"},
	{"p27", "sw e n se nw w", false, "a3 b3 c3 b2 c2 c1"},
	{"p28", "e se s n spin w", true, "c2 b3 c3 b2 c1 b1"},
	{"p29", "e nw ne s sw se spin", false, "c2 b3 c3 b2 a3 a2 a1"},
	{"p30", "spin sw w e n se s", true, "c3 b2 b1 a1 a2 a3 b3"},
	{"p31", "n ne sw spin nw e w", false, "c2 b1 b2 c3 b3 a3 a2"},
	{"p32", "w ne s se nw e n", false, "b2 c3 b3 a3 a2 a1 b1"},
	{"p33", "s nw se n spin sw ne", true, "a1 b1 a2 a3 b2 b3 c3"},
	{"p34", "sw ne spin w e nw se", false, "b3 b2 a2 a1 b1 c2 c1"},
	{"p35", "w s e ne spin se n", false, "c2 b1 a2 b2 a3 b3 c3"},
	{"p36", "nw w s sw spin e n", false, "b3 a3 b2 c2 c1 b1 a2"},
	{"p37", "e nw ne se s sw w", true, "c3 b2 a3 b3 c2 c1 b1"},
	{"p38", "nw s n sw ne se spin", false, "c1 c2 b2 c3 b3 a2 a3"},
	{"p39", "nw n spin se w sw e ne", false, "b1 c1 b2 a1 a2 b3 c2 c3"},
	{"p40", "nw ne s e spin sw w se", false, "a1 b1 c2 c3 b3 b2 a3 a2"},
	{"p41", "w s n e sw se nw spin", false, "a3 a2 a1 b2 c3 c2 c1 b1"},
	{"p42", "n s ne w se sw spin nw", true, "a1 b2 a3 b3 c2 c1 b1 a2"},
	{"p43", "sw ne se w e s n nw", true, "b1 c1 b2 a3 a2 b3 c2 c3"},
	{"p44", "s n se ne spin e nw w", false, "c2 c1 b1 a2 b2 a3 b3 c3"},
	{"p45", "s sw w spin e n ne se", false, "a1 a2 b3 c3 c2 b2 c1 b1"},
	{"p46", "ne w nw sw n e spin se s", false, "c2 b2 c3 b3 a3 a2 a1 b1 c1"},
	{"p47", "n ne e spin s nw se sw w", true, "a3 b2 c3 b3 a2 a1 b1 c2 c1"},
	{"p48", "n nw spin w sw e ne s se", false, "a1 b1 b2 a3 a2 b3 c3 c2 c1"},
}

// pathCards is pathTable parsed once; index i is card pathTable[i].
var pathCards = parsePathCards()

func parsePathCards() []pathCard {
	out := make([]pathCard, len(pathTable))
	for i, row := range pathTable {
		c := pathCard{ID: row.ID, Antidote: row.Antidote, Trail: strings.Fields(row.Trail)}
		seen := 0
		for _, f := range strings.Fields(row.Symbols) {
			t, ok := tokenByID(f)
			if !ok || t >= arrowCount || seen&(1<<t) != 0 {
				panic("outran: bad path card " + row.ID)
			}
			seen |= 1 << t
			c.Symbols = append(c.Symbols, t)
		}
		if len(c.Symbols) < 4 || len(c.Symbols) > arrowCount || len(c.Trail) != len(c.Symbols) {
			panic("outran: bad path card " + row.ID)
		}
		out[i] = c
	}
	return out
}

// ---- Monster boards (§2.4, §2.5; values and icons R, D5, D6, D30, D31) ----

// Monster is the monster of a game: it sets the board and how interference
// enters play.
type Monster uint8

// The four monsters, in the order of the reference.
const (
	Bear Monster = iota
	Vampire
	Zombie
	Dragon
)

// Icon is a set of special-square marks.
type Icon uint8

// The marks a monster-board square may carry.
const (
	IconClaw      Icon = 1 << iota // 🐾 Bear: the seat here is clawed
	IconBiohazard                  // ☣ Zombie: landing here infects
	IconFire                       // 🔥 Dragon: the seat here burns its hindrances
	IconTurret                     // 🃏 Dragon: the seat here draws two cards
)

// iconNames are the JSON names of the marks, in bit order.
var iconNames = []string{"claw", "biohazard", "fire", "turret"}

// zeroBox is the position number of the +0 box; pos1…pos6 are 1…6.
const zeroBox = 0

// positions is the number of positions on a monster board.
const positions = 6

// boardSpec is one monster board: the steps moved from each square and its
// marks, index 0 being the +0 box.
type boardSpec struct {
	ID     string
	EN, FR string
	Value  [positions + 1]int
	Icons  [positions + 1]Icon
	Deck   deckFilter
	Draws  int // cards drawn by each drawing seat (Bear, Zombie 1; Dragon 2; Vampire 1 to the centre)
}

// deckFilter says which interference cards a board shuffles into its deck
// (§2.8).
type deckFilter uint8

const (
	deckAll deckFilter = iota
	deckVampire
	deckZombie
)

// boards is the table of §2.4, indexed by Monster.
var boards = [4]boardSpec{
	Bear: {ID: "bear", EN: "Bear", FR: "Ours",
		Value: [7]int{0, 0, 1, 1, 2, 2, 3},
		Icons: [7]Icon{1: IconClaw},
		Deck:  deckAll, Draws: 1},
	Vampire: {ID: "vampire", EN: "Vampire", FR: "Vampire",
		Value: [7]int{0, 0, 1, 1, 2, 2, 3},
		Deck:  deckVampire, Draws: 1},
	Zombie: {ID: "zombie", EN: "Zombie", FR: "Zombie",
		Value: [7]int{0, 0, 1, 1, 2, 2, 3},
		Icons: [7]Icon{0: IconBiohazard, 1: IconBiohazard, 4: IconBiohazard},
		Deck:  deckZombie, Draws: 1},
	Dragon: {ID: "dragon", EN: "Dragon", FR: "Dragon",
		Value: [7]int{0, 0, 1, 1, 2, 2, 4},
		Icons: [7]Icon{1: IconFire | IconTurret, 2: IconFire | IconTurret, 3: IconTurret, 4: IconTurret, 5: IconTurret},
		Deck:  deckAll, Draws: 2},
}

// monsterByID finds a monster by its option value.
func monsterByID(id string) (Monster, bool) {
	for i := range boards {
		if boards[i].ID == id {
			return Monster(i), true
		}
	}
	return 0, false
}

// activePositions is the rulebook's grid (§2.5): the positions in use for
// each seat count, lowest first. Inactive squares are covered and never
// occupied.
var activePositions = [7][]int{
	2: {1, 6},
	3: {1, 4, 6},
	4: {1, 3, 4, 6},
	5: {1, 2, 3, 4, 6},
	6: {1, 2, 3, 4, 5, 6},
}

// exitBoardSteps is the length of one exit board (§2.6, D4); the path is
// exitBoardSteps × exit_boards steps long.
const exitBoardSteps = 9

// ---- Interference cards (§2.7, §2.8; R, D8, D35) ----

// Kind is the kind of an interference card.
type Kind uint8

// The fourteen kinds, in the order of §2.7.
const (
	KindReverse Kind = iota
	KindRicochetEvenOdd
	KindRicochetOddEven
	KindInterchange
	KindNotThisWay
	KindDetour
	KindShortcut
	KindExpress
	KindBoost
	KindShield
	KindSwap
	KindForYou
	KindRelease
	KindThief

	kindCount
)

// Category decides what the claw, fire and antidote remove.
type Category uint8

const (
	Hindrance  Category = iota // changes what a seat must lay
	Boon                       // helps its holder
	Guard                      // the Shield
	ActionCard                 // resolves at once, then is discarded
)

// Duration is the icon that decides how long a card stays in front (D8).
type Duration uint8

const (
	Single  Duration = iota // "one at a time": a new single replaces the old one
	Round                   // "one round": discarded at the next interference step
	Lasting                 // no icon: stays until removed
	Instant                 // never stays
)

// Targeting says whom a card may be played on (D36).
type Targeting uint8

const (
	AnySeat   Targeting = iota // any seat, yourself included
	Yourself                   // only the player
	OtherSeat                  // another seat only
)

// kindSpec describes one kind of interference card.
type kindSpec struct {
	ID       string
	EN, FR   string
	Category Category
	Duration Duration
	Target   Targeting
}

// kinds is the table of §2.7.
var kinds = [kindCount]kindSpec{
	KindReverse:         {"reverse", "Reverse", "Marche arrière", Hindrance, Single, AnySeat},
	KindRicochetEvenOdd: {"ricochet_even_odd", "Ricochet, even then odd", "Ricochets (pairs puis impairs)", Hindrance, Single, AnySeat},
	KindRicochetOddEven: {"ricochet_odd_even", "Ricochet, odd then even", "Ricochets (impairs puis pairs)", Hindrance, Single, AnySeat},
	KindInterchange:     {"interchange", "Interchange", "Échangeur", Hindrance, Lasting, AnySeat},
	KindNotThisWay:      {"not_this_way", "Not this way", "Pas par là !", Hindrance, Lasting, AnySeat},
	KindDetour:          {"detour", "Detour", "Détour", Hindrance, Lasting, AnySeat},
	KindShortcut:        {"shortcut", "Shortcut", "Raccourci", Boon, Round, Yourself},
	KindExpress:         {"express", "Express shortcut", "Raccourci express", Boon, Round, Yourself},
	KindBoost:           {"boost", "Boost", "Boost", Boon, Round, Yourself},
	KindShield:          {"shield", "Shield", "Bouclier", Guard, Round, Yourself},
	KindSwap:            {"swap", "Swap", "On troque ?", ActionCard, Instant, OtherSeat},
	KindForYou:          {"for_you", "For you", "Pour toi", ActionCard, Instant, OtherSeat},
	KindRelease:         {"release", "Release", "Libération", ActionCard, Instant, Yourself},
	KindThief:           {"thief", "Thief", "Chapardeur", ActionCard, Instant, OtherSeat},
}

// String returns the kind's id.
func (k Kind) String() string { return kinds[k].ID }

// Card is one interference card of the 48-card table (§2.8). Its JSON form is
// its id ("reverse_3").
type Card uint8

// cardSpec is one row of the interference table: the card's kind and
// parameter, and whether it carries the vampire (V) or zombie (Z) symbol.
type cardSpec struct {
	ID      string
	Kind    Kind
	A, B    Token // Interchange swaps A and B; Not this way skips A
	Slot    int   // Detour: the "+" goes after this many items
	Vampire bool
	Zombie  bool
}

// cards is the interference deck of §2.8 (R, D35), in table order: the order
// in which a board's deck is built before its shuffle.
var cards = [...]cardSpec{
	{ID: "reverse_1", Kind: KindReverse, Vampire: true},
	{ID: "reverse_2", Kind: KindReverse, Vampire: true},
	{ID: "reverse_3", Kind: KindReverse, Zombie: true},
	{ID: "reverse_4", Kind: KindReverse, Zombie: true},
	{ID: "ricochet_even_odd_1", Kind: KindRicochetEvenOdd, Vampire: true},
	{ID: "ricochet_even_odd_2", Kind: KindRicochetEvenOdd, Zombie: true},
	{ID: "ricochet_even_odd_3", Kind: KindRicochetEvenOdd},
	{ID: "ricochet_odd_even_1", Kind: KindRicochetOddEven, Vampire: true},
	{ID: "ricochet_odd_even_2", Kind: KindRicochetOddEven, Zombie: true},
	{ID: "ricochet_odd_even_3", Kind: KindRicochetOddEven},
	{ID: "interchange_n_s", Kind: KindInterchange, A: North, B: South, Vampire: true},
	{ID: "interchange_e_w", Kind: KindInterchange, A: East, B: West, Vampire: true},
	{ID: "interchange_ne_sw", Kind: KindInterchange, A: NorthEast, B: SouthWest, Zombie: true},
	{ID: "interchange_nw_se", Kind: KindInterchange, A: NorthWest, B: SouthEast, Zombie: true},
	{ID: "interchange_spin_sw", Kind: KindInterchange, A: Spin, B: SouthWest},
	{ID: "not_this_way_n", Kind: KindNotThisWay, A: North, Vampire: true},
	{ID: "not_this_way_w", Kind: KindNotThisWay, A: West, Vampire: true},
	{ID: "not_this_way_se", Kind: KindNotThisWay, A: SouthEast, Zombie: true},
	{ID: "not_this_way_spin", Kind: KindNotThisWay, A: Spin, Zombie: true},
	{ID: "not_this_way_e", Kind: KindNotThisWay, A: East},
	{ID: "detour_2_3_v", Kind: KindDetour, Slot: 2, Vampire: true},
	{ID: "detour_3_4_v", Kind: KindDetour, Slot: 3, Vampire: true},
	{ID: "detour_4_5_v", Kind: KindDetour, Slot: 4, Vampire: true},
	{ID: "detour_2_3_z", Kind: KindDetour, Slot: 2, Zombie: true},
	{ID: "detour_3_4_z", Kind: KindDetour, Slot: 3, Zombie: true},
	{ID: "detour_4_5_z", Kind: KindDetour, Slot: 4, Zombie: true},
	{ID: "shortcut_1", Kind: KindShortcut, Vampire: true},
	{ID: "shortcut_2", Kind: KindShortcut, Zombie: true},
	{ID: "shortcut_3", Kind: KindShortcut},
	{ID: "express_1", Kind: KindExpress, Vampire: true},
	{ID: "express_2", Kind: KindExpress, Zombie: true},
	{ID: "boost_1", Kind: KindBoost, Vampire: true},
	{ID: "boost_2", Kind: KindBoost, Vampire: true},
	{ID: "boost_3", Kind: KindBoost, Zombie: true},
	{ID: "boost_4", Kind: KindBoost},
	{ID: "shield_1", Kind: KindShield},
	{ID: "shield_2", Kind: KindShield},
	{ID: "shield_3", Kind: KindShield},
	{ID: "thief_1", Kind: KindThief},
	{ID: "thief_2", Kind: KindThief},
	{ID: "thief_3", Kind: KindThief},
	{ID: "swap_1", Kind: KindSwap},
	{ID: "swap_2", Kind: KindSwap},
	{ID: "swap_3", Kind: KindSwap},
	{ID: "for_you_1", Kind: KindForYou},
	{ID: "for_you_2", Kind: KindForYou},
	{ID: "release_1", Kind: KindRelease, Zombie: true},
	{ID: "release_2", Kind: KindRelease},
}

// cardCount is the number of interference cards.
const cardCount = len(cards)

// oneCard holds a list of each single card, for events, so that they need
// not be made each time. Nobody may change them.
var oneCard = func() (t [cardCount][]Card) {
	for c := range t {
		t[c] = []Card{Card(c)}
	}
	return t
}()

// Kind returns the card's kind.
func (c Card) Kind() Kind { return cards[c].Kind }

// String returns the card's id.
func (c Card) String() string {
	if int(c) < cardCount {
		return cards[c].ID
	}
	return fmt.Sprintf("card(%d)", uint8(c))
}

// MarshalText writes the card's id.
func (c Card) MarshalText() ([]byte, error) {
	if int(c) >= cardCount {
		return nil, fmt.Errorf("outran: no interference card %d", uint8(c))
	}
	return []byte(cards[c].ID), nil
}

// UnmarshalText reads a card id.
func (c *Card) UnmarshalText(b []byte) error {
	v, ok := cardByID(string(b))
	if !ok {
		return fmt.Errorf("%q is not an interference card", b)
	}
	*c = v
	return nil
}

func cardByID(id string) (Card, bool) {
	for i := range cards {
		if cards[i].ID == id {
			return Card(i), true
		}
	}
	return 0, false
}

// decks holds, by deckFilter, a board's interference cards in table order.
var decks = [...][]Card{deckAll: deckOf(deckAll), deckVampire: deckOf(deckVampire), deckZombie: deckOf(deckZombie)}

// deckOf returns a board's interference cards in table order.
func deckOf(f deckFilter) []Card {
	var out []Card
	for i, c := range cards {
		if f == deckAll || (f == deckVampire && c.Vampire) || (f == deckZombie && c.Zombie) {
			out = append(out, Card(i))
		}
	}
	return out
}

// vampireCentreCapacity is how many cards the Vampire centre holds (R, D28).
const vampireCentreCapacity = 2

// ---- Options and timers (§4.10, §6; defaults R, D43) ----

// Option keys.
const (
	optMonster    = "monster"
	optExitBoards = "exit_boards"
	optCountdown  = "countdown_ms"
	optRunLimit   = "run_limit_ms"
	optStopVote   = "stop_vote"
	optVoteGrace  = "stop_vote_grace_ms"
	optDecision   = "decision_ms"
	optMaxRounds  = "max_rounds"
	optPathLayout = "path_layout"
)

// optionKeys are the keys of options, in the same order.
var optionKeys = [...]string{optMonster, optExitBoards, optCountdown, optRunLimit, optStopVote, optVoteGrace, optDecision, optMaxRounds, optPathLayout}

// options is the option schema of §6.
var options = []engine.Option{
	{Key: optMonster, Kind: engine.Choice, Default: "vampire", Choices: []string{"bear", "vampire", "zombie", "dragon"},
		Name: engine.Text{"en": "Monster", "fr": "Monstre"},
		Help: engine.Text{"en": "The monster board: it sets the squares and how interference enters play. The Vampire is the recommended first game.",
			"fr": "Le plateau de monstre\u00a0: il fixe les cases et la façon dont les interférences entrent en jeu. Le Vampire est conseillé pour débuter."}},
	{Key: optExitBoards, Kind: engine.Int, Default: "2", Min: 1, Max: 3,
		Name: engine.Text{"en": "Exit boards", "fr": "Planches de sortie"},
		Help: engine.Text{"en": "Exit path boards of 9 steps each: the length of the game.", "fr": "Planches de 9 cases vers la sortie\u00a0: la durée de la partie."}},
	{Key: optCountdown, Kind: engine.Int, Default: "5000", Min: 2000, Max: 15000,
		Name: engine.Text{"en": "Countdown (ms)", "fr": "Compte à rebours (ms)"},
		Help: engine.Text{"en": "Pause before each path card is revealed.", "fr": "Pause avant chaque carte parcours."}},
	{Key: optRunLimit, Kind: engine.Int, Default: "90000", Min: 30000, Max: 180000,
		Name: engine.Text{"en": "Run time limit (ms)", "fr": "Limite de temps de la course (ms)"},
		Help: engine.Text{"en": "The run ends by force after this time.", "fr": "La course s’arrête d’office après ce temps."}},
	{Key: optStopVote, Kind: engine.Bool, Default: "true",
		Name: engine.Text{"en": "Stop vote", "fr": "Vote d’arrêt"},
		Help: engine.Text{"en": "Seats that have finished may vote to stop a seat that takes far too long.", "fr": "Ceux qui ont fini peuvent voter l’arrêt d’un joueur beaucoup trop lent."}},
	{Key: optVoteGrace, Kind: engine.Int, Default: "10000", Min: 3000, Max: 30000,
		Name: engine.Text{"en": "Wait before voting (ms)", "fr": "Attente avant le vote (ms)"},
		Help: engine.Text{"en": "Time between a seat's own submission and its stop vote.", "fr": "Délai entre sa propre soumission et son vote d’arrêt."}},
	{Key: optDecision, Kind: engine.Int, Default: "20000", Min: 5000, Max: 60000,
		Name: engine.Text{"en": "Decision time (ms)", "fr": "Temps de décision (ms)"},
		Help: engine.Text{"en": "Time for the placement choice, the infection choice and each interference turn.", "fr": "Temps pour le choix de position, le choix d’infection et chaque tour d’interférence."}},
	{Key: optMaxRounds, Kind: engine.Int, Default: "60", Min: 10, Max: 200,
		Name: engine.Text{"en": "Round cap", "fr": "Nombre maximal de tours"},
		Help: engine.Text{"en": "The game ends after this round if nobody has escaped.", "fr": "La partie s’arrête après ce tour si personne n’est sorti."}},
	{Key: optPathLayout, Kind: engine.Choice, Default: "trail", Choices: []string{"trail", "line"},
		Name: engine.Text{"en": "Path card layout", "fr": "Disposition des cartes parcours"},
		Help: engine.Text{"en": "Display only: symbols on the card's footprint trail, or in a straight row.", "fr": "Affichage seulement\u00a0: symboles sur les empreintes de la carte, ou en ligne."}},
}

// maxActions bounds a game's length in records (§5): at most about 9 × 6 + 3
// records a round, for at most 200 rounds.
const maxActions = 20000

// ---- Bots (§8.4, R, D42) ----

// botLevel is one row of the bot timing and error table.
type botLevel struct {
	Name                  string
	ReadMS, CardMS, ModMS float64
	// Spread is how much the bot's pace varies from round to round (O15),
	// the standard deviation of the logarithm of its time.
	Spread                float64
	CardErr, ModErr       float64
	PlayInterferenceSmart bool // false: easy play (each card with probability ½, uniform target)
}

// botLevels is the table of §8.4, fastest last, with O15's spread in
// place of its jitter. One spread for every level: a person's times spread
// in proportion to their pace, whatever the pace. At 0.45 half of a bot's
// rounds take between 0.67 and 1.22 times T, one in ten more than 1.6
// times, and a medium bot is quicker than a hard one in about three
// rounds of ten.
var botLevels = []botLevel{
	{"easy", 2500, 1100, 1800, 0.45, 0.030, 0.10, false},
	{"normal", 1800, 800, 1200, 0.45, 0.015, 0.06, true},
	{"hard", 1200, 550, 700, 0.45, 0.008, 0.03, true},
	{"expert", 800, 400, 400, 0.45, 0.004, 0.015, true},
}

// botThinkMS is how long every bot waits before a decision outside the run,
// so that people can follow (§8.4, R).
const botThinkMS engine.Millis = 1000
