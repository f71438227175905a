package sim

import (
	"bytes"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The house style of the report's charts: drawn by gonum/plot in SVG, in
// Liberation Sans (metric-compatible with Arial, so that a browser without
// it lays the same text out in the same room), shares in percent on axes
// that start at 0, intervals as bars or shaded bands, and the legend beside
// the plot rather than over it.

// Chart sizes: the plot area keeps its width whatever the legend's.
const (
	plotW    = 15 * vg.Centimeter
	chartH   = 9 * vg.Centimeter
	fontSize = 10
	// maxSeries is the most lines or series a chart draws before it
	// becomes a tangle; the charts by setting take over beyond it.
	maxSeries = 8
)

var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot returns an empty plot in the house style.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &p.Legend.TextStyle.Font} {
		*f = font.From(sans, fontSize)
	}
	p.Title.TextStyle.Font.Size = fontSize + 2
	p.Title.Padding = vg.Points(6)
	p.Y.Padding = 0 // the axis starts where its first tick, 0, says
	p.Legend.Padding = vg.Points(3)
	p.Add(plotter.NewGrid())
	return p
}

// percentAxis makes p's Y axis a share in percent from 0 (the data are
// already in percent), with a little room above the highest value.
func percentAxis(p *plot.Plot) {
	p.Y.Min = 0
	p.Y.Max = math.Min(100, math.Max(p.Y.Max*1.06, 5))
	p.Y.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		ts := plot.DefaultTicks{}.Ticks(min, max)
		for i := range ts {
			if ts[i].Label != "" {
				ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64) + "%"
			}
		}
		return ts
	})
}

// fromZero makes p's Y axis start at 0, with room above the highest value.
func fromZero(p *plot.Plot) {
	p.Y.Min = 0
	p.Y.Max *= 1.06
}

// nominalX names the categories of p's X axis, slanted when they would not
// fit side by side.
func nominalX(p *plot.Plot, names ...string) {
	p.NominalX(names...)
	p.X.Min = math.Min(p.X.Min, -0.5)
	p.X.Max = math.Max(p.X.Max, float64(len(names))-0.5)
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

// numericX labels an X axis whose categories are whole numbers with those
// numbers, placed at their values.
func numericX(p *plot.Plot, values []string) {
	var ticks []plot.Tick
	for _, v := range values {
		x, _ := strconv.Atoi(v)
		ticks = append(ticks, plot.Tick{Value: float64(x), Label: v})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = p.X.Min-0.3, p.X.Max+0.3
}

// dots are points with asymmetric vertical intervals.
type dots []dot

type dot struct{ x, y, lo, hi float64 }

func (d dots) Len() int                        { return len(d) }
func (d dots) XY(i int) (float64, float64)     { return d[i].x, d[i].y }
func (d dots) YError(i int) (float64, float64) { return d[i].y - d[i].lo, d[i].hi - d[i].y }

// rate appends a proportion with its interval, in percent.
func (d dots) rate(x float64, iv Interval) dots {
	return append(d, dot{x, 100 * iv.P, 100 * iv.Lo, 100 * iv.Hi})
}

// mean appends a mean with the half-width of its interval.
func (d dots) mean(x, m, half float64) dots { return append(d, dot{x, m, m - half, m + half}) }

// palette is Okabe and Ito's, which colour-blind readers can tell apart;
// each series also has its own glyph shape.
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermilion
	color.RGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	color.RGBA{0xE6, 0x9F, 0x00, 0xFF}, // orange
	color.RGBA{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xFF}, // black
	color.RGBA{0xB8, 0xA9, 0x00, 0xFF}, // a darker yellow, to show on white
}

func colour(i int) color.Color { return palette[i%len(palette)] }

// addDots draws a series of points with their intervals as bars, in
// colour i, named in the legend unless name is empty.
func addDots(p *plot.Plot, name string, i int, d dots) error {
	return addMarks(p, name, i, d, vg.Points(5))
}

// addStems draws shares as stems from 0, in colour i.
func addStems(p *plot.Plot, name string, i int, d dots) error { return addMarks(p, name, i, d, 0) }

func addMarks(p *plot.Plot, name string, i int, d dots, capWidth vg.Length) error {
	if len(d) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(d)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: colour(i), Radius: vg.Points(3), Shape: plotutil.Shape(i)}
	eb, err := plotter.NewYErrorBars(d)
	if err != nil {
		return err
	}
	eb.LineStyle.Color = colour(i)
	eb.LineStyle.Width = vg.Points(1.2)
	eb.CapWidth = capWidth
	p.Add(eb, sc)
	if name != "" {
		p.Legend.Add(name, sc)
	}
	return nil
}

