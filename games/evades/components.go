package evades

// This file holds every number and name of Les Évadés: the board graph and its
// drawing coordinates, the Combines cards, the door tabs, the Pass-Pass cards,
// the Warning tokens, the objects and the escape plans. Every value marked (R)
// in shared/rules/evades.md (reconstructed, tunable) lives in exactly one
// table below, and no other file hard-codes any of it: rule logic refers to
// the tables, never to a particular door, card count or coordinate.

// Fixed quantities of the rulebook and of the decisions (Dn).
const (
	handLimit        = 12 // §4.5: most Combines cards a hand may hold
	dealSize         = 6  // setup step 8: cards dealt to each seat
	rowSize          = 5  // face-up Combines cards
	numSlotPairs     = rowSize * (rowSize - 1) / 2
	takeCount        = 2   // cards gained by take_face_up and take_blind
	wipeCap          = 10  // D9: most wipes in a row within one check
	tripleSize       = 3   // D9: identical face-up cards that trigger a wipe
	tokensPerColour  = 20  // Warning tokens of each colour
	turnLimitPerSeat = 100 // D29: turns begun per seat before the game is called off
	minPlayers       = 2   // D1
	maxPlayers       = 4   // D1: 4 pawns, 4 plans
	noSeat           = -1
)

// Card is a Combines card type (D40: cards of one type are identical). Its
// JSON form is the type id, as in "crowbar".
type Card uint8

// The Combines types in canonical order (§2.5), the order used for sorting
// hands and enumerating actions.
const (
	Spoon Card = iota
	Soap
	Paperclip
	Cigarettes
	File
	Screwdriver
	Rope
	WireCutters
	Crowbar
	Uniform
	Keypad
	Joker
	numCards
	noCard Card = 255 // an empty face-up slot (never happens with the shipped counts)
)

// cardInfo describes one Combines type.
type cardInfo struct {
	ID    string
	Level int // cards needed for a door showing it; 0 for the joker
	En    string
	Fr    string
	Count int // copies in the deck (R)
}

// cards is the Combines deck (§2.5; names other than uniform and keypad, and
// all counts, are (R), D33). 82 cards.
var cards = [numCards]cardInfo{
	Spoon:       {"spoon", 1, "spoon", "cuillère", 5},
	Soap:        {"soap", 1, "soap", "savon", 5},
	Paperclip:   {"paperclip", 1, "paperclip", "trombone", 5},
	Cigarettes:  {"cigarettes", 1, "cigarettes", "cigarettes", 5},
	File:        {"file", 2, "file", "lime", 7},
	Screwdriver: {"screwdriver", 2, "screwdriver", "tournevis", 7},
	Rope:        {"rope", 2, "knotted sheets", "drap noué", 7},
	WireCutters: {"wire_cutters", 2, "wire cutters", "pince coupante", 7},
	Crowbar:     {"crowbar", 3, "crowbar", "pied-de-biche", 12},
	Uniform:     {"uniform", 3, "guard's uniform", "uniforme", 8},
	Keypad:      {"keypad", 3, "keypad code", "digicode", 8},
	Joker:       {"joker", 0, "joker", "joker", 6},
}

// Area is a node of the prison graph: a room, a stretch of corridor, or an
// exit. Its JSON form is its id, as in "hall_n".
type Area uint8

// Area kinds (§2.2).
const (
	kindCell  = "cell"
	kindRing  = "ring"
	kindHall  = "hall"
	kindLobby = "lobby"
	kindWing  = "wing"
	kindRoom  = "room"
	kindExit  = "exit"
)

// areaInfo describes one area, with its drawing centre on the 0–24 grid.
type areaInfo struct {
	ID   string
	Kind string
	En   string
	Fr   string
	X, Y float64
	Vent bool // D35 (R)
}

