package term

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

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
	m := newModel(conn, tx, newStyles(out, opt.Colour))
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
// knows it, the log of sentences, the list of actions and the typed line.
type model struct {
	conn  Conn
	tx    *texts
	st    *styles
	game  engine.Game
	info  engine.Info
	board board

	seat     int
	seats    []match.SeatSummary
	have     bool
	seq      uint64
	status   string
	clock    int64
	clockAt  time.Time
	actors   []int
	view     json.RawMessage
	legal    []obj
	outcome  *engine.Outcome
	log      []string
	refusal  string
	banner   string
	cursor   int
	input    string
	busy     bool
	lastSent json.RawMessage
	resent   bool
	closed   bool
	fatal    error
	w, h     int
}

func newModel(conn Conn, tx *texts, st *styles) *model {
	return &model{conn: conn, tx: tx, st: st, seat: -1, board: generic{}, w: 80, h: 24}
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
		if m.have && msg.Seq > m.seq {
			m.addLog(m.tx.t("match.missed"))
		}
		m.banner = ""
		m.setState(msg)
	case match.TypeUpdate:
		if m.have && msg.Seq <= m.seq {
			return nil
		}
		m.setState(msg)
	case match.TypeSeats:
		if len(msg.Seats) > 0 {
			m.seats = msg.Seats
		}
	case match.TypeError:
		m.busy = false
		if msg.Error == nil {
			return nil
		}
		if msg.Error.Code == match.CodeStaleSeq && !m.resent && m.lastSent != nil && m.stillOffered(m.lastSent) {
			// The match moved on (another seat acted, or time passed):
			// the same action, still legal, goes again on the new state.
			m.resent = true
			return m.send(m.lastSent)
		}
		m.refusal = m.tx.errorText(msg.Error.Code, msg.Error.Message, m.gameID())
	case LostType:
		m.banner = m.tx.t("match.reconnecting", p{"s": (msg.Clock + 999) / 1000})
	}
	return nil
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

func (m *model) setState(msg *match.Message) {
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
		m.lastSent, m.resent = nil, false
	}
	evs := objs(msg.Events)
	if len(evs) > 0 {
		m.refusal = ""
	}
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

// maxLog bounds the sentences kept: the screen shows the newest, and there
// is no scrolling back through a match (Plan de Secours is about memory).
const maxLog = 200

func (m *model) addLog(s string) {
	m.log = append(m.log, s)
	if len(m.log) > maxLog {
		m.log = m.log[len(m.log)-maxLog:]
	}
}

