package term

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
)

// Options set up the terminal client.
type Options struct {
	// Lang is "fr" or "en" (see Lang).
	Lang string
	// Colour draws in colour; false keeps to bold and reverse.
	Colour bool
	// ASCII draws in ASCII alone, for a terminal that is not UTF-8 (see
	// UTF8): letters lose their accents and symbols become ASCII ones.
	ASCII bool
	// ClockSpeed is how fast the screen's clock runs between messages,
	// as LocalConfig.ClockSpeed: 1 is real time, 0 stops it (tests draw a
	// real-time game at a fixed moment). Options{} runs in real time.
	ClockSpeed *float64
	// Input and Output are the terminal (nil: the process's).
	Input  io.Reader
	Output io.Writer
}

// Run shows the match of conn full-screen until the person leaves; it
// closes conn.
func Run(conn Conn, opt Options) error {
	defer conn.Close()
	tx, err := newTexts(opt.Lang)
	if err != nil {
		return err
	}
	var tops []tea.ProgramOption
	tops = append(tops, tea.WithAltScreen())
	out := io.Writer(nil)
	if opt.Output != nil {
		tops = append(tops, tea.WithOutput(opt.Output))
		out = opt.Output
	}
	if opt.Input != nil {
		tops = append(tops, tea.WithInput(opt.Input))
	}
	if out == nil {
		out = stdout()
	}
	if opt.ASCII {
		tx.toASCII()
	}
	m := newModel(conn, tx, newStyles(out, opt.Colour))
	m.ascii = opt.ASCII
	if opt.ClockSpeed != nil {
		m.speed = *opt.ClockSpeed
	}
	final, err := tea.NewProgram(m, tops...).Run()
	if err != nil {
		return err
	}
	if fm, ok := final.(*model); ok && fm.fatal != nil {
		return fm.fatal
	}
	return nil
}

// The keys of the match screen (a board may take others first).
const (
	pageSize = 5
)

// model is the match screen: the newest state of the match as this seat
// knows it, the log of sentences and table talk, the list of actions and
// the typed line.
type model struct {
	conn  Conn
	tx    *texts
	st    *styles
	game  engine.Game
	info  engine.Info
	board board

	seat       int
	seats      []match.SeatSummary
	team       *int
	have       bool
	seq        uint64
	status     string
	clock      int64
	clockAt    time.Time
	actors     []int
	deadlines  []match.Deadline
	view       json.RawMessage
	legal      []obj
	outcome    *engine.Outcome
	log        []logLine
	refusal    string
	keyRefusal string // the refusal of a key typed into the prompt
	notice     string
	flash      string // said for a few seconds (connected again)
	flashUntil time.Time
	banner     string
	cursor     int
	input      string
	busy       bool
	lastSent   json.RawMessage
	resent     bool
	closed     bool
	lost       bool // the line dropped: the next state is a reconnection
	replaced   bool // the seat was opened elsewhere: /back plays it here again
	fatal      error
	talk       talk
	speed      float64        // of the clock between messages (0: stopped)
	zone       *time.Location // where deadlines are said (nil: the machine's)
	ascii      bool           // the terminal is not UTF-8: the screen is drawn in ASCII
	w, h       int
}

func newModel(conn Conn, tx *texts, st *styles) *model {
	return &model{conn: conn, tx: tx, st: st, seat: -1, board: generic{}, speed: 1, w: 80, h: 24}
}

type inMsg struct{ m *match.Message }
type closedMsg struct{}
type tickMsg time.Time

func (m *model) listen() tea.Cmd {
	ch := m.conn.Messages()
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return closedMsg{}
		}
		return inMsg{msg}
	}
}

func (m *model) tick() tea.Cmd {
	return tea.Tick(250*time.Millisecond, func(t time.Time) tea.Msg { return tickMsg(t) })
}