// addBand draws a series of points joined by a line, with their intervals
// as a shaded band, in colour i.
func addBand(p *plot.Plot, name string, i int, d dots) error {
	if len(d) < 2 {
		return addDots(p, name, i, d)
	}
	ring := make(plotter.XYs, 0, 2*len(d))
	for _, pt := range d {
		ring = append(ring, plotter.XY{X: pt.x, Y: pt.lo})
	}
	for k := len(d) - 1; k >= 0; k-- {
		ring = append(ring, plotter.XY{X: d[k].x, Y: d[k].hi})
	}
	band, err := plotter.NewPolygon(ring)
	if err != nil {
		return err
	}
	r, g, b, _ := colour(i).RGBA()
	band.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x30}
	band.LineStyle.Width = 0
	line, points, err := plotter.NewLinePoints(d)
	if err != nil {
		return err
	}
	line.LineStyle.Color = colour(i)
	line.LineStyle.Width = vg.Points(1.5)
	points.GlyphStyle = draw.GlyphStyle{Color: colour(i), Radius: vg.Points(2.5), Shape: plotutil.Shape(i)}
	p.Add(band, line, points)
	if name != "" {
		p.Legend.Add(name, band, line, points)
	}
	return nil
}

// dashed is the style of the even-share lines.
func dashed(c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
}

var grey color.Color = color.Gray{Y: 110}

// evenShareKey is the legend's entry for the dashed even-share lines,
// whatever their colours.
func evenShareKey(p *plot.Plot) {
	p.Legend.Add("even share (dashed)", &plotter.Line{LineStyle: dashed(grey)})
}

// addLevel draws a dashed segment at height y from x0 to x1 in colour c.
func addLevel(p *plot.Plot, x0, x1, y float64, c color.Color) error {
	return addLevels(p, []float64{x0, x1}, []float64{y, y}, c)
}

// addLevels draws a dashed line through the given heights (one per x), in
// colour c; a dashed level line of its own when there is a single x.
func addLevels(p *plot.Plot, xs, ys []float64, c color.Color) error {
	if len(xs) == 1 {
		xs, ys = []float64{xs[0] - 0.4, xs[0] + 0.4}, []float64{ys[0], ys[0]}
	}
	xy := make(plotter.XYs, len(xs))
	for k := range xs {
		xy[k] = plotter.XY{X: xs[k], Y: ys[k]}
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.LineStyle = dashed(c)
	p.Add(l)
	return nil
}

// addSteps draws shares (in percent) of values from lo to hi in bins of
// width as a step line in colour i.
func addSteps(p *plot.Plot, name string, i int, xys plotter.XYs) error {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.StepStyle = plotter.PostStep
	l.LineStyle.Color = colour(i)
	l.LineStyle.Width = vg.Points(1.5)
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// dodge returns the offset of series k of n around a category's centre.
func dodge(k, n int) float64 {
	if n <= 1 {
		return 0
	}
	return (float64(k) - float64(n-1)/2) * 0.6 / float64(n)
}

// svgOf draws p as inline SVG, its legend (if any) in a column to the right
// of the plot so that it never hides data; the chart grows taller when the
// legend needs it.
func svgOf(p *plot.Plot) (template.HTML, error) {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	probe := draw.New(vgsvg.New(plotW, chartH))
	r := leg.Rectangle(probe)
	legW, legH := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	if legW > 0 {
		legW += vg.Points(16)
	}
	w, h := plotW+legW, max(chartH, legH+vg.Points(40))
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legW, 0, 0))
	if legW > 0 {
		leg.Top, leg.Left = true, true
		leg.Draw(draw.Crop(dc, plotW+vg.Points(10), 0, 0, -vg.Points(24)))
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	svg := b.String()
	if i := strings.Index(svg, "<svg"); i > 0 {
		svg = svg[i:] // inline: no XML declaration
	}
	// The generic family after the named one, for browsers without it.
	svg = strings.ReplaceAll(svg, "font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
	return template.HTML(svg), nil
}
