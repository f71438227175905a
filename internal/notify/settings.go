package notify

import (
	"encoding/json"
	"fmt"
	"time"
	_ "time/tzdata" // the players' time zones, whatever the machine has
)

// Settings are what one account wants to be told, and how. The zero value
// is not the default: see [DefaultSettings].
type Settings struct {
	// Turn, Invite and End are the kinds of notification: "your turn", a
	// friend keeps a seat for you, a match you are in ends.
	Turn   Channels `json:"turn"`
	Invite Channels `json:"invite"`
	End    Channels `json:"end"`
	// Quiet hours, in the player's time zone: no push and no e-mail
	// between From and To ("22:00" to "08:00"; both empty: none). What
	// falls due meanwhile is sent at To, if it still holds then.
	Quiet Quiet `json:"quiet_hours"`
	// TimeZone is the player's IANA time zone ("Europe/Paris"); quiet
	// hours and the daily digest are in it.
	TimeZone string `json:"time_zone"`
	// DigestAt is when the daily digest is sent ("08:00", the player's
	// time).
	DigestAt string `json:"digest_at"`
}

// Channels say how one kind of notification reaches the player.
type Channels struct {
	// Push: on every device the player turned notifications on.
	Push bool `json:"push"`
	// Email: "off", "each" (one mail each time) or "digest" (in the daily
	// digest).
	Email string `json:"email"`
}

// Quiet are quiet hours, "HH:MM" each, or both empty for none.
type Quiet struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// E-mail choices.
const (
	EmailOff    = "off"
	EmailEach   = "each"
	EmailDigest = "digest"
)

// DefaultSettings are an account's until it saves its own: every push
// on; "your turn" by e-mail in a daily digest, invitations one by one,
// ends not by e-mail; no quiet hours; Paris time.
func DefaultSettings() Settings {
	return Settings{
		Turn:     Channels{Push: true, Email: EmailDigest},
		Invite:   Channels{Push: true, Email: EmailEach},
		End:      Channels{Push: true, Email: EmailOff},
		TimeZone: "Europe/Paris",
		DigestAt: "08:00",
	}
}

// readSettings reads stored settings, or the defaults.
func readSettings(b []byte) Settings {
	s := DefaultSettings()
	if len(b) > 0 {
		_ = json.Unmarshal(b, &s)
	}
	return s
}

// Check returns s as kept, or says in a sentence what is wrong.
func (s Settings) Check() (Settings, error) {
	for _, c := range []struct {
		name string
		ch   *Channels
	}{{"turn", &s.Turn}, {"invite", &s.Invite}, {"end", &s.End}} {
		switch c.ch.Email {
		case EmailOff, EmailEach, EmailDigest:
		case "":
			c.ch.Email = EmailOff
		default:
			return s, fmt.Errorf(`%s.email is "off", "each" or "digest".`, c.name)
		}
	}
	if s.End.Email == EmailDigest {
		return s, fmt.Errorf(`end.email is "off" or "each": the digest tells what waits for you.`)
	}
	times := []struct{ name, v string }{{"digest_at", s.DigestAt}}
	if s.Quiet.From != "" || s.Quiet.To != "" {
		times = append(times, struct{ name, v string }{"quiet_hours.from", s.Quiet.From}, struct{ name, v string }{"quiet_hours.to", s.Quiet.To})
	}
	for _, t := range times {
		if _, err := clock(t.v); err != nil {
			return s, fmt.Errorf("%s is a time of day, HH:MM.", t.name)
		}
	}
	if s.TimeZone == "" || len(s.TimeZone) > 64 {
		return s, fmt.Errorf("time_zone is a time zone such as Europe/Paris.")
	}
	if _, err := time.LoadLocation(s.TimeZone); err != nil {
		return s, fmt.Errorf("time_zone %q is no time zone this server knows (such as Europe/Paris).", s.TimeZone)
	}
	return s, nil
}

// clock reads "HH:MM" as minutes after midnight.
func clock(v string) (int, error) {
	t, err := time.Parse("15:04", v)
	if err != nil || len(v) != 5 {
		return 0, fmt.Errorf("not HH:MM: %q", v)
	}
	return t.Hour()*60 + t.Minute(), nil
}

// location is the player's time zone (Paris if it no longer loads).
func (s Settings) location() *time.Location {
	if loc, err := time.LoadLocation(s.TimeZone); err == nil {
		return loc
	}
	loc, _ := time.LoadLocation("Europe/Paris")
	return loc
}

// quietUntil reports whether now is within the quiet hours, and when they
// end.
func (s Settings) quietUntil(now time.Time) (time.Time, bool) {
	from, err1 := clock(s.Quiet.From)
	to, err2 := clock(s.Quiet.To)
	if err1 != nil || err2 != nil || from == to {
		return time.Time{}, false
	}
	local := now.In(s.location())
	m := local.Hour()*60 + local.Minute()
	in := from < to && m >= from && m < to || from > to && (m >= from || m < to)
	if !in {
		return time.Time{}, false
	}
	end := atMinute(local, to)
	if !end.After(local) {
		end = atMinute(local.AddDate(0, 0, 1), to)
	}
	return end, true
}

// nextDigest is when the first daily digest after now is sent.
func (s Settings) nextDigest(now time.Time) time.Time {
	at, err := clock(s.DigestAt)
	if err != nil {
		at = 8 * 60
	}
	local := now.In(s.location())
	t := atMinute(local, at)
	if !t.After(local) {
		t = atMinute(local.AddDate(0, 0, 1), at)
	}
	return t
}

// atMinute is the minute m (after midnight) of t's day, in t's zone.
func atMinute(t time.Time, m int) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), m/60, m%60, 0, 0, t.Location())
}