// areas is the board's node table (§2.2, (R)). The cell comes first: pawns
// start there and the Speaker sends them back there.
var areas = [...]areaInfo{
	{"cell", kindCell, "Cell", "Cellule", 12, 12, false},
	{"ring_n", kindRing, "North corridor", "Couloir nord", 12, 9, false},
	{"ring_e", kindRing, "East corridor", "Couloir est", 15, 12, false},
	{"ring_s", kindRing, "South corridor", "Couloir sud", 12, 15, false},
	{"ring_w", kindRing, "West corridor", "Couloir ouest", 9, 12, false},
	{"hall_n", kindHall, "North hall", "Galerie nord", 12, 6, false},
	{"hall_e", kindHall, "East hall", "Galerie est", 18, 12, false},
	{"hall_s", kindHall, "South hall", "Galerie sud", 12, 18, false},
	{"hall_w", kindHall, "West hall", "Galerie ouest", 6, 12, false},
	{"lobby_n", kindLobby, "Roof stairs", "Escalier du toit", 12, 3, false},
	{"lobby_e", kindLobby, "Pier gate", "Accès embarcadère", 21, 12, false},
	{"lobby_s", kindLobby, "Sewer access", "Accès égout", 12, 21, false},
	{"lobby_w", kindLobby, "Garage ramp", "Rampe du parking", 3, 12, false},
	{"wing_ne", kindWing, "North-east wing", "Aile nord-est", 17, 7, true},
	{"wing_se", kindWing, "South-east wing", "Aile sud-est", 17, 17, true},
	{"wing_sw", kindWing, "South-west wing", "Aile sud-ouest", 7, 17, true},
	{"wing_nw", kindWing, "North-west wing", "Aile nord-ouest", 7, 7, true},
	{"room_ne", kindRoom, "NE common room", "Salle commune NE", 21, 3, false},
	{"room_se", kindRoom, "SE common room", "Salle commune SE", 21, 21, false},
	{"room_sw", kindRoom, "SW common room", "Salle commune SO", 3, 21, false},
	{"room_nw", kindRoom, "NW common room", "Salle commune NO", 3, 3, false},
	{"exit_roof", kindExit, "Roof", "Toit", 12, 0, false},
	{"exit_pier", kindExit, "Pier", "Embarcadère", 24, 12, false},
	{"exit_sewer", kindExit, "Sewer", "Égout", 12, 24, false},
	{"exit_parking", kindExit, "Parking", "Parking", 0, 12, false},
}

const numAreas = len(areas)

// cellArea is where pawns start (§3 step 6).
const cellArea Area = 0

// Door is an edge of the prison graph. Its JSON form is its id, as in "d07".
type Door uint8

// doorInfo describes one door: the two areas it joins, its drawing point (the
// midpoint of its areas), whether a Warning spot is printed beside it, and
// whether it closes an exit.
type doorInfo struct {
	ID      string
	A, B    string
	X, Y    float64
	Warning bool // D36 (R)
	Exit    bool
}

