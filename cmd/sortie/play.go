package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/user"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"sortie/engine"
	sterm "sortie/internal/term"
)

func init() {
	var (
		sf      setupFlags
		seat    int
		bots    string
		pace    time.Duration
		join    string
		name    string
		lang    string
		noColor bool
		ascii   bool
		speed   float64
	)
	cmd := &cobra.Command{
		Use:   "play [<game>]",
		Short: "Play a game full-screen in the terminal, against bots or at a server's table",
		Long: `Plays one match full-screen in the terminal (at least 80×24; larger is roomier).

Against bots: name the game; you hold one seat (--seat), bots hold the others
and play at their pace; a real-time game runs on the wall clock.

At a server's table: --join with a seat's invite link (the lobby of
'sortie serve' gives one per seat); you then sit with the browser players.
There, Tab opens a line to talk to the table, /leave (twice) hands your seat
to your bot and /back takes it back (or, when the seat was opened elsewhere
since, plays it here again).

Keys: ↑/↓ move through your actions and Enter plays one; or type its number
and Enter; or type the game's short form (Outran's arrows as on a keypad,
98+3; Les Évadés' "cross d07 file joker"; a Room 25 program as its tokens'
initials, MP for Move then Push...). Each board has its own keys,
shown at the bottom of the screen (Temple's 1–7 and R, Plan de Secours' 1–3
and L...). Esc clears, Ctrl+C leaves.

The language is --lang, else the locale (LC_ALL, LC_MESSAGES, LANG).
Colours are off with --no-color or when NO_COLOR is set. On a terminal whose
locale is not UTF-8 (LC_ALL, LC_CTYPE, LANG: "C", say) the screen is drawn in
ASCII, accents and symbols spelled plainly; --ascii=false draws in UTF-8 all
the same, --ascii in ASCII anyway.`,
		Example: `  sortie play plandesecours --players 3
  sortie play outran --players 3 --lang fr
  sortie play --join 'http://localhost:8080/play/Ab3dEf6hIj9k?seat=1#token=q1w2…'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if join != "" {
				if len(args) > 0 {
					return fmt.Errorf("with --join the invite link names the game: leave out %q", args[0])
				}
				return nil
			}
			return gameArg(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := sterm.Lang(lang)
			if err != nil {
				return err
			}
			if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
				return fmt.Errorf("sortie play draws a full-screen board: run it in a terminal (its input and output must be one)")
			}
			opt := sterm.Options{Lang: l, Colour: !noColor && os.Getenv("NO_COLOR") == "", ClockSpeed: &speed, ASCII: ascii}
			if name == "" && join != "" {
				name = personName()
			}
			var conn sterm.Conn
			if join != "" {
				inv, err := sterm.ParseInvite(join)
				if err != nil {
					return err
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				conn, err = sterm.Dial(ctx, inv, name)
				if err != nil {
					return fmt.Errorf("cannot sit at %s: %w", inv.Base, err)
				}
			} else {
				conn, err = localMatch(args[0], &sf, seat, bots, name, pace, speed)
				if err != nil {
					return err
				}
			}
			return sterm.Run(conn, opt)
		},
	}
	sf.register(cmd)
	f := cmd.Flags()
	f.IntVar(&seat, "seat", 0, "your seat against bots (0 plays first in seat order)")
	f.StringVar(&bots, "bots", "", "comma-separated bots or levels (easy, medium, hard) for the seats, cycled; your own seat's entry is ignored (default medium)")
	f.DurationVar(&pace, "pace", 600*time.Millisecond, "pause before each bot move in games without a clock, so you can follow")
	f.StringVar(&join, "join", "", "sit at a server's match with a seat's invite link")
	f.StringVar(&name, "name", "", "your name at the table (default: your login name at a server, none against bots)")
	f.StringVar(&lang, "lang", "", "fr or en (default: the locale)")
	f.BoolVar(&noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	f.BoolVar(&ascii, "ascii", !sterm.UTF8(os.Getenv), "draw in ASCII alone (default: when the locale is not UTF-8)")
	f.Float64Var(&speed, "clock-speed", 1, "match time against wall time; 0 stops the clock (tests draw a real-time game at a fixed moment)")
	_ = f.MarkHidden("clock-speed")
	root.AddCommand(cmd)
}

// localMatch sets up a match in this process against bots.
func localMatch(id string, sf *setupFlags, seat int, bots, name string, pace time.Duration, speed float64) (sterm.Conn, error) {
	g, err := findGame(id)
	if err != nil {
		return nil, err
	}
	if sf.seed == 0 {
		sf.seed = rand.Uint64()
	}
	setup, err := sf.setup(g)
	if err != nil {
		return nil, err
	}
	if seat < 0 || seat >= setup.Players {
		return nil, fmt.Errorf("--seat %d: this match has seats 0 to %d", seat, setup.Players-1)
	}
	if bots == "" {
		bots = "medium" // as a table in the lobby gets
	}
	pols, err := seatPolicies(g, bots, setup.Players)
	if err != nil {
		return nil, err
	}
	botNames := make([]string, setup.Players)
	for p := range botNames {
		botNames[p] = pols[p].Name()
	}
	return sterm.Local(sterm.LocalConfig{
		Game: g, Setup: setup, Seat: engine.Seat(seat), Name: name,
		Bots: pols, BotNames: botNames, Pace: pace, ClockSpeed: speed,
	})
}

// personName is the login name, for a seat at a server.
func personName() string {
	if u, err := user.Current(); err == nil && u.Username != "" && len(u.Username) <= 40 {
		return u.Username
	}
	return ""
}