func (m *model) myTurn() bool {
	if m.status != "running" || m.seat < 0 {
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
	return m.clock + time.Since(m.clockAt).Milliseconds()
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
			base[i] = st.Name
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
		clock: m.liveClock(), players: players, nameOf: m.name, play: m.send,
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
		m.refusal = m.tx.errorText("offline", "", "")
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

func (m *model) key(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyCtrlC:
		return tea.Quit
	}
	if m.input == "" && (m.status == "finished" || m.closed) && k.String() == "q" {
		return tea.Quit
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
		m.input, m.refusal = "", ""
	case tea.KeyBackspace:
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
	case tea.KeyEnter:
		return m.enter(list)
	case tea.KeySpace:
		m.input += " "
	case tea.KeyRunes:
		if m.input == "" && (m.status == "finished" || m.closed) && string(k.Runes) == "q" {
			return tea.Quit
		}
		m.input += string(k.Runes)
	}
	return nil
}

// enter plays what the person chose: the action under the cursor, the one
// whose number was typed, or the action typed in the game's short form.
func (m *model) enter(list []obj) tea.Cmd {
	line := strings.TrimSpace(m.input)
	m.input = ""
	switch strings.ToLower(line) {
	case "q", "quit", "exit":
		return tea.Quit
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
	if _, ok := m.game.(engine.TextParser); ok {
		return m.tx.t("term.typeShort")
	}
	return m.tx.t("term.pickHelp")
}

func (m *model) ruleText(err error) string {
	if re, ok := err.(*engine.RuleError); ok {
		return m.tx.errorText(re.Code, re.Message, m.gameID())
	}
	return err.Error()
}

// ---- drawing ----

func (m *model) View() string {
	if !m.have {
		return m.tx.t("term.connecting")
	}
	w, h := max(m.w, 40), max(m.h, 12)
	c := m.ctx()
	head := m.header(c, w)
	var foot []string
	if m.banner != "" {
		foot = append(foot, m.st.refusal.Render(fit(m.banner, w)))
	}
	if m.refusal != "" {
		foot = append(foot, wrap(m.st.refusal.Render(m.tx.t("match.refused"))+" "+m.refusal, w)...)
	}
	foot = append(foot, m.prompt(w), m.st.dim.Render(fit(m.keysHelp(), w)))
	rest := h - len(head) - len(foot)
	var body []string
	if w >= 110 {
		side := min(48, w/3)
		bw := w - side - 1
		board := m.boardLines(c, bw, rest)
		sideLines := m.side(c, side, rest)
		body = joinColumns(board, bw, sideLines, side, rest)
	} else {
		bottom := min(max(rest/3, 6), 9)
		board := m.boardLines(c, w, rest-bottom)
		half := (w - 1) / 2
		acts := m.actionsBox(c, half, bottom)
		logs := m.logBox(w-half-1, bottom)
		body = append(pad(board, rest-bottom), joinColumns(acts, half, logs, w-half-1, bottom)...)
	}
	lines := append(append(head, pad(body, rest)...), foot...)
	return strings.Join(lines, "\n")
}

func (m *model) header(c *ctx, w int) []string {
	title := m.gameID()
	if m.game != nil {
		title = m.info.Name[m.tx.lang]
		if title == "" {
			title = m.info.Name["en"]
		}
	}
	parts := []string{title, m.tx.t("status." + m.status)}
	if m.info.Timing == engine.RealTime || m.status == "running" {
		parts = append(parts, m.tx.t("match.clock", p{"time": fmtClock(c.clock)}))
	}
	top := m.st.title.Render(fit(" "+strings.Join(parts, " · ")+" ", w))
	lines := []string{top}
	turn := m.turnText(c)
	st := m.st.bold
	if c.myTurn {
		st = m.st.mine
	}
	lines = append(lines, wrap(st.Render(turn), w)...)
	lines = append(lines, wrap(m.seatsLine(c), w)...)
	return lines
}

// turnText says whose turn it is, as the web page's turn line does.
func (m *model) turnText(c *ctx) string {
	switch m.status {
	case "open":
		joined, total := 0, 0
		for _, s := range m.seats {
			if s.Kind == match.Human {
				total++
				if s.Joined {
					joined++
				}
			}
		}
		return m.tx.t("match.waitingJoin", p{"joined": joined, "total": total})
	case "finished":
		return m.tx.t("match.over")
	}
	var text string
	switch {
	case c.myTurn && len(m.actors) > 1:
		var others []string
		for _, a := range m.actors {
			if a != m.seat {
				others = append(others, m.name(a))
			}
		}
		text = m.tx.t("match.youAndOthers", p{"others": m.tx.list(others)})
	case c.myTurn:
		text = m.tx.t("match.yourTurn")
	case len(m.actors) == 0:
		text = m.tx.t("match.nobody")
	default:
		var names []string
		for _, a := range m.actors {
			names = append(names, m.name(a))
		}
		text = m.tx.tn("match.waitingFor", len(m.actors), p{"names": m.tx.list(names)})
	}
	if extra := m.board.status(c); extra != "" {
		text += " " + extra
	}
	return text
}

func (m *model) seatsLine(c *ctx) string {
	var parts []string
	for i := range max(len(m.seats), c.players) {
		s := c.mark(i) + " " + m.name(i)
		if i == m.seat {
			s += " (" + m.tx.t("match.you") + ")"
		}
		if m.status == "running" && c.isActor(i) {
			s = m.st.acting.Render("▸"+s) + " " + m.st.dim.Render(m.tx.t("match.toAct"))
		}
		parts = append(parts, s)
	}
	return m.st.bold.Render(m.tx.t("match.players")+":") + " " + strings.Join(parts, "  ")
}

func (m *model) boardLines(c *ctx, w, h int) []string {
	if h <= 0 {
		return nil
	}
	var s string
	func() {
		defer func() {
			if r := recover(); r != nil {
				s = m.tx.t("match.boardFailed")
			}
		}()
		s = m.board.render(c, w, h)
	}()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return lines
}

func (m *model) side(c *ctx, w, h int) []string {
	acts := m.actionsBox(c, w, min(h/2, 14))
	return append(acts, m.logBox(w, h-len(acts))...)
}

// actionsBox is the list of actions (or the end of the match), in a frame.
func (m *model) actionsBox(c *ctx, w, h int) []string {
	var lines []string
	title := m.tx.t("match.actions")
	if m.status == "finished" {
		title = m.tx.t("end.title")
		lines = m.endLines(c, w-4)
	} else {
		list := m.shown()
		switch {
		case m.seat < 0:
			lines = []string{m.tx.t("match.spectating")}
		case !c.myTurn:
			lines = []string{m.st.dim.Render(m.tx.t("match.notYourTurn"))}
		case len(list) == 0:
			lines = wrap(m.tx.t("term.onBoard"), w-4)
		default:
			room := max(h-2, 1)
			first := 0
			if m.cursor >= room {
				first = m.cursor - room + 1
			}
			for i := first; i < len(list) && i < first+room; i++ {
				item := fmt.Sprintf("%2d %s", i+1, actionLabel(m.board, list[i], c))
				item = fit(item, w-4)
				if i == m.cursor {
					item = m.st.selected.Render(item)
				}
				lines = append(lines, item)
			}
			title = m.tx.tn("term.actionsCount", len(list))
		}
	}
	return frame(m.st, title, lines, w, h)
}

func (m *model) endLines(c *ctx, w int) []string {
	out := m.outcome
	var winners []engine.Seat
	if out != nil {
		winners = out.Winners
	}
	var head string
	switch {
	case len(winners) == 0:
		head = m.tx.t("end.noWinner")
	case out.Won(engine.Seat(m.seat)) && len(winners) > 1:
		head = m.tx.t("end.youShare")
	case out.Won(engine.Seat(m.seat)):
		head = m.tx.t("end.youWin")
	default:
		var names []string
		for _, s := range winners {
			names = append(names, m.name(int(s)))
		}
		head = m.tx.tn("end.winners", len(winners), p{"names": m.tx.list(names)})
	}
	lines := wrap(m.st.bold.Render(head), w)
	if out != nil {
		order := make([]int, len(out.Ranks))
		for i := range order {
			order[i] = i
		}
		for i := range order {
			for j := i + 1; j < len(order); j++ {
				if out.Ranks[order[j]] < out.Ranks[order[i]] {
					order[i], order[j] = order[j], order[i]
				}
			}
		}
		for _, s := range order {
			star := " "
			if out.Won(engine.Seat(s)) {
				star = "★"
			}
			score := "—"
			if s < len(out.Scores) {
				score = strconv.Itoa(out.Scores[s])
			}
			lines = append(lines, fit(fmt.Sprintf("%d %s %s %s  %s %s", out.Ranks[s], star, c.mark(s), m.name(s), m.tx.t("end.score"), score), w))
		}
	}
	lines = append(lines, m.st.dim.Render(fit(m.tx.t("term.leave"), w)))
	return lines
}

// logBox shows the newest sentences, as many as fit.
func (m *model) logBox(w, h int) []string {
	room := max(h-2, 0)
	var lines []string
	for i := len(m.log) - 1; i >= 0 && len(lines) < room; i-- {
		l := wrap("• "+m.log[i], w-4)
		lines = append(l, lines...)
	}
	if len(lines) > room {
		lines = lines[len(lines)-room:]
	}
	return frame(m.st, m.tx.t("match.log"), lines, w, h)
}

func (m *model) prompt(w int) string {
	cur := "█"
	hint := ""
	if m.input == "" {
		switch {
		case m.busy:
			hint = m.st.dim.Render(m.tx.t("term.sending"))
		case m.myTurn():
			hint = m.st.dim.Render(m.typeHelp())
		}
	}
	return fit("› "+m.input+cur+" "+hint, w)
}

func (m *model) keysHelp() string {
	if m.status == "finished" || m.closed {
		return m.tx.t("term.keysEnd")
	}
	if h, ok := m.board.(interface{ keysHelp(*ctx) string }); ok {
		if s := h.keysHelp(m.ctx()); s != "" {
			return s
		}
	}
	return m.tx.t("term.keys")
}

// ---- layout helpers ----

// fit cuts a line to w columns.
func fit(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// wrap breaks text into lines of at most w columns.
func wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	return strings.Split(ansi.Wrap(s, w, " "), "\n")
}

func pad(lines []string, h int) []string {
	for len(lines) < h {
		lines = append(lines, "")
	}
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	return lines
}

// joinColumns puts two blocks of lines side by side, h lines high.
func joinColumns(a []string, aw int, b []string, bw int, h int) []string {
	a, b = pad(a, h), pad(b, h)
	out := make([]string, h)
	for i := range h {
		left := fit(a[i], aw)
		out[i] = left + strings.Repeat(" ", max(aw-ansi.StringWidth(left), 0)) + " " + fit(b[i], bw)
	}
	return out
}

// frame draws lines in a box of w×h with a title on its top edge.
func frame(st *styles, title string, lines []string, w, h int) []string {
	if h < 2 || w < 4 {
		return nil
	}
	inner := w - 4
	t := fit(" "+title+" ", max(inner, 0))
	top := "╭─" + st.bold.Render(t) + strings.Repeat("─", max(w-3-ansi.StringWidth(t), 0)) + "╮"
	out := []string{top}
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(lines) {
			l = fit(lines[i], inner)
		}
		out = append(out, "│ "+l+strings.Repeat(" ", max(inner-ansi.StringWidth(l), 0))+" │")
	}
	return append(out, "╰"+strings.Repeat("─", w-2)+"╯")
}

var _ = lipgloss.Width

func lipWidth(s string) int { return ansi.StringWidth(s) }
