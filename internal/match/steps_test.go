package match_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"sortie/engine"
)

// A view at a step is the same whether it is rebuilt from the start of the
// log or from a state the log cache kept on the way, in whatever order the
// steps are asked, by readers at once, and with no cache at all. (Issue 29,
// finding 4.)
func TestStepViewsFromKeptStatesAreTheSame(t *testing.T) {
	ctx := context.Background()
	lm := storeLongMatch(t)
	cold := lm.manager(-1) // no cache: every view replays from the start
	defer cold.Shutdown(ctx)
	warm := lm.manager(0)
	defer warm.Shutdown(ctx)

	r := rand.New(rand.NewPCG(29, 4))
	steps := []int{0, 1, lm.records, lm.records - 1, 31, 32, 33, 64}
	for range 40 {
		steps = append(steps, r.IntN(lm.records+1))
	}
	want := make(map[string]string)
	key := func(seat engine.Seat, step int) string { return fmt.Sprint(seat, "/", step) }
	for _, step := range steps {
		for _, seat := range []engine.Seat{engine.Spectator, 0, 3} {
			v, err := cold.View(ctx, lm.id, seat, step, "", "")
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			b, _ := json.Marshal(v)
			want[key(seat, step)] = string(b)
		}
	}
	var wg sync.WaitGroup
	for reader := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(reader), 29))
			for range 3 * len(steps) {
				step := steps[r.IntN(len(steps))]
				seat := []engine.Seat{engine.Spectator, 0, 3}[r.IntN(3)]
				v, err := warm.View(ctx, lm.id, seat, step, "", "")
				if err != nil {
					t.Errorf("step %d: %v", step, err)
					return
				}
				if b, _ := json.Marshal(v); string(b) != want[key(seat, step)] {
					t.Errorf("seat %d, step %d: the view from kept states differs from the replay from the start", seat, step)
					return
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkStepView measures a view of a past step of a long finished match
// (a Temple match of four medium bots) once the log cache holds it: near
// the start, and at the end, which replays from the nearest kept state
// rather than from the start. The two should cost about the same.
func BenchmarkStepView(b *testing.B) {
	ctx := context.Background()
	lm := storeLongMatch(b)
	for _, cache := range []int64{0, -1} {
		m := lm.manager(cache)
		for _, step := range []int{1, 1483, lm.records} {
			name := fmt.Sprintf("cache=%v/step=%d", cache == 0, step)
			if step == lm.records {
				name = fmt.Sprintf("cache=%v/step=last(%d)", cache == 0, step)
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if _, err := m.View(ctx, lm.id, engine.Spectator, step, "", ""); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		m.Shutdown(ctx)
	}
}
