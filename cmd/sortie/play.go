package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sortie/bot"
	"sortie/engine"
)

func init() {
	var (
		sf    setupFlags
		seat  int
		bots  string
		pace  time.Duration
		limit time.Duration
	)
	cmd := &cobra.Command{
		Use:   "play <game>",
		Short: "Play a game in the terminal against bots",
		Long: `Plays one match in the terminal: you hold one seat (--seat), bots hold the
others. You see exactly your seat's view and the events your seat is told, and
you enter an action by its number (or type it: its JSON, or the game's short
form where it has one, such as Outran's arrows). In a real-time game the match clock runs
on the wall clock and the bots act at their own pace: press Enter to see your
view and actions again.

Commands at the prompt: a number plays that action; Enter or "v" shows your
view and actions again; "q" quits.`,
		Example: `  sortie play plandesecours --players 3
  sortie play plandesecours --players 4 --option danger=true --bots heuristic,random`,
		Args: gameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := findGame(args[0])
			if err != nil {
				return err
			}
			if sf.seed == 0 {
				sf.seed = rand.Uint64()
			}
			setup, err := sf.setup(g)
			if err != nil {
				return err
			}
			if seat < 0 || seat >= setup.Players {
				return fmt.Errorf("--seat %d: this match has seats 0 to %d", seat, setup.Players-1)
			}
			if bots == "" {
				bots = "random"
				if _, err := bot.Find(g, "heuristic"); err == nil {
					bots = "heuristic"
				}
			}
			pols, err := seatPolicies(g, bots, setup.Players)
			if err != nil {
				return err
			}
			t := &terminal{
				g: g, setup: setup, human: engine.Seat(seat), pace: pace, limit: limit,
				out: cmd.OutOrStdout(), in: lines(cmd.InOrStdin()),
			}
			return t.play(pols)
		},
	}
	sf.register(cmd)
	cmd.Flags().IntVar(&seat, "seat", 0, "your seat (0 plays first in seat order)")
	cmd.Flags().StringVar(&bots, "bots", "", "comma-separated bots for the seats, cycled; your own seat's entry is ignored (default: the game's heuristic)")
	cmd.Flags().DurationVar(&pace, "pace", 400*time.Millisecond, "pause before each bot move in games without a clock, so you can follow")
	cmd.Flags().DurationVar(&limit, "quit-after", 0, "give up after this long (0: never); for scripted runs")
	root.AddCommand(cmd)
}

// lines reads input lines into a channel, closed at the end of input.
func lines(r io.Reader) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// terminal is one match played by a person in a terminal.
type terminal struct {
	g     engine.Game
	setup engine.Setup
	human engine.Seat
	pace  time.Duration
	limit time.Duration
	out   io.Writer
	in    <-chan string

	s        engine.State
	start    time.Time
	shown    []engine.Action // the numbered actions last shown
	shownFor string          // their JSON, to notice when they change
}

type wakeup struct {
	action engine.Action
	at     engine.Millis
}

func (t *terminal) now() engine.Millis { return engine.Millis(time.Since(t.start).Milliseconds()) }

func (t *terminal) play(pols []bot.Policy) error {
	info := t.g.Info()
	opts, _ := info.Check(t.setup)
	s, err := t.g.New(t.setup)
	if err != nil {
		return err
	}
	t.s, t.start = s, time.Now()
	realTime := info.Timing == engine.RealTime
	n := t.setup.Players
	bots := make([]bot.Bot, n)
	for p := range n {
		if engine.Seat(p) == t.human {
			continue
		}
		bots[p] = pols[p].NewBot(t.g, bot.Seating{Seat: engine.Seat(p), Players: n, Options: opts, Seed: engine.Mix(t.setup.Seed, uint64(1000+p))})
		if o, ok := bots[p].(bot.Observer); ok {
			o.Observe(s.View(engine.Seat(p)), nil)
		}
	}
	fmt.Fprintf(t.out, "%s — you are seat %d of %d (seed %d). Enter an action's number; Enter shows your view; q quits.\n\n",
		info.Name["en"], t.human, n, t.setup.Seed)
	t.showView()
	waiting := make([]*wakeup, n)
	var giveUp <-chan time.Time
	if t.limit > 0 {
		giveUp = time.After(t.limit)
	}
	for {
		if out, over := s.Outcome(); over {
			fmt.Fprintln(t.out, "\nThe game is over.")
			t.showView()
			b, _ := json.MarshalIndent(out, "", "  ")
			fmt.Fprintf(t.out, "outcome: %s\n", b)
			if out.Won(t.human) {
				fmt.Fprintln(t.out, "You won!")
			}
			return nil
		}
		now := t.now()
		actors := s.Actors()
		isActor := make([]bool, n)
		for _, p := range actors {
			isActor[p] = true
			if p == t.human || waiting[p] != nil {
				continue
			}
			legal := s.Legal(p)
			if len(legal) == 0 {
				waiting[p] = &wakeup{at: now + 100}
				continue
			}
			d := bot.Ask(bots[p], s, p, legal, now)
			delay := d.Delay
			if !realTime {
				delay = engine.Millis(t.pace.Milliseconds())
			}
			waiting[p] = &wakeup{action: d.Action, at: now + max(delay, 1)}
		}
		who := -1
		for p := range n {
			if !isActor[p] {
				waiting[p] = nil
			} else if waiting[p] != nil && (who < 0 || waiting[p].at < waiting[who].at) {
				who = p
			}
		}
		if isActor[t.human] && !realTime {
			t.prompt(false)
		}
		due := engine.Millis(-1)
		dl, hasDl := s.Deadline()
		if who >= 0 {
			due = waiting[who].at
		}
		if hasDl && (due < 0 || dl <= due) {
			due, who = dl, -1
		}
		var timer <-chan time.Time
		if due >= 0 {
			timer = time.After(time.Duration(max(due-now, 0)) * time.Millisecond)
		}
		select {
		case line, ok := <-t.in:
			if !ok {
				return fmt.Errorf("the input ended before the game")
			}
			if quit := t.command(line); quit {
				fmt.Fprintln(t.out, "You left the game.")
				return nil
			}
		case <-giveUp:
			return fmt.Errorf("gave up after %v", t.limit)
		case <-timer:
			if who < 0 {
				t.tell(s.Advance(due))
				clear(waiting)
				continue
			}
			w := waiting[who]
			waiting[who] = nil
			if w.action == nil {
				t.tell(s.Advance(t.now()))
				continue
			}
			evs, err := engine.Play(s, engine.Record{Seat: engine.Seat(who), Action: w.action, At: max(t.now(), w.at)})
			t.tell(evs)
			if err == nil {
				for p, b := range bots {
					if o, ok := b.(bot.Observer); ok {
						o.Observe(s.View(engine.Seat(p)), engine.Visible(nil, evs, engine.Seat(p)))
					}
				}
			}
		}
	}
}