func (m *model) Init() tea.Cmd { return tea.Batch(m.listen(), m.tick()) }

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tickMsg:
		if m.flash != "" && time.Time(msg).After(m.flashUntil) {
			m.flash = ""
		}
		return m, m.tick()
	case closedMsg:
		m.closed = true
		if err := m.conn.Err(); err != nil {
			m.banner = err.Error()
		}
	case inMsg:
		cmd := m.receive(msg.m)
		return m, tea.Batch(m.listen(), cmd)
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	return m, nil
}

// receive takes one message of the match.
func (m *model) receive(msg *match.Message) tea.Cmd {
	switch msg.Type {
	case match.TypeState:
		if msg.Seat != nil {
			m.seat = int(*msg.Seat)
		}
		if msg.Game != "" && m.game == nil {
			if g, err := all.Find(msg.Game); err == nil {
				m.game, m.info = g, g.Info()
				m.board = boardOf(m.info.ID)
			}
		}
		if len(msg.Seats) > 0 {
			m.seats = msg.Seats
		}
		m.team = msg.Team
		reconnected := m.lost
		m.lost, m.replaced = false, false
		missed := m.have && msg.Seq > m.seq
		m.banner = ""
		m.setState(msg, !m.have || msg.Seq > m.seq)
		switch {
		case msg.History != nil:
			// What this seat was told so far: the same log as a screen
			// that stayed open.
			m.setHistory(msg.History)
		case missed:
			m.addLog(m.tx.t("match.missed"))
		}
		if reconnected {
			m.flash, m.flashUntil = m.tx.t("match.reconnected"), time.Now().Add(5*time.Second)
		}
	case match.TypeUpdate:
		if m.have && msg.Seq <= m.seq {
			return nil
		}
		m.setState(msg, true)
	case match.TypeSeats:
		if len(msg.Seats) > 0 {
			m.noteAway(msg.Seats)
			m.seats = msg.Seats
		}
	case match.TypeChat, match.TypeLeft, match.TypeBack:
		m.hearLine(msg)
	case match.TypeError:
		if msg.Error == nil {
			return nil
		}
		if isTalkError(msg.Error.Code) {
			m.talkRefused(msg.Error)
			return nil
		}
		m.busy = false
		if msg.Error.Code == match.CodeStaleSeq && !m.resent && m.lastSent != nil && m.stillOffered(m.lastSent) {
			// The match moved on (another seat acted, or time passed):
			// the same action, still legal, goes again on the new state.
			m.resent = true
			return m.send(m.lastSent)
		}
		m.refusal = m.errorText(msg.Error)
	case LostType:
		m.lost = true
		m.banner = m.tx.t("match.reconnecting", p{"s": (msg.Clock + 999) / 1000})
	case ReplacedType:
		m.lost, m.replaced = true, true
		m.banner = m.tx.t("match.replaced") + " " + m.tx.t("term.playHere")
	}
	return nil
}

// errorText says a refusal in words, seats by their names.
func (m *model) errorText(e *match.Error) string {
	return m.tx.errorText(e, m.gameID(), m.name)
}

func (m *model) stillOffered(a json.RawMessage) bool {
	if !m.myTurn() {
		return false
	}
	if len(m.legal) == 0 {
		return true // composed on the board: the game judges it
	}
	want := canon(a)
	for _, l := range m.legal {
		if canon(l.raw) == want {
			return true
		}
	}
	return false
}

func (m *model) gameID() string {
	if m.game == nil {
		return ""
	}
	return m.info.ID
}

