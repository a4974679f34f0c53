package source

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/genplay/genplay/engine/resource"
)

// The fast emitter writes JSON-shaped values straight into a byte slice,
// byte for byte as the yaml.v3 encoder configured by Marshal would (block
// style, two-space indent, no line folding, sorted keys). It covers what
// Kubernetes objects contain; for anything it does not model exactly
// (control characters, characters outside the BMP, CR and Unicode line
// separators, keys longer than 128 bytes, integers beyond ±1e18, scalar
// roots, non-JSON types) it reports !ok and Marshal takes the yaml.v3 path
// for the whole value. FuzzMarshalMatchesYAMLv3 holds the two together.

// scalarStyle is the presentation Marshal asks yaml.v3 for a string.
type scalarStyle uint8

const (
	styleAny scalarStyle = iota
	styleLiteral
	styleDoubleQuoted
)

// requestedStyle is the style toNode gives a string scalar: literal for
// multi-line text that can round-trip as a block, double quotes for
// strings a YAML 1.1 reader would resolve to something else.
func requestedStyle(s string) scalarStyle {
	if strings.Contains(strings.TrimRight(s, "\n"), "\n") && !strings.ContainsAny(s, "\r\t") && !hasTrailingSpace(s) {
		return styleLiteral
	}
	if resolve11Tag(s) != tagStr || needsQuote(s) {
		return styleDoubleQuoted
	}
	return styleAny
}

// fastMaxInt bounds the integers written plainly; larger ones may carry an
// explicit !!int tag in yaml.v3's output.
const fastMaxInt = 1e18

// maxSimpleKey is yaml.v3's limit for a key written as `key: value`.
const maxSimpleKey = 128

type fastEmitter struct {
	buf   []byte
	limit int  // the most bytes buf may hold (0: no limit)
	over  bool // the output passed limit: the emitter stopped
}

// full reports (and remembers) that the output has passed its limit.
func (e *fastEmitter) full() bool {
	if e.limit > 0 && len(e.buf) > e.limit {
		e.over = true
	}
	return e.over
}

// appendFastLimit is appendFast that stops once buf holds more than limit
// bytes (0: no limit), reporting over.
func appendFastLimit(buf []byte, v any, limit int) (out []byte, ok, over bool) {
	e := fastEmitter{buf: buf, limit: limit}
	switch t := v.(type) {
	case map[string]any:
		ok = e.rootMap(t)
	case resource.Object:
		ok = e.rootMap(t)
	case []any:
		if len(t) == 0 {
			e.buf = append(e.buf, "[]\n"...)
			ok = true
		} else {
			ok = e.seq(t, 0, false, 0)
		}
	}
	return e.buf, ok && !e.over, e.over
}

func (e *fastEmitter) rootMap(m map[string]any) bool {
	if len(m) == 0 {
		e.buf = append(e.buf, "{}\n"...)
		return true
	}
	return e.mapping(m, 0, false, 0)
}

func (e *fastEmitter) indent(n int) {
	for ; n > 0; n-- {
		e.buf = append(e.buf, ' ')
	}
}

// mapping writes the entries of a non-empty map at column indent; inline
// means the first key continues a "- " already written.
func (e *fastEmitter) mapping(m map[string]any, indent int, inline bool, depth int) bool {
	if depth > 10*MaxDepth {
		return false
	}
	var small [16]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if e.full() {
			return false
		}
		if i > 0 || !inline {
			e.indent(indent)
		}
		if !e.key(k) {
			return false
		}
		e.buf = append(e.buf, ':')
		if !e.value(m[k], indent, depth+1) {
			return false
		}
	}
	return true
}

// seq writes the items of a non-empty list with their "-" at column indent.
func (e *fastEmitter) seq(l []any, indent int, inline bool, depth int) bool {
	if depth > 10*MaxDepth {
		return false
	}
	for i, item := range l {
		if e.full() {
			return false
		}
		if i > 0 || !inline {
			e.indent(indent)
		}
		e.buf = append(e.buf, '-')
		if !e.value(item, indent, depth+1) {
			return false
		}
	}
	return true
}

// value writes what follows "key:" or "-" of a container at column
// indent, through the end of its last line.
func (e *fastEmitter) value(v any, indent int, depth int) bool {
	switch t := v.(type) {
	case resource.Object:
		return e.value(map[string]any(t), indent, depth)
	case map[string]any:
		if len(t) == 0 {
			e.buf = append(e.buf, " {}\n"...)
			return true
		}
		if e.afterDash() {
			e.buf = append(e.buf, ' ')
			return e.mapping(t, indent+2, true, depth)
		}
		e.buf = append(e.buf, '\n')
		return e.mapping(t, indent+2, false, depth)
	case []any:
		if len(t) == 0 {
			e.buf = append(e.buf, " []\n"...)
			return true
		}
		if e.afterDash() {
			e.buf = append(e.buf, ' ')
			return e.seq(t, indent+2, true, depth)
		}
		e.buf = append(e.buf, '\n')
		return e.seq(t, indent+2, false, depth)
	}
	e.buf = append(e.buf, ' ')
	if !e.scalar(v, indent+2) {
		return false
	}
	if e.buf[len(e.buf)-1] != '\n' {
		e.buf = append(e.buf, '\n')
	}
	return true
}

