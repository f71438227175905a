// What a match is for rating: the game's rated result of a finished match
// (rebuilt from its log), and, before the start, the family and variant a
// table would be rated in. The match package decides nothing about ratings;
// the server does.

package match

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sortie/engine"
	"sortie/internal/store"
)

// RatedResult returns finished match id as stored and what it is for
// rating (engine.Rated), rebuilt from its log; ok is false for a game whose
// states do not say.
func (m *Manager) RatedResult(ctx context.Context, id string) (rec *store.Match, r engine.Result, ok bool, err error) {
	rec, err = m.store.Get(ctx, id)
	if err != nil {
		return nil, r, false, err
	}
	if rec.Status != store.Finished {
		return rec, r, false, refuse(CodeNotFinished, "Match %s is not finished.", id)
	}
	g, err := m.Game(rec.Game)
	if err != nil {
		return rec, r, false, err
	}
	log, err := m.logRecords(ctx, id, rec.Records)
	if err != nil {
		return rec, r, false, err
	}
	state, _, err := replay(g, rec.Setup, log)
	if err != nil {
		return rec, r, false, refuse(CodeMatchFailed, "Match %s cannot be rebuilt from its log.", id)
	}
	rs, ok := state.(engine.Rated)
	if !ok {
		return rec, r, false, nil
	}
	r, over := rs.RatedResult()
	return rec, r, over, nil
}

// variants caches the family and key of each setup (without its seed):
// they follow from the setup alone and never change.
var variants sync.Map // string → variant

type variant struct {
	r  engine.Result
	ok bool
}

// RatedVariant returns the family and key (no sides) a match of game with
// setup is rated in, known before it starts; ok is false for a game whose
// states do not say, or a setup the game refuses.
func (m *Manager) RatedVariant(game string, setup engine.Setup) (engine.Result, bool) {
	var b strings.Builder
	b.WriteString(game)
	b.WriteString("\x00")
	b.WriteString(strconv.Itoa(setup.Players))
	for _, k := range slices.Sorted(maps.Keys(setup.Options)) {
		b.WriteString("\x00" + k + "=" + setup.Options[k])
	}
	key := b.String()
	if v, ok := variants.Load(key); ok {
		return v.(variant).r, v.(variant).ok
	}
	var v variant
	if g, err := m.Game(game); err == nil {
		if s, err := g.New(setup); err == nil {
			if rs, ok := s.(engine.Rated); ok {
				r, _ := rs.RatedResult()
				v = variant{engine.Result{Family: r.Family, Key: r.Key}, true}
			}
		}
	}
	variants.Store(key, v)
	return v.r, v.ok
}