// setState takes the state a message shows; fresh says it is newer than
// the one held (its events are then told).
func (m *model) setState(msg *match.Message, fresh bool) {
	prev := m.view
	view := msg.View
	if view == nil && msg.Patch != nil && prev != nil {
		view = mergeView(prev, msg.Patch, msg.Drop)
	}
	m.have = true
	m.seq, m.status, m.clock, m.clockAt = msg.Seq, string(msg.Status), int64(msg.Clock), time.Now()
	m.actors = m.actors[:0]
	for _, a := range msg.Actors {
		m.actors = append(m.actors, int(a))
	}
	m.deadlines = msg.Deadlines
	m.view = view
	oldLen := len(m.legal)
	m.legal = objs(msg.Legal)
	if len(m.legal) != oldLen {
		m.cursor = 0
	}
	m.cursor = min(m.cursor, max(len(m.shown())-1, 0))
	if msg.Outcome != nil {
		m.outcome = msg.Outcome
	}
	m.busy = false
	if msg.Ack != nil {
		// A refusal stays until the person acts again: other seats' moves
		// must not wipe it unread.
		m.lastSent, m.resent, m.refusal = nil, false, ""
	}
	if !fresh {
		return
	}
	evs := objs(msg.Events)
	c := m.ctx()
	for _, ev := range evs {
		if s, ok := sentence(m.board, ev, c); ok && s != "" {
			m.addLog(s)
		}
	}
	if s, ok := m.board.(interface{ events([]obj, *ctx) }); ok {
		s.events(evs, c)
	}
}