// doors is the board's edge table (§2.3, (R)): 34 inner doors, then the 4
// exit doors.
var doors = [...]doorInfo{
	{"d01", "cell", "ring_n", 12, 10.5, false, false},
	{"d02", "cell", "ring_e", 13.5, 12, false, false},
	{"d03", "cell", "ring_s", 12, 13.5, false, false},
	{"d04", "cell", "ring_w", 10.5, 12, false, false},
	{"d05", "ring_n", "ring_e", 13.5, 10.5, true, false},
	{"d06", "ring_s", "ring_w", 10.5, 13.5, true, false},
	{"d07", "ring_n", "hall_n", 12, 7.5, false, false},
	{"d08", "hall_n", "lobby_n", 12, 4.5, true, false},
	{"d09", "hall_n", "wing_ne", 14.5, 6.5, false, false},
	{"d10", "ring_n", "wing_ne", 14.5, 8, false, false},
	{"d11", "wing_ne", "room_ne", 19, 5, true, false},
	{"d12", "wing_ne", "hall_e", 17.5, 9.5, true, false},
	{"d13", "room_ne", "hall_e", 19.5, 7.5, false, false},
	{"d14", "ring_e", "hall_e", 16.5, 12, false, false},
	{"d15", "hall_e", "lobby_e", 19.5, 12, true, false},
	{"d16", "hall_e", "wing_se", 17.5, 14.5, false, false},
	{"d17", "ring_e", "wing_se", 16, 14.5, false, false},
	{"d18", "wing_se", "room_se", 19, 19, true, false},
	{"d19", "wing_se", "hall_s", 14.5, 17.5, false, false},
	{"d20", "room_se", "hall_s", 16.5, 19.5, false, false},
	{"d21", "ring_s", "hall_s", 12, 16.5, false, false},
	{"d22", "hall_s", "lobby_s", 12, 19.5, true, false},
	{"d23", "hall_s", "wing_sw", 9.5, 17.5, false, false},
	{"d24", "ring_s", "wing_sw", 9.5, 16, false, false},
	{"d25", "wing_sw", "room_sw", 5, 19, true, false},
	{"d26", "wing_sw", "hall_w", 6.5, 14.5, true, false},
	{"d27", "room_sw", "hall_w", 4.5, 16.5, false, false},
	{"d28", "ring_w", "hall_w", 7.5, 12, false, false},
	{"d29", "hall_w", "lobby_w", 4.5, 12, true, false},
	{"d30", "hall_w", "wing_nw", 6.5, 9.5, false, false},
	{"d31", "ring_w", "wing_nw", 8, 9.5, false, false},
	{"d32", "wing_nw", "room_nw", 5, 5, true, false},
	{"d33", "wing_nw", "hall_n", 9.5, 6.5, false, false},
	{"d34", "room_nw", "hall_n", 7.5, 4.5, false, false},
	{"d35", "lobby_n", "exit_roof", 12, 1.5, false, true},
	{"d36", "lobby_e", "exit_pier", 22.5, 12, false, true},
	{"d37", "lobby_s", "exit_sewer", 12, 22.5, false, true},
	{"d38", "lobby_w", "exit_parking", 1.5, 12, false, true},
}

const numDoors = len(doors)

// tabInfo is a two-sided door tab: each face shows one Combines type (D5).
type tabInfo struct {
	ID   string
	A, B Card
}

// innerTabs are the 34 tabs shuffled onto d01–d34 (§2.6, (R)).
var innerTabs = [...]tabInfo{
	{"tab_01", Spoon, Soap},
	{"tab_02", Paperclip, Cigarettes},
	{"tab_03", Spoon, Paperclip},
	{"tab_04", Soap, Cigarettes},
	{"tab_05", Spoon, Cigarettes},
	{"tab_06", Soap, Paperclip},
	{"tab_07", Spoon, Screwdriver},
	{"tab_08", Spoon, Rope},
	{"tab_09", Spoon, WireCutters},
	{"tab_10", Soap, File},
	{"tab_11", Soap, Rope},
	{"tab_12", Soap, WireCutters},
	{"tab_13", Paperclip, File},
	{"tab_14", Paperclip, Screwdriver},
	{"tab_15", Paperclip, WireCutters},
	{"tab_16", Cigarettes, File},
	{"tab_17", Cigarettes, Screwdriver},
	{"tab_18", Cigarettes, Rope},
	{"tab_19", Spoon, Crowbar},
	{"tab_20", Spoon, Crowbar},
	{"tab_21", Soap, Crowbar},
	{"tab_22", Soap, Crowbar},
	{"tab_23", Paperclip, Crowbar},
	{"tab_24", Paperclip, Crowbar},
	{"tab_25", Cigarettes, Crowbar},
	{"tab_26", Cigarettes, Crowbar},
	{"tab_27", File, Screwdriver},
	{"tab_28", File, Rope},
	{"tab_29", File, WireCutters},
	{"tab_30", Screwdriver, Rope},
	{"tab_31", Screwdriver, WireCutters},
	{"tab_32", Rope, WireCutters},
	{"tab_33", File, Rope},
	{"tab_34", Screwdriver, WireCutters},
}

// exitTabs are put on the 4 exit doors, in door order (§2.6, (R)).
var exitTabs = [...]tabInfo{
	{"tab_x1", Uniform, Keypad},
	{"tab_x2", Uniform, Keypad},
	{"tab_x3", Uniform, Keypad},
	{"tab_x4", Uniform, Keypad},
}

// PassPass is a Pass-Pass card type. Its JSON form is its id.
type PassPass uint8

