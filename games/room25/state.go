package room25

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"sortie/engine"
)

// phase is the stage of the game.
type phase uint8

const (
	phaseStartLook   phase = iota // every seat chooses its starting look (§4.3)
	phaseStartHint                // seats that looked choose a hint
	phaseProgramming              // seats program their characters (§4.4)
	phaseAction                   // the two action rounds (§4.5)
	phaseOver
)

var phaseNames = [...]string{"start_look", "start_hint", "programming", "action", "over"}

// pendKind is the decision the action phase waits for.
type pendKind uint8

const (
	pendNone        pendKind = iota
	pendPlayWait             // a single token, round 1: play or wait (D7)
	pendToken                // a revealed token: choose its target (D10)
	pendAct                  // immediate play: act, wait or pass (D8)
	pendVision               // Vision Room: choose a face-down tile
	pendMobile               // Mobile Room: choose a face-down tile
	pendIllusion             // Illusion Room: choose a face-down tile
	pendControlRoom          // Control Room: choose a slide
	pendHint                 // after a private view: choose a hint
)

var pendNames = [...]string{"", "play_or_wait", "target", "act", "vision_view", "mobile_swap", "illusion_swap", "control_room_slide", "hint"}

// pending is the decision the action phase waits for, and who takes it.
type pending struct {
	kind  pendKind
	seat  int8
	char  Character // the slot's character, or the entering one for effects
	token Token     // pendToken: the revealed token
	tile  int8      // pendHint: the tile just viewed
}

// character is one figure and its turn.
type character struct {
	inPlay    bool
	alive     bool
	seat      int8
	tile      int8 // the tile it stands on; -1 once dead
	trap      int8 // the Trapped Room tile it must leave, or -1 (§4.10)
	trapFresh bool // trap was set during its own current action
	flood     int8 // the Flooded Room tile it must leave, or -1
	floodTurn int  // the turn it flooded that tile
	beacon    int8 // the tile its beacon is on, or -1
	died      int  // turn of death

	// This turn.
	programmed bool
	plan       [2]Token // programmed tokens; plan[1] is NoToken for a single
	immediate  bool     // plays freely instead of programming (D8)
	cold       bool     // in a Cold Room at the start of the turn (D9)
	shown      [2]Token // the token revealed (or acted) in each round
	waited     bool     // waited in round 1
	prev       [2]Token // what it showed last turn (public)
}

// hint is a public claim on a tile (§4.12).
type hint struct {
	seat   int8
	tile   int8
	colour Colour
}

// State is a game of Room 25 in progress. It implements engine.State and
// engine.Determinizer.
type State struct {
	rng     engine.RNG
	mode    Mode
	set     RoomSet
	custom  [numRooms]int8 // the rooms of a custom set, by room (zero otherwise)
	beacons bool
	seats   int
	// teamTalk: the match offers each team a channel of its own (O17).
	teamTalk bool

	chars [maxChars + 1]character // indexed by Character; 0 unused
	line  []Character             // marker line, head first
	team  [maxSeats]int8          // Team mode: 0 (A) or 1 (B); -1 otherwise

	role        [maxSeats]Role // Suspicion roles, secret
	roleShown   [maxSeats]bool
	roleTurn    [maxSeats]int // turn the role became public
	aside       []Role        // role tiles set aside unseen
	guardsDealt int

	cellTile [numCells]int8 // tile on each cell
	tilePos  [numTiles]int8 // cell of each tile
	room     [numTiles]Room // identity of each tile (secret while face down)
	faceUp   uint32         // bit t: tile t is face up
	known    [maxSeats]uint32
	viewed   [numTiles]uint8 // bit p: seat p publicly viewed the tile
	hints    []hint
	marks    [numLines]Dir // control marks of this turn (§4.9)

	turn      int
	turnsLeft int
	alarm     bool
	phase     phase
	round     int
	slot      int  // index of the current slot in line
	inSlot    bool // the slot at line[slot] has begun
	slotActed bool // the slot's character resolved an action (D20)
	pend      pending

	startLook [maxSeats]int8 // -2 undecided, -1 skipped, else the tile
	startHint [maxSeats]Colour

	deaths []Character // in order of elimination

	over    bool
	reason  string
	outcome engine.Outcome // its lists are never changed once made

	out []engine.Event // events of the action being applied
	mem chunks         // where the lists the state hands out are carved from

	// The arrays of line, deaths, aside and hints while they fit, so that
	// a clone is one allocation (see inline).
	lineBuf   [maxChars]Character
	deathsBuf [maxChars]Character
	asideBuf  [prisonerTiles + guardTiles]Role
	hintsBuf  [hintsInline]hint
}