func (e *fastEmitter) afterDash() bool {
	return e.buf[len(e.buf)-1] == '-'
}

func (e *fastEmitter) key(k string) bool {
	if len(k) > maxSimpleKey || strings.Contains(k, "\n") {
		return false // yaml.v3 writes a complex "? key" entry
	}
	return e.str(k, 0)
}

// scalar writes a non-container value; block text lines go at column
// indent.
func (e *fastEmitter) scalar(v any, indent int) bool {
	switch t := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, t)
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return false
		}
		if t == math.Trunc(t) {
			if math.Abs(t) >= fastMaxInt {
				return false
			}
			e.buf = strconv.AppendFloat(e.buf, t, 'f', -1, 64)
		} else {
			e.buf = strconv.AppendFloat(e.buf, t, 'g', -1, 64)
		}
	case string:
		return e.str(t, indent)
	default:
		return false
	}
	return true
}

// scalarInfo is yaml.v3's analysis of a scalar (emitterc.go
// yaml_emitter_analyze_scalar), for the characters the fast path accepts.
type scalarInfo struct {
	plainAllowed  bool // block context
	singleAllowed bool
	blockAllowed  bool
}

// str writes a string scalar; indent is the column of block text lines
// (0 for keys, which never hold line breaks).
func (e *fastEmitter) str(s string, indent int) bool {
	if e.limit > 0 && len(e.buf)+len(s) > e.limit {
		e.over = true // it would not fit whatever its style
		return false
	}
	info, ok := analyze(s)
	if !ok {
		return false
	}
	style := requestedStyle(s)
	if style == styleAny {
		switch {
		case strings.Contains(s, "\n"):
			style = styleLiteral
		case v3ResolvesNonString(s):
			style = styleDoubleQuoted
		}
	}
	if style == styleLiteral && !info.blockAllowed {
		style = styleDoubleQuoted
	}
	switch style {
	case styleLiteral:
		e.literal(s, indent)
	case styleDoubleQuoted:
		e.doubleQuoted(s)
	default:
		switch {
		case info.plainAllowed:
			e.buf = append(e.buf, s...)
		case info.singleAllowed:
			e.singleQuoted(s)
		default:
			e.doubleQuoted(s)
		}
	}
	return true
}

// analyze classifies s as yaml.v3 does, or reports !ok for characters the
// fast path leaves to yaml.v3 (anything yaml.v3 would escape other than a
// tab or a line feed, and the CR/NEL/LS/PS line breaks).
func analyze(s string) (scalarInfo, bool) {
	if s == "" {
		return scalarInfo{plainAllowed: true, singleAllowed: true}, true
	}
	var (
		indicators                            bool
		lineBreaks, tabs                      bool
		leadingSpace, leadingBreak            bool
		trailingSpace, trailingBreak          bool
		breakSpace, spaceBreak                bool
		prevSpace, prevBreak, precededByBlank = false, false, true
	)
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		indicators = true
	}
	for i := 0; i < len(s); {
		c := s[i]
		w := 1
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if !printableRune(r, size) {
				return scalarInfo{}, false
			}
			w = size
		} else if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return scalarInfo{}, false
		}
		followedByBlank := i+w >= len(s) || s[i+w] == ' ' || s[i+w] == '\t'
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				indicators = true
			case '?', ':', '-':
				if followedByBlank {
					indicators = true
				}
			}
		} else {
			switch c {
			case ':':
				if followedByBlank {
					indicators = true
				}
			case '#':
				if precededByBlank {
					indicators = true
				}
			}
		}
		switch c {
		case '\t':
			tabs = true
			prevSpace, prevBreak = false, false
		case ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i+1 == len(s) {
				trailingSpace = true
			}
			if prevBreak {
				breakSpace = true
			}
			prevSpace, prevBreak = true, false
		case '\n':
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+1 == len(s) {
				trailingBreak = true
			}
			if prevSpace {
				spaceBreak = true
			}
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		precededByBlank = c == ' ' || c == '\t' || c == '\n'
		i += w
	}
	info := scalarInfo{plainAllowed: true, singleAllowed: true, blockAllowed: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || tabs || indicators {
		info.plainAllowed = false
	}
	if breakSpace || spaceBreak || tabs {
		info.singleAllowed = false
	}
	if trailingSpace || spaceBreak {
		info.blockAllowed = false
	}
	return info, true
}

