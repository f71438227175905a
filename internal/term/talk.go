package term

import (
	"encoding/json"
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"

	"sortie/internal/match"
)

// The log and the table: what happened in sentences, the lines of table
// talk, and a seat handed to its bot and taken back (docs/api.md: chat,
// left, back), as the web page's log shows them.

// logLine is one line of the log: a sentence, or a line of talk (who said
// it is drawn apart from what they said, which is shown as text only).
type logLine struct {
	text string
	who  int  // the writer of a line of talk
	said bool // a line of talk
	team bool // said to the team alone
}

// maxLog bounds the lines kept: the screen shows the newest, and there is
// no scrolling back through a match (Plan de Secours is about memory).
const maxLog = 300

func (m *model) addLog(s string) { m.addLine(logLine{text: s}) }

func (m *model) addLine(l logLine) {
	m.log = append(m.log, l)
	if len(m.log) > maxLog {
		m.log = m.log[len(m.log)-maxLog:]
	}
}

// hearLine takes a line of the table: talk, or a seat left or taken back.
func (m *model) hearLine(msg *match.Message) {
	if msg.Seat == nil {
		return
	}
	s := int(*msg.Seat)
	switch msg.Type {
	case match.TypeChat:
		if s == m.seat && m.talk.pending != "" && msg.Text == m.talk.pending {
			m.talk.pending, m.talk.err = "", "" // the server's echo is the acknowledgement
		}
		m.addLine(logLine{text: plain(msg.Text), who: s, said: true, team: msg.Team != nil})
	case match.TypeLeft:
		m.addLog(m.tx.t("table.left", p{"name": m.who(s)}))
	case match.TypeBack:
		m.addLog(m.tx.t("table.back", p{"name": m.who(s)}))
	}
}

// setHistory rebuilds the log from the history of a state message: the
// events this seat was told and the lines of the table, oldest first.
func (m *model) setHistory(history []json.RawMessage) {
	m.log = nil
	c := m.ctx()
	for _, raw := range history {
		var e match.Message
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		switch e.Type {
		case match.TypeEvents:
			for _, ev := range objs(e.Events) {
				if s, ok := sentence(m.board, ev, c); ok && s != "" {
					m.addLog(s)
				}
			}
		default:
			m.hearLine(&e)
		}
	}
}

// noteAway logs the human seats whose bot stood in or stood down since the
// last seats message (a seat left or taken back has its own line).
func (m *model) noteAway(next []match.SeatSummary) {
	for _, st := range next {
		s := int(st.Seat)
		if s < 0 || s >= len(m.seats) || st.Kind != match.Human {
			continue
		}
		was := m.seats[s]
		if was.Left != st.Left || was.PlayedBy == st.PlayedBy {
			continue
		}
		key := "table.returned"
		if st.PlayedBy == match.Bot {
			key = "table.away"
		}
		m.addLog(m.tx.t(key, p{"name": m.who(s)}))
	}
}

// who names a seat in a line of the table's own: "you" for this screen's
// seat, as the web page's who does.
func (m *model) who(s int) phrase { return phrase{text: m.name(s), you: s >= 0 && s == m.seat} }

// plain keeps what a player wrote as text: nothing in it may move the
// cursor or change colours (the server refuses control characters; this
// holds whatever a server sends).
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return ' '
		}
		return r
	}, s)
}

// seatLeft says whether this screen's seat is handed to its bot.
func (m *model) seatLeft() bool {
	return m.seat >= 0 && m.seat < len(m.seats) && m.seats[m.seat].Left
}

// ---- the talk line and the seat ----

// table is a line to a server's table, where talk, leave and return are
// sent (a match against bots in this process has none).
type table interface {
	Say(m match.ClientMessage)
}

// talk is the line being written to the table.
type talk struct {
	open    bool
	team    bool   // to the team alone (Room 25's Team mode)
	text    string // being written
	pending string // sent, not yet told back
	err     string // the refusal of the last line
	leave   bool   // /leave was typed once: a second one hands the seat over
}

// atTable says whether this screen sits at a server's table as a player.
func (m *model) atTable() bool {
	_, ok := m.conn.(table)
	return ok && m.seat >= 0
}

func isTalkError(code string) bool {
	return strings.HasPrefix(code, "chat_") || code == "no_team_chat"
}

// talkRefused shows a refused line of talk and gives it back to edit.
func (m *model) talkRefused(e *match.Error) {
	m.talk.err = m.errorText(e)
	if m.talk.pending != "" && m.talk.text == "" {
		m.talk.text, m.talk.open = m.talk.pending, true
	}
	m.talk.pending = ""
}

// say sends a message of the table (talk, leave, return).
func (m *model) say(cm match.ClientMessage) tea.Cmd {
	t, ok := m.conn.(table)
	if !ok {
		return nil
	}
	if m.closed {
		m.refusal = m.errorText(&match.Error{Code: "offline"})
		return nil
	}
	return func() tea.Msg {
		t.Say(cm)
		return nil
	}
}

// talkKey handles a key while the talk line is open.
func (m *model) talkKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEsc:
		m.talk.open, m.talk.err = false, ""
	case tea.KeyTab:
		if m.team != nil && !m.talk.team {
			m.talk.team = true
		} else {
			m.talk.open, m.talk.team = false, false
		}
	case tea.KeyBackspace:
		if r := []rune(m.talk.text); len(r) > 0 {
			m.talk.text = string(r[:len(r)-1])
		}
	case tea.KeySpace:
		m.talk.text += " "
	case tea.KeyRunes:
		m.talk.text += string(k.Runes)
	case tea.KeyEnter:
		text := m.talk.text
		if strings.TrimSpace(text) == "" {
			return nil
		}
		m.talk.pending, m.talk.text, m.talk.err, m.talk.open = text, "", "", false
		return m.say(match.ClientMessage{Type: match.ClientChat, Text: text, Team: m.talk.team})
	}
	return nil
}

// command runs a typed table command (/leave, /back, /say); ok is false
// for a line that is none.
func (m *model) command(line string) (tea.Cmd, bool) {
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch strings.ToLower(word) {
	case "/leave", "/quitter":
	case "/back", "/return", "/reprendre":
	case "/say", "/dire":
	default:
		return nil, false
	}
	if !m.atTable() {
		m.refusal = m.tx.t("term.noTable")
		return nil, true
	}
	switch strings.ToLower(word) {
	case "/say", "/dire":
		if strings.TrimSpace(rest) == "" {
			m.talk.open = true
			return nil, true
		}
		m.talk.pending = rest
		return m.say(match.ClientMessage{Type: match.ClientChat, Text: rest}), true
	case "/back", "/return", "/reprendre":
		m.talk.leave = false
		if h, ok := m.conn.(interface{ PlayHere() }); ok && m.replaced {
			m.replaced = false
			m.banner = m.tx.t("term.openingHere")
			h.PlayHere()
			return nil, true
		}
		return m.say(match.ClientMessage{Type: match.ClientReturn}), true
	}
	if m.status != "running" || m.seatLeft() {
		return nil, true
	}
	if !m.talk.leave {
		m.talk.leave = true
		m.notice = m.tx.t("term.leaveConfirm")
		return nil, true
	}
	m.talk.leave, m.notice = false, ""
	return m.say(match.ClientMessage{Type: match.ClientLeave}), true
}