// hintsInline is the number of hints a state holds in its own array; a game
// with more keeps them in an array of their own.
const hintsInline = 32

// newState sets a match up (§3.2).
func newState(mode Mode, set RoomSet, beacons bool, seats int, seed uint64) *State {
	return newStateWith(mode, set, setRooms(set), beacons, seats, seed)
}

// newStateWith sets a match up with the given 25 rooms of the set (a
// custom set brings its own).
func newStateWith(mode Mode, set RoomSet, roomList []Room, beacons bool, seats int, seed uint64) *State {
	buildTables()
	s := &State{rng: engine.NewRNG(seed), mode: mode, set: set, beacons: beacons, seats: seats}
	s.line, s.deaths, s.hints = s.lineBuf[:0], s.deathsBuf[:0], s.hintsBuf[:0]
	for p := range s.team {
		s.team[p] = -1
		s.startLook[p] = -2
	}

	// Characters (§3.1).
	assign := func(c Character, p int) {
		s.chars[c] = character{inPlay: true, alive: true, seat: int8(p), tile: centreCell, trap: -1, flood: -1, beacon: -1}
	}
	first := s.rng.IntN(seats) // D1
	switch {
	case mode == Solo:
		for _, c := range soloAssign {
			assign(c, 0)
			s.line = append(s.line, c)
		}
	case mode == Team:
		for p, c := range teamAssign[seats] {
			assign(c, p)
			s.team[p] = int8(p % 2)
		}
		for i := range seats {
			s.line = append(s.line, teamAssign[seats][(first+i)%seats])
		}
	case seats <= 3: // one duo per seat: markers in two rounds (§3.2 step 3)
		for p := range seats {
			assign(duoAssign[p][0], p)
			assign(duoAssign[p][1], p)
		}
		for k := range 2 {
			for i := range seats {
				s.line = append(s.line, duoAssign[(first+i)%seats][k])
			}
		}
	default:
		for p := range seats {
			assign(singleAssign[p], p)
		}
		for i := range seats {
			s.line = append(s.line, singleAssign[(first+i)%seats])
		}
	}
	s.turn = 1
	s.turnsLeft = modes[mode].counter

	// Roles (§3.2 step 4).
	if mode == Suspicion {
		tiles := make([]Role, 0, prisonerTiles+guardTiles)
		for range prisonerTiles {
			tiles = append(tiles, Prisoner)
		}
		for range guardsFor(seats) {
			tiles = append(tiles, Guard)
		}
		s.rng.Shuffle(len(tiles), func(i, j int) { tiles[i], tiles[j] = tiles[j], tiles[i] })
		copy(s.role[:seats], tiles)
		s.aside = inline(s.asideBuf[:], tiles[seats:])
		for p := range seats {
			if s.role[p] == Guard {
				s.guardsDealt++
			}
		}
	}

	// The complex (§3.2 step 6).
	var shuffled, exits []Room
	for _, r := range roomList {
		if set == SetCustom {
			s.custom[r]++
		}
		switch rooms[r].pool {
		case PoolShuffled:
			shuffled = append(shuffled, r)
		case PoolExit:
			exits = append(exits, r)
		}
	}
	s.rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	exits = append(exits, shuffled[len(innerCells):]...)
	s.rng.Shuffle(len(exits), func(i, j int) { exits[i], exits[j] = exits[j], exits[i] })
	place := func(cell int8, r Room) {
		s.cellTile[cell] = cell
		s.tilePos[cell] = cell
		s.room[cell] = r
	}
	place(centreCell, RoomCentral)
	s.faceUp = 1 << centreCell
	for i, cell := range innerCells {
		place(cell, shuffled[i])
	}
	for i, cell := range exitCells {
		place(cell, exits[i])
	}
	return s
}

