package match

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/store"
)

// Seat kinds.
const (
	Human = "human"
	Bot   = "bot"
)

// SeatRequest is one seat of a [CreateRequest].
type SeatRequest struct {
	// Kind is "human" (the default) or "bot".
	Kind string `json:"kind,omitempty"`
	// Bot is the policy that plays a bot seat, or that stands in for a
	// human who is away or out of time. Empty: the game's "heuristic" if it
	// has one, else "random".
	Bot string `json:"bot,omitempty"`
	// Name is the seat's display name (a human may change it on joining).
	Name string `json:"name,omitempty"`
	// Account keeps a human seat for an account (a rematch's), which may
	// play it signed in; set by the server, never by a client.
	Account string `json:"-"`
	// TokenHash, if set, is the SHA-256 of the human seat's token, made by
	// the server beforehand (Play now's): no token is handed out for the
	// seat. Joined seats the seat's player at once. Both are set by the
	// server, never by a client.
	TokenHash []byte `json:"-"`
	Joined    bool   `json:"-"`
}

// CreateRequest is what a new match is made of.
type CreateRequest struct {
	Game string `json:"game"`
	// Players is the number of seats; 0 means len(Seats), or the game's
	// minimum if Seats is empty too.
	Players int `json:"players,omitempty"`
	// Options are the game's options in text form; missing keys take their
	// defaults.
	Options map[string]string `json:"options,omitempty"`
	// Seats are the seats in order; empty means every seat human.
	Seats []SeatRequest `json:"seats,omitempty"`
	// TakeoverAfterMs: a human seat with no connection for this long (match
	// time) is played by its bot until the human comes back. 0: never; nil:
	// the default of the game's timing (see [DefaultTimers]).
	TakeoverAfterMs *int64 `json:"takeover_after_ms,omitempty"`
	// MoveLimitMs: a human who has not acted this long after their turn
	// began has the move played by their seat's bot (turn-based and
	// simultaneous games). 0: no limit; nil: the default of the game's
	// timing. At a correspondence table: 1, 2, 3 or 7 days ([Day]), one
	// day if nil.
	MoveLimitMs *int64 `json:"move_limit_ms,omitempty"`
	// Clock is [ClockLive] (or empty) for a table where people play
	// together, [ClockCorrespondence] for one played a move at a time
	// over days (see correspondence.go).
	Clock string `json:"clock,omitempty"`
	// DaysOff are each player's days off at a correspondence table, 0 to
	// [MaxDaysOff]; nil: [DefaultDaysOff].
	DaysOff *int `json:"days_off,omitempty"`
	// BotDelayMs is how long bots wait before each move in games that are
	// not real-time, so that people can follow. Real-time bots act at their
	// own modelled pace.
	BotDelayMs int64 `json:"bot_delay_ms,omitempty"`
	// AutoStart starts the match as soon as every human seat has joined and
	// has its player on the match, a socket open (at once if there is no
	// human seat): nobody's clock runs while a player is elsewhere.
	AutoStart bool `json:"auto_start,omitempty"`
	// Hints lets the seats' players ask for hints (see hints.go); nil: on
	// at a table where one seat is human and every other a bot, off
	// elsewhere.
	Hints *bool `json:"hints,omitempty"`
	// Owner is who asked for the match, as the server tells clients apart
	// (their network); it is stored as the match's creator, and handed
	// back by Hooks.Loaded and Hooks.Ended.
	Owner string `json:"-"`
	// Account is the account that asked for the match, signed in ("" for a
	// guest): it may start and close it as its host token may.
	Account string `json:"-"`
	// Purpose, Day, Seed and BotSeed make a table of the teaching side,
	// set by the server, never by a client: a tutorial's or a daily
	// challenge's (Purpose), of which day (Day, YYYY-MM-DD in UTC), on a
	// deal fixed beforehand (Seed) with bots that play it the same way
	// (BotSeed). Nil seeds are drawn at random.
	Purpose string  `json:"-"`
	Day     string  `json:"-"`
	Seed    *uint64 `json:"-"`
	BotSeed *uint64 `json:"-"`
}