// The Pass-Pass types (§2.7).
const (
	PleinsPouvoirs PassPass = iota
	Corruption
	EpreuveDeForce
	Vol
	Retournement
	Manigance
	Chantage
	DerriereLesBarreaux
	numPassPass
)

// passPassInfo describes one Pass-Pass type.
type passPassInfo struct {
	ID    string
	Fr    string
	En    string
	Count int // (R), D25
}

// passPassCards is the Pass-Pass deck (§2.7; counts and effects (R)). 24 cards.
var passPassCards = [numPassPass]passPassInfo{
	PleinsPouvoirs:      {"pleins_pouvoirs", "Les pleins pouvoirs", "Full powers", 2},
	Corruption:          {"corruption", "Corruption", "Bribery", 4},
	EpreuveDeForce:      {"epreuve_de_force", "Épreuve de force", "Showdown", 3},
	Vol:                 {"vol", "Vol", "Theft", 3},
	Retournement:        {"retournement", "Retournement", "Turnaround", 4},
	Manigance:           {"manigance", "Manigance", "Scheme", 3},
	Chantage:            {"chantage", "Chantage", "Blackmail", 3},
	DerriereLesBarreaux: {"derriere_les_barreaux", "Derrière les barreaux", "Behind bars", 2},
}

// Token is a Warning token face. Its JSON form is its id.
type Token uint8

// The Warning faces (§2.8).
const (
	Vent Token = iota
	Badge
	Codetainee
	Guzman
	Camera
	MotionDetector
	Speaker
	ToiletPaper
	Toothbrush
	Biscuits
	numTokens
)

// Warning token kinds.
const (
	kindBonus   = "bonus"
	kindMalus   = "malus"
	kindNeutral = "neutral"
)

// tokenInfo describes one Warning face.
type tokenInfo struct {
	ID        string
	Kind      string
	En        string
	Fr        string
	PerColour int // (R), D15
}

// tokens is the Warning mix of each colour (§2.8; counts (R), D14–D15).
var tokens = [numTokens]tokenInfo{
	Vent:           {"vent", kindBonus, "open vent", "trappe de ventilation", 2},
	Badge:          {"badge", kindBonus, "badge", "badge", 2},
	Codetainee:     {"codetainee", kindBonus, "fellow inmate", "codétenu", 3},
	Guzman:         {"guzman", kindMalus, "Guzman", "Guzman", 3},
	Camera:         {"camera", kindMalus, "security camera", "caméra de sécurité", 2},
	MotionDetector: {"motion_detector", kindMalus, "motion detector", "détecteur de mouvement", 2},
	Speaker:        {"speaker", kindMalus, "loudspeaker", "speaker", 1},
	ToiletPaper:    {"toilet_paper", kindNeutral, "toilet roll", "papier toilette", 2},
	Toothbrush:     {"toothbrush", kindNeutral, "toothbrush", "brosse à dents", 2},
	Biscuits:       {"biscuits", kindNeutral, "biscuits", "paquet de gâteaux", 1},
}

// Colours of the Warning piles (§4.8); orange is current first.
const (
	orange = 0
	black  = 1
)

var colourIDs = [2]string{"orange", "black"}

// ObjectType is what a plan asks for: "phone", "money"...
type ObjectType uint8

// The object types (§2.9).
const (
	Phone ObjectType = iota
	Money
	Parachute
	DivingGear
	CarKeys
	GasMask
	numObjectTypes
)

var objectTypes = [numObjectTypes]struct{ ID, En, Fr string }{
	Phone:      {"phone", "phone", "téléphone"},
	Money:      {"money", "money bag", "sac d'argent"},
	Parachute:  {"parachute", "parachute", "parachute"},
	DivingGear: {"diving_gear", "diving gear", "équipement de plongée"},
	CarKeys:    {"car_keys", "car keys", "clé de voiture"},
	GasMask:    {"gas_mask", "gas mask", "masque à gaz"},
}

// Object is one object token. Its JSON form is its id, as in "money_1".
type Object uint8

// objects are the 8 object tokens (§2.9).
var objects = [...]struct {
	ID   string
	Type ObjectType
}{
	{"phone_1", Phone},
	{"phone_2", Phone},
	{"money_1", Money},
	{"money_2", Money},
	{"parachute", Parachute},
	{"diving_gear", DivingGear},
	{"car_keys", CarKeys},
	{"gas_mask", GasMask},
}

