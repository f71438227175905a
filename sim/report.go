package sim

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"sortie/bot"
	"sortie/engine"
)

// Report is what a simulation lab run showed, ready to be written as a
// self-contained HTML page: its charts are SVG drawn by gonum/plot and
// inlined, with no script, style sheet or font to fetch, so the page opens
// offline and can be mailed or archived as one file.
type Report struct {
	// Game describes the game simulated.
	Game engine.Info
	// Command is the command line that reproduces the report.
	Command string
	// Axes are the sweep's dimensions, if any; Runs holds one batch per
	// combination of their values.
	Axes []Axis
	Runs []Stats
	// Skipped lists the combinations the game refused, with the reason.
	Skipped []string
}

// chart is one figure of the page: its title, a sentence that says what
// these figures show (computed from them), a note on how to read it, and
// the drawing.
type chart struct {
	Title, Reading, Note string
	SVG                  template.HTML
}

// WriteHTML writes the report as one HTML page: who played, a summary per
// batch, and charts, each with a sentence saying what it shows. Which
// charts depends on the run: a team's success or the seats' win rates, the
// bots against each other when a batch mixes them, the effect of each
// swept setting, and the distributions of game length, match time and
// scores.
func (r Report) WriteHTML(w io.Writer) error {
	if len(r.Runs) == 0 {
		return fmt.Errorf("the report has no batch to show")
	}
	coop := r.coOperative()
	type step struct {
		title, note string
		make        func() (*plot.Plot, string, error)
	}
	var steps []step
	axes := r.chartedAxes(coop)
	switch {
	case coop && len(axes) == 0:
		steps = append(steps, step{"Team success rate", "Share of games the team won (every seat or none), with its 95% Wilson interval, by batch.", r.teamByBatch})
	case !coop && len(r.Runs) <= maxSeries:
		steps = append(steps, step{"Win rate by seat", "Each seat's share of games won, with its 95% Wilson interval; the dashed line is the even share, the mean of the seats' rates (one in the number of seats when every game has one winner). With rotated bots every bot sits in every seat alike, so what remains is the seat's own advantage.", r.winBySeat})
	}
	if !coop && r.mixesBots() {
		steps = append(steps, step{"Win rate by bot", "Each bot's share of its seatings won, with its 95% interval, by batch; the dashed line is the even share, what every bot would win if none played better.", r.winByBot})
	}
	for _, k := range axes {
		key := r.Axes[k].Key
		if coop {
			steps = append(steps, step{"Team success rate by " + key, "Share of games the team won, with its 95% interval, for each value of " + key + ".", func() (*plot.Plot, string, error) { return r.outcomeByAxis(k, true) }})
		} else {
			steps = append(steps, step{"Seat 0's win rate by " + key, "Seat 0's share of games won, with its 95% interval, against the even share (dashed), for each value of " + key + ".", func() (*plot.Plot, string, error) { return r.outcomeByAxis(k, false) }})
		}
		steps = append(steps, step{"Game length by " + key, "Mean number of actions per game, with its 95% interval, for each value of " + key + ".", func() (*plot.Plot, string, error) { return r.lengthByAxis(k) }})
	}
	if len(r.Runs) <= maxSeries {
		steps = append(steps,
			step{"Game length", "Share of games by number of actions.", func() (*plot.Plot, string, error) { return r.lengths(false) }},
			step{"Match time", "Share of games by match time at the end, in seconds.", func() (*plot.Plot, string, error) { return r.lengths(true) }})
	}
	if len(r.Runs) <= maxSeries && !coop { // a team's scores follow its success
		for _, name := range r.bots() {
			steps = append(steps, step{"Scores of " + name, "Share of " + name + "'s seatings by final score.", func() (*plot.Plot, string, error) { return r.scores(name) }})
		}
	}
	var charts []chart
	for _, s := range steps {
		p, reading, err := s.make()
		if err != nil {
			return fmt.Errorf("chart %q: %w", s.title, err)
		}
		if p == nil {
			continue
		}
		svg, err := svgOf(p)
		if err != nil {
			return fmt.Errorf("chart %q: %w", s.title, err)
		}
		charts = append(charts, chart{Title: s.title, Reading: sentence(reading), Note: s.note, SVG: svg})
	}
	return reportPage.Execute(w, r.page(charts, coop))
}