// Purposes of a table of the teaching side (CreateRequest.Purpose): such a
// table is never rated, gives no hints, and is left out of the lobby's
// lists.
const (
	// PurposeTutorial: a tutorial (/learn/<game>), played on its script's
	// deal; its host may close it while it runs, and it is never reviewed.
	PurposeTutorial = "tutorial"
	// PurposeDaily: a match of a day's challenge, on the day's deal.
	PurposeDaily = "daily"
)

// settings are the parts of a match's setup that only this package reads,
// kept opaque in the store.
type settings struct {
	TakeoverAfter engine.Millis `json:"takeover_after_ms,omitempty"`
	MoveLimit     engine.Millis `json:"move_limit_ms,omitempty"`
	BotDelay      engine.Millis `json:"bot_delay_ms,omitempty"`
	AutoStart     bool          `json:"auto_start,omitempty"`
	Hints         bool          `json:"hints,omitempty"`
	// Correspondence: a table played over days, each player with DaysOff
	// (see correspondence.go).
	Correspondence bool `json:"correspondence,omitempty"`
	DaysOff        int  `json:"days_off,omitempty"`
	// BotSeed seeds the bots' own randomness. It is not the match seed, so
	// that no bot can foresee a draw.
	BotSeed uint64 `json:"bot_seed"`
	// Purpose and Day: see CreateRequest.
	Purpose string `json:"purpose,omitempty"`
	Day     string `json:"day,omitempty"`
}

// Limits of a create request.
const (
	maxTimer   = engine.Millis(30 * 24 * time.Hour / time.Millisecond)
	maxBotWait = engine.Millis(time.Minute / time.Millisecond)
	maxNameLen = 40
)

// Created is the answer to a create request: the match, and the secrets that
// are shown once and never again.
type Created struct {
	Match Summary `json:"match"`
	// HostToken may start the match.
	HostToken string `json:"host_token"`
	// Tokens holds each human seat's token, "" for bot seats.
	Tokens []string `json:"-"`
}

// Summary is the public description of a match: what every visitor of the
// lobby may know. It never holds the seed, a token or a view.
type Summary struct {
	ID         string            `json:"id"`
	Game       string            `json:"game"`
	Players    int               `json:"players"`
	Options    map[string]string `json:"options"`
	Status     store.Status      `json:"status"`
	Seats      []SeatSummary     `json:"seats"`
	Seq        uint64            `json:"seq"`
	Clock      engine.Millis     `json:"clock"`
	Settings   SettingsSummary   `json:"settings"`
	CreatedAt  time.Time         `json:"created_at"`
	StartedAt  *time.Time        `json:"started_at,omitempty"`
	FinishedAt *time.Time        `json:"finished_at,omitempty"` // when it finished, or ended otherwise
	Outcome    *engine.Outcome   `json:"outcome,omitempty"`
	// Reason says why a match ended without an outcome (expired,
	// abandoned, failed, closed).
	Reason *Reason `json:"reason,omitempty"`
	// Live is set when the match runs on this server now; Connected and
	// PlayedBy of the seats are known only then.
	Live bool `json:"live"`
	// Actors are the seats that may act now in a running match (whose turn
	// it is), known when Live.
	Actors []engine.Seat `json:"actors,omitempty"`
	// Rated says whether the match counts for ratings (counted, once
	// finished); Unrated says why not, as a code; Chances are each side's
	// chance of finishing first (of succeeding, in co-op) before a rated
	// match, where its sides are known before the end. The server sets
	// them.
	Rated   bool     `json:"rated"`
	Unrated string   `json:"unrated,omitempty"`
	Chances []Chance `json:"chances,omitempty"`
}

