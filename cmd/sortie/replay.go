package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/server/client"
)

func init() {
	var (
		sf       setupFlags
		matchURL string
	)
	cmd := &cobra.Command{
		Use:   "replay [<game>] [--match <URL> | < log]",
		Short: "Replay a match's action log and print the final public view and outcome as JSON",
		Long: `Replays a match's action log from its start and prints the spectator's view at
the end and the outcome (null while the game is unfinished) as JSON.

Where a log comes from: a server keeps the log of every match, and once a match
is over it hands it out at GET /api/matches/<id>/replay, with the match's game,
seat count, options and seed (docs/api.md). --match fetches it from the match's
page, its invite link or its API address; or save it and replay it from
standard input:

  sortie replay --match http://localhost:8080/play/3fZ9kQwLr2
  curl -s http://localhost:8080/api/matches/3fZ9kQwLr2/replay > match.json
  sortie replay < match.json

A bare log, one record per line — {"seat":0,"action":{"type":...},"at":0}, or
{"at":N} for time passing alone — carries no setup: name the game and give
--players, --seed and --option as the match was played. A record that cannot
be read, names a seat the match does not have, or is refused is reported with
its number.`,
		Example: `  sortie replay --match http://localhost:8080/play/3fZ9kQwLr2
  sortie replay < match.json
  sortie replay plandesecours --players 3 --seed 7 < log.jsonl`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			defer resetFlags(cmd)
			var (
				doc *match.Replay
				in  []byte
				err error
			)
			if matchURL != "" {
				if doc, err = fetchReplay(cmd.Context(), matchURL); err != nil {
					return err
				}
			} else {
				if f, ok := cmd.InOrStdin().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
					return errors.New("nothing to replay: give --match <the match's address>, or a log on standard input (sortie replay < match.json)")
				}
				if in, err = io.ReadAll(io.LimitReader(cmd.InOrStdin(), 1<<30)); err != nil {
					return fmt.Errorf("reading the log: %v", err)
				}
				if doc, err = replayDocument(in); err != nil {
					return err
				}
			}
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			if doc != nil && doc.Match.Game != "" {
				if id != "" && id != doc.Match.Game {
					return fmt.Errorf("the log is of a %s match, not %s", doc.Match.Game, id)
				}
				id = doc.Match.Game
			}
			if id == "" {
				return gameArg(cmd, nil)
			}
			g, err := findGame(id)
			if err != nil {
				return err
			}
			setup, fromLog, err := replaySetup(cmd, g, &sf, doc)
			if err != nil {
				return err
			}
			s, err := g.New(setup)
			if err != nil {
				return err
			}
			play := func(where string, b []byte) error {
				rec, err := engine.DecodeRecord(g, b)
				if err != nil {
					return fmt.Errorf("%s: %v", where, err)
				}
				// A record's "seat" counts from 0, as the API's seat fields;
				// sentences name seats from 1, as every screen does.
				if rec.Action != nil && (rec.Seat < 0 || int(rec.Seat) >= setup.Players) {
					hint := ""
					if !fromLog {
						hint = "; give --players as the match was played"
					}
					return fmt.Errorf("%s: its \"seat\" is %d, but the match has %s%s", where, int(rec.Seat), seatRange(setup.Players), hint)
				}
				if _, err := engine.Play(s, rec); err != nil {
					return fmt.Errorf("%s: the action of %s (\"seat\": %d) was refused: %v", where, rec.Seat.Name(), int(rec.Seat), err)
				}
				return nil
			}
			if doc != nil {
				for i, b := range doc.Log {
					if err := play(fmt.Sprintf("record %d", i+1), b); err != nil {
						return err
					}
				}
			} else {
				for i, line := range strings.Split(string(in), "\n") {
					if strings.TrimSpace(line) == "" {
						continue
					}
					if err := play(fmt.Sprintf("line %d", i+1), []byte(line)); err != nil {
						return err
					}
				}
			}
			var result struct {
				View    engine.View     `json:"view"`
				Outcome *engine.Outcome `json:"outcome"`
			}
			result.View = s.View(engine.Spectator)
			if out, over := s.Outcome(); over {
				result.Outcome = &out
			}
			if doc != nil && doc.Outcome != nil && !sameJSON(doc.Outcome, result.Outcome) {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: the replay does not end as the server recorded: the game's rules have changed since the match was played")
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(result)
		},
	}
	sf.register(cmd)
	cmd.Flags().StringVar(&matchURL, "match", "", "fetch a finished match's log from a server: the match's page, invite link or API address")
	root.AddCommand(cmd)
}

