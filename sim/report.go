package sim

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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

// Chart sizes.
const (
	chartW = 17 * vg.Centimeter
	chartH = 9 * vg.Centimeter
)

// WriteHTML writes the report as one HTML page: a summary table per batch
// and charts of win rates by seat and by bot with 95% intervals, of game
// lengths and scores, and of the effect of each swept setting.
func (r Report) WriteHTML(w io.Writer) error {
	if len(r.Runs) == 0 {
		return fmt.Errorf("the report has no batch to show")
	}
	var charts []chart
	add := func(title, note string, p *plot.Plot, err error) error {
		if err != nil {
			return fmt.Errorf("chart %q: %w", title, err)
		}
		if p == nil {
			return nil
		}
		svg, err := svgOf(p)
		if err != nil {
			return fmt.Errorf("chart %q: %w", title, err)
		}
		charts = append(charts, chart{Title: title, Note: note, SVG: svg})
		return nil
	}
	coop := r.coOperative()
	steps := []struct {
		title, note string
		make        func() (*plot.Plot, error)
	}{
		{"Win rate by seat", "Each seat's share of games won, with its 95% Wilson interval; the dashed line is the even share, the mean of the seats' rates (one in the number of seats when every game has one winner). With rotated bots every bot sits in every seat alike, so what remains is the seat's own advantage.", r.winBySeat},
		{"Win rate by bot", "Each bot's share of its seatings won, with its 95% interval, in each batch; the dashed line is the even share, what every bot would win if none played better.", r.winByBot},
		{"Game length", "Share of games by number of actions.", func() (*plot.Plot, error) { return r.lengths(false) }},
		{"Match time", "Share of games by match time at the end, in seconds.", func() (*plot.Plot, error) { return r.lengths(true) }},
	}
	if coop {
		steps[0].title, steps[0].note = "Team success rate", "Share of games the team won, with its 95% Wilson interval, in each batch: every game was won by every seat or by none."
	}
	for _, s := range steps {
		p, err := s.make()
		if err := add(s.title, s.note, p, err); err != nil {
			return err
		}
	}
	for _, name := range r.bots() {
		p, err := r.scores(name)
		note := "Share of " + name + "'s seatings by final score"
		if len(r.Runs) > 1 {
			note += ", one line per batch"
		}
		if err := add("Scores of "+name, note+".", p, err); err != nil {
			return err
		}
	}
	for k, a := range r.Axes {
		if len(a.Values) < 2 || a.Key == AxisBots {
			continue
		}
		what := "First seat's win rate"
		note := "Seat 0's win rate minus the even share (the mean of the seats' rates), with its 95% interval, for each value of " + a.Key + " (one series per value of the other settings): above zero, playing first helps."
		if coop {
			what, note = "Team success rate", "Share of games the team won, with its 95% interval, for each value of "+a.Key+"."
		}
		p, err := r.byAxis(k, what, coop)
		if err := add(what+" by "+a.Key, note, p, err); err != nil {
			return err
		}
		p, err = r.lengthByAxis(k)
		if err := add("Game length by "+a.Key, "Mean number of actions per game with its 95% interval, for each value of "+a.Key+".", p, err); err != nil {
			return err
		}
	}
	return reportPage.Execute(w, r.page(charts, coop))
}

type chart struct {
	Title, Note string
	SVG         template.HTML
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

// runName names batch i: its label, or its bots and players.
func (r Report) runName(i int) string {
	s := r.Runs[i]
	if s.Label != "" {
		return s.Label
	}
	return fmt.Sprintf("%d players, %s", s.Players, strings.Join(s.Bots, ","))
}

func svgOf(p *plot.Plot) (template.HTML, error) {
	wt, err := p.WriterTo(chartW, chartH, "svg")
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return "", err
	}
	svg := b.String()
	if i := strings.Index(svg, "<svg"); i > 0 {
		svg = svg[i:] // inline: no XML declaration
	}
	return template.HTML(svg), nil
}

// newPlot returns an empty plot with the house style.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

// nominalX names the categories of p's X axis, slanted when they would not
// fit side by side.
func nominalX(p *plot.Plot, names ...string) {
	p.NominalX(names...)
	long := 0
	for _, n := range names {
		long = max(long, len(n))
	}
	if long*len(names) > 70 {
		p.X.Tick.Label.Rotation = math.Pi / 7
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YTop
	}
}

// fit leaves room at the top of p for a legend of the given number of
// entries, so that it does not hide the data.
func fit(p *plot.Plot, entries int) {
	if entries > 0 && p.Y.Max > p.Y.Min {
		p.Y.Max += (p.Y.Max - p.Y.Min) * 0.09 * float64(entries)
	}
}

// dots are points with asymmetric vertical intervals.
type dots []dot

type dot struct{ x, y, lo, hi float64 }

func (d dots) Len() int                        { return len(d) }
func (d dots) XY(i int) (float64, float64)     { return d[i].x, d[i].y }
func (d dots) YError(i int) (float64, float64) { return d[i].y - d[i].lo, d[i].hi - d[i].y }