// Chance is a side's chance before a rated match.
type Chance struct {
	Seats  []engine.Seat `json:"seats"`
	Chance float64       `json:"chance"`
}

// SettingsSummary are a match's timers as chosen at creation.
type SettingsSummary struct {
	// Clock is [ClockLive] or [ClockCorrespondence]; DaysOff are each
	// player's days off at a correspondence table (0 at a live one).
	Clock           string `json:"clock"`
	TakeoverAfterMs int64  `json:"takeover_after_ms"`
	MoveLimitMs     int64  `json:"move_limit_ms"`
	DaysOff         int    `json:"days_off"`
	BotDelayMs      int64  `json:"bot_delay_ms"`
	AutoStart       bool   `json:"auto_start"`
	Hints           bool   `json:"hints"`
	// Purpose is "tutorial" or "daily" at a table of the teaching side
	// (see PurposeTutorial), and Day the day of a daily challenge.
	Purpose string `json:"purpose,omitempty"`
	Day     string `json:"day,omitempty"`
}

// SeatSummary is one seat as the lobby sees it.
type SeatSummary struct {
	Seat   engine.Seat `json:"seat"`
	Kind   string      `json:"kind"`
	Bot    string      `json:"bot,omitempty"`
	Name   string      `json:"name,omitempty"`
	Joined bool        `json:"joined"`
	// Left says the seat's human handed it to its bot for the rest of the
	// match; they may take it back.
	Left bool `json:"left,omitempty"`
	// Account is the player (account id) who holds the seat, if any: the
	// lobby links to their profile.
	Account string `json:"account,omitempty"`
	// Deleted says the seat's player deleted their account.
	Deleted bool `json:"deleted,omitempty"`
	// Connected says a socket of the seat's human is open.
	Connected bool `json:"connected"`
	// PlayedBy is "human" or "bot": who plays the seat now (a human seat is
	// played by its bot while its human is away).
	PlayedBy string `json:"played_by"`
	// At a correspondence table, known when live: Deadline is when the
	// seat's move is due, while it must move (its bot plays the move then
	// if its player has no day off left, else a day off begins), and
	// DaysOffLeft the days off its human has left.
	Deadline    *time.Time `json:"deadline,omitempty"`
	DaysOffLeft *int       `json:"days_off_left,omitempty"`
}

// Summarize describes a stored match, as the lobby lists it.
func Summarize(m *store.Match) Summary { return summarize(m, nil) }

// summarize describes a stored match; live matches add what they know.
func summarize(m *store.Match, opts engine.Options) Summary {
	var st settings
	_ = json.Unmarshal(m.Settings, &st)
	s := Summary{
		ID: m.ID, Game: m.Game, Players: m.Setup.Players, Options: opts, Status: m.Status,
		Seq: uint64(m.Records), Clock: m.Clock, CreatedAt: m.Created, Outcome: m.Outcome, Reason: decodeReason(m.Reason),
		Settings: SettingsSummary{
			Clock: st.clockSpec(), TakeoverAfterMs: int64(st.TakeoverAfter), MoveLimitMs: int64(st.MoveLimit), DaysOff: st.DaysOff,
			BotDelayMs: int64(st.BotDelay), AutoStart: st.AutoStart, Hints: st.Hints,
			Purpose: st.Purpose, Day: st.Day,
		},
	}
	if s.Options == nil {
		s.Options = m.Setup.Options
	}
	if !m.Started.IsZero() {
		t := m.Started
		s.StartedAt = &t
	}
	if !m.Finished.IsZero() {
		t := m.Finished
		s.FinishedAt = &t
	}
	for i, st := range m.Seats {
		by := Human
		if st.Kind == Bot || st.Left {
			by = Bot
		}
		s.Seats = append(s.Seats, SeatSummary{
			Seat: engine.Seat(i), Kind: st.Kind, Bot: st.Bot, Name: seatName(st), Joined: st.Joined, Left: st.Left, PlayedBy: by,
			Account: st.Account, Deleted: st.Deleted,
		})
	}
	return s
}