// replayDocument reads the server's replay document (an object holding the
// setup and the log) if that is what in is, or nil for a log of records.
func replayDocument(in []byte) (*match.Replay, error) {
	var probe map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(in)).Decode(&probe); err != nil || probe["log"] == nil {
		return nil, nil
	}
	var doc match.Replay
	if err := json.Unmarshal(in, &doc); err != nil {
		return nil, fmt.Errorf("the input looks like a server's replay document but cannot be read: %v", err)
	}
	return &doc, nil
}

// replaySetup is the setup to replay: the log's own when it has one (and
// then the setup flags must not contradict it), else the flags'. fromLog
// says which.
func replaySetup(cmd *cobra.Command, g engine.Game, sf *setupFlags, doc *match.Replay) (setup engine.Setup, fromLog bool, err error) {
	if doc != nil && doc.Setup.Players > 0 {
		for _, f := range []string{"players", "seed", "option"} {
			if cmd.Flags().Changed(f) {
				return setup, true, fmt.Errorf("the log carries its own setup (%d players, seed %d): leave out --players, --seed and --option", doc.Setup.Players, doc.Setup.Seed)
			}
		}
		setup = doc.Setup
		if _, err := g.Info().Check(setup); err != nil {
			return setup, true, fmt.Errorf("the log's setup does not fit %s: %v", g.Info().ID, err)
		}
		return setup, true, nil
	}
	if sf.seed == 0 {
		sf.seed = 1
	}
	setup, err = sf.setup(g)
	return setup, false, err
}

// seatRange says which seats a match of n players has, and how a log's
// records name them.
func seatRange(n int) string {
	switch n {
	case 1:
		return `one seat ("seat" 0 in a log)`
	case 2:
		return `2 seats ("seat" 0 and 1 in a log)`
	}
	return fmt.Sprintf(`%d seats ("seat" 0 to %d in a log)`, n, n-1)
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// matchPath finds the match id in the address of a match's page or invite
// link (/play/<id>) or of its API (/api/matches/<id>...).
var matchPath = regexp.MustCompile(`^/(?:play|api/matches)/([A-Za-z0-9_-]+)(?:/.*)?$`)

// parseMatchURL splits the address of a match into its server and the
// match's id.
func parseMatchURL(raw string) (server, id string, err error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		if m := matchPath.FindStringSubmatch(u.Path); m != nil {
			return u.Scheme + "://" + u.Host, m[1], nil
		}
	}
	return "", "", fmt.Errorf("%q is not the address of a match: give its page or invite link (http://host:8080/play/<id>) or its API address (http://host:8080/api/matches/<id>)", raw)
}

// fetchReplay asks a server for a finished match's replay document.
func fetchReplay(ctx context.Context, raw string) (*match.Replay, error) {
	base, id, err := parseMatchURL(raw)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	c := client.New(base)
	c.HTTP = &http.Client{Timeout: time.Minute}
	doc, err := c.Replay(ctx, id)
	var refused *client.APIError
	switch {
	case err == nil:
		return doc, nil
	case errors.As(err, &refused) && refused.Code == "not_finished":
		return nil, fmt.Errorf("match %s on %s is not finished: its log is given out once the game is over", id, base)
	case errors.As(err, &refused) && refused.Code == "unknown_match":
		return nil, fmt.Errorf("the server at %s has no match %s", base, id)
	case errors.As(err, &refused):
		return nil, fmt.Errorf("the server at %s refused to give match %s's log: %s", base, id, refused.Message)
	}
	return nil, fmt.Errorf("cannot fetch match %s's log from %s: %v", id, base, err)
}