// Mode returns the game's mode.
func (s *State) Mode() Mode { return s.mode }

// Actors returns the seats that may act now, in seat order. The list is
// shared: callers must not change it.
func (s *State) Actors() []engine.Seat {
	var mask uint8
	switch s.phase {
	case phaseStartLook:
		for p := range s.seats {
			if s.startLook[p] == -2 {
				mask |= 1 << p
			}
		}
	case phaseStartHint:
		for p := range s.seats {
			if s.startLook[p] >= 0 && s.startHint[p] == NoColour {
				mask |= 1 << p
			}
		}
	case phaseProgramming:
		for c := Scientist; c <= LittleGirl; c++ {
			if ch := &s.chars[c]; ch.inPlay && ch.alive && !ch.immediate && !ch.programmed {
				mask |= 1 << ch.seat
			}
		}
	case phaseAction:
		if s.pend.kind != pendNone {
			mask = 1 << s.pend.seat
		}
	}
	return seatSets[mask]
}

// seatSets lists the seats of every set of seats, in seat order, so that
// Actors does not allocate; the empty set is nil. The capacity limit makes
// an append by a caller copy.
var seatSets = func() (t [1 << maxSeats][]engine.Seat) {
	for m := range t {
		for p := range maxSeats {
			if m&(1<<p) != 0 {
				t[m] = append(t[m], engine.Seat(p))
			}
		}
		t[m] = t[m][:len(t[m]):len(t[m])]
	}
	return t
}()

// toProgram returns a character of seat p that still has to be programmed,
// or NoCharacter.
func (s *State) toProgram(p int8) Character {
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &s.chars[c]
		if ch.inPlay && ch.alive && ch.seat == p && !ch.immediate && !ch.programmed {
			return c
		}
	}
	return NoCharacter
}

// Advance does nothing: Room 25 has no clock.
func (s *State) Advance(engine.Millis) []engine.Event { return nil }

// Deadline reports that nothing is scheduled.
func (s *State) Deadline() (engine.Millis, bool) { return 0, false }

// Outcome returns the result once the game is over.
func (s *State) Outcome() (engine.Outcome, bool) {
	if !s.over {
		return engine.Outcome{}, false
	}
	o := s.outcome
	o.Winners = append([]engine.Seat(nil), o.Winners...)
	// The ranks and the scores share one array (a search asks twice a
	// playout), each with its capacity ended; empty lists stay nil.
	nr := len(o.Ranks)
	ints := append(append(make([]int, 0, nr+len(o.Scores)), o.Ranks...), o.Scores...)
	o.Ranks, o.Scores = nilIfEmpty(ints[:nr:nr]), nilIfEmpty(ints[nr:])
	return o, true
}

// nilIfEmpty returns xs, or nil when it is empty.
func nilIfEmpty[T any](xs []T) []T {
	if len(xs) == 0 {
		return nil
	}
	return xs
}

// Clone returns an independent deep copy.
func (s *State) Clone() engine.State { return s.clone() }

// TalkTeam gives the team channel of seat p in Team mode with team chat on
// (O17, D41): teams are public and fixed at the setup. It is -1 otherwise,
// and the match's table talk is then heard by everyone.
func (s *State) TalkTeam(p engine.Seat) int {
	if !s.teamTalk || p < 0 || int(p) >= s.seats {
		return -1
	}
	return int(s.team[p])
}

func (s *State) clone() *State {
	c := new(State)
	*c = *s
	c.line = inline(c.lineBuf[:], s.line)
	c.aside = inline(c.asideBuf[:], s.aside)
	c.hints = inline(c.hintsBuf[:], s.hints)
	c.deaths = inline(c.deathsBuf[:], s.deaths)
	// The outcome's lists are shared: nothing changes them once made.
	c.out = nil
	c.mem = chunks{} // the clone carves its lists from chunks of its own
	return c
}

