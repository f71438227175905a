package term

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"sortie/engine"
	"sortie/internal/match"
)

// ---- drawing ----

// View draws the screen, in ASCII on a terminal that is not UTF-8.
func (m *model) View() string {
	s := m.screen()
	if m.ascii {
		s = asciiScreen(s)
	}
	return s
}

// screen draws the screen in the terminal's size.
func (m *model) screen() string {
	if !m.have {
		return m.tx.t("term.connecting")
	}
	w, h := max(m.w, 40), max(m.h, 12)
	c := m.ctx()
	head := m.header(c, w)
	var foot []string
	if m.banner != "" {
		foot = append(foot, wrap(m.st.refusal.Render(m.banner), w)...)
	}
	if m.refusal != "" {
		foot = append(foot, wrap(m.st.refusal.Render(m.tx.t("match.refused"))+" "+m.refusal, w)...)
	}
	if m.talk.err != "" {
		foot = append(foot, wrap(m.st.refusal.Render(m.tx.t("term.notSaid"))+" "+m.talk.err, w)...)
	}
	for _, n := range []string{m.notice, m.flash} {
		if n != "" {
			foot = append(foot, wrap(m.st.bold.Render(n), w)...)
		}
	}
	foot = append(foot, m.prompt(w), m.st.dim.Render(fit(m.keysHelp(), w)))
	rest := h - len(head) - len(foot)
	var body []string
	switch {
	case m.modal(c):
		// The board shows something the person reads before playing on
		// (Plan de Secours' path revealed): it takes the whole screen.
		body = m.boardLines(c, w, rest)
	case w >= 110:
		side := min(48, w/3)
		if b, ok := m.board.(interface{ wide(w int) bool }); ok && b.wide(w) {
			side = min(40, w/4) // a board drawn by coordinates takes what it can
		}
		bw := w - side - 1
		board := m.boardLines(c, bw, rest)
		sideLines := m.side(c, side, rest)
		body = joinColumns(board, bw, sideLines, side, rest)
	default:
		// The list and the log take what the board leaves, at least a few
		// lines; with no list to show (not this seat's turn, or a move made
		// on the board) the log has the whole width.
		least := 6
		withList := m.status == "finished" || len(m.shown()) > 0
		switch {
		case m.status == "finished":
			least = min(max(len(m.endLines(c, (w-1)/2-4))+2, least), rest/2)
		case !withList:
			least = 5
		}
		// A board that cannot show what matters in less takes rows from
		// the boxes, down to a line of the log (Outran's lanes, one a
		// runner).
		if b, ok := m.board.(interface{ needs(*ctx, int) int }); ok {
			least = max(min(least, rest-b.needs(c, w)), 3)
		}
		board := m.boardLines(c, w, rest-least)
		bottom := max(rest-len(board), least)
		if len(board) < rest-least-1 {
			board = append(board, "") // a line between the board and the boxes
			bottom--
		}
		var boxes []string
		if withList {
			half := (w - 1) / 2
			acts := m.actionsBox(c, half, bottom)
			logs := m.logBox(w-half-1, bottom)
			boxes = joinColumns(acts, half, logs, w-half-1, bottom)
		} else {
			boxes = m.logBox(w, bottom)
		}
		body = append(pad(board, rest-bottom), boxes...)
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
	corr := m.correspondence()
	if !corr && (m.info.Timing == engine.RealTime || m.status == "running") {
		parts = append(parts, m.tx.t("match.clock", p{"time": fmtClock(c.clock)}))
	}
	// The server says when each seat's move limit runs out: at a
	// correspondence table, a date and time in the player's time zone.
	if m.status == "running" && corr {
		parts = append(parts, m.dueDates()...)
	} else if m.status == "running" {
		for _, d := range m.deadlines {
			left := fmtClock(int64(d.At) - c.clock)
			if int(d.Seat) == m.seat {
				parts = append(parts, m.tx.t("match.yourTime", p{"time": left}))
			} else {
				parts = append(parts, m.tx.t("match.theirTime", p{"name": m.name(int(d.Seat)), "time": left}))
			}
		}
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

// correspondence reports whether the match is a correspondence table: its
// human seats say their days off left.
func (m *model) correspondence() bool {
	for _, st := range m.seats {
		if st.DaysOffLeft != nil {
			return true
		}
	}
	return false
}

// dueDates says, as the web page does, by when each seat that must move
// has to, the player's own first with their days off left.
func (m *model) dueDates() []string {
	zone := m.zone
	if zone == nil {
		zone = time.Local
	}
	var mine, others []string
	for _, d := range m.deadlines {
		if d.By == nil {
			continue
		}
		when := m.tx.when(*d.By, zone)
		if int(d.Seat) != m.seat {
			others = append(others, m.tx.t("deadline.theirs", p{"name": m.name(int(d.Seat)), "when": when}))
			continue
		}
		s := m.tx.t("deadline.yours", p{"when": when})
		switch {
		case d.DaysOffLeft == nil:
		case *d.DaysOffLeft > 0:
			s += " · " + m.tx.tn("deadline.daysOff", *d.DaysOffLeft)
		default:
			s += " · " + m.tx.t("deadline.noDaysOff")
		}
		mine = append(mine, s)
	}
	return append(mine, others...)
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
	if m.seatLeft() {
		return m.tx.t("table.youLeft") + " " + m.tx.t("term.takeBack")
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
		var names []phrase
		for _, a := range m.actors {
			names = append(names, m.who(a))
		}
		text = m.tx.tn("match.waitingFor", len(m.actors), p{"names": m.tx.people(names)})
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
		if tag := m.seatTag(i); tag != "" {
			s += " " + m.st.dim.Render("("+tag+")")
		}
		if m.status == "running" && c.isActor(i) {
			s = m.st.acting.Render("▸" + s)
		}
		parts = append(parts, s)
	}
	return m.st.bold.Render(m.tx.t("match.players")+strings.TrimRight(m.tx.colon(), " ")) + " " + strings.Join(parts, "  ")
}

// seatTag says what is unusual about a human seat at a table: left to its
// bot, played by it while away, offline, not joined yet.
func (m *model) seatTag(i int) string {
	if i >= len(m.seats) || m.seats[i].Kind != match.Human || m.status == "finished" {
		return ""
	}
	st := m.seats[i]
	switch {
	case st.Left:
		return m.tx.t("table.seatLeft")
	case !st.Joined:
		return m.tx.t("seat.notJoined")
	case st.PlayedBy == match.Bot:
		return m.tx.t("term.seat.away")
	case !st.Connected:
		return m.tx.t("seat.offline")
	}
	return ""
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

// modal says whether the board takes the whole screen now.
func (m *model) modal(c *ctx) bool {
	b, ok := m.board.(interface{ modal(*ctx) bool })
	return ok && b.modal(c)
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
			labels := m.listLabels(c, list, w-4-3)
			for i := first; i < len(list) && i < first+room; i++ {
				item := fmt.Sprintf("%2d %s", i+1, labels[i])
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

// listLabels names the actions of the list in n columns each: a board's
// short name where the full one does not fit, and names that still read
// the same once cut keep what tells them apart (distinct).
func (m *model) listLabels(c *ctx, list []obj, n int) []string {
	sb, short := m.board.(interface{ shortLabel(obj, *ctx) string })
	labels := make([]string, len(list))
	for i, a := range list {
		labels[i] = actionLabel(m.board, a, c)
		if short && lipWidth(labels[i]) > n {
			if s := sb.shortLabel(a, c); s != "" {
				labels[i] = s
			}
		}
	}
	return distinct(labels, n)
}

// distinct cuts labels to n columns so that labels that differ still
// differ once cut: where two would read the same, each keeps its start and
// the words from where it differs from the others, with an ellipsis for
// what they share between ("Cross door 1 (Cell – N… spoon").
func distinct(labels []string, n int) []string {
	out := make([]string, len(labels))
	same := map[string][]int{}
	for i, l := range labels {
		out[i] = fit(l, n)
		same[out[i]] = append(same[out[i]], i)
	}
	for _, group := range same {
		if len(group) < 2 {
			continue
		}
		for _, i := range group {
			li := []rune(ansiStrip(labels[i]))
			d := 0 // where labels[i] parts from the one it shares most with
			for _, j := range group {
				if j != i && labels[j] != labels[i] {
					d = max(d, commonPrefix(li, []rune(ansiStrip(labels[j]))))
				}
			}
			for d > 0 && li[d-1] != ' ' {
				d-- // from the start of the word
			}
			tail := string(li[d:])
			keep := n - lipWidth(tail) - 2 // "… " before the tail
			if d == 0 || keep < 4 {
				continue // nothing shared to leave out, or no room for it
			}
			head := strings.TrimRight(ansi.Truncate(string(li[:d]), keep, ""), " ")
			out[i] = head + "… " + tail
		}
	}
	return out
}

// commonPrefix is the number of leading runes a and b share.
func commonPrefix(a, b []rune) int {
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	return k
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

// logBox shows the newest lines of the log, as many as fit whole; at a
// table its title says how to talk.
func (m *model) logBox(w, h int) []string {
	room := max(h-2, 0)
	var lines []string
	for i := len(m.log) - 1; i >= 0; i-- {
		l := wrap(m.logText(m.log[i]), w-4)
		if len(lines)+len(l) > room {
			if len(lines) == 0 {
				lines = l[:room] // a sentence longer than the box: its start
			}
			break
		}
		lines = append(l, lines...)
	}
	title := m.tx.t("match.log")
	if m.atTable() {
		title += " · " + m.tx.t("term.talkKey")
	}
	return frame(m.st, title, lines, w, h)
}

func (m *model) logText(l logLine) string {
	if !l.said {
		return "• " + l.text
	}
	who := m.st.seatStyle(l.who).Render(m.tx.t("table.who", p{"name": m.name(l.who)}))
	if l.team {
		who = m.st.dim.Render("["+m.tx.t("table.teamTag")+"]") + " " + who
	}
	return "› " + who + " " + l.text
}

func (m *model) prompt(w int) string {
	cur := "█"
	if m.talk.open {
		label := m.tx.t("table.say")
		if m.talk.team {
			label += " (" + m.tx.t("table.teamOnly") + ")"
		}
		hint := m.st.dim.Render(m.tx.t("term.talkHelp"))
		if m.team != nil {
			hint = m.st.dim.Render(m.tx.t("term.talkHelpTeam"))
		}
		return fit(m.st.bold.Render(label+" ›")+" "+m.talk.text+cur+" "+hint, w)
	}
	hint := ""
	if m.input == "" {
		switch {
		case m.busy:
			hint = m.tx.t("term.sending")
		case m.talk.pending != "":
			hint = m.tx.t("term.saying")
		case m.myTurn():
			hint = m.typeHelp()
		case m.seatLeft():
			hint = m.tx.t("term.takeBack")
		case m.atTable() && m.status == "running":
			hint = m.tx.t("term.tableHelp")
		}
	}
	return fit("› "+m.input+cur+" "+m.st.dim.Render(hint), w)
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
	if !m.myTurn() {
		if m.atTable() {
			return m.tx.t("term.keysWaitTable")
		}
		return m.tx.t("term.keysWait")
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

// columns lays items out in as many columns of w as it takes to show them
// in h lines (the last cut if even that is not enough).
func columns(items []string, w, h int) []string {
	if len(items) <= h || h <= 0 {
		return items
	}
	n := (len(items) + h - 1) / h
	cw := (w - (n - 1)) / n
	if cw < 16 {
		n = max((w+1)/17, 1)
		cw = (w - (n - 1)) / n
	}
	out := make([]string, h)
	for i, it := range items {
		col, row := i/h, i%h
		if col >= n {
			break
		}
		if col > 0 {
			out[row] += strings.Repeat(" ", max(cw*col+col-ansi.StringWidth(out[row]), 0))
		}
		out[row] += fit(it, cw)
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

func lipWidth(s string) int { return ansi.StringWidth(s) }

// ansiStrip is s without its styles.
func ansiStrip(s string) string { return ansi.Strip(s) }