// add appends a proportion with its interval, lowered by base.
func (d dots) add(x float64, iv Interval, base float64) dots {
	return append(d, dot{x, iv.P - base, iv.Lo - base, iv.Hi - base})
}

// addMean appends a mean with the half-width of its interval.
func (d dots) addMean(x, m, half float64) dots { return append(d, dot{x, m, m - half, m + half}) }

// addDots draws a series of points with their intervals in colour i.
func addDots(p *plot.Plot, name string, i int, d dots) error {
	if len(d) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(d)
	if err != nil {
		return err
	}
	c := plotutil.Color(i)
	sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: plotutil.Shape(i)}
	eb, err := plotter.NewYErrorBars(d)
	if err != nil {
		return err
	}
	eb.LineStyle.Color = c
	eb.CapWidth = vg.Points(4)
	p.Add(eb, sc)
	if name != "" {
		p.Legend.Add(name, sc)
	}
	return nil
}

// addLevel draws a dashed grey segment at height y from x0 to x1.
func addLevel(p *plot.Plot, x0, x1, y float64) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return err
	}
	l.LineStyle.Color = color.Gray{Y: 120}
	l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	return nil
}

// dodge returns the offset of series k of n around a category's centre.
func dodge(k, n int) float64 {
	if n <= 1 {
		return 0
	}
	return (float64(k) - float64(n-1)/2) * 0.7 / float64(n)
}

func (r Report) winBySeat() (*plot.Plot, error) {
	if r.coOperative() {
		p := newPlot("Team success rate", "", "share of games won by the team")
		var d dots
		var names []string
		for i, s := range r.Runs {
			d = d.add(float64(i), s.AllWon, 0)
			names = append(names, r.runName(i))
		}
		nominalX(p, names...)
		return p, addDots(p, "", 0, d)
	}
	p := newPlot("Win rate by seat", "seat (0 plays first)", "share of games won")
	maxSeats := 0
	for i, s := range r.Runs {
		var d dots
		for _, st := range s.Seats {
			d = d.add(float64(st.Seat)+dodge(i, len(r.Runs)), st.WinRate, 0)
		}
		name := ""
		if len(r.Runs) > 1 {
			name = r.runName(i)
		}
		if err := addDots(p, name, i, d); err != nil {
			return nil, err
		}
		if err := addLevel(p, -0.4, float64(s.Players-1)+0.4, s.EvenShare()); err != nil {
			return nil, err
		}
		maxSeats = max(maxSeats, s.Players)
	}
	var names []string
	for k := range maxSeats {
		names = append(names, strconv.Itoa(k))
	}
	p.NominalX(names...)
	p.Y.Min = 0
	if len(r.Runs) > 1 {
		fit(p, len(r.Runs))
	}
	return p, nil
}

func (r Report) winByBot() (*plot.Plot, error) {
	p := newPlot("Win rate by bot", "", "share of seatings won")
	bots := r.bots()
	for k, name := range bots {
		var d dots
		for i, s := range r.Runs {
			for _, ps := range s.Policies {
				if ps.Policy == name {
					d = d.add(float64(i)+dodge(k, len(bots)), ps.WinRate, 0)
				}
			}
		}
		if err := addDots(p, name, k, d); err != nil {
			return nil, err
		}
	}
	var names []string
	for i, s := range r.Runs {
		names = append(names, r.runName(i))
		if err := addLevel(p, float64(i)-0.4, float64(i)+0.4, s.EvenShare()); err != nil {
			return nil, err
		}
	}
	nominalX(p, names...)
	p.Y.Min = 0
	fit(p, len(bots))
	return p, nil
}