// Helpers on the board.

func (s *State) isFaceUp(t int8) bool { return s.faceUp&(1<<uint(t)) != 0 }

// cellOf returns the cell a character stands on, or -1 if dead.
func (s *State) cellOf(c Character) int8 {
	t := s.chars[c].tile
	if t < 0 {
		return -1
	}
	return s.tilePos[t]
}

// tileAt returns the tile on a cell.
func (s *State) tileAt(cell int8) int8 { return s.cellTile[cell] }

// occupied reports whether a living character other than except stands on
// tile t.
func (s *State) occupied(t int8, except Character) bool {
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &s.chars[c]
		if c != except && ch.inPlay && ch.alive && ch.tile == t {
			return true
		}
	}
	return false
}

// faceDownCount returns the number of face-down tiles.
func (s *State) faceDownCount() int {
	n := 0
	for t := range int8(numTiles) {
		if !s.isFaceUp(t) {
			n++
		}
	}
	return n
}

// owner returns the seat playing a character.
func (s *State) owner(c Character) int8 { return s.chars[c].seat }

// Determinize returns a copy in which everything seat p may not know is
// resampled consistently with its view (§8): identities of face-down tiles
// p has not viewed (Room 25 and the Vision Room only on exit-origin tiles),
// other seats' unrevealed programs and start looks, and hidden roles. The
// copy's generator is reseeded from r.
func (s *State) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	d := s.resample(p, r, nil)
	d.rng = engine.NewRNG(r.Uint64())
	return d
}

// resample changes what seat p may not know, keeping the roles of the seats
// in keep (the current actors, whose legal actions depend on them).
func (s *State) resample(p engine.Seat, r *rand.Rand, keep []engine.Seat) *State {
	d := s.clone()
	if s.over {
		return d
	}
	knows := func(q int8) bool { return p != engine.Spectator && int8(p) == q }
	var mine uint32
	if p != engine.Spectator {
		mine = s.known[p]
	}

	// Face-down tiles p has not viewed. (The lists live on the stack.)
	var hiddenBuf, exitBuf, freeBuf [numTiles]int8
	var poolBuf, restBuf [numTiles]Room
	hidden, hiddenExit, pool := hiddenBuf[:0], exitBuf[:0], poolBuf[:0]
	for t := range int8(numTiles) {
		if s.isFaceUp(t) || mine&(1<<uint(t)) != 0 {
			continue
		}
		hidden = append(hidden, t)
		pool = append(pool, s.room[t])
	}
	if len(hidden) > 0 {
		// The unseen rooms are sorted before they are dealt again: the
		// copy depends on what p may know and on r alone, never on where
		// the rooms really are (hints, coach).
		slices.Sort(pool)
		for _, t := range hidden {
			if origin(t) == "exit" {
				hiddenExit = append(hiddenExit, t)
			}
		}
		r.Shuffle(len(hiddenExit), func(i, j int) { hiddenExit[i], hiddenExit[j] = hiddenExit[j], hiddenExit[i] })
		free, rest := freeBuf[:0], restBuf[:0]
		var used uint32
		k := 0
		for _, rm := range pool {
			if rooms[rm].pool == PoolExit {
				d.room[hiddenExit[k]] = rm
				used |= 1 << uint(hiddenExit[k])
				k++
			} else {
				rest = append(rest, rm)
			}
		}
		for _, t := range hidden {
			if used&(1<<uint(t)) == 0 {
				free = append(free, t)
			}
		}
		r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		for i, t := range free {
			d.room[t] = rest[i]
		}
	}

	// Other seats' start looks, before they are published (look or skip is
	// kept: it decides who hints).
	if s.phase == phaseStartLook || s.phase == phaseStartHint {
		for q := range int8(s.seats) {
			if knows(q) || s.startLook[q] < 0 {
				continue
			}
			t := startAdjacent[r.IntN(len(startAdjacent))]
			d.startLook[q] = t
			if s.phase == phaseStartHint {
				d.known[q] = 1 << uint(t)
			}
		}
	}

	// Other seats' unrevealed programmed tokens: the count is public.
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &d.chars[c]
		if !ch.inPlay || !ch.programmed || knows(ch.seat) {
			continue
		}
		if ch.plan[1] == NoToken {
			if ch.shown[0] == NoToken && ch.shown[1] == NoToken {
				ch.plan[0] = TokenLook + Token(r.IntN(4))
			}
			continue
		}
		if ch.shown[0] == NoToken {
			ch.plan[0] = TokenLook + Token(r.IntN(4))
		}
		if ch.shown[1] == NoToken {
			ch.plan[1] = TokenLook + Token(r.IntN(3))
			if ch.plan[1] >= ch.plan[0] {
				ch.plan[1]++
			}
		}
	}

	// Hidden roles, from the tiles nobody has seen.
	if s.mode == Suspicion {
		var freeBuf [maxSeats]int8
		var tilesBuf [prisonerTiles + guardTiles]Role
		free := freeBuf[:0]
		tiles := append(tilesBuf[:0], s.aside...)
		for q := range int8(s.seats) {
			kept := knows(q) || s.roleShown[q]
			for _, a := range keep {
				kept = kept || int8(a) == q
			}
			if !kept {
				free = append(free, q)
				tiles = append(tiles, s.role[q])
			}
		}
		slices.Sort(tiles)
		r.Shuffle(len(tiles), func(i, j int) { tiles[i], tiles[j] = tiles[j], tiles[i] })
		for i, q := range free {
			d.role[q] = tiles[i]
		}
		d.aside = append(d.aside[:0], tiles[len(free):]...)
		d.guardsDealt = 0
		for q := range s.seats {
			if d.role[q] == Guard {
				d.guardsDealt++
			}
		}
	}
	return d
}

