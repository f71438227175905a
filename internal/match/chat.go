// Table talk: the short lines the seats of a match write to each other, and
// the notices of a seat handed to its bot and taken back. Every line is
// stored with the match before anyone is told it, like an action.

package match

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"sortie/engine"
	"sortie/internal/bus"
)

// Types of the lines of table talk, which are also the types of the socket
// messages that carry them.
const (
	// TypeChat is a line a seat wrote.
	TypeChat = "chat"
	// TypeLeft tells that a seat's human handed the seat to its bot.
	TypeLeft = "left"
	// TypeBack tells that they took it back.
	TypeBack = "back"
)

// Limits of table talk.
const (
	// MaxChatLen is the longest line, in characters.
	MaxChatLen = 300
	// maxChatLines is how many lines a match keeps; later ones are refused.
	maxChatLines = 2000
	// A seat may write chatBurst lines at once, then one every chatEvery.
	chatBurst = 5
	chatEvery = 2 * time.Second
)

// Line is one line of table talk, as it is stored and as sockets get it.
type Line struct {
	Type string `json:"type"`
	// N numbers the match's lines from 1.
	N    int         `json:"n"`
	Seat engine.Seat `json:"seat"`
	// Name is the seat's name when the line was written ("" for a seat
	// with none: clients name it).
	Name string `json:"name"`
	// Text is what the seat wrote, exactly; clients show it as text.
	Text string `json:"text,omitempty"`
	// Team, when set, is the team whose channel the line went to: only
	// that team's seats hear it (engine.TeamTalk).
	Team *int `json:"team,omitempty"`
	// Seq is the number of records in the log when the line was written:
	// it follows record Seq.
	Seq uint64 `json:"seq"`
	// Clock is the match clock then; Time the wall clock.
	Clock engine.Millis `json:"clock"`
	Time  time.Time     `json:"time"`
}

// hears reports whether audience s may be told line l.
func (l *Line) hears(s engine.Seat, team int) bool {
	return l.Team == nil || (s >= 0 && team == *l.Team)
}

// teamOf returns the team channel of audience s, or -1.
func (x *Match) teamOf(s engine.Seat) int {
	if tt, ok := x.state.(engine.TeamTalk); ok && s >= 0 {
		return tt.TalkTeam(s)
	}
	return -1
}

// Chat writes a line of seat s into the match's table talk: to everyone, or
// to the seat's team alone when team is set. It returns once the line is
// stored and told to every audience that hears it (the writer's socket
// gets it too: that is its acknowledgement), or the refusal.
func (x *Match) Chat(ctx context.Context, s engine.Seat, text string, team bool) error {
	return x.do(ctx, func() error { return x.chat(s, text, team, time.Now()) })
}

func (x *Match) chat(s engine.Seat, text string, team bool, now time.Time) error {
	if s < 0 || int(s) >= len(x.seats) {
		return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
	}
	if err := checkChat(text); err != nil {
		return err
	}
	l := &Line{Type: TypeChat, Seat: s, Text: text}
	if team {
		t := x.teamOf(s)
		if t < 0 {
			return refuse(CodeNoTeamChat, "This match has no team channel for you: your line goes to the whole table or nowhere.")
		}
		l.Team = &t
	}
	if wait := x.seats[s].talk.take(now); wait > 0 {
		ms := wait.Milliseconds() + 1
		return refuse(CodeChatTooFast, "You write faster than the table reads: wait %.1f s.", float64(ms)/1000).with("wait_ms", ms)
	}
	return x.tell(l, now)
}

// checkChat refuses a line that is empty, too long or not plain text.
func checkChat(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return refuse(CodeChatEmpty, "The line is empty.")
	case !utf8.ValidString(text):
		return refuse(CodeChatBadText, "The line is not valid text.")
	case utf8.RuneCountInString(text) > MaxChatLen:
		return refuse(CodeChatTooLong, "A line holds at most %d characters.", MaxChatLen).with("max", MaxChatLen)
	case strings.IndexFunc(text, unicode.IsControl) >= 0:
		return refuse(CodeChatBadText, "A line is one line of text: no line breaks, tabs or other control characters.")
	case strings.IndexFunc(text, isBidiControl) >= 0:
		// As in names: an override would turn the text after the line
		// around wherever it is shown.
		return refuse(CodeChatBadText, "The line has characters that change the direction of text.")
	}
	return nil
}

// tell numbers a line, stores it and tells it to every audience that hears
// it.
func (x *Match) tell(l *Line, now time.Time) error {
	if x.chatN >= maxChatLines {
		return refuse(CodeChatFull, "This match keeps no more than %d lines of talk.", maxChatLines).with("max", maxChatLines)
	}
	if x.stall != nil {
		return stalledErr
	}
	l.N, l.Name, l.Seq, l.Clock, l.Time = x.chatN+1, x.rec.Seats[l.Seat].Name, x.seq, x.clock(now), now.UTC()
	b, err := json.Marshal(l)
	if err != nil {
		return refuse(CodeUnavailable, "The server could not save your line; it was not sent. Try again.")
	}
	m, id, epoch := x.mgr, x.id, x.rec.Lease.Epoch
	err = x.save("a line of talk", func(ctx context.Context) error {
		return m.store.AppendChat(ctx, id, epoch, l.N, b)
	}, func() {
		m.logs.addChat(id, l.N, b)
		x.chatN = l.N
		for i, st := range x.seats {
			if st.sub != nil && l.hears(engine.Seat(i), x.teamOf(engine.Seat(i))) {
				x.publish(engine.Seat(i), bus.Message{Data: b})
			}
		}
		if len(x.spectators) > 0 && l.hears(engine.Spectator, -1) {
			x.publish(engine.Spectator, bus.Message{Data: b})
		}
	})
	if err != nil && err != errPending {
		return x.refusedWrite("a line of talk", err)
	}
	return pending(err, "line")
}

// bucket lets chatBurst lines through at once, then one every chatEvery.
type bucket struct {
	used float64 // lines counted against the burst
	last time.Time
}

// take counts one line at now, or returns how long to wait for one.
func (b *bucket) take(now time.Time) time.Duration {
	if !b.last.IsZero() {
		b.used = max(0, b.used-float64(now.Sub(b.last))/float64(chatEvery))
	}
	b.last = now
	if b.used+1 > chatBurst {
		return time.Duration((b.used + 1 - chatBurst) * float64(chatEvery))
	}
	b.used++
	return 0
}
