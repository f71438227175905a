package engine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Option is one entry of a game's option schema.
type Option struct {
	// Key is the option's stable name, as in "danger" or "mode".
	Key string `json:"key"`
	// Name and Help describe the option to players, by language.
	Name Text `json:"name"`
	Help Text `json:"help,omitempty"`
	// Kind is the type of the option's value.
	Kind OptionKind `json:"kind"`
	// Default is the value used when a setup does not give one, in text form.
	Default string `json:"default"`
	// Choices lists the allowed values of a [Choice] option.
	Choices []string `json:"choices,omitempty"`
	// Min and Max bound an [Int] option, inclusive.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
}

// OptionKind is the type of an option's value.
type OptionKind string

const (
	Bool   OptionKind = "bool"   // "true" or "false"
	Int    OptionKind = "int"    // a whole number between Min and Max
	Choice OptionKind = "choice" // one of Choices
	// String is free text of at most Max characters (0: 200), which the
	// game reads and checks itself in New (Room 25's custom room list).
	String OptionKind = "string"
)

// Options are the validated options of a match: every key of the schema with
// its value in text form. Build them with [Info.Check].
type Options map[string]string

// Bool returns the value of a [Bool] option.
func (o Options) Bool(key string) bool { return o[key] == "true" }

// Int returns the value of an [Int] option.
func (o Options) Int(key string) int {
	n, _ := strconv.Atoi(o[key])
	return n
}

// String returns the value of any option in text form.
func (o Options) String(key string) string { return o[key] }

// Check validates a setup against the game's player counts and option schema
// and returns the options with every default filled in. Its errors say what is
// wrong in words a player understands.
func (i Info) Check(s Setup) (Options, error) {
	if s.Players < i.MinPlayers || s.Players > i.MaxPlayers {
		return nil, fmt.Errorf("%s is played by %s, not %d", i.ID, playerRange(i.MinPlayers, i.MaxPlayers), s.Players)
	}
	out := make(Options, len(i.Options))
	for _, o := range i.Options {
		out[o.Key] = o.Default
	}
	keys := make([]string, 0, len(s.Options))
	for k := range s.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := s.Options[k]
		j := slices.IndexFunc(i.Options, func(o Option) bool { return o.Key == k })
		if j < 0 {
			return nil, fmt.Errorf("%s has no option %q (its options: %s)", i.ID, k, optionKeys(i.Options))
		}
		norm, err := i.Options[j].parse(v)
		if err != nil {
			return nil, fmt.Errorf("option %s: %v", k, err)
		}
		out[k] = norm
	}
	return out, nil
}

// parse checks one value and returns its normal text form.
func (o Option) parse(v string) (string, error) {
	switch o.Kind {
	case Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return "", fmt.Errorf("%q is not true or false", v)
		}
		return strconv.FormatBool(b), nil
	case Int:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return "", fmt.Errorf("%q is not a whole number", v)
		}
		if n < o.Min || n > o.Max {
			return "", fmt.Errorf("%d is not between %d and %d", n, o.Min, o.Max)
		}
		return strconv.Itoa(n), nil
	case Choice:
		if !slices.Contains(o.Choices, v) {
			return "", fmt.Errorf("%q is not one of %s", v, strings.Join(o.Choices, ", "))
		}
		return v, nil
	case String:
		v = strings.TrimSpace(v)
		limit := o.Max
		if limit <= 0 {
			limit = 200
		}
		if len(v) > limit {
			return "", fmt.Errorf("it is longer than %d characters", limit)
		}
		return v, nil
	}
	return "", fmt.Errorf("option kind %q is unknown", o.Kind)
}

// Values returns every value an option can take, in order: both booleans,
// each choice, or each whole number from Min to Max; a [String] option gives
// only its default. Tools use it to sweep over options.
func (o Option) Values() []string {
	switch o.Kind {
	case Bool:
		return []string{"false", "true"}
	case Choice:
		return slices.Clone(o.Choices)
	case Int:
		var vs []string
		for n := o.Min; n <= o.Max; n++ {
			vs = append(vs, strconv.Itoa(n))
		}
		return vs
	case String:
		return []string{o.Default}
	}
	return nil
}

func playerRange(lo, hi int) string {
	if lo == hi {
		return fmt.Sprintf("exactly %d players", lo)
	}
	return fmt.Sprintf("%d to %d players", lo, hi)
}

func optionKeys(os []Option) string {
	if len(os) == 0 {
		return "none"
	}
	ks := make([]string, len(os))
	for i, o := range os {
		ks[i] = o.Key
	}
	return strings.Join(ks, ", ")
}
