package room25

import "sortie/engine"

// The actions of Room 25. Their JSON form is {"type": Kind(), fields...}
// (engine.MarshalTyped); README.md lists them with examples. Fields that name
// things use the game's ids: tiles "t00".."t24", characters "scientist",
// directions "up", lines "row1"/"col3", actions "look", colours "red".

// StartLook is a seat's secret look at one of the four rooms next to the
// Central Room before the first turn (§4.3).
type StartLook struct {
	Tile TileID `json:"tile"`
}

// SkipLook declines the starting look (§4.3).
type SkipLook struct{}

// Hint is a seat's public claim about the room it has just viewed (§4.12):
// a colour, or "none" for no claim. It may be false.
type Hint struct {
	Colour Colour `json:"colour"`
}

// Program secretly gives one character its actions for the turn (§4.4):
// First alone programs a single token, played in either round.
type Program struct {
	Character Character `json:"character"`
	First     Token     `json:"first"`
	Second    Token     `json:"second,omitempty"`
}

// Play reveals and plays a single programmed token in round 1 (D7).
type Play struct{}

// Wait keeps a single programmed token for round 2 (D7), or, in immediate
// play, lets round 1 go by without acting (D8).
type Wait struct{}

// Pass ends an immediate-play character's round-2 slot without a second
// action (D8); allowed only after acting in round 1.
type Pass struct{}

// Look resolves a revealed Look token: privately view an adjacent
// face-down room.
type Look struct {
	Tile TileID `json:"tile"`
}

// Move resolves a revealed Move token: enter the adjacent room in Dir.
type Move struct {
	Dir Dir `json:"dir"`
}

// Push resolves a revealed Push token: the Character sharing the actor's
// room enters the adjacent room in Dir.
type Push struct {
	Character Character `json:"character"`
	Dir       Dir       `json:"dir"`
}

// Control resolves a revealed Control token: slide the actor's own row
// (left/right) or column (up/down) one step.
type Control struct {
	Line Line `json:"line"`
	Dir  Dir  `json:"dir"`
}

// Act is one action of immediate play (Solo, revealed Guards, D8): the
// action and its target, with the fields of Look, Move, Push or Control.
type Act struct {
	Action    Token     `json:"action"`
	Tile      TileID    `json:"tile,omitempty"`
	Character Character `json:"character,omitempty"`
	Line      Line      `json:"line,omitempty"`
	Dir       Dir       `json:"dir,omitempty"`
}

// VisionView is the Vision Room's choice: privately view any face-down
// room (D23).
type VisionView struct {
	Tile TileID `json:"tile"`
}

// MobileSwap is the Mobile Room's choice: the face-down room it swaps
// places with, occupants riding along (D17).
type MobileSwap struct {
	Tile TileID `json:"tile"`
}

// IllusionSwap is the Illusion Room's choice: the face-down room it swaps
// with, which the character then enters (D16).
type IllusionSwap struct {
	Tile TileID `json:"tile"`
}

// ControlRoomSlide is the Control Room's choice: any slidable line, in a
// direction its control mark allows (D18).
type ControlRoomSlide struct {
	Line Line `json:"line"`
	Dir  Dir  `json:"dir"`
}

// PlaceBeacon puts a character's memory beacon on a face-down room, for
// free, during that character's slot (§4.11).
type PlaceBeacon struct {
	Character Character `json:"character"`
	Tile      TileID    `json:"tile"`
}

// RevealRole turns a Guard's role tile face up during its own slot (D32).
type RevealRole struct{}

// Kind returns "start_look".
func (StartLook) Kind() string { return "start_look" }

// Kind returns "skip_look".
func (SkipLook) Kind() string { return "skip_look" }

// Kind returns "hint".
func (Hint) Kind() string { return "hint" }

// Kind returns "program".
func (Program) Kind() string { return "program" }

// Kind returns "play".
func (Play) Kind() string { return "play" }

// Kind returns "wait".
func (Wait) Kind() string { return "wait" }

// Kind returns "pass".
func (Pass) Kind() string { return "pass" }

// Kind returns "look".
func (Look) Kind() string { return "look" }

// Kind returns "move".
func (Move) Kind() string { return "move" }

// Kind returns "push".
func (Push) Kind() string { return "push" }