// coOperative reports whether every batch looks co-operative.
func (r Report) coOperative() bool {
	for _, s := range r.Runs {
		if !s.CoOperative() {
			return false
		}
	}
	return true
}

// chartedAxes are the indexes of the swept settings that get charts of
// their own: those with several values, the bots only in a team game (in
// others the chart of the bots shows them).
func (r Report) chartedAxes(coop bool) []int {
	var out []int
	for k, a := range r.Axes {
		if len(a.Values) >= 2 && (coop || a.Key != AxisBots) {
			out = append(out, k)
		}
	}
	return out
}

// mixesBots reports whether some batch seats bots of different kinds.
func (r Report) mixesBots() bool {
	return slices.ContainsFunc(r.Runs, func(s Stats) bool { return len(s.Policies) > 1 })
}

// runName names batch i: its label, or its bots and players.
func (r Report) runName(i int) string {
	s := r.Runs[i]
	if s.Label != "" {
		return s.Label
	}
	return fmt.Sprintf("%d players, %s", s.Players, strings.Join(s.Bots, ","))
}

// at names batch i for a sentence ("at players=3"), or nothing when the
// report has a single batch.
func (r Report) at(i int) string {
	if len(r.Runs) == 1 {
		return ""
	}
	return " at " + r.runName(i)
}

// sentence starts s with a capital letter.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func pc(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

func ivText(i Interval) string {
	return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*i.P, 100*i.Lo, 100*i.Hi)
}

// chance reports whether clear intervals of total missing their mark are no
// more than chance gives: one 95% interval in twenty misses by chance.
func chance(clear, total int) bool {
	return total >= 10 && float64(clear) <= math.Max(1, math.Ceil(0.1*float64(total)))
}

func chanceNote(clear, total int, what string) string {
	if clear == 1 {
		return fmt.Sprintf("; but it is the only one of %d %s whose interval misses the even share, about what chance alone gives.", total, what)
	}
	return fmt.Sprintf("; but only %d of %d %s miss the even share, about what chance alone gives.", clear, total, what)
}

func overlap(a, b Interval) bool { return a.Lo <= b.Hi && b.Lo <= a.Hi }

func (r Report) teamByBatch() (*plot.Plot, string, error) {
	p := newPlot("Team success rate", "", "games won by the team")
	var d dots
	var names []string
	lo, hi := 0, 0
	for i, s := range r.Runs {
		d = d.rate(float64(i), s.AllWon)
		names = append(names, r.runName(i))
		if s.AllWon.P < r.Runs[lo].AllWon.P {
			lo = i
		}
		if s.AllWon.P > r.Runs[hi].AllWon.P {
			hi = i
		}
	}
	nominalX(p, names...)
	if err := addDots(p, "", 0, d); err != nil {
		return nil, "", err
	}
	percentAxis(p)
	if len(r.Runs) == 1 {
		return p, fmt.Sprintf("The team wins %s of its games.", ivText(r.Runs[0].AllWon)), nil
	}
	return p, rangeReading("The team wins", r.Runs[lo].AllWon, r.runName(lo), r.Runs[hi].AllWon, r.runName(hi), "what sets the batches apart"), nil
}

// rangeReading says that a rate goes from a (at an) to b (at bn), and
// whether their intervals tell the two apart: subject (a phrase in the
// singular) makes a clear difference or not.
func rangeReading(what string, a Interval, an string, b Interval, bn string, subject string) string {
	s := fmt.Sprintf("%s between %s of games (%s) and %s (%s)", what, pc(a.P), an, pc(b.P), bn)
	if overlap(a, b) {
		return s + "; their 95% intervals overlap, so " + subject + " makes no clear difference."
	}
	return s + "; their 95% intervals do not overlap, so " + subject + " makes a real difference."
}

// settingName names a swept setting in a sentence.
func settingName(key string) string {
	switch key {
	case AxisPlayers:
		return "the number of players"
	case AxisBots:
		return "the choice of bots"
	}
	return "the option " + key
}