// mergeView applies a patch to a view: the members it holds replace the
// old ones, the dropped ones go (docs/api.md, update).
func mergeView(prev, patch json.RawMessage, drop []string) json.RawMessage {
	old := newObj(prev)
	upd := newObj(patch)
	gone := map[string]bool{}
	for _, k := range drop {
		gone[k] = true
	}
	var b strings.Builder
	b.WriteByte('{')
	first := true
	put := func(k string, v json.RawMessage) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(v)
	}
	for _, k := range old.keys {
		if gone[k] {
			continue
		}
		if v, ok := upd.m[k]; ok {
			put(k, v)
		} else {
			put(k, old.m[k])
		}
	}
	for _, k := range upd.keys {
		if _, ok := old.m[k]; !ok {
			put(k, upd.m[k])
		}
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// myTurn says whether this screen's person must act now (not while their
// seat is left to its bot).
func (m *model) myTurn() bool {
	if m.status != "running" || m.seat < 0 || m.seatLeft() {
		return false
	}
	for _, a := range m.actors {
		if a == m.seat {
			return true
		}
	}
	return false
}

// liveClock is the match clock now, running between messages.
func (m *model) liveClock() int64 {
	if m.status != "running" {
		return m.clock
	}
	return m.clock + int64(float64(time.Since(m.clockAt).Milliseconds())*m.speed)
}

// name is a seat's name as the web page says it (web/js/names.js): the
// player's name, else a bot named by its level ("Medium bot") and a human
// by seat number, with numbers where two seats would read alike.
func (m *model) name(s int) string {
	if s < 0 || s >= len(m.seats) {
		return m.tx.t("seat.n", p{"n": s + 1})
	}
	base := make([]string, len(m.seats))
	count := map[string]int{}
	for i, st := range m.seats {
		switch {
		case st.Name != "" && !(st.Kind == match.Bot && st.Name == st.Bot+" bot"): // (bot seats once had that name)
			base[i] = plain(st.Name)
		case st.Kind == match.Bot && m.tx.has("name.bot."+st.Bot):
			base[i] = m.tx.t("name.bot." + st.Bot)
		case st.Kind == match.Bot:
			level := st.Bot
			if m.tx.has("bot." + st.Bot) {
				level = m.tx.t("bot." + st.Bot)
			}
			base[i] = m.tx.t("name.bot", p{"level": level})
		default:
			base[i] = m.tx.t("seat.n", p{"n": i + 1})
		}
		count[base[i]]++
	}
	if count[base[s]] < 2 {
		return base[s]
	}
	k := 0
	for i := range s + 1 {
		if base[i] == base[s] {
			k++
		}
	}
	return m.tx.t("name.numbered", p{"name": base[s], "n": k})
}

func (m *model) ctx() *ctx {
	players := len(m.seats)
	return &ctx{
		texts: m.tx, styles: m.st, game: m.gameID(), seat: m.seat, view: m.view,
		legal: m.legalFor(), actors: m.actors, status: m.status, myTurn: m.myTurn(), busy: m.busy,
		clock: m.liveClock(), players: players, nameOf: m.name, play: m.send, ascii: m.ascii,
	}
}

func (m *model) legalFor() []obj {
	if m.seat < 0 {
		return nil
	}
	return m.legal
}

// shown are the actions in the list: the legal ones the board lists.
func (m *model) shown() []obj {
	if !m.myTurn() {
		return nil
	}
	c := m.ctx()
	var out []obj
	for _, a := range m.legal {
		if m.board.listed(a, c) {
			out = append(out, a)
		}
	}
	return out
}

// send plays an action on the state shown.
func (m *model) send(action json.RawMessage) tea.Cmd {
	if m.closed {
		m.refusal = m.errorText(&match.Error{Code: "offline"})
		return nil
	}
	m.busy = true
	m.refusal = ""
	m.lastSent = action
	conn, seq := m.conn, m.seq
	return func() tea.Msg {
		conn.Send(seq, action)
		return nil
	}
}

// composer is a board on which the person composes an action the list does
// not hold (Les Évadés' long choices): compose reads a typed line in the
// board's own form, ok false leaving it to the screen.
type composer interface {
	compose(line string, c *ctx) (action json.RawMessage, refusal string, ok bool)
}

func (m *model) key(k tea.KeyMsg) tea.Cmd {
	if k.Type == tea.KeyCtrlC {
		return tea.Quit
	}
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste && !k.Alt {
		// Keys typed faster than the screen reads them come together:
		// each is a key of its own (a board's keys are single letters).
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
		}
		return tea.Batch(cmds...)
	}
	if m.talk.open {
		return m.talkKey(k)
	}
	over := m.status == "finished" || m.closed
	if m.input == "" && over && k.String() == "q" {
		return tea.Quit
	}
	if m.input == "" && k.Type == tea.KeyTab && m.atTable() {
		m.talk.open, m.talk.err = true, ""
		return nil
	}
	if m.have && m.input == "" {
		if ok, cmd := m.board.key(k, m.ctx()); ok {
			return cmd
		}
	}
	list := m.shown()
	switch k.Type {
	case tea.KeyUp:
		m.cursor = max(m.cursor-1, 0)
	case tea.KeyDown:
		m.cursor = min(m.cursor+1, max(len(list)-1, 0))
	case tea.KeyPgUp:
		m.cursor = max(m.cursor-pageSize, 0)
	case tea.KeyPgDown:
		m.cursor = min(m.cursor+pageSize, max(len(list)-1, 0))
	case tea.KeyHome:
		m.cursor = 0
	case tea.KeyEnd:
		m.cursor = max(len(list)-1, 0)
	case tea.KeyEsc:
		m.input, m.refusal, m.notice, m.talk.leave = "", "", "", false
	case tea.KeyBackspace:
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
		if m.refusal != "" && m.refusal == m.keyRefusal {
			m.refusal = "" // what was refused is gone
		}
	case tea.KeyEnter:
		return m.enter(list)
	case tea.KeySpace:
		m.input += " "
	case tea.KeyRunes:
		r, keep := m.refuseDigit(string(k.Runes), list)
		if r != "" {
			m.refusal, m.keyRefusal = r, r
		}
		if keep {
			m.input += string(k.Runes)
		}
	}
	return nil
}

// A board takes the digit keys (Temple's dice, Outran's keypad) while
// ownsDigits says so: a digit it does not use is then no key at all.
type digitOwner interface{ ownsDigits(c *ctx) bool }

// A board composes an action from typed numbers (Les Évadés' Turnaround
// doors) while takesNumbers says so.
type numberTaker interface{ takesNumbers(c *ctx) bool }

