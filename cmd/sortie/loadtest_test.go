package main

import "testing"

// Against several nodes, half the seats of a match (rounded down) connect
// to other nodes than the one that runs it, spread over them; with one
// node, or without spreading, every seat connects to it.
func TestSocketNode(t *testing.T) {
	for _, c := range []struct {
		owner, players, nodes int
		spread                bool
		want                  []int
	}{
		{0, 4, 3, true, []int{0, 0, 1, 2}},
		{2, 4, 3, true, []int{2, 2, 0, 1}},
		{1, 5, 3, true, []int{1, 1, 1, 0, 2}},
		{0, 4, 2, true, []int{0, 0, 1, 1}},
		{0, 4, 3, false, []int{0, 0, 0, 0}},
		{0, 4, 1, true, []int{0, 0, 0, 0}},
	} {
		for j, want := range c.want {
			if got := socketNode(j, c.owner, c.players, c.nodes, c.spread); got != want {
				t.Errorf("%+v: seat %d on node %d, want %d", c, j, got, want)
			}
		}
	}
}
