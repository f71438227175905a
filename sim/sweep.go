package sim

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sortie/bot"
	"sortie/engine"
)

// Axis is one dimension of a sweep: the player count ("players"), the
// seats' bots ("bots", each value a lineup such as "hard,medium") or a game
// option, with the values to try in order.
type Axis struct {
	Key    string
	Values []string
}

// Axis keys that are not game options.
const (
	AxisPlayers = "players"
	AxisBots    = "bots"
)

// ParseAxis reads a sweep written key=values: "players=2..5",
// "danger=false,true", or key=* for every value the game allows (every
// player count, every value of an option). Lineups of a "bots" axis are
// separated by "/" since they hold commas: "bots=hard,medium/medium,easy".
func ParseAxis(info engine.Info, spec string) (Axis, error) {
	key, vals, ok := strings.Cut(spec, "=")
	key, vals = strings.TrimSpace(key), strings.TrimSpace(vals)
	if !ok || key == "" || vals == "" {
		return Axis{}, fmt.Errorf("sweep %q: write it as key=values, e.g. players=2..5 or danger=false,true", spec)
	}
	a := Axis{Key: key}
	switch key {
	case AxisBots:
		for _, v := range strings.Split(vals, "/") {
			a.Values = append(a.Values, strings.TrimSpace(v))
		}
		return a, nil
	case AxisPlayers:
		if vals == "*" {
			for n := info.MinPlayers; n <= info.MaxPlayers; n++ {
				a.Values = append(a.Values, strconv.Itoa(n))
			}
			return a, nil
		}
		vs, err := expandRanges(vals)
		if err != nil {
			return Axis{}, fmt.Errorf("sweep %s: %v", key, err)
		}
		for _, v := range vs {
			n, _ := strconv.Atoi(v)
			if n < info.MinPlayers || n > info.MaxPlayers {
				return Axis{}, fmt.Errorf("sweep players: %s is played by %d to %d players, not %d", info.ID, info.MinPlayers, info.MaxPlayers, n)
			}
		}
		a.Values = vs
		return a, nil
	}
	j := slices.IndexFunc(info.Options, func(o engine.Option) bool { return o.Key == key })
	if j < 0 {
		return Axis{}, fmt.Errorf("sweep %s: %s has no option %q (sweep players, bots or one of its options)", key, info.ID, key)
	}
	if vals == "*" {
		a.Values = info.Options[j].Values()
		return a, nil
	}
	vs, err := expandRanges(vals)
	if err != nil {
		return Axis{}, fmt.Errorf("sweep %s: %v", key, err)
	}
	for _, v := range vs {
		if _, err := info.Check(engine.Setup{Players: info.MinPlayers, Options: map[string]string{key: v}}); err != nil {
			return Axis{}, fmt.Errorf("sweep %s: %v", key, err)
		}
	}
	a.Values = vs
	return a, nil
}

// expandRanges reads comma-separated values where lo..hi stands for every
// whole number from lo to hi.
func expandRanges(s string) ([]string, error) {
	var out []string
	for _, v := range strings.Split(s, ",") {
		v = strings.TrimSpace(v)
		lo, hi, isRange := strings.Cut(v, "..")
		if !isRange {
			out = append(out, v)
			continue
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a > b {
			return nil, fmt.Errorf("%q is not a range of whole numbers like 2..5", v)
		}
		for n := a; n <= b; n++ {
			out = append(out, strconv.Itoa(n))
		}
	}
	return out, nil
}

// Lineup reads a seat lineup: bot or level names separated by commas, in
// seat order, cycled when there are fewer than n ("hard,medium" for four
// seats is hard, medium, hard, medium).
func Lineup(g engine.Game, names string, n int) ([]bot.Policy, error) {
	list := strings.Split(names, ",")
	found := map[string]bot.Policy{}
	pols := make([]bot.Policy, n)
	for p := range n {
		name := strings.TrimSpace(list[p%len(list)])
		pol, ok := found[name]
		if !ok {
			var err error
			if pol, err = bot.Find(g, name); err != nil {
				return nil, err
			}
			found[name] = pol
		}
		pols[p] = pol
	}
	return pols, nil
}

// Sweep returns one batch for every combination of the axes' values, the
// first axis varying slowest, each labelled with its values
// ("players=3 danger=true"). Base gives everything else: its Players and
// Options where no axis sets them, and lineup, the bots of seats where no
// "bots" axis does. Every batch has base's seed, so that batches differ by
// their settings and not by their luck. A combination the game refuses (an
// option that needs more players, say) is left out, with the reason in
// skipped.
func Sweep(base Config, lineup string, axes []Axis) (cfgs []Config, skipped []string, err error) {
	combos := [][]string{nil}
	for _, a := range axes {
		if len(a.Values) == 0 {
			return nil, nil, fmt.Errorf("sweep %s has no values", a.Key)
		}
		var next [][]string
		for _, c := range combos {
			for _, v := range a.Values {
				next = append(next, append(slices.Clone(c), v))
			}
		}
		combos = next
	}
	for _, combo := range combos {
		c := base
		c.Options = map[string]string{}
		for k, v := range base.Options {
			c.Options[k] = v
		}
		bots := lineup
		var label []string
		for i, a := range axes {
			v := combo[i]
			label = append(label, a.Key+"="+v)
			switch a.Key {
			case AxisPlayers:
				c.Players, _ = strconv.Atoi(v)
			case AxisBots:
				bots = v
			default:
				c.Options[a.Key] = v
			}
		}
		c.Label = strings.Join(label, " ")
		if _, err := c.Game.New(engine.Setup{Players: c.Players, Options: c.Options, Seed: c.Seed}); err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", c.Label, err))
			continue
		}
		if c.Policies, err = Lineup(c.Game, bots, c.Players); err != nil {
			return nil, nil, err
		}
		cfgs = append(cfgs, c)
	}
	return cfgs, skipped, nil
}

// RunAll plays the batches one after the other, each on every core.
// Progress, if set, is called after every game with the number finished
// over all batches. It stops at the first error (or when ctx is done),
// returning the batches finished so far and the one it stopped in.
func RunAll(ctx context.Context, cfgs []Config, progress func(done int)) ([]Stats, error) {
	var out []Stats
	before := 0
	for _, c := range cfgs {
		if progress != nil {
			offset := before
			c.Progress = func(done int) { progress(offset + done) }
		}
		st, err := Run(ctx, c)
		if err != nil {
			if st.Games > 0 {
				out = append(out, st)
			}
			return out, err
		}
		out = append(out, st)
		before += c.Games
	}
	return out, nil
}