func (r Report) winBySeat() (*plot.Plot, string, error) {
	p := newPlot("Win rate by seat", "seat", "games won")
	maxSeats := 0
	type gap struct {
		run, seat int
		edge      float64
		clear     bool
	}
	var gaps []gap
	for i, s := range r.Runs {
		var d dots
		var xs, ys []float64
		even := s.EvenShare()
		for _, st := range s.Seats {
			x := float64(st.Seat) + dodge(i, len(r.Runs))
			d = d.rate(x, st.WinRate)
			xs, ys = append(xs, x), append(ys, 100*even)
			gaps = append(gaps, gap{i, st.Seat, st.WinRate.P - even, even < st.WinRate.Lo || even > st.WinRate.Hi})
		}
		name := ""
		if len(r.Runs) > 1 {
			name = r.runName(i)
		}
		if err := addDots(p, name, i, d); err != nil {
			return nil, "", err
		}
		c := grey
		if len(r.Runs) > 1 {
			c = colour(i)
		}
		if err := addLevels(p, xs, ys, c); err != nil {
			return nil, "", err
		}
		maxSeats = max(maxSeats, s.Players)
	}
	evenShareKey(p)
	var names []string
	for k := range maxSeats {
		names = append(names, strconv.Itoa(k))
	}
	p.NominalX(names...)
	percentAxis(p)

	clear := 0
	big := gaps[0]
	for _, g := range gaps {
		if g.clear {
			clear++
		}
		// The clearest gap, the largest, and on a tie the seat ahead.
		more := math.Abs(g.edge) - math.Abs(big.edge)
		if g.clear && !big.clear || g.clear == big.clear && (more > 1e-9 || more > -1e-9 && g.edge > big.edge) {
			big = g
		}
	}
	s := r.Runs[big.run]
	if clear == 0 {
		return p, fmt.Sprintf("Every seat wins close to the even share: the largest gap, seat %d's %+.1f points%s, lies within its 95%% interval, so no seat has a measurable advantage.",
			big.seat, 100*big.edge, r.at(big.run)), nil
	}
	reading := fmt.Sprintf("Seat %d wins %s against an even share of %s%s", big.seat, ivText(s.Seats[big.seat].WinRate), pc(s.EvenShare()), r.at(big.run))
	if chance(clear, len(gaps)) {
		return p, reading + chanceNote(clear, len(gaps), "seat rates"), nil
	}
	if clear == 1 {
		return p, reading + ": its interval misses the even share, so that seat's edge is real.", nil
	}
	return p, reading + fmt.Sprintf("; %d of %d seat rates miss the even share: where one sits matters.", clear, len(gaps)), nil
}

func (r Report) winByBot() (*plot.Plot, string, error) {
	p := newPlot("Win rate by bot", "", "seatings won")
	bots := r.bots()
	for k, name := range bots {
		var d dots
		for i, s := range r.Runs {
			for _, ps := range s.Policies {
				if ps.Policy == name {
					d = d.rate(float64(i)+dodge(k, len(bots)), ps.WinRate)
				}
			}
		}
		if err := addDots(p, name, k, d); err != nil {
			return nil, "", err
		}
	}
	var names []string
	for i, s := range r.Runs {
		names = append(names, r.runName(i))
		if err := addLevel(p, float64(i)-0.4, float64(i)+0.4, 100*s.EvenShare(), grey); err != nil {
			return nil, "", err
		}
	}
	evenShareKey(p)
	nominalX(p, names...)
	percentAxis(p)
	return p, r.botsReading(), nil
}