// Kind returns "control".
func (Control) Kind() string { return "control" }

// Kind returns "act".
func (Act) Kind() string { return "act" }

// Kind returns "vision_view".
func (VisionView) Kind() string { return "vision_view" }

// Kind returns "mobile_swap".
func (MobileSwap) Kind() string { return "mobile_swap" }

// Kind returns "illusion_swap".
func (IllusionSwap) Kind() string { return "illusion_swap" }

// Kind returns "control_room_slide".
func (ControlRoomSlide) Kind() string { return "control_room_slide" }

// Kind returns "place_beacon".
func (PlaceBeacon) Kind() string { return "place_beacon" }

// Kind returns "reveal_role".
func (RevealRole) Kind() string { return "reveal_role" }

// newAction returns a pointer to a fresh action of the given kind.
func newAction(kind string) (any, bool) {
	switch kind {
	case "start_look":
		return &StartLook{}, true
	case "skip_look":
		return &SkipLook{}, true
	case "hint":
		return &Hint{}, true
	case "program":
		return &Program{}, true
	case "play":
		return &Play{}, true
	case "wait":
		return &Wait{}, true
	case "pass":
		return &Pass{}, true
	case "look":
		return &Look{}, true
	case "move":
		return &Move{}, true
	case "push":
		return &Push{}, true
	case "control":
		return &Control{}, true
	case "act":
		return &Act{}, true
	case "vision_view":
		return &VisionView{}, true
	case "mobile_swap":
		return &MobileSwap{}, true
	case "illusion_swap":
		return &IllusionSwap{}, true
	case "control_room_slide":
		return &ControlRoomSlide{}, true
	case "place_beacon":
		return &PlaceBeacon{}, true
	case "reveal_role":
		return &RevealRole{}, true
	}
	return nil, false
}

// decodeAction reads an action from JSON into its value form.
func decodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, newAction)
	if err != nil {
		return nil, err
	}
	switch a := v.(type) {
	case *StartLook:
		return *a, nil
	case *SkipLook:
		return *a, nil
	case *Hint:
		return *a, nil
	case *Program:
		return *a, nil
	case *Play:
		return *a, nil
	case *Wait:
		return *a, nil
	case *Pass:
		return *a, nil
	case *Look:
		return *a, nil
	case *Move:
		return *a, nil
	case *Push:
		return *a, nil
	case *Control:
		return *a, nil
	case *Act:
		return *a, nil
	case *VisionView:
		return *a, nil
	case *MobileSwap:
		return *a, nil
	case *IllusionSwap:
		return *a, nil
	case *ControlRoomSlide:
		return *a, nil
	case *PlaceBeacon:
		return *a, nil
	case *RevealRole:
		return *a, nil
	}
	return nil, engine.Refuse(engine.CodeMalformed, "Unknown action.")
}

// Pre-boxed actions, so that Legal allocates only its result slice.
var (
	boxStartLook   [numTiles]engine.Action
	boxLook        [numTiles]engine.Action
	boxVision      [numTiles]engine.Action
	boxMobile      [numTiles]engine.Action
	boxIllusion    [numTiles]engine.Action
	boxMove        [5]engine.Action
	boxPush        [maxChars + 1][5]engine.Action
	boxControl     [numLines + 1][5]engine.Action
	boxControlRoom [numLines + 1][5]engine.Action
	boxActLook     [numTiles]engine.Action
	boxActMove     [5]engine.Action
	boxActPush     [maxChars + 1][5]engine.Action
	boxActControl  [numLines + 1][5]engine.Action
	boxProgram     [maxChars + 1][numTokens][numTokens]engine.Action
	boxHint        [HintBlue + 1]engine.Action
	boxBeacon      [maxChars + 1][numTiles]engine.Action

	boxSkipLook engine.Action = SkipLook{}
	boxPlay     engine.Action = Play{}
	boxWait     engine.Action = Wait{}
	boxPass     engine.Action = Pass{}
	boxReveal   engine.Action = RevealRole{}
)

