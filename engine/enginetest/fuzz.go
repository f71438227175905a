package enginetest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"

	"sortie/engine"
)

// Input is what a fuzzer tries against a game: bytes a client sent as an
// action of Seat, Wait match milliseconds after the state reached by Steps
// random records (legal actions, or time passing) from Setup. It is how
// the server's socket reaches a game: DecodeAction, then Apply at the match
// clock, after time has passed.
type Input struct {
	Setup engine.Setup
	Steps int
	Seat  engine.Seat
	Wait  engine.Millis
	Raw   []byte
}

// CheckInput is the fuzz oracle for actions from outside: whatever the bytes,
// the game must not panic; a refusal of DecodeAction or Apply is a
// *engine.RuleError with a code and a message, and a refused Apply leaves the
// state unchanged to the last byte; an action that decodes has a JSON form
// that decodes to itself (the form the log keeps), and, accepted, that form
// applied to a clone taken before gives the same state (the log replays). It
// returns the first broken promise, or nil (also when the game refuses the
// setup: no match is made of it).
func CheckInput(g engine.Game, in Input) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	s, err := g.New(in.Setup)
	if err != nil {
		return nil // not a setup of the game: no match is ever made of it
	}
	ru := &run{
		h: Harness{Game: g, Setups: []engine.Setup{in.Setup}}.withDefaults(true), setup: in.Setup, s: s, players: in.Setup.Players,
		r:     rand.New(rand.NewPCG(in.Setup.Seed, 0xf022)),
		realT: g.Info().Timing == engine.RealTime,
	}
	for range in.Steps {
		if _, over := ru.s.Outcome(); over {
			break
		}
		rec, err := ru.next()
		if err != nil {
			return fmt.Errorf("reaching the state: %v", err)
		}
		if _, err := engine.Play(ru.s, rec); err != nil {
			return fmt.Errorf("reaching the state: %s's legal action %s was refused: %v", rec.Seat, js(rec.Action), err)
		}
		ru.now = max(ru.now, rec.At)
	}
	a, err := g.DecodeAction(in.Raw)
	if err != nil {
		return ruleError("DecodeAction", err)
	}
	stored, err := engine.MarshalTyped(a)
	if err != nil {
		return fmt.Errorf("the decoded action %#v does not encode: %v", a, err)
	}
	back, err := g.DecodeAction(stored)
	if err != nil {
		return fmt.Errorf("the decoded action's own form %s does not decode: %v", stored, err)
	}
	if again, _ := engine.MarshalTyped(back); !bytes.Equal(again, stored) {
		return fmt.Errorf("the decoded action's own form %s decodes to %s", stored, again)
	}
	at := ru.now + max(in.Wait, 0)
	ru.s.Advance(at)
	before := dump(ru.s)
	replica := ru.s.Clone()
	if _, err := ru.s.Apply(in.Seat, a, at); err != nil {
		if err := ruleError("Apply", err); err != nil {
			return err
		}
		if after := dump(ru.s); after != before {
			return fmt.Errorf("%s by %s was refused (%v) but changed the state: %s", stored, in.Seat, err, diff(before, after))
		}
		return nil
	}
	if _, err := replica.Apply(in.Seat, back, at); err != nil {
		return fmt.Errorf("%s by %s was accepted, but its stored form was refused on a replica: %v", stored, in.Seat, err)
	}
	if a, b := dump(ru.s), dump(replica); a != b {
		return fmt.Errorf("%s by %s and its stored form give different states: %s", stored, in.Seat, diff(a, b))
	}
	return nil
}

// ruleError checks that err, a refusal of what, is a rule error with a code
// and a message.
func ruleError(what string, err error) error {
	var re *engine.RuleError
	switch {
	case !errors.As(err, &re):
		return fmt.Errorf("%s refused with %T, not a *engine.RuleError: %v", what, err, err)
	case re.Code == "" || re.Message == "":
		return fmt.Errorf("%s refused without a code or a message: %+v", what, re)
	}
	return nil
}

// SetupOf returns the setup numbered variant: a player count and a value of
// each option, every number giving a valid setup (numbers wrap around) and
// the first ones covering them all. Fuzzers choose setups with it, which
// AllSetups would list by the million for a game with many options.
func SetupOf(info engine.Info, variant uint64) engine.Setup {
	span := uint64(info.MaxPlayers - info.MinPlayers + 1)
	s := engine.Setup{Players: info.MinPlayers + int(variant%span), Options: map[string]string{}}
	variant /= span
	for _, o := range info.Options {
		vals := o.Values()
		if len(vals) == 0 {
			continue
		}
		s.Options[o.Key] = vals[variant%uint64(len(vals))]
		variant /= uint64(len(vals))
	}
	return s
}

// SeedInputs returns inputs to start fuzzing g from: the JSON of legal
// actions met along a random game from each setup (each with the state it
// was legal in), and a few of them mangled.
func SeedInputs(g engine.Game, setups []engine.Setup) []Input {
	info := g.Info()
	var out []Input
	for i, setup := range setups {
		if setup.Seed == 0 {
			setup.Seed = uint64(i + 1)
		}
		s, err := g.New(setup)
		if err != nil {
			continue
		}
		ru := &run{h: Harness{Game: g, Setups: []engine.Setup{setup}}.withDefaults(true), setup: setup, s: s, players: setup.Players,
			r: rand.New(rand.NewPCG(setup.Seed, 0xf022)), realT: info.Timing == engine.RealTime}
		// The game goes as CheckInput replays it; the picks have their own
		// source.
		pick := rand.New(rand.NewPCG(setup.Seed, 1))
		for step := 0; step < 400; step++ {
			if _, over := ru.s.Outcome(); over {
				break
			}
			if step%37 == 5 {
				for _, p := range ru.s.Actors() {
					if l := ru.s.Legal(p); len(l) > 0 {
						b, _ := engine.MarshalTyped(l[pick.IntN(len(l))])
						out = append(out, Input{Setup: setup, Steps: step, Seat: p, Raw: b})
						if m := mangled(b, pick); len(m) > 0 {
							out = append(out, Input{Setup: setup, Steps: step, Seat: p, Raw: m[0]})
						}
					}
				}
			}
			rec, err := ru.next()
			if err != nil {
				break
			}
			if _, err := engine.Play(ru.s, rec); err != nil {
				break
			}
			ru.now = max(ru.now, rec.At)
		}
	}
	return slices.Clip(out)
}