// lengths charts the distribution of actions per game (or of match time),
// one line per batch; nil when every game took no time.
func (r Report) lengths(clock bool) (*plot.Plot, error) {
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
		return nil, nil
	}
	x := "actions per game"
	title := "Game length"
	if clock {
		x, title = "match time at the end (s)", "Match time"
	}
	p := newPlot(title, x, "share of games")
	width := max(1, (hi-lo+1+59)/60) // at most about 60 bins
	for i, s := range r.Runs {
		h := pick(s)
		n := float64(h.N())
		if n == 0 {
			continue
		}
		shares := map[int]float64{}
		for _, b := range h.Bins {
			shares[lo+(b.Value-lo)/width*width] += float64(b.Count) / n
		}
		var xys plotter.XYs
		for v := lo; v <= hi+width; v += width {
			xys = append(xys, plotter.XY{X: float64(v), Y: shares[v]})
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.StepStyle = plotter.PostStep
		l.LineStyle.Color = plotutil.Color(i)
		l.LineStyle.Width = vg.Points(1.5)
		p.Add(l)
		if len(r.Runs) > 1 {
			p.Legend.Add(r.runName(i), l)
		}
	}
	p.Y.Min = 0
	if len(r.Runs) > 1 {
		fit(p, len(r.Runs))
	}
	return p, nil
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

// scores charts the score distribution of one bot, one line per batch it
// played in; nil when all its scores are the same.
func (r Report) scores(bot string) (*plot.Plot, error) {
	type line struct {
		name string
		ps   PolicyStats
	}
	var lines []line
	lo, hi := math.MaxInt, math.MinInt
	for i, s := range r.Runs {
		for _, ps := range s.Policies {
			if ps.Policy == bot && ps.Scores.N() > 0 {
				lines = append(lines, line{r.runName(i), ps})
				lo, hi = min(lo, ps.Scores.Min()), max(hi, ps.Scores.Max())
			}
		}
	}
	if lo >= hi {
		return nil, nil
	}
	p := newPlot("Scores of "+bot, "final score", "share of seatings")
	for k, l := range lines {
		n := float64(l.ps.Scores.N())
		var xys plotter.XYs
		j := 0
		for v := lo; v <= hi; v++ {
			share := 0.0
			if j < len(l.ps.Scores.Bins) && l.ps.Scores.Bins[j].Value == v {
				share = float64(l.ps.Scores.Bins[j].Count) / n
				j++
			}
			xys = append(xys, plotter.XY{X: float64(v), Y: share})
		}
		ln, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		ln.LineStyle.Color = plotutil.Color(k)
		ln.LineStyle.Width = vg.Points(1.5)
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(k), Radius: vg.Points(2), Shape: plotutil.Shape(k)}
		p.Add(ln, sc)
		name := fmt.Sprintf("mean %.2f", l.ps.MeanScore)
		if len(lines) > 1 {
			name = l.name + " (" + name + ")"
		}
		p.Legend.Add(name, ln, sc)
	}
	p.Y.Min = 0
	fit(p, len(lines))
	return p, nil
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

// byAxis charts seat 0's advantage (or the team's success) against axis k.
func (r Report) byAxis(k int, what string, coop bool) (*plot.Plot, error) {
	a := r.Axes[k]
	y := "seat 0's win rate minus the even share"
	if coop {
		y = "share of games won by the team"
	}
	p := newPlot(what+" by "+a.Key, a.Key, y)
	names, members := r.groups(k)
	for g, m := range members {
		var d dots
		for v := range a.Values {
			i, ok := m[v]
			if !ok {
				continue
			}
			s := r.Runs[i]
			x := float64(v) + dodge(g, len(members))
			if coop {
				d = d.add(x, s.AllWon, 0)
			} else if len(s.Seats) > 0 {
				d = d.add(x, s.Seats[0].WinRate, s.EvenShare())
			}
		}
		if err := addDots(p, names[g], g, d); err != nil {
			return nil, err
		}
	}
	if !coop {
		if err := addLevel(p, -0.4, float64(len(a.Values))-0.6, 0); err != nil {
			return nil, err
		}
	}
	nominalX(p, a.Values...)
	if len(members) > 1 {
		fit(p, len(members))
	}
	return p, nil
}

// lengthByAxis charts the mean game length against axis k.
func (r Report) lengthByAxis(k int) (*plot.Plot, error) {
	a := r.Axes[k]
	p := newPlot("Game length by "+a.Key, a.Key, "mean actions per game")
	names, members := r.groups(k)
	for g, m := range members {
		var d dots
		for v := range a.Values {
			if i, ok := m[v]; ok {
				s := r.Runs[i]
				half := 1.959964 * s.ActionsStdDev / math.Sqrt(math.Max(1, float64(s.Games)))
				d = d.addMean(float64(v)+dodge(g, len(members)), s.Actions, half)
			}
		}
		if err := addDots(p, names[g], g, d); err != nil {
			return nil, err
		}
	}
	nominalX(p, a.Values...)
	p.Y.Min = 0
	if len(members) > 1 {
		fit(p, len(members))
	}
	return p, nil
}

// pageData is what the HTML template shows.
type pageData struct {
	Title, Command string
	Game           engine.Info
	CoOperative    bool
	Runs           []runRow
	Charts         []chart
	Skipped        []string
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

var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct": func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	"iv": func(i Interval) string {
		return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*i.P, 100*i.Lo, 100*i.Hi)
	},
	"f1":   func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"f2":   func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"join": strings.Join,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.5rem; } h3 { font-size: 1.05rem; }
code, pre { background: #f4f4f4; padding: .1rem .3rem; border-radius: 3px; }
pre { padding: .6rem; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border-bottom: 1px solid #ddd; padding: .25rem .6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1.5rem 0; } figcaption { color: #555; font-size: .9rem; max-width: 40rem; }
svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{index .Game.Summary "en"}}</p>
<p>Reproduce with:</p>
<pre>{{.Command}}</pre>
<p>Win rates come with their 95% Wilson score intervals. A shared victory counts as a win for every winner.
{{if .CoOperative}}Every game was won by all seats or by none: the game is played as a team, and its rates are the team's success rates.{{end}}</p>
{{range .Skipped}}<p>Left out: {{.}}</p>{{end}}

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

<h2>Charts</h2>
{{range .Charts}}
<figure>
{{.SVG}}
<figcaption><strong>{{.Title}}.</strong> {{.Note}}</figcaption>
</figure>
{{end}}
</body>
</html>
`))