const numObjects = len(objects)

// objectPairs are the 4 pairs shuffled into the common rooms (§2.9).
var objectPairs = [...]struct {
	ID     string
	Tokens [2]string
}{
	{"pair_phone_parachute", [2]string{"phone_1", "parachute"}},
	{"pair_phone_diving", [2]string{"phone_2", "diving_gear"}},
	{"pair_money_car_keys", [2]string{"money_1", "car_keys"}},
	{"pair_money_gas_mask", [2]string{"money_2", "gas_mask"}},
}

// commonRooms receive the shuffled pairs, in this order (§3 step 4).
var commonRooms = [...]string{"room_ne", "room_se", "room_sw", "room_nw"}

// Plan is an escape plan. Its JSON form is its id, as in "plan_roof".
type Plan uint8

// plans are the four escape plans (§2.10): an exit door and the objects that
// open it (any one; both in the variant).
var plans = [...]struct {
	ID      string
	Fr      string
	Exit    string
	Door    string
	Objects [2]ObjectType
}{
	{"plan_roof", "S'évaporer dans les airs", "exit_roof", "d35", [2]ObjectType{Money, Parachute}},
	{"plan_pier", "Plonger dans les profondeurs", "exit_pier", "d36", [2]ObjectType{Money, DivingGear}},
	{"plan_sewer", "S'enfuir sous terre", "exit_sewer", "d37", [2]ObjectType{Phone, GasMask}},
	{"plan_parking", "Filer à toute vitesse", "exit_parking", "d38", [2]ObjectType{Phone, CarKeys}},
}

const numPlans = len(plans)

// ---- Derived tables, built once from the tables above. ----

// board is the graph in the form the rules use.
type boardGraph struct {
	doorA, doorB [numDoors]Area
	adj          [numAreas][]Door // doors touching each area, in door order
	exitDoor     [numDoors]bool
	warning      [numDoors]bool
	vents        []Area
	rooms        [len(commonRooms)]Area
	isRoom       [numAreas]bool // the common rooms, where objects lie
	planDoor     [numPlans]Door
	planExit     [numPlans]Area
	innerDoors   []Door // doors that Retournement may flip (D37)
}

var board = buildBoard()

func buildBoard() *boardGraph {
	b := &boardGraph{}
	for i, d := range doors {
		b.doorA[i], b.doorB[i] = mustArea(d.A), mustArea(d.B)
		b.exitDoor[i], b.warning[i] = d.Exit, d.Warning
		b.adj[b.doorA[i]] = append(b.adj[b.doorA[i]], Door(i))
		b.adj[b.doorB[i]] = append(b.adj[b.doorB[i]], Door(i))
		if !d.Exit {
			b.innerDoors = append(b.innerDoors, Door(i))
		}
	}
	for i, a := range areas {
		if a.Vent {
			b.vents = append(b.vents, Area(i))
		}
	}
	for i, r := range commonRooms {
		b.rooms[i] = mustArea(r)
		b.isRoom[b.rooms[i]] = true
	}
	for i, p := range plans {
		b.planDoor[i] = mustDoor(p.Door)
		b.planExit[i] = mustArea(p.Exit)
	}
	return b
}

// other returns the area across door d from area a.
func (b *boardGraph) other(d Door, a Area) Area {
	if b.doorA[d] == a {
		return b.doorB[d]
	}
	return b.doorA[d]
}

// touches reports whether door d has area a on one side.
func (b *boardGraph) touches(d Door, a Area) bool { return b.doorA[d] == a || b.doorB[d] == a }

func mustArea(id string) Area {
	for i, a := range areas {
		if a.ID == id {
			return Area(i)
		}
	}
	panic("evades: unknown area " + id)
}

func mustDoor(id string) Door {
	for i, d := range doors {
		if d.ID == id {
			return Door(i)
		}
	}
	panic("evades: unknown door " + id)
}

func mustObject(id string) Object {
	for i, o := range objects {
		if o.ID == id {
			return Object(i)
		}
	}
	panic("evades: unknown object " + id)
}