// command handles one line typed by the person; it reports whether to quit.
func (t *terminal) command(line string) bool {
	line = strings.TrimSpace(line)
	switch line {
	case "q", "quit":
		return true
	case "", "v":
		t.showView()
		t.prompt(true)
		return false
	}
	a, err := t.parse(line)
	if err != nil {
		fmt.Fprintln(t.out, err)
		return false
	}
	evs, err := engine.Play(t.s, engine.Record{Seat: t.human, Action: a, At: t.now()})
	if err != nil {
		fmt.Fprintf(t.out, "Refused: %v\n", err)
		t.shownFor = ""
		t.prompt(true)
		return false
	}
	t.tell(evs)
	t.shownFor = ""
	if t.g.Info().Timing == engine.RealTime {
		t.prompt(true)
	}
	return false
}

// parse reads what the person typed: the number of a shown action, an
// action's JSON, or the game's own short form (engine.TextParser).
func (t *terminal) parse(line string) (engine.Action, error) {
	if k, err := strconv.Atoi(line); err == nil {
		if k < 1 || k > len(t.shown) {
			return nil, fmt.Errorf("There is no action %d: enter a number from 1 to %d, Enter to see your view again, or q to quit.", k, len(t.shown))
		}
		return t.shown[k-1], nil
	}
	if tp, ok := t.g.(engine.TextParser); ok {
		return tp.ParseAction(line)
	}
	if strings.HasPrefix(line, "{") {
		return t.g.DecodeAction([]byte(line))
	}
	return nil, fmt.Errorf("Enter the number of an action, an action as JSON, Enter to see your view again, or q to quit.")
}

// tell prints the events the person's seat may see.
func (t *terminal) tell(evs []engine.Event) {
	for _, e := range engine.Visible(nil, evs, t.human) {
		fmt.Fprintf(t.out, "  • %s\n", text(e.Body))
	}
}

func (t *terminal) showView() {
	fmt.Fprintf(t.out, "\n── your view ──\n%s\n", text(t.s.View(t.human)))
}

// prompt lists the person's legal actions, numbered, when they changed (or
// always, if forced).
func (t *terminal) prompt(force bool) {
	legal := engine.Offer(t.s, t.human)
	b, _ := json.Marshal(kinded(legal))
	if !force && string(b) == t.shownFor {
		return
	}
	t.shown, t.shownFor = legal, string(b)
	if len(legal) == 0 {
		if len(t.s.Legal(t.human)) > 0 {
			fmt.Fprintln(t.out, "Your move: type it (see the game's README for the short form, or give its JSON).")
			fmt.Fprint(t.out, "> ")
		} else if force {
			fmt.Fprintln(t.out, "You have nothing to do right now.")
		}
		return
	}
	if !force {
		t.showView()
	}
	fmt.Fprintln(t.out, "Your move:")
	for i, a := range legal {
		fmt.Fprintf(t.out, "  %2d) %s\n", i+1, text(a))
	}
	fmt.Fprint(t.out, "> ")
}

// kinded wraps actions so their JSON carries their type.
func kinded(as []engine.Action) []json.RawMessage {
	out := make([]json.RawMessage, len(as))
	for i, a := range as {
		out[i], _ = engine.MarshalTyped(a)
	}
	return out
}