// botsReading says which bot wins most where bots of several kinds meet.
func (r Report) botsReading() string {
	type best struct {
		run int
		ps  []PolicyStats // by win rate, best first
	}
	var mixed []best
	for i, s := range r.Runs {
		if len(s.Policies) < 2 {
			continue
		}
		ps := slices.Clone(s.Policies)
		slices.SortStableFunc(ps, func(a, b PolicyStats) int { return cmpFloat(b.WinRate.P, a.WinRate.P) })
		mixed = append(mixed, best{i, ps})
	}
	if len(mixed) == 1 {
		m := mixed[0]
		var parts []string
		for k, ps := range m.ps {
			verb := " "
			if k == 0 {
				verb = " won "
			}
			parts = append(parts, ps.Policy+verb+ivText(ps.WinRate))
		}
		s := fmt.Sprintf("Of their seatings%s, %s, against an even share of %s", r.at(m.run), strings.Join(parts, ", "), pc(r.Runs[m.run].EvenShare()))
		if overlap(m.ps[0].WinRate, m.ps[1].WinRate) {
			return s + "; the intervals of the first two overlap, so neither is measurably stronger."
		}
		return s + "."
	}
	var parts []string
	for _, m := range mixed {
		a, b := m.ps[0], m.ps[1]
		part := fmt.Sprintf("%s wins most in %s (%s of its seatings)", a.Policy, r.runName(m.run), pc(a.WinRate.P))
		if len(m.ps) == 2 {
			part = fmt.Sprintf("%s beats %s (%s of its seatings won)", a.Policy, b.Policy, pc(a.WinRate.P))
		}
		if overlap(a.WinRate, b.WinRate) {
			part += " though not measurably"
		}
		parts = append(parts, part)
	}
	return "Where different bots meet, " + strings.Join(parts, "; ") + "."
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// lengths charts the distribution of actions per game (or of match time),
// one line per batch; nil when every game took no time.
func (r Report) lengths(clock bool) (*plot.Plot, string, error) {
	pick := func(s Stats) Histogram {
		if clock {
			return s.Clocks
		}
		return s.Lengths
	}
	lo, hi := math.MaxInt, math.MinInt
	for _, s := range r.Runs {
		h := pick(s)
		if h.N() > 0 {
			lo, hi = min(lo, h.Min()), max(hi, h.Max())
		}
	}
	if lo > hi || (clock && hi == 0) {
		return nil, "", nil
	}
	x, title, unit := "actions per game", "Game length", "actions"
	if clock {
		x, title, unit = "match time at the end (s)", "Match time", "s"
	}
	p := newPlot(title, x, "games")
	width := max(1, (hi-lo+1+59)/60) // at most about 60 bins
	for i, s := range r.Runs {
		h := pick(s)
		n := float64(h.N())
		if n == 0 {
			continue
		}
		shares := map[int]float64{}
		for _, b := range h.Bins {
			shares[lo+(b.Value-lo)/width*width] += 100 * float64(b.Count) / n
		}
		var xys plotter.XYs
		for v := lo; v <= hi+width; v += width {
			xys = append(xys, plotter.XY{X: float64(v), Y: shares[v]})
		}
		name := ""
		if len(r.Runs) > 1 {
			name = r.runName(i)
		}
		if err := addSteps(p, name, i, xys); err != nil {
			return nil, "", err
		}
	}
	percentAxis(p)
	if len(r.Runs) == 1 {
		h := pick(r.Runs[0])
		return p, fmt.Sprintf("Half the games end within %d %s and nine in ten within %d (mean %.1f).", h.Quantile(0.5), unit, h.Quantile(0.9), h.Mean()), nil
	}
	short, long := 0, 0
	for i, s := range r.Runs {
		m := pick(s).Quantile(0.5)
		if m < pick(r.Runs[short]).Quantile(0.5) {
			short = i
		}
		if m > pick(r.Runs[long]).Quantile(0.5) {
			long = i
		}
	}
	return p, fmt.Sprintf("The median game lasts from %d %s (%s) to %d (%s).",
		pick(r.Runs[short]).Quantile(0.5), unit, r.runName(short), pick(r.Runs[long]).Quantile(0.5), r.runName(long)), nil
}

// bots lists the bots of every batch, in order of appearance.
func (r Report) bots() []string {
	var bots []string
	for _, s := range r.Runs {
		for _, ps := range s.Policies {
			if !slices.Contains(bots, ps.Policy) {
				bots = append(bots, ps.Policy)
			}
		}
	}
	return bots
}

// scores charts the score distribution of one bot, one series per batch it
// played in; nil when all its scores are the same, or are only a loss and
// a win (the win rates say it all).
func (r Report) scores(bot string) (*plot.Plot, string, error) {
	type series struct {
		run int
		ps  PolicyStats
	}
	var lines []series
	lo, hi := math.MaxInt, math.MinInt
	for i, s := range r.Runs {
		for _, ps := range s.Policies {
			if ps.Policy == bot && ps.Scores.N() > 0 {
				lines = append(lines, series{i, ps})
				lo, hi = min(lo, ps.Scores.Min()), max(hi, ps.Scores.Max())
			}
		}
	}
	if hi-lo < 2 {
		return nil, "", nil
	}
	p := newPlot("Scores of "+bot, "final score", "seatings")
	for k, l := range lines {
		n := float64(l.ps.Scores.N())
		share := map[int]float64{}
		for _, b := range l.ps.Scores.Bins {
			share[b.Value] = 100 * float64(b.Count) / n
		}
		name := ""
		if len(lines) > 1 {
			name = r.runName(l.run)
		}
		if hi-lo > 12 {
			var xys plotter.XYs
			for v := lo; v <= hi+1; v++ {
				xys = append(xys, plotter.XY{X: float64(v) - 0.5, Y: share[v]})
			}
			if err := addSteps(p, name, k, xys); err != nil {
				return nil, "", err
			}
			continue
		}
		// Few scores: a stem from 0 to each share.
		var d dots
		for v := lo; v <= hi; v++ {
			d = append(d, dot{float64(v) + dodge(k, len(lines)), share[v], 0, share[v]})
		}
		if err := addStems(p, name, k, d); err != nil {
			return nil, "", err
		}
	}
	percentAxis(p)
	if len(lines) == 1 {
		h := lines[0].ps.Scores
		mode, most := 0, -1
		for _, b := range h.Bins {
			if b.Count > most {
				mode, most = b.Value, b.Count
			}
		}
		return p, fmt.Sprintf("%s's most frequent final score is %d (%s of its seatings); its mean is %.2f.", bot, mode, pc(float64(most)/float64(h.N())), lines[0].ps.MeanScore), nil
	}
	low, high := lines[0], lines[0]
	for _, l := range lines {
		if l.ps.MeanScore < low.ps.MeanScore {
			low = l
		}
		if l.ps.MeanScore > high.ps.MeanScore {
			high = l
		}
	}
	return p, fmt.Sprintf("%s's mean score goes from %.2f (%s) to %.2f (%s).", bot, low.ps.MeanScore, r.runName(low.run), high.ps.MeanScore, r.runName(high.run)), nil
}

// groups splits the batches by the values of every axis but k: one group
// per value of the others, each mapping axis k's value index to its batch.
func (r Report) groups(k int) (names []string, members []map[int]int) {
	index := map[string]int{}
	for i, s := range r.Runs {
		vals := labelValues(s.Label)
		var other []string
		for j, a := range r.Axes {
			if j != k {
				other = append(other, a.Key+"="+vals[a.Key])
			}
		}
		key := strings.Join(other, " ")
		g, ok := index[key]
		if !ok {
			g = len(names)
			index[key] = g
			names = append(names, key)
			members = append(members, map[int]int{})
		}
		members[g][slices.Index(r.Axes[k].Values, vals[r.Axes[k].Key])] = i
	}
	return names, members
}

// labelValues reads a sweep label back into its settings.
func labelValues(label string) map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Fields(label) {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// byAxis lays out a chart against axis k: the x of each value (its number
// on a numeric axis, its index otherwise), and whether the series are drawn
// as bands (numeric) or as dodged points with bars.
type byAxis struct {
	a       Axis
	numeric bool
	names   []string
	members []map[int]int
}

func (r Report) byAxis(k int) byAxis {
	b := byAxis{a: r.Axes[k], numeric: len(r.Axes[k].Values) >= 3}
	for _, v := range b.a.Values {
		if _, err := strconv.Atoi(v); err != nil {
			b.numeric = false
		}
	}
	b.names, b.members = r.groups(k)
	return b
}

func (b byAxis) x(v, g int) float64 {
	if b.numeric {
		x, _ := strconv.Atoi(b.a.Values[v])
		return float64(x)
	}
	return float64(v) + dodge(g, len(b.members))
}

func (b byAxis) draw(p *plot.Plot, g int, d dots) error {
	name := b.names[g]
	if len(b.members) == 1 {
		name = ""
	}
	if b.numeric {
		return addBand(p, name, g, d)
	}
	return addDots(p, name, g, d)
}

func (b byAxis) label(p *plot.Plot) {
	if b.numeric {
		numericX(p, b.a.Values)
	} else {
		nominalX(p, b.a.Values...)
	}
}

// with says which series a point belongs to, for a sentence; lead says
// it at the start of one.
func (b byAxis) with(g int) string {
	if len(b.members) == 1 || b.names[g] == "" {
		return ""
	}
	return " with " + b.names[g]
}

func (b byAxis) lead(g int) string {
	if w := b.with(g); w != "" {
		return "W" + w[2:] + ", "
	}
	return ""
}

// levels draws the even shares of series g: a dashed line along a numeric
// axis, a short dash beside each point on a nominal one.
func (b byAxis) levels(p *plot.Plot, g int, xs, ys []float64) error {
	if b.numeric {
		return addLevels(p, xs, ys, colour(g))
	}
	for k := range xs {
		if err := addLevel(p, xs[k]-0.06, xs[k]+0.06, ys[k], colour(g)); err != nil {
			return err
		}
	}
	return nil
}

// outcomeByAxis charts the team's success (coop) or seat 0's win rate
// against the even share along axis k.
func (r Report) outcomeByAxis(k int, coop bool) (*plot.Plot, string, error) {
	b := r.byAxis(k)
	key := b.a.Key
	title, y := "Seat 0's win rate by "+key, "games won by seat 0"
	if coop {
		title, y = "Team success rate by "+key, "games won by the team"
	}
	p := newPlot(title, key, y)
	// The reading: the series where the setting moves the rate most (coop),
	// or seat 0's largest gap from the even share.
	type pt struct {
		g, v int
		iv   Interval
		even float64
	}
	var spreadLo, spreadHi pt
	spread := -1.0
	var worst pt
	worstGap, worstClear := -1.0, false
	clear, total := 0, 0
	for g, m := range b.members {
		var d dots
		var xs, ys []float64
		var pts []pt
		for v := range b.a.Values {
			i, ok := m[v]
			if !ok || len(r.Runs[i].Seats) == 0 {
				continue
			}
			s := r.Runs[i]
			iv := s.AllWon
			if !coop {
				iv = s.Seats[0].WinRate
			}
			x := b.x(v, g)
			d = d.rate(x, iv)
			xs, ys = append(xs, x), append(ys, 100*s.EvenShare())
			pts = append(pts, pt{g, v, iv, s.EvenShare()})
		}
		if err := b.draw(p, g, d); err != nil {
			return nil, "", err
		}
		if !coop {
			if err := b.levels(p, g, xs, ys); err != nil {
				return nil, "", err
			}
		}
		for _, a := range pts {
			for _, c := range pts {
				if c.iv.P-a.iv.P > spread {
					spread, spreadLo, spreadHi = c.iv.P-a.iv.P, a, c
				}
			}
			gap := math.Abs(a.iv.P - a.even)
			missed := a.even < a.iv.Lo || a.even > a.iv.Hi
			if missed && !worstClear || missed == worstClear && gap > worstGap {
				worst, worstGap, worstClear = a, gap, missed
			}
			total++
			if missed {
				clear++
			}
		}
	}
	if !coop {
		evenShareKey(p)
	}
	b.label(p)
	percentAxis(p)
	at := func(a pt) string { return key + "=" + b.a.Values[a.v] }
	if coop {
		return p, b.lead(spreadLo.g) + rangeReading("the team wins", spreadLo.iv, at(spreadLo), spreadHi.iv, at(spreadHi), settingName(key)), nil
	}
	side := "ahead"
	if worst.iv.P < worst.even {
		side = "behind"
	}
	if !worstClear {
		return p, fmt.Sprintf("Seat 0 is never measurably ahead or behind: its largest gap from the even share, %+.1f points at %s%s, lies within its 95%% interval.",
			100*(worst.iv.P-worst.even), at(worst), b.with(worst.g)), nil
	}
	reading := fmt.Sprintf("%sseat 0 is %s at %s: it wins %s against an even share of %s", b.lead(worst.g), side, at(worst), ivText(worst.iv), pc(worst.even))
	if chance(clear, total) {
		return p, reading + chanceNote(clear, total, "batches"), nil
	}
	return p, reading + ", a gap its interval does not cover.", nil
}

// lengthByAxis charts the mean game length against axis k.
func (r Report) lengthByAxis(k int) (*plot.Plot, string, error) {
	b := r.byAxis(k)
	key := b.a.Key
	p := newPlot("Game length by "+key, key, "mean actions per game")
	type pt struct {
		g, v       int
		mean, half float64
	}
	var lo, hi pt
	spread := -1.0
	rising, falling := true, true
	for g, m := range b.members {
		var d dots
		var pts []pt
		for v := range b.a.Values {
			if i, ok := m[v]; ok {
				s := r.Runs[i]
				half := 1.959964 * s.ActionsStdDev / math.Sqrt(math.Max(1, float64(s.Games)))
				d = d.mean(b.x(v, g), s.Actions, half)
				pts = append(pts, pt{g, v, s.Actions, half})
			}
		}
		if err := b.draw(p, g, d); err != nil {
			return nil, "", err
		}
		for j := 1; j < len(pts); j++ {
			rising = rising && pts[j].mean > pts[j-1].mean
			falling = falling && pts[j].mean < pts[j-1].mean
		}
		for _, a := range pts {
			for _, c := range pts {
				if c.mean-a.mean > spread {
					spread, lo, hi = c.mean-a.mean, a, c
				}
			}
		}
	}
	b.label(p)
	fromZero(p)
	reading := fmt.Sprintf("%sgames last from %.1f actions on average at %s=%s to %.1f at %s=%s",
		b.lead(lo.g), lo.mean, key, b.a.Values[lo.v], hi.mean, key, b.a.Values[hi.v])
	switch {
	case lo.mean+lo.half >= hi.mean-hi.half:
		reading += "; the intervals overlap, so " + settingName(key) + " changes the length by no more than chance."
	case b.numeric && rising:
		reading += ", longer at every step."
	case b.numeric && falling:
		reading += ", shorter at every step."
	default:
		reading += "."
	}
	return p, reading, nil
}

// pageData is what the HTML template shows.
type pageData struct {
	Title, Command, Bots, Warning string
	Game                          engine.Info
	CoOperative                   bool
	Runs                          []runRow
	Charts                        []chart
	Skipped                       []string
}

type runRow struct {
	Name                    string
	Stats                   Stats
	Options                 string
	Fair                    float64
	MedianLength, P90Length int
	MeanClock               float64
}

func (r Report) page(charts []chart, coop bool) pageData {
	d := pageData{
		Title:   fmt.Sprintf("%s — simulation report", r.Game.Name["en"]),
		Command: r.Command, Game: r.Game, CoOperative: coop, Charts: charts, Skipped: r.Skipped,
		Bots: r.botsText(),
	}
	var lineups [][]string
	for _, s := range r.Runs {
		lineups = append(lineups, s.Bots)
	}
	if RandomOnly(lineups...) {
		d.Warning = RandomWarning
	}
	for i, s := range r.Runs {
		keys := make([]string, 0, len(s.Options))
		for k := range s.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var opts []string
		for _, k := range keys {
			opts = append(opts, k+"="+s.Options[k])
		}
		row := runRow{
			Name: r.runName(i), Stats: s, Options: strings.Join(opts, " "), Fair: s.EvenShare(),
			MedianLength: s.Lengths.Quantile(0.5), P90Length: s.Lengths.Quantile(0.9), MeanClock: s.Clock,
		}
		d.Runs = append(d.Runs, row)
	}
	return d
}

// botsText says which bots played: one phrase for the whole report when
// every batch seated the same kinds, else a pointer to the batches.
func (r Report) botsText() string {
	first := r.Runs[0]
	for _, s := range r.Runs[1:] {
		if !slices.Equal(s.Bots, first.Bots) && !(oneKind(s.Bots) && oneKind(first.Bots) && s.Bots[0] == first.Bots[0]) {
			return "each batch names its own; see the batches below"
		}
	}
	return BotsText(first.Bots, first.Rotated)
}

// oneKind reports whether a lineup seats one bot in every seat.
func oneKind(l []string) bool {
	return len(l) > 0 && !slices.ContainsFunc(l, func(n string) bool { return n != l[0] })
}

// BotsText says in words which bots sat in the seats of a lineup: "medium
// in every seat", or "hard, medium by seat, moved one seat on at each game".
func BotsText(bots []string, rotated bool) string {
	if oneKind(bots) {
		return bots[0] + " in every seat"
	}
	s := strings.Join(bots, ", ") + " by seat"
	if rotated {
		s += ", moved one seat on at each game"
	}
	return s
}

// RandomWarning is what the lab says when every seat plays at random.
const RandomWarning = "every seat plays random legal moves, and random play says little about balance: compare the medium (default) or hard bots"

// RandomOnly reports whether every seat of every lineup (bot names by
// seat) plays the generic random policy.
func RandomOnly(lineups ...[]string) bool {
	for _, l := range lineups {
		for _, b := range l {
			if b != (bot.Random{}).Name() {
				return false
			}
		}
	}
	return len(lineups) > 0
}

var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":  pc,
	"iv":   ivText,
	"f1":   func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"f2":   func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"join": strings.Join,
	"lineup": func(bots []string) string {
		if oneKind(bots) {
			return bots[0] + " in every seat"
		}
		return strings.Join(bots, ", ")
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, "Liberation Sans", Arial, sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.5rem; } h3 { font-size: 1.05rem; }
code, pre { background: #f4f4f4; padding: .1rem .3rem; border-radius: 3px; }
pre { padding: .6rem; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border-bottom: 1px solid #ddd; padding: .25rem .6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 2rem 0; } figcaption { max-width: 44rem; }
figcaption .reading { font-size: 1rem; margin: .3rem 0; } figcaption .note { color: #555; font-size: .85rem; margin: .2rem 0; }
.warning { background: #fff4d6; border-left: 4px solid #d9a400; padding: .5rem .8rem; }
svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{index .Game.Summary "en"}}</p>
<p><strong>Bots:</strong> {{.Bots}}. Reproduce with:</p>
<pre>{{.Command}}</pre>
{{if .Warning}}<p class="warning">Note: {{.Warning}}.</p>{{end}}
<p>Win rates come with their 95% Wilson score intervals. A shared victory counts as a win for every winner.
{{if .CoOperative}}Every game was won by all seats or by none: the game is played as a team, and its rates are the team's success rates.{{end}}</p>
{{range .Skipped}}<p>Left out: {{.}}</p>{{end}}

{{if gt (len .Runs) 1}}<h2>Summary</h2>
<table>
<tr><th>batch</th><th>games</th><th>bots</th>{{if .CoOperative}}<th>team success [95%]</th>{{else}}<th>seat 0 [95%]</th><th>even share</th>{{end}}<th>mean actions</th></tr>
{{$coop := .CoOperative}}{{range .Runs}}<tr><td>{{.Name}}</td><td>{{.Stats.Games}}</td><td>{{lineup .Stats.Bots}}</td>{{if $coop}}<td>{{iv .Stats.AllWon}}</td>{{else}}<td>{{iv (index .Stats.Seats 0).WinRate}}</td><td>{{pct .Fair}}</td>{{end}}<td>{{f1 .Stats.Actions}}</td></tr>
{{end}}</table>{{end}}

<h2>Charts</h2>
{{range .Charts}}
<figure>
{{.SVG}}
<figcaption><p class="reading"><strong>{{.Title}}.</strong> {{.Reading}}</p><p class="note">{{.Note}}</p></figcaption>
</figure>
{{end}}

<h2>Batches</h2>
{{range .Runs}}
<h3>{{.Name}}</h3>
<p>{{.Stats.Players}} players; bots by seat: {{join .Stats.Bots ", "}}{{if .Stats.Rotated}} (rotated one seat at each game){{end}}; options: {{.Options}}.
{{.Stats.Games}} games in {{f1 .Stats.Seconds}} s. Length: mean {{f1 .Stats.Actions}} actions (sd {{f1 .Stats.ActionsStdDev}}), median {{.MedianLength}}, 90th percentile {{.P90Length}}{{if gt .MeanClock 0.0}}; mean match time {{f1 .MeanClock}} s{{end}}.
All seats won {{iv .Stats.AllWon}}; no seat won {{iv .Stats.NoneWon}}.</p>
<table>
<tr><th>bot</th><th>seatings</th><th>wins</th><th>win rate [95% interval]</th><th>even share</th><th>mean score</th></tr>
{{$fair := .Fair}}{{range .Stats.Policies}}<tr><td>{{.Policy}}</td><td>{{.Seatings}}</td><td>{{.Wins}}</td><td>{{iv .WinRate}}</td><td>{{pct $fair}}</td><td>{{f2 .MeanScore}}</td></tr>
{{end}}</table>
<table>
<tr><th>seat</th><th>wins</th><th>win rate [95% interval]</th><th>mean score</th></tr>
{{range .Stats.Seats}}<tr><td>{{.Seat}}</td><td>{{.Wins}}</td><td>{{iv .WinRate}}</td><td>{{f2 .MeanScore}}</td></tr>
{{end}}</table>
{{end}}
</body>
</html>
`))