// seatName is the name a seat shows. Bot seats were once named "<bot> bot"
// by default, which read badly in French and alike for two bots; they show
// no name now, and clients name them by their level and number.
func seatName(st store.Seat) string {
	if st.Kind == Bot && st.Name == st.Bot+" bot" {
		return ""
	}
	return st.Name
}

// newToken returns 128 random bits in URL-safe base64 and their hash.
func newToken() (string, []byte) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("match: no randomness: " + err.Error())
	}
	t := base64.RawURLEncoding.EncodeToString(b[:])
	return t, HashToken(t)
}

// HashToken returns the SHA-256 of a token, the only form in which tokens are
// kept.
func HashToken(t string) []byte {
	h := sha256.Sum256([]byte(t))
	return h[:]
}

// tokenMatches compares a token with a stored hash in constant time.
func tokenMatches(token string, hash []byte) bool {
	if len(hash) != sha256.Size || token == "" {
		return false
	}
	return subtle.ConstantTimeCompare(HashToken(token), hash) == 1
}

// newID returns a random match id: 12 URL-safe characters (72 bits).
func newID() string {
	var b [9]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("match: no randomness: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// randomSeed returns 64 random bits for a match seed.
func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("match: no randomness: " + err.Error())
	}
	return binary.LittleEndian.Uint64(b[:])
}

// CheckName validates a player name and returns it trimmed.
func CheckName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case !utf8.ValidString(name):
		return "", refuse(CodeBadName, "The name is not valid text.")
	case utf8.RuneCountInString(name) > maxNameLen:
		return "", refuse(CodeBadName, "The name is longer than %d characters.", maxNameLen)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "", refuse(CodeBadName, "The name has control characters.")
	case strings.IndexFunc(name, isBidiControl) >= 0:
		// An override or isolate would turn the text after the name around
		// wherever it is shown ("Ana won" read backwards).
		return "", refuse(CodeBadName, "The name has characters that change the direction of text.")
	case name != "" && strings.IndexFunc(name, isVisible) < 0:
		return "", refuse(CodeBadName, "The name has no visible character.")
	}
	return name, nil
}

func isBidiControl(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }

