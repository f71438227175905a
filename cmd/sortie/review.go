package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sortie/coach"
	"sortie/internal/match"
	"sortie/internal/server/client"
)

func init() {
	var (
		matchURL string
		seat     int
		wait     time.Duration
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "review --match <URL> [--seat N]",
		Short: "Print the review of a person's seat of a finished match",
		Long: `Asks a server for the review of a seat of a finished match (docs/api.md,
GET /api/matches/<id>/review) and prints its summary: the accuracy, the
decisions by band, what the decisions lost and what luck and the other
players gave or took, the win chance from the first decision to the end, the
three key moments and the costly moves with the move the bot preferred.
Servers review every finished match in the background; while the review is
being made, the command waits for it (--wait). Seats count from 0, as in the
API; the summary names them from 1.`,
		Example: `  sortie review --match http://localhost:8080/play/3fZ9kQwLr2 --seat 0
  sortie review --match http://localhost:8080/play/3fZ9kQwLr2 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if matchURL == "" {
				return errors.New("give --match <the match's address>")
			}
			base, id, err := parseMatchURL(matchURL)
			if err != nil {
				return err
			}
			c := client.New(base)
			c.HTTP = &http.Client{Timeout: time.Minute}
			rv, err := waitReview(cmd.Context(), c, id, seat, wait)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rv)
			}
			writeReview(cmd.OutOrStdout(), rv)
			return nil
		},
	}
	cmd.Flags().StringVar(&matchURL, "match", "", "the match's page, invite link or API address")
	cmd.Flags().IntVar(&seat, "seat", 0, "the seat to review, from 0")
	cmd.Flags().DurationVar(&wait, "wait", 2*time.Minute, "how long to wait for a review being made")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the review as the server gives it")
	root.AddCommand(cmd)
}

// waitReview asks for the review until it is ready, or wait has passed.
func waitReview(ctx context.Context, c *client.Client, id string, seat int, wait time.Duration) (*match.ReviewAnswer, error) {
	deadline := time.Now().Add(wait)
	for {
		var rv match.ReviewAnswer
		err := c.Do(ctx, "GET", fmt.Sprintf("/api/matches/%s/review?seat=%d", id, seat), "", nil, &rv)
		var refused *client.APIError
		switch {
		case errors.As(err, &refused):
			return nil, fmt.Errorf("the server refused the review of seat %d of match %s: %s", seat, id, refused.Message)
		case err != nil:
			return nil, fmt.Errorf("cannot ask for match %s's review: %v", id, err)
		case rv.Status == match.ReviewReady && rv.Review != nil:
			return &rv, nil
		case time.Now().After(deadline):
			return nil, fmt.Errorf("match %s's review is still being made after %v; ask again later", id, wait)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// writeReview prints a review's summary.
func writeReview(w io.Writer, rv *match.ReviewAnswer) {
	pct := func(p float64) string { return fmt.Sprintf("%.0f%%", 100*p) }
	chance := "Win chance"
	if rv.Team {
		chance = "Team's win chance"
	}
	fmt.Fprintf(w, "Seat %d: accuracy %.0f%% over %d decisions", int(rv.Seat)+1, rv.Accuracy, len(rv.Decisions))
	var counts []string
	for _, b := range coach.Bands {
		if n := rv.Counts[b]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, b))
		}
	}
	if len(counts) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(counts, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%s: %s at the first decision, %s at the end.\n", chance, pct(rv.Start), pct(rv.Result))
	fmt.Fprintf(w, "The decisions lost %.0f points; luck and the other players %s %.0f.\n", rv.Lost, map[bool]string{true: "gave", false: "took"}[rv.Luck >= 0], abs(rv.Luck))
	if len(rv.Key) > 0 {
		fmt.Fprintln(w, "Key moments:")
		for _, m := range rv.Key {
			if m.Kind == "luck" {
				fmt.Fprintf(w, "  before step %d: luck and the others %+.0f points\n", m.Seq, m.Delta)
				continue
			}
			fmt.Fprintf(w, "  step %d: a decision, %+.0f points\n", m.Seq, m.Delta)
		}
	}
	for _, d := range rv.Decisions {
		if coach.Flagged(d.Band) {
			fmt.Fprintf(w, "Step %d, %s: played %s; the bot preferred %s (+%.0f points).\n", d.Seq, d.Band, d.Played, d.Best, d.Loss)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