// Shared legal lists (see State.Legal): nobody may change them, and their
// capacity ends with them so that an append by a caller copies.
var (
	// startLookList is the starting look's list while the tiles next to
	// the Central Room are those dealt there.
	startLookList []engine.Action
	// hintList lists the hint colours.
	hintList []engine.Action
	// playWaitList is a single token's choice in round 1.
	playWaitList []engine.Action
	// moveLists[mask] lists the Moves in the directions of mask (bit 0
	// up, 1 down, 2 left, 3 right), in that order.
	moveLists [16][]engine.Action
	// pushLists[o][mask] lists the Pushes of o in the directions of mask.
	pushLists [maxChars + 1][16][]engine.Action
	// controlLists[cell][mask] lists the Controls from cell: its row left
	// and right, then its column up and down, where mask has a bit.
	controlLists [numCells][16][]engine.Action
	// programLists[c][cold][d][dcold] is the programming list of a seat
	// with characters c and d (NoCharacter: c alone) to program, cold if
	// in the Cold Room.
	programLists [maxChars + 1][2][maxChars + 1][2][]engine.Action
)

// shared returns l with its capacity ended.
func shared(l []engine.Action) []engine.Action { return l[:len(l):len(l)] }

func init() { initBoxes() }

// buildLegalLists makes the shared legal lists (see buildTables).
func buildLegalLists() {
	for _, cell := range startAdjacent {
		startLookList = append(startLookList, boxStartLook[cell])
	}
	startLookList = shared(append(startLookList, boxSkipLook))
	hintList = shared(append([]engine.Action(nil), boxHint[HintNone:]...))
	playWaitList = shared([]engine.Action{boxPlay, boxWait})
	for mask := range 16 {
		subset := func(all [4]engine.Action) []engine.Action {
			var l []engine.Action
			for i, a := range all {
				if mask&(1<<i) != 0 {
					l = append(l, a)
				}
			}
			return shared(l)
		}
		moveLists[mask] = subset([4]engine.Action(boxMove[Up:]))
		for o := Scientist; o <= LittleGirl; o++ {
			pushLists[o][mask] = subset([4]engine.Action(boxPush[o][Up:]))
		}
		for cell := range int8(numCells) {
			row, col := rowLine(rowOf(cell)), colLine(colOf(cell))
			controlLists[cell][mask] = subset([4]engine.Action{boxControl[row][Left], boxControl[row][Right], boxControl[col][Up], boxControl[col][Down]})
		}
	}
	for c := Scientist; c <= LittleGirl; c++ {
		for cold := range 2 {
			programLists[c][cold][NoCharacter][0] = shared(appendPrograms(nil, c, cold == 1))
			for d := c + 1; d <= LittleGirl; d++ {
				for dcold := range 2 {
					l := appendPrograms(nil, c, cold == 1)
					programLists[c][cold][d][dcold] = shared(appendPrograms(l, d, dcold == 1))
				}
			}
		}
	}
}

func initBoxes() {
	for t := range int8(numTiles) {
		id := tileID(t)
		boxStartLook[t] = StartLook{id}
		boxLook[t] = Look{id}
		boxVision[t] = VisionView{id}
		boxMobile[t] = MobileSwap{id}
		boxIllusion[t] = IllusionSwap{id}
		boxActLook[t] = Act{Action: TokenLook, Tile: id}
		for c := Scientist; c <= LittleGirl; c++ {
			boxBeacon[c][t] = PlaceBeacon{c, id}
		}
	}
	for d := Up; d <= Right; d++ {
		boxMove[d] = Move{d}
		boxActMove[d] = Act{Action: TokenMove, Dir: d}
		for c := Scientist; c <= LittleGirl; c++ {
			boxPush[c][d] = Push{c, d}
			boxActPush[c][d] = Act{Action: TokenPush, Character: c, Dir: d}
		}
		for l := Line(1); l <= numLines; l++ {
			boxControl[l][d] = Control{l, d}
			boxControlRoom[l][d] = ControlRoomSlide{l, d}
			boxActControl[l][d] = Act{Action: TokenControl, Line: l, Dir: d}
		}
	}
	for c := Scientist; c <= LittleGirl; c++ {
		for f := TokenLook; f <= TokenControl; f++ {
			for s := NoToken; s <= TokenControl; s++ {
				if s != f {
					boxProgram[c][f][s] = Program{c, f, s}
				}
			}
		}
	}
	for h := HintNone; h <= HintBlue; h++ {
		boxHint[h] = Hint{h}
	}
}