// isVisible reports whether r shows as something: not a space, a format
// character (zero-width space, joiner…), a lone combining mark, a variation
// selector or a character that renders blank (Hangul fillers, braille blank).
func isVisible(r rune) bool {
	return !unicode.IsSpace(r) && r != '\u2800' && !unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me,
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// defaultBot is the policy that plays a seat when the request names none.
func defaultBot(g engine.Game) string {
	if _, err := bot.Find(g, "heuristic"); err == nil {
		return "heuristic"
	}
	return bot.Random{}.Name()
}

// hintsByDefault says whether a match gives hints when its request does
// not say: at a table where one seat is human and every other a bot.
func hintsByDefault(req CreateRequest, players int) bool {
	if len(req.Seats) == 0 {
		return players == 1
	}
	humans := 0
	for _, sr := range req.Seats {
		if sr.Kind == "" || sr.Kind == Human {
			humans++
		}
	}
	return humans == 1
}

// prepare checks a create request against its game and builds the match to
// store, with the tokens to hand out.
func prepare(g engine.Game, req CreateRequest, now time.Time) (*store.Match, *Created, error) {
	info := g.Info()
	players := req.Players
	if players == 0 {
		players = len(req.Seats)
	}
	if players == 0 {
		players = info.MinPlayers
	}
	if len(req.Seats) != 0 && len(req.Seats) != players {
		return nil, nil, refuse(CodeBadSetup, "The match has %d players but %d seats were described.", players, len(req.Seats))
	}
	setup := engine.Setup{Players: players, Options: req.Options, Seed: randomSeed()}
	if req.Seed != nil {
		setup.Seed = *req.Seed
	}
	opts, err := info.Check(setup)
	if err != nil {
		return nil, nil, refuse(CodeBadSetup, "The setup does not fit the game: %s.", err)
	}
	setup.Options = opts
	if _, err := g.New(setup); err != nil {
		return nil, nil, refuse(CodeBadSetup, "The setup does not fit the game: %s.", strings.TrimSuffix(err.Error(), "."))
	}
	timers := DefaultTimers(info.Timing)
	for _, v := range []struct {
		req *int64
		set *int64
	}{{req.TakeoverAfterMs, &timers.TakeoverAfterMs}, {req.MoveLimitMs, &timers.MoveLimitMs}} {
		if v.req == nil {
			continue
		}
		if *v.req < 0 || engine.Millis(*v.req) > maxTimer {
			return nil, nil, refuse(CodeBadParameters, "Timers are given in milliseconds, between 0 and 30 days.")
		}
		*v.set = *v.req
	}
	if req.BotDelayMs < 0 || engine.Millis(req.BotDelayMs) > maxBotWait {
		return nil, nil, refuse(CodeBadParameters, "The bots' delay is given in milliseconds, between 0 and one minute.")
	}
	st := settings{
		TakeoverAfter: engine.Millis(timers.TakeoverAfterMs), MoveLimit: engine.Millis(timers.MoveLimitMs),
		BotDelay: engine.Millis(req.BotDelayMs), AutoStart: req.AutoStart, Hints: hintsByDefault(req, players), BotSeed: randomSeed(),
	}
	if req.Hints != nil {
		st.Hints = *req.Hints
	}
	if err := correspondence(info, req, &st); err != nil {
		return nil, nil, err
	}
	if req.BotSeed != nil {
		st.BotSeed = *req.BotSeed
	}
	switch req.Purpose {
	case "":
	case PurposeTutorial, PurposeDaily:
		st.Purpose, st.Day, st.Hints = req.Purpose, req.Day, false
	default:
		return nil, nil, refuse(CodeBadSetup, "A table's purpose is %q or %q.", PurposeTutorial, PurposeDaily)
	}
	raw, _ := json.Marshal(st)
	m := &store.Match{
		ID: newID(), Game: info.ID, Setup: setup, Settings: raw, Status: store.Open, Created: now,
		Seats: make([]store.Seat, players), Creator: req.Owner, Account: req.Account,
	}
	c := &Created{Tokens: make([]string, players)}
	var hostHash []byte
	c.HostToken, hostHash = newToken()
	m.HostHash = hostHash
	for i := range players {
		sr := SeatRequest{Kind: Human}
		if len(req.Seats) > 0 {
			sr = req.Seats[i]
		}
		if sr.Kind == "" {
			sr.Kind = Human
		}
		if sr.Kind != Human && sr.Kind != Bot {
			return nil, nil, refuse(CodeBadSetup, "Seat %d is of kind %q; a seat is \"human\" or \"bot\".", i, sr.Kind)
		}
		if sr.Bot == "" {
			sr.Bot = defaultBot(g)
		}
		if _, err := bot.Find(g, sr.Bot); err != nil {
			return nil, nil, refuse(CodeUnknownBot, "Seat %d cannot be played by that bot: %s.", i, err)
		}
		name, err := CheckName(sr.Name)
		if err != nil {
			return nil, nil, err
		}
		s := store.Seat{Kind: sr.Kind, Bot: sr.Bot, Name: name}
		if sr.Kind == Human {
			s.Account = sr.Account
		}
		switch {
		case sr.Kind == Human && len(sr.TokenHash) == sha256.Size:
			s.TokenHash, s.Joined = slices.Clone(sr.TokenHash), sr.Joined
		case sr.Kind == Human:
			c.Tokens[i], s.TokenHash = newToken()
			s.Joined = sr.Joined
		default:
			s.Joined = true // (a bot seat keeps the name it was given, or none: clients name it by its level)
		}
		m.Seats[i] = s
	}
	return m, c, nil
}
