package main

import (
	"fmt"
	"strings"
	"unicode"
)

// printable makes user text safe to print on a terminal: C0 and C1
// control characters (ESC, BEL, CR, backspace, ...), DEL, and the Unicode
// bidirectional and zero-width formatting characters (U+202E and friends,
// which reorder what a reader sees) are written as Go escapes (\x1b,
// \u202e). Newlines are escaped too, unless keepNewlines: a message that
// spans lines must not forge a line of genplay's own. It is the one place
// genplay's text output escapes: `genplay run` and `genplay test` both
// print user text (test, step and rule names, scripts, error messages)
// through it.
func printable(s string, keepNewlines bool) string {
	if strings.IndexFunc(s, func(r rune) bool { return unsafeRune(r, keepNewlines) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unsafeRune(r, keepNewlines):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func unsafeRune(r rune, keepNewlines bool) bool {
	switch {
	case r == '\n':
		return !keepNewlines
	case r == '\t':
		return false
	case r == unicode.ReplacementChar:
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidirectional formatting
	case r == 0x200b, r == 0x200c, r == 0x200d, r == 0x2060, r == 0xfeff:
		return true // zero-width
	}
	return false
}
