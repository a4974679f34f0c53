package source

import (
	"bytes"
	"strconv"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Scalar is a string value of a Document together with where its text was
// written, so that a position inside the decoded value (a column in a CEL
// expression, a line of an embedded template) maps back to the file. It
// understands every scalar style: plain, single- and double-quoted (with
// escapes), literal | and folded > blocks (with chomping and indentation
// indicators).
type Scalar struct {
	file      string
	src       []byte // the whole file; nil when unknown
	value     string
	style     yaml.Style
	line, col int // where the node starts: the first character, the opening quote or the block indicator
	parentCol int // column of the key (or sequence entry) holding the value; 0 when unknown

	// The characters of the text, read once, and where the last PosAtOffset
	// left the alignment, so that positions asked for in increasing order
	// (a template's placeholders, one after the other) cost one pass over
	// the value in all, not one each: 2,000 placeholders in one 60 KB
	// template took seconds.
	mu    sync.Mutex
	toks  []token
	read  bool
	align alignment
}

// alignment is the state of the walk that matches a value's runes with the
// tokens of its text: n runes matched (ending at byte b of the value), the
// next token i, the position of the last match; stuck when rune n matched no
// token (every later offset maps to last).
type alignment struct {
	i, n, b int
	last    Pos
	stuck   bool
	valid   bool
}

// Scalar returns the scalar at path (keys and indexes, as for Pos), or nil
// when there is none.
func (d *Document) Scalar(path ...any) *Scalar {
	if d == nil || d.root == nil {
		return nil
	}
	var at *yaml.Node
	n := d.root
	for _, step := range path {
		n = deref(n, 0)
		var next *yaml.Node
		switch s := step.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				at, next = lookupKey(n, s, 0)
			}
		case int:
			if n.Kind == yaml.SequenceNode && s >= 0 && s < len(n.Content) {
				at, next = nil, n.Content[s]
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	if n.Kind != yaml.ScalarNode {
		return nil // an alias is positioned at its anchor: no text of its own to map
	}
	s := &Scalar{file: d.File, src: d.src, value: n.Value, style: n.Style &^ yaml.TaggedStyle, line: n.Line, col: n.Column}
	if at != nil {
		s.parentCol = at.Column
	}
	return s
}

// Value returns the decoded text.
func (s *Scalar) Value() string { return s.value }

// Pos returns where the scalar starts.
func (s *Scalar) Pos() Pos { return Pos{File: s.file, Line: s.line, Col: s.col} }

// PosAt maps a position inside the decoded value (line and column 1-based,
// columns in code points) to the file. A position the text does not reach
// maps to the nearest one it does; without the file's text only positions
// on the first line of a plain scalar are exact.
func (s *Scalar) PosAt(line, col int) Pos {
	return s.PosAtOffset(runeOffset(s.value, line, col))
}

// PosAtOffset maps a rune offset into the decoded value to the file.
func (s *Scalar) PosAtOffset(offset int) Pos {
	if s == nil {
		return Pos{}
	}
	start := s.Pos()
	offset = max(offset, 0)
	if s.src == nil {
		if s.style == 0 && !containsNewline(s.value) {
			start.Col += min(offset, utf8.RuneCountInString(s.value))
		}
		return start
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.read {
		s.toks, s.read = s.tokens(), true
	}
	toks := s.toks
	if len(toks) == 0 {
		return start
	}
	// Align the value with the tokens: each value rune is the next token
	// equal to it, after skipping what the style lets the text leave out
	// (indentation, folded line breaks, quotes doubled as escapes). The
	// walk goes on from where the last call left it when it can.
	a := alignment{last: Pos{File: s.file, Line: toks[0].line, Col: toks[0].col}, valid: true}
	if s.align.valid && offset >= s.align.n {
		a = s.align
	}
	for !a.stuck && a.b < len(s.value) {
		v, size := utf8.DecodeRuneInString(s.value[a.b:])
		matched := false
		for a.i < len(toks) {
			t := toks[a.i]
			if t.r == v || (v == ' ' || keptBreak(v)) && t.r == '\n' && !t.escaped {
				matched = true
				break
			}
			if !s.skippable(t) {
				break
			}
			a.i++
		}
		if !matched {
			a.stuck = true
			break
		}
		a.last = Pos{File: s.file, Line: toks[a.i].line, Col: toks[a.i].col}
		a.i++
		a.n++
		a.b += size
		if a.n-1 == offset {
			s.align = a
			return a.last
		}
	}
	s.align = a
	if a.stuck {
		return a.last
	}
	// Past the end: just after the last character.
	last := a.last
	last.Col++
	return last
}

// keptBreak reports whether r is a line break YAML keeps in a value as
// written (LS and PS are not folded; yamlLines wrote them as "\n").
func keptBreak(r rune) bool { return r == '\u2028' || r == '\u2029' }

// skippable reports whether the text may hold t without the value having it.
func (s *Scalar) skippable(t token) bool {
	if t.escaped {
		return false
	}
	switch t.r {
	case ' ', '\t', '\n', '\r':
		return true
	case '\'':
		return s.style == yaml.SingleQuotedStyle
	}
	return false
}

// token is one character of the scalar's text as written, or the character
// an escape sequence stands for (escaped), with its position.
type token struct {
	r         rune
	line, col int
	escaped   bool
}

// tokens lists the characters of the scalar's text from its start to the
// end of its node, leaving out a block scalar's header and indentation and
// decoding double-quoted escapes.
func (s *Scalar) tokens() []token {
	off, ok := byteOffset(s.src, s.line, s.col)
	if !ok {
		return nil
	}
	c := &cursor{src: s.src[off:], line: s.line, col: s.col}
	c.skipProperties()
	switch s.style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		return c.block(s.blockIndent(c.src))
	case yaml.DoubleQuotedStyle:
		return c.doubleQuoted()
	case yaml.SingleQuotedStyle:
		return c.singleQuoted()
	}
	return c.plain()
}

// cursor reads a scalar's source a character at a time, keeping its
// position.
type cursor struct {
	src       []byte
	line, col int
	out       []token
}

// next reads one character; ok is false at the end.
func (c *cursor) next() (rune, bool) {
	if len(c.src) == 0 {
		return 0, false
	}
	r, size := utf8.DecodeRune(c.src)
	c.src = c.src[size:]
	if r == '\n' {
		c.line, c.col = c.line+1, 1
	} else {
		c.col++
	}
	return r, true
}

// emit records a character read at line, col.
func (c *cursor) emit(r rune, line, col int, escaped bool) {
	c.out = append(c.out, token{r: r, line: line, col: col, escaped: escaped})
}

// skipProperties skips node properties (a tag, an anchor), which come
// before the content; no scalar's content starts with ! or &.
func (c *cursor) skipProperties() {
	space := func(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
	for len(c.src) > 0 && (c.src[0] == '!' || c.src[0] == '&') {
		for len(c.src) > 0 && !space(c.src[0]) {
			c.next()
		}
		for len(c.src) > 0 && space(c.src[0]) {
			c.next()
		}
	}
}

// block reads a literal or folded block scalar: its header line is left
// out, and so is each line's indentation up to indent; a less indented
// line that is not blank ends it.
func (c *cursor) block(indent int) []token {
	for { // the header line
		r, ok := c.next()
		if !ok || r == '\n' {
			break
		}
	}
	for len(c.src) > 0 {
		spaces := 0
		for spaces < len(c.src) && c.src[spaces] == ' ' {
			spaces++
		}
		blank := spaces == len(c.src) || c.src[spaces] == '\n' || c.src[spaces] == '\r'
		if !blank && spaces < indent {
			break // a less indented line ends the block
		}
		for range min(spaces, indent) {
			c.next()
		}
		for len(c.src) > 0 {
			l, col := c.line, c.col
			r, _ := c.next()
			c.emit(r, l, col, false)
			if r == '\n' {
				break
			}
		}
	}
	return c.out
}

// doubleQuoted reads a "..." scalar, decoding its escapes.
func (c *cursor) doubleQuoted() []token {
	c.next() // the opening quote
	for {
		l, col := c.line, c.col
		r, ok := c.next()
		if !ok || r == '"' {
			return c.out
		}
		if r != '\\' {
			c.emit(r, l, col, false)
			continue
		}
		if !c.escape(l, col) {
			return c.out
		}
	}
}

// escape decodes the escape sequence after a backslash read at line, col;
// it is false at the end of the source.
func (c *cursor) escape(line, col int) bool {
	e, ok := c.next()
	if !ok {
		return false
	}
	switch e {
	case '\n': // an escaped line break: nothing
	case 'x', 'u', 'U':
		width := map[rune]int{'x': 2, 'u': 4, 'U': 8}[e]
		hex := make([]rune, 0, width)
		for range width {
			h, ok := c.next()
			if !ok {
				break
			}
			hex = append(hex, h)
		}
		if v, err := strconv.ParseUint(string(hex), 16, 32); err == nil {
			c.emit(rune(v), line, col, true)
		}
	default:
		c.emit(unescape(e), line, col, true)
	}
	return true
}

// singleQuoted reads a '...' scalar, where ” is a quote.
func (c *cursor) singleQuoted() []token {
	c.next() // the opening quote
	for {
		l, col := c.line, c.col
		r, ok := c.next()
		if !ok {
			return c.out
		}
		if r == '\'' {
			if len(c.src) == 0 || c.src[0] != '\'' {
				return c.out
			}
			c.next()
			c.emit('\'', l, col, true)
			continue
		}
		c.emit(r, l, col, false)
	}
}

// plain reads a plain scalar to the end of its node.
func (c *cursor) plain() []token {
	for {
		l, col := c.line, c.col
		r, ok := c.next()
		if !ok {
			return c.out
		}
		c.emit(r, l, col, false)
	}
}

// blockIndent is the content indentation of a block scalar whose header
// starts src: parentCol-1 plus the explicit indentation indicator, else
// the indentation of the first non-empty content line.
func (s *Scalar) blockIndent(src []byte) int {
	i := 0
	for i < len(src) && src[i] != '\n' {
		if c := src[i]; c >= '1' && c <= '9' && s.parentCol > 0 {
			return s.parentCol - 1 + int(c-'0')
		}
		if src[i] == '#' {
			break
		}
		i++
	}
	for i < len(src) && src[i] != '\n' {
		i++
	}
	// The first non-empty line after the header.
	for i < len(src) {
		i++ // the line break
		n := 0
		for i+n < len(src) && src[i+n] == ' ' {
			n++
		}
		if i+n < len(src) && src[i+n] != '\n' && src[i+n] != '\r' {
			return n
		}
		i += n
	}
	return 0
}

// unescape decodes the one-character escapes of double-quoted YAML.
func unescape(e rune) rune {
	switch e {
	case '0':
		return 0
	case 'a':
		return '\a'
	case 'b':
		return '\b'
	case 't', '\t':
		return '\t'
	case 'n':
		return '\n'
	case 'v':
		return '\v'
	case 'f':
		return '\f'
	case 'r':
		return '\r'
	case 'e':
		return 0x1b
	case 'N':
		return 0x85
	case '_':
		return 0xa0
	case 'L':
		return 0x2028
	case 'P':
		return 0x2029
	}
	return e // ' ', '"', '/', '\\'
}

// byteOffset finds the byte offset of a 1-based line and column (columns in
// code points).
func byteOffset(src []byte, line, col int) (int, bool) {
	off := 0
	for l := 1; l < line; l++ {
		i := indexByte(src[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(src) || src[off] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off, true
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// yamlLines returns src with every line break YAML counts ("\r\n", a
// lone "\r", NEL, LS and PS, as go.yaml.in/yaml/v3 does when it numbers
// lines) written as "\n", so that lines and columns found by counting
// "\n" are the parser's. src itself is returned when it holds no other
// break; columns are unchanged, since a break only ever ends a line.
func yamlLines(src []byte) []byte {
	if !bytes.ContainsAny(src, "\r\u0085\u2028\u2029") {
		return src
	}
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); {
		switch {
		case src[i] == '\r':
			out = append(out, '\n')
			i++
			if i < len(src) && src[i] == '\n' {
				i++
			}
		case bytes.HasPrefix(src[i:], []byte("\u0085")):
			out = append(out, '\n')
			i += 2
		case bytes.HasPrefix(src[i:], []byte("\u2028")), bytes.HasPrefix(src[i:], []byte("\u2029")):
			out = append(out, '\n')
			i += 3
		default:
			out = append(out, src[i])
			i++
		}
	}
	return out
}

// runeOffset converts a 1-based line and column in text to a rune offset.
func runeOffset(text string, line, col int) int {
	l, n := 1, 0
	for _, r := range text {
		if l >= line {
			break
		}
		n++
		if r == '\n' {
			l++
		}
	}
	return n + max(col, 1) - 1
}

func containsNewline(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return true
		}
	}
	return false
}