// refuseDigit judges a key typed into the prompt, so that nothing piles
// up there unsaid: a digit that starts a number goes in silently while the
// number can still name an action of the list (or a board reads numbers
// now). Otherwise it is refused in words at once: a digit where there is
// nothing to number is left out (keep false); one that makes the number
// too large stays, so that Enter does not play the number without it.
func (m *model) refuseDigit(key string, list []obj) (refusal string, keep bool) {
	if len(key) != 1 || key[0] < '0' || key[0] > '9' || strings.Trim(m.input, "0123456789") != "" {
		return "", true
	}
	c := m.ctx()
	if b, ok := m.board.(digitOwner); ok && m.have && b.ownsDigits(c) {
		return m.tx.t("term.notAKey", p{"k": key}), false
	}
	if b, ok := m.board.(numberTaker); ok && m.have && b.takesNumbers(c) {
		return "", true
	}
	typed := m.input + key
	for n := 1; n <= len(list); n++ {
		if strings.HasPrefix(strconv.Itoa(n), typed) {
			return "", true
		}
	}
	switch {
	case !m.have || m.status != "running":
		return m.tx.t("term.notAKey", p{"k": key}), false
	case !m.myTurn():
		return m.tx.t("match.notYourTurn"), false
	case len(list) == 0:
		return m.tx.t("term.onBoard"), false
	}
	return m.tx.tn("term.noSuchAction", len(list), p{"k": typed}), true
}

// enter plays what the person chose: the action under the cursor, the one
// whose number was typed, one composed in the board's form, or the action
// typed in the game's short form; or runs a table command.
func (m *model) enter(list []obj) tea.Cmd {
	line := strings.TrimSpace(m.input)
	m.input, m.notice = "", ""
	switch strings.ToLower(line) {
	case "q", "quit", "exit":
		return tea.Quit
	}
	if !strings.EqualFold(line, "/leave") && !strings.EqualFold(line, "/quitter") {
		m.talk.leave = false
	}
	if cmd, ok := m.command(line); ok {
		return cmd
	}
	if !m.have || m.busy {
		return nil
	}
	if line == "" {
		if !m.myTurn() {
			m.refusal = m.tx.t("match.notYourTurn")
			return nil
		}
		if m.cursor < len(list) {
			return m.send(list[m.cursor].raw)
		}
		m.refusal = m.typeHelp()
		return nil
	}
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(list) {
		m.cursor = n - 1
		return m.send(list[n-1].raw)
	}
	if cp, ok := m.board.(composer); ok && m.myTurn() {
		if a, refusal, ok := cp.compose(line, m.ctx()); ok {
			if refusal != "" {
				m.refusal = refusal
				return nil
			}
			return m.send(a)
		}
	}
	if tp, ok := m.game.(engine.TextParser); ok {
		a, err := tp.ParseAction(line)
		if err != nil {
			m.refusal = m.ruleText(err)
			return nil
		}
		b, err := engine.MarshalTyped(a)
		if err != nil {
			m.refusal = err.Error()
			return nil
		}
		return m.send(b)
	}
	if strings.HasPrefix(line, "{") {
		return m.send(json.RawMessage(line))
	}
	if _, err := strconv.Atoi(line); err == nil {
		m.refusal = m.tx.tn("term.noSuchAction", len(list), p{"k": line})
		return nil
	}
	m.refusal = m.typeHelp()
	return nil
}

func (m *model) typeHelp() string {
	if b, ok := m.board.(digitOwner); ok && b.ownsDigits(m.ctx()) {
		return m.tx.t("term.pickArrows")
	}
	if _, ok := m.game.(engine.TextParser); ok {
		return m.tx.t("term.typeShort")
	}
	return m.tx.t("term.pickHelp")
}

func (m *model) ruleText(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return m.errorText(&match.Error{Code: re.Code, Message: re.Message, Params: re.Params})
	}
	return err.Error()
}