// Game is Room 25 (base game): its description, setup and action decoding.
type Game struct{}

// Option keys.
const (
	optMode     = "mode"
	optRoomSet  = "room_set"
	optBeacons  = "beacons"
	optTeamChat = "team_chat"
	optCustom   = "custom_rooms"
)

// Info describes Room 25 and its options (§6).
func (Game) Info() engine.Info { return info }

// info is built once: New checks every setup against it.
var info = buildInfo()

func buildInfo() engine.Info {
	modeChoices := []string{"auto"}
	for m := range numModes {
		modeChoices = append(modeChoices, modes[m].id)
	}
	setChoices := []string{"auto"}
	for st := range numSets {
		setChoices = append(setChoices, setNames[st])
	}
	setChoices = append(setChoices, "custom")
	return engine.Info{
		ID:   "room25",
		Name: engine.Text{"fr": "Room 25", "en": "Room 25"},
		Summary: engine.Text{
			"en": "Prisoners of a deadly TV show explore a sliding complex of 25 rooms, programming their moves in secret, to find Room 25 and slide it out before time runs out. Cooperative, solo, hidden-traitor, competitive and team modes.",
			"fr": "Prisonniers d’un jeu télévisé mortel, les joueurs explorent un complexe de 25 salles coulissantes en programmant leurs actions en secret, pour trouver la Room 25 et la faire sortir avant la fin du compte à rebours. Modes coopératif, solo, avec traîtres, compétitif et par équipes.",
		},
		MinPlayers: 1,
		MaxPlayers: maxSeats,
		Timing:     engine.Simultaneous,
		Options: []engine.Option{
			{Key: optMode, Kind: engine.Choice, Default: "auto", Choices: modeChoices,
				Name: engine.Text{"en": "Mode", "fr": "Mode"},
				Help: engine.Text{
					"en": "auto: solo with 1 player, otherwise cooperation. Cooperation 2–6, solo 1, suspicion 4–6, competition 2–3, team 4 or 6.",
					"fr": "auto\u00a0: solo à 1 joueur, sinon coopération. Coopération 2–6, solo 1, suspicion 4–6, compétition 2–3, équipe 4 ou 6.",
				}},
			{Key: optRoomSet, Kind: engine.Choice, Default: "auto", Choices: setChoices,
				Name: engine.Text{"en": "Rooms", "fr": "Salles"},
				Help: engine.Text{
					"en": "auto: beginner for cooperation and solo, expert_suspicion for suspicion, expert_competition for competition and team.",
					"fr": "auto\u00a0: débutant en coopération et solo, expert_suspicion en suspicion, expert_competition en compétition et équipe.",
				}},
			{Key: optCustom, Kind: engine.String, Default: "", Max: 400,
				Name: engine.Text{"en": "Custom rooms", "fr": "Salles au choix"},
				Help: engine.Text{
					"en": "With room_set=custom: 23 rooms as id:count pairs (Central Room and Room 25 are added), at most the box's count of each, exactly one vision. Example: empty:4,vision:1,control_room:1,mobile:1,twin:2,vortex:1,prison:2,cold:2,dark:2,trapped:2,deadly:1,illusion:1,flooded:1,acid:2.",
					"fr": "Avec room_set=custom\u00a0: 23 salles en paires id:nombre (la salle centrale et la Room 25 s’ajoutent), au plus le nombre de la boîte pour chacune, exactement une vision. Exemple\u00a0: empty:4,vision:1,control_room:1,mobile:1,twin:2,vortex:1,prison:2,cold:2,dark:2,trapped:2,deadly:1,illusion:1,flooded:1,acid:2.",
				}},
			{Key: optBeacons, Kind: engine.Choice, Default: "on", Choices: []string{"on", "off"},
				Name: engine.Text{"en": "Memory beacons", "fr": "Balises mémorielles"}},
			{Key: optTeamChat, Kind: engine.Choice, Default: "on", Choices: []string{"on", "off"},
				Name: engine.Text{"en": "Team chat (team mode)", "fr": "Discussion d’équipe (mode équipe)"},
				Help: engine.Text{
					"en": "Whether the match offers a team-only chat in team mode; it does not change the rules.",
					"fr": "Si la partie offre une discussion réservée à l’équipe en mode équipe\u00a0; sans effet sur les règles.",
				}},
		},
		MaxActions: 4000,
	}
}

