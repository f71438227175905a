package jsonw

import "bytes"

// The skimming functions below find where a JSON value ends without decoding
// it, for the code that looks into JSON already checked or written by a
// peer: the server's patches of views it encoded itself, the cheap search of
// an action's "type" before the strict decoder reads it, the load clients'
// reading of the server's messages. They trust their input's shape: what
// they accept is not thereby valid JSON.

// SkipSpace returns the index of the first byte at or after b[i] that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// SkipString returns the index just past the string that starts at b[i] (a
// quote), or -1 when it does not end. A quote preceded by an odd number of
// backslashes is escaped.
func SkipString(b []byte, i int) int {
	// Most strings are short names: look at a few bytes first.
	for j := i + 1; j < len(b) && j <= i+16; j++ {
		switch b[j] {
		case '\\':
			return skipLongString(b, i)
		case '"':
			return j + 1
		}
	}
	return skipLongString(b, i)
}

// skipLongString is SkipString by jumps from quote to quote (IndexByte is
// vectorized).
func skipLongString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		slashes := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			slashes++
		}
		if slashes%2 == 0 {
			return j + 1
		}
		j++
	}
	return -1
}

// structural marks the bytes SkipValue must look at inside an object or an
// array: quotes and brackets.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// SkipValue returns the index just past the value that starts at b[i], or -1
// when a string, an object or an array there does not end. Any other value (a
// number, true, false, null) runs to the next comma, closing bracket or
// white space, or to the end of b.
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			c := b[j]
			if !structural[c] {
				continue
			}
			switch c {
			case '"':
				k := SkipString(b, j)
				if k < 0 {
					return -1
				}
				j = k - 1
			case '{', '[':
				depth++
			default: // '}', ']'
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) && !scalarEnd[b[j]] {
			j++
		}
		return j
	}
}

// scalarEnd marks the bytes that end a number, true, false or null.
var scalarEnd = [256]bool{',': true, '}': true, ']': true, ' ': true, '\n': true, '\r': true, '\t': true}
