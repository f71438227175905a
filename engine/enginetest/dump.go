package enginetest

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// dump writes a complete, deterministic text form of a value, unexported
// fields included: two states are the same state when their dumps are equal.
// Nil and empty slices and maps are written alike; map entries are sorted.
func dump(v any) string {
	var b strings.Builder
	d := dumper{b: &b, seen: map[uintptr]int{}}
	d.value(reflect.ValueOf(v), 0)
	return b.String()
}

type dumper struct {
	b    *strings.Builder
	seen map[uintptr]int // pointers on the current path, to stop on cycles
}

func (d dumper) value(v reflect.Value, depth int) {
	if depth > 64 {
		d.b.WriteString("<too deep>")
		return
	}
	if !v.IsValid() {
		d.b.WriteString("nil")
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		d.b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		d.b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Complex64, reflect.Complex128:
		fmt.Fprint(d.b, v.Complex())
	case reflect.String:
		d.b.WriteString(strconv.Quote(v.String()))
	case reflect.Pointer:
		if v.IsNil() {
			d.b.WriteString("nil")
			return
		}
		p := v.Pointer()
		if d.seen[p] > 0 {
			d.b.WriteString("<cycle>")
			return
		}
		d.seen[p]++
		d.b.WriteByte('&')
		d.value(v.Elem(), depth+1)
		d.seen[p]--
	case reflect.Interface:
		if v.IsNil() {
			d.b.WriteString("nil")
			return
		}
		d.b.WriteString(v.Elem().Type().String())
		d.b.WriteByte('(')
		d.value(v.Elem(), depth+1)
		d.b.WriteByte(')')
	case reflect.Struct:
		t := v.Type()
		d.b.WriteByte('{')
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				d.b.WriteByte(' ')
			}
			d.b.WriteString(t.Field(i).Name)
			d.b.WriteByte(':')
			d.value(v.Field(i), depth+1)
		}
		d.b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		d.b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				d.b.WriteByte(' ')
			}
			d.value(v.Index(i), depth+1)
		}
		d.b.WriteByte(']')
	case reflect.Map:
		entries := make([]string, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			var e strings.Builder
			ed := dumper{b: &e, seen: d.seen}
			ed.value(it.Key(), depth+1)
			e.WriteString(": ")
			ed.value(it.Value(), depth+1)
			entries = append(entries, e.String())
		}
		sort.Strings(entries)
		d.b.WriteString("map[")
		d.b.WriteString(strings.Join(entries, ", "))
		d.b.WriteByte(']')
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		// A state holds plain data; a function or channel in it cannot be
		// compared or cloned, so the dump makes it visible.
		fmt.Fprintf(d.b, "<%s>", v.Kind())
	}
}

// diff returns a short description of where two dumps first differ.
func diff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("first difference at byte %d:\n  before: …%s…\n  after:  …%s…", i, clip(a, from, i+80), clip(b, from, i+80))
}

func clip(s string, from, to int) string {
	if from > len(s) {
		return ""
	}
	return s[from:min(to, len(s))]
}
