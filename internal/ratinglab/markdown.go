package ratinglab

import (
	"fmt"
	"io"
	"strings"

	"sortie/internal/rating"
)

// WriteMarkdown writes a population's report as docs/ratings.md shows it:
// a summary line, the levels at the end, their mean μ along the run, and the
// calibration with its reliability table.
func WriteMarkdown(w io.Writer, r Report) {
	fmt.Fprintf(w, "**%s, %s**: %d matches", r.Game, r.Family, r.Matches)
	if r.Unrated > 0 {
		fmt.Fprintf(w, " (%d not rated: variant not measured)", r.Unrated)
	}
	fmt.Fprintf(w, "; levels ordered %s by their mean μ %s; every member ordered %s.\n\n",
		strings.Join(reversed(r.Levels), " > "), after(r.Ordered, r.OrderedPlayed, r.Matches), after(r.Separated, r.SeparatedPlayed, r.Matches))
	fmt.Fprintln(w, "| level | mean μ | μ range | mean σ | mean μ − 3σ |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, s := range r.Summary {
		fmt.Fprintf(w, "| %s | %.1f | %.1f – %.1f | %.2f | %.1f |\n", s.Level, s.MeanMu, s.MinMu, s.MaxMu, s.MeanSigma, s.MeanDisplay)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "| after | %s |\n", strings.Join(r.Levels, " | "))
	fmt.Fprintf(w, "|---:|%s\n", strings.Repeat("---:|", len(r.Levels)))
	for _, c := range r.Checkpoints {
		cells := make([]string, len(c.MeanMu))
		for i, m := range c.MeanMu {
			cells[i] = fmt.Sprintf("%.1f", m)
		}
		fmt.Fprintf(w, "| %d | %s |\n", c.After, strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
	c := r.Calibration
	fmt.Fprintf(w, "Calibration over matches %d–%d (%d predictions): Brier %.4f against %.4f for the no-skill baseline, skill %+.3f; the Thurstone form: Brier %.4f, skill %+.3f.\n\n",
		c.From, r.Matches, c.Sides, c.Brier, c.Baseline, c.Skill, c.Thurstone.Brier, c.Thurstone.Skill)
	fmt.Fprintln(w, "| predicted | sides | mean predicted | observed | Thurstone: sides | mean predicted | observed |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	for i, b := range c.Bins {
		t := c.Thurstone.Bins[i]
		if b.N == 0 && t.N == 0 {
			continue
		}
		fmt.Fprintf(w, "| %.0f–%.0f%% | %s | %s |\n", 100*b.Lo, 100*b.Hi, binCells(b), binCells(t))
	}
	if len(r.ByBeta) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The same matches rated with other β:")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "| β | levels ordered from | every member from | mean μ %s | Brier | skill |\n", strings.Join(r.Levels, " · "))
	fmt.Fprintln(w, "|---:|---:|---:|---|---:|---:|")
	for _, b := range r.ByBeta {
		mus := make([]string, len(b.MeanMu))
		for i, m := range b.MeanMu {
			mus[i] = fmt.Sprintf("%.1f", m)
		}
		by := ""
		if b.CoopSum {
			by = " (co-op summed)"
		}
		fmt.Fprintf(w, "| %.2f%s | %s | %s | %s | %.4f | %+.3f |\n", b.Beta, by, fromMatch(b.Ordered), fromMatch(b.Separated), strings.Join(mus, " · "), b.Calibration.Brier, b.Calibration.Skill)
	}
}

// fromMatch says from which match something held to the end: "–" if it
// did not at the end.
func fromMatch(n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprint(n)
}

func binCells(b Bin) string {
	if b.N == 0 {
		return "0 | – | –"
	}
	return fmt.Sprintf("%d | %.1f%% | %.1f%%", b.N, 100*b.Predicted, 100*b.Observed)
}

func after(n int, perMember float64, total int) string {
	if n == 0 {
		return fmt.Sprintf("not at the end of %d matches", total)
	}
	return fmt.Sprintf("from match %d on (%.1f matches a member)", n, perMember)
}

func reversed(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// WriteCells writes measured cells as a Markdown table, as docs/balance.md
// shows them: each side's rate with its interval, and what the rating
// makes of it (a role's handicap in μ, a co-op benchmark member's μ).
func WriteCells(w io.Writer, m rating.Model, cells []rating.Cell) {
	fmt.Fprintln(w, "| game | variant | players | games | sides: rate [95%] | rating |")
	fmt.Fprintln(w, "|---|---|---:|---:|---|---|")
	for _, c := range cells {
		var sides []string
		for _, s := range c.Sides {
			sides = append(sides, fmt.Sprintf("%s×%d %.1f%% [%.1f, %.1f]", s.Role, s.Size, 100*s.Rate.P, 100*s.Rate.Lo, 100*s.Rate.Hi))
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %s |\n", c.Game, c.Key, c.Players, c.Games, strings.Join(sides, "; "), derived(m, c))
	}
}

// derived says what the rating makes of a cell.
func derived(m rating.Model, c rating.Cell) string {
	rates := c.Rates()
	if len(c.Sides) == 1 {
		b, err := m.Benchmark(rates[0], c.Sides[0].Size)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("benchmark %d × μ %.2f", c.Sides[0].Size, b.Mu)
	}
	h, err := m.Handicaps(rates)
	if err != nil {
		return err.Error()
	}
	var parts []string
	for i, s := range c.Sides {
		parts = append(parts, fmt.Sprintf("%s %+.2f", s.Role, h[i]))
	}
	return "handicaps " + strings.Join(parts, ", ")
}