// New sets up a match (§3).
func (g Game) New(setup engine.Setup) (engine.State, error) {
	opts, err := info.Check(setup)
	if err != nil {
		return nil, err
	}
	n := setup.Players
	mode := Cooperation
	if n == 1 {
		mode = Solo
	}
	if v := opts.String(optMode); v != "auto" {
		for m := range numModes {
			if modes[m].id == v {
				mode = m
			}
		}
	}
	ms := modes[mode]
	if n < ms.minSeats || n > ms.maxSeats || (!ms.oddOK && n%2 == 1) {
		return nil, fmt.Errorf("%s", seatsError(mode))
	}
	set := ms.defaultSet
	if v := opts.String(optRoomSet); v != "auto" {
		for st := range numSets {
			if setNames[st] == v {
				set = st
			}
		}
		if v == "custom" {
			set = SetCustom
		}
	}
	var list []Room
	spec := opts.String(optCustom)
	switch {
	case set == SetCustom && spec == "":
		return nil, fmt.Errorf("the custom room set needs custom_rooms: 23 rooms as id:count pairs, such as empty:6,vision:1,…")
	case set != SetCustom && spec != "":
		return nil, fmt.Errorf("custom_rooms is only read with room_set=custom")
	case set == SetCustom:
		if list, err = customRooms(spec); err != nil {
			return nil, err
		}
	default:
		list = setRooms(set)
	}
	s := newStateWith(mode, set, list, opts.String(optBeacons) == "on", n, setup.Seed)
	s.teamTalk = mode == Team && opts.String(optTeamChat) == "on"
	return s, nil
}

func seatsError(m Mode) string {
	switch m {
	case Solo:
		return "Solo is played by exactly 1 player"
	case Cooperation:
		return "Cooperation needs 2 to 6 players (1 player: choose solo)"
	case Suspicion:
		return "Suspicion needs 4 to 6 players"
	case Competition:
		return "Competition needs 2 or 3 players"
	}
	return "Team mode needs 4 or 6 players"
}

// DecodeAction reads an action from its JSON form.
func (Game) DecodeAction(b []byte) (engine.Action, error) { return decodeAction(b) }
