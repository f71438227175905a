package sim_test

import (
	"bytes"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tg "sortie/engine/enginetest/testgames"
	"sortie/sim"
)

// batch is a made-up batch of games: its label, and each seat's wins out of
// games, one bot (named bot) in every seat. A team batch (every seat's wins
// equal and meant as the team's) counts every win as everyone's.
func batch(label, bot string, games int, team bool, wins ...int) sim.Stats {
	s := sim.Stats{Game: "draw", Label: label, Players: len(wins), Games: games, Rotated: true, Actions: 50, ActionsStdDev: 10}
	total := 0
	for p, w := range wins {
		s.Bots = append(s.Bots, bot)
		s.Seats = append(s.Seats, sim.SeatStats{Seat: p, Wins: w, WinRate: sim.Wilson(float64(w), float64(games))})
		total += w
	}
	s.Policies = []sim.PolicyStats{{Policy: bot, Seatings: games * len(wins), Wins: total,
		WinRate: sim.Wilson(float64(total)/float64(len(wins)), float64(games))}}
	if team {
		s.AllWon, s.NoneWon = sim.Wilson(float64(wins[0]), float64(games)), sim.Wilson(float64(games-wins[0]), float64(games))
	} else {
		s.AllWon, s.NoneWon = sim.Wilson(0, float64(games)), sim.Wilson(float64(games-total), float64(games))
	}
	for range games {
		s.Lengths.Add(50)
	}
	return s
}

func readings(t *testing.T, r sim.Report) map[string]string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	re := regexp.MustCompile(`<p class="reading"><strong>(.*?)\.</strong> (.*?)</p>`)
	for _, m := range re.FindAllStringSubmatch(b.String(), -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	if n := strings.Count(b.String(), "<svg"); n != len(out) {
		t.Fatalf("%d charts, %d readings: %v", n, len(out), out)
	}
	return out
}

func wantReading(t *testing.T, got map[string]string, chart string, parts ...string) {
	t.Helper()
	s, ok := got[chart]
	if !ok {
		t.Fatalf("no chart %q among %v", chart, got)
	}
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s: %q does not say %q", chart, s, p)
		}
	}
}

// Given a seat that wins far more than its share, the chart of seats says
// so; given seats within chance of their share, it says that instead.
func TestReadingOfTheSeats(t *testing.T) {
	info := tg.Draw{}.Info()
	got := readings(t, sim.Report{Game: info, Runs: []sim.Stats{batch("", "medium", 1000, false, 300, 700)}})
	wantReading(t, got, "Win rate by seat", "Seat 1 wins 70.0% [67.1, 72.8] against an even share of 50.0%", "2 of 2 seat rates miss the even share: where one sits matters")

	got = readings(t, sim.Report{Game: info, Runs: []sim.Stats{batch("", "medium", 1000, false, 510, 490)}})
	wantReading(t, got, "Win rate by seat", "Every seat wins close to the even share", "seat 0's +1.0 points", "no seat has a measurable advantage")
}

// Given a team game swept over the player count, the reading says whether
// the number of players makes a difference the intervals can see.
func TestReadingOfATeamSweep(t *testing.T) {
	info := tg.Draw{}.Info()
	players := sim.Axis{Key: sim.AxisPlayers, Values: []string{"2", "3", "4"}}
	flat := sim.Report{Game: info, Axes: []sim.Axis{players}, Runs: []sim.Stats{
		batch("players=2", "medium", 1000, true, 400, 400),
		batch("players=3", "medium", 1000, true, 420, 420, 420),
		batch("players=4", "medium", 1000, true, 390, 390, 390, 390),
	}}
	got := readings(t, flat)
	wantReading(t, got, "Team success rate by players", "The team wins between 39.0% of games (players=4) and 42.0% (players=3)", "the number of players makes no clear difference")
	wantReading(t, got, "Game length by players", "Games last from 50.0 actions")
	if _, ok := got["Win rate by seat"]; ok {
		t.Error("a team game has a chart of seats")
	}

	steep := flat
	steep.Runs = []sim.Stats{
		batch("players=2", "medium", 1000, true, 200, 200),
		batch("players=3", "medium", 1000, true, 400, 400, 400),
		batch("players=4", "medium", 1000, true, 600, 600, 600, 600),
	}
	wantReading(t, readings(t, steep), "Team success rate by players", "between 20.0% of games (players=2) and 60.0% (players=4)", "makes a real difference")
}

// Given batches where bots of two kinds meet, the chart of bots names the
// stronger one; where every batch has a single kind, there is no such chart.
func TestReadingOfTheBots(t *testing.T) {
	info := tg.Draw{}.Info()
	mixed := batch("bots=hard,medium", "hard", 1000, false, 500, 500)
	mixed.Bots = []string{"hard", "medium"}
	mixed.Policies = []sim.PolicyStats{
		{Policy: "hard", Seatings: 1000, Wins: 790, WinRate: sim.Wilson(790, 1000)},
		{Policy: "medium", Seatings: 1000, Wins: 210, WinRate: sim.Wilson(210, 1000)},
	}
	got := readings(t, sim.Report{Game: info, Runs: []sim.Stats{mixed}})
	wantReading(t, got, "Win rate by bot", "hard won 79.0% [76.4, 81.4], medium 21.0% [18.6, 23.6], against an even share of 50.0%")

	got = readings(t, sim.Report{Game: info, Runs: []sim.Stats{batch("", "medium", 100, false, 50, 50)}})
	if _, ok := got["Win rate by bot"]; ok {
		t.Error("a chart of bots where a single bot played")
	}
}

// The charts are in the house style: a sans-serif font, shares in percent
// on axes from 0, and the legend to the right of the plot, never over it.
func TestReportStyle(t *testing.T) {
	info := tg.Draw{}.Info()
	players := sim.Axis{Key: sim.AxisPlayers, Values: []string{"2", "3"}}
	var b bytes.Buffer
	rep := sim.Report{Game: info, Command: "sortie sim draw", Axes: []sim.Axis{players}, Runs: []sim.Stats{
		batch("players=2", "random", 500, false, 240, 260),
		batch("players=3", "random", 500, false, 160, 170, 170),
	}}
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "Serif") || !strings.Contains(page, "font-family:'Liberation Sans',Arial,Helvetica,sans-serif") {
		t.Error("the charts are not set in a sans-serif font")
	}
	for _, chart := range strings.Split(page, "<svg")[1:] {
		if strings.Contains(chart, "games won") && !strings.Contains(chart, ">0%</text>") {
			t.Errorf("a chart of win rates without a 0%% tick:\n%.300s", chart)
		}
	}
	// The legend starts right of the plot area (15 cm, 425.2 pt).
	legend := regexp.MustCompile(`<text x="([0-9.]+)"[^>]*\n[^>]*>even share \(dashed\)</text>`).FindAllStringSubmatch(page, -1)
	if len(legend) == 0 {
		t.Fatal("no legend entry for the even share")
	}
	for _, m := range legend {
		if x, _ := strconv.ParseFloat(m[1], 64); x < 425.2 {
			t.Errorf("a legend entry at x=%s, over the plot", m[1])
		}
	}
	if !strings.Contains(page, "Bots:</strong> random in every seat") || !strings.Contains(page, "random play says little about balance") {
		t.Error("the report does not say that every seat played at random, and what that is worth")
	}
}
