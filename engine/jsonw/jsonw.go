// Package jsonw appends JSON values to a byte slice exactly as encoding/json's
// Marshal writes them (same escaping, same number forms), for the views that
// encode themselves without reflection (see engine.JSONAppender): a view's
// AppendJSON written with these helpers must give the same bytes as
// json.Marshal of the view, which the engine's conformance suite checks.
//
// It also skims JSON without decoding it (SkipSpace, SkipString, SkipValue):
// where a value ends, for the code that looks into JSON it trusts the shape
// of, such as the server's patches of the views it encoded.
package jsonw

import (
	"math"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// String appends s as a JSON string, escaped as encoding/json escapes it:
// control characters, quotes and backslashes, the HTML-sensitive <, > and &,
// U+2028 and U+2029, and invalid UTF-8 as U+FFFD.
func String(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Key appends "key": — for keys that need no escaping (Go field tags).
func Key(dst []byte, key string) []byte {
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

// Int appends an integer.
func Int[T ~int | ~int8 | ~int16 | ~int32 | ~int64](dst []byte, n T) []byte {
	return strconv.AppendInt(dst, int64(n), 10)
}

// Uint appends an unsigned integer.
func Uint[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](dst []byte, n T) []byte {
	return strconv.AppendUint(dst, uint64(n), 10)
}

// Bool appends true or false.
func Bool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }

// Float appends a float64 as encoding/json does (ES6 number form). NaN and
// infinities, which encoding/json refuses, are written as null.
func Float(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// Comma appends a comma unless dst ends with the opening of an object or an
// array: a list's items call it before each one.
func Comma(dst []byte) []byte {
	if n := len(dst); n > 0 && dst[n-1] != '{' && dst[n-1] != '[' {
		dst = append(dst, ',')
	}
	return dst
}

// Strings appends a []string as encoding/json does (null when nil).
func Strings(dst []byte, ss []string) []byte {
	if ss == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = String(dst, s)
	}
	return append(dst, ']')
}

// Ints appends a slice of integers as encoding/json does (null when nil).
func Ints[T ~int | ~int8 | ~int16 | ~int32 | ~int64](dst []byte, ns []T) []byte {
	if ns == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, n := range ns {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return append(dst, ']')
}

// List appends a slice whose items append themselves with item, as
// encoding/json does (null when nil).
func List[T any](dst []byte, items []T, item func(dst []byte, v *T) []byte) []byte {
	if items == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = item(dst, &items[i])
	}
	return append(dst, ']')
}