// printableRune reports non-ASCII runes yaml.v3 writes unescaped and that
// are not line breaks: U+00A0..U+FFFD without surrogates, the BOM, U+2028
// and U+2029 (yamlprivateh.go is_printable, is_break).
func printableRune(r rune, size int) bool {
	if r == utf8.RuneError && size <= 1 {
		return false // invalid UTF-8: yaml.v3 refuses it
	}
	switch {
	case r < 0xA0, r > 0xFFFD, r == 0xFEFF, r == 0x2028, r == 0x2029:
		return false
	}
	return true
}

func (e *fastEmitter) singleQuoted(s string) {
	e.buf = append(e.buf, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			e.buf = append(e.buf, '\'')
		}
		e.buf = append(e.buf, s[i])
	}
	e.buf = append(e.buf, '\'')
}

func (e *fastEmitter) doubleQuoted(s string) {
	e.buf = append(e.buf, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			e.buf = append(e.buf, '\\', c)
		case '\n':
			e.buf = append(e.buf, '\\', 'n')
		case '\t':
			e.buf = append(e.buf, '\\', 't')
		default:
			e.buf = append(e.buf, c)
		}
	}
	e.buf = append(e.buf, '"')
}

// literal writes a "|" block scalar whose lines start at column indent.
func (e *fastEmitter) literal(s string, indent int) {
	e.buf = append(e.buf, '|')
	if s[0] == ' ' || s[0] == '\n' {
		e.buf = append(e.buf, '2')
	}
	switch {
	case s[len(s)-1] != '\n':
		e.buf = append(e.buf, '-')
	case len(s) == 1 || s[len(s)-2] == '\n':
		e.buf = append(e.buf, '+')
	}
	e.buf = append(e.buf, '\n')
	lineStart := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			e.buf = append(e.buf, '\n')
			lineStart = true
			continue
		}
		if lineStart {
			if e.full() {
				return // every line indented again: checked line by line
			}
			e.indent(indent)
			lineStart = false
		}
		e.buf = append(e.buf, c)
	}
}

// v3ResolvesNonString reports plain scalars yaml.v3's own resolver reads as
// something other than a string (resolve.go resolve with no tag), which it
// then double-quotes: YAML 1.2 booleans and nulls, numbers in its
// notations, and timestamps.
func v3ResolvesNonString(s string) bool {
	if s == "" {
		return true
	}
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "~", "null", "Null", "NULL",
		".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<":
		return true
	}
	c := s[0]
	switch {
	case c == '.':
		_, err := strconv.ParseFloat(s, 64)
		return err == nil
	case c == '+' || c == '-' || c >= '0' && c <= '9':
	default:
		return false
	}
	if v3Timestamp(s) {
		return true
	}
	if !mayBeNumber(s) {
		return false
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if yamlStyleFloat.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	for _, p := range []struct {
		prefix string
		base   int
	}{{"0b", 2}, {"0o", 8}} {
		if rest, ok := strings.CutPrefix(plain, p.prefix); ok {
			if _, err := strconv.ParseInt(rest, p.base, 64); err == nil {
				return true
			}
			if _, err := strconv.ParseUint(rest, p.base, 64); err == nil {
				return true
			}
		} else if rest, ok := strings.CutPrefix(plain, "-"+p.prefix); ok {
			if _, err := strconv.ParseInt("-"+rest, p.base, 64); err == nil {
				return true
			}
		}
	}
	return false
}

var v3TimestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// v3Timestamp reports strings yaml.v3 resolves as !!timestamp: four digits,
// a dash, then one of its time.Parse layouts.
func v3Timestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range v3TimestampFormats {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// mayBeNumber is false for strings none of the number parsers used on
// scalars can accept (strconv.ParseInt/ParseUint with base 0, 2 or 8 after
// a 0b/0o prefix, strconv.ParseFloat including hex floats, inf and nan, all
// after removing underscores), so callers skip the parse and the error it
// allocates. It only looks at the alphabet and where signs stand: at the
// start, after an exponent letter, or after a 0b/0o prefix.
func mayBeNumber(s string) bool {
	var prev, prev2 byte
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			continue
		}
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F', c == '.':
		case c == 'x', c == 'X', c == 'o', c == 'O', c == 'p', c == 'P':
		case c == 'i', c == 'I', c == 'n', c == 'N', c == 't', c == 'T', c == 'y', c == 'Y':
		case c == '+', c == '-':
			switch {
			case n == 0:
			case prev == 'e', prev == 'E', prev == 'p', prev == 'P':
			case n == 2 && prev2 == '0' && (prev == 'b' || prev == 'o'):
			default:
				return false
			}
		default:
			return false
		}
		prev2, prev = prev, c
		n++
	}
	return true
}
