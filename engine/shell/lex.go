package shell

import (
	"fmt"
	"regexp"
	"strings"
)

// A small lexer for the POSIX shell that chainsaw scripts are written in.
// It knows words, quotes, escapes, variables, comments, heredocs and the
// operators | || && ; & ( ) and redirections; anything more (command
// substitution, globbing of words, arithmetic) is reported as unsupported.

type tokKind int

const (
	tWord     tokKind = iota
	tOp               // | || && ; & ( ) \n
	tRedirect         // > >> < 2> 2>&1 &> ... (text is the operator, target is the next word)
	tHeredoc          // << or <<- ; text is the content
)

type token struct {
	kind tokKind
	text string
	// parts is set for a word whose value is known only when it runs: it
	// holds a script variable or a command substitution. text is then the
	// word with each such part as "x", for checks made before running.
	parts      Word
	line       int
	start, end int // byte offsets in the source
}

// Word is a word of a script whose value is known only when it runs: its
// parts concatenated, unquoted variables and substitutions split into
// fields as sh splits them.
type Word []WordPart

// WordPart is a literal, a variable ($NAME, ${NAME}, and $? for the last
// status) or a command substitution ($(...)); Quoted parts are not split
// into fields.
type WordPart struct {
	Lit    string
	Var    string
	Sub    List
	Quoted bool
}

// shellNames tracks the variables a script sets and reads, across its
// command substitutions, so a variable it never sets is reported.
type shellNames struct {
	set  map[string]bool
	read map[string]int // name: first line
	// depth is how deep in command substitutions the lexer is.
	depth int
}

func (n *shellNames) reads(name string, line int) {
	if _, ok := n.read[name]; !ok {
		n.read[name] = line
	}
}

type lexer struct {
	src      string
	i        int
	line     int
	env      map[string]string
	names    *shellNames
	toks     []token
	heredocs []heredocReq // waiting for the end of the line
}

type heredocReq struct {
	tok    int // index of the tHeredoc token
	delim  string
	strip  bool // <<-
	expand bool // unquoted delimiter: $VAR expands
}

func lex(src string, env map[string]string, line int, names *shellNames) ([]token, error) {
	l := &lexer{src: src, line: line, env: env, names: names}
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.i++
		case c == '\\' && l.peek(1) == '\n':
			l.i += 2
			l.line++
		case c == '#':
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case c == '\n':
			l.emit(tOp, "\n", l.i, l.i+1)
			l.i++
			l.line++
			if err := l.readHeredocs(); err != nil {
				return nil, err
			}
		case c == '|' || c == '&' || c == ';' || c == '(' || c == ')':
			start := l.i
			op := string(c)
			if (c == '|' || c == '&' || c == ';') && l.peek(1) == c {
				op += string(c)
			} else if c == '&' && l.peek(1) == '>' {
				op = "&>"
				if l.peek(2) == '>' {
					op = "&>>"
				}
				l.i += len(op)
				l.emit(tRedirect, op, start, l.i)
				continue
			}
			l.i += len(op)
			l.emit(tOp, op, start, l.i)
		case c == '<' || c == '>':
			if err := l.redirect(""); err != nil {
				return nil, err
			}
		default:
			if err := l.word(); err != nil {
				return nil, err
			}
		}
	}
	if len(l.heredocs) > 0 {
		if err := l.readHeredocs(); err != nil {
			return nil, err
		}
	}
	return l.toks, nil
}

func (l *lexer) peek(n int) byte {
	if l.i+n < len(l.src) {
		return l.src[l.i+n]
	}
	return 0
}

func (l *lexer) emit(kind tokKind, text string, start, end int) {
	l.toks = append(l.toks, token{kind: kind, text: text, line: l.line, start: start, end: end})
}

// redirect lexes a redirection operator; fd is the digits before it.
func (l *lexer) redirect(fd string) error {
	start := l.i - len(fd)
	c := l.src[l.i]
	if c == '<' && l.peek(1) == '<' {
		if l.peek(2) == '<' {
			return unsupported("uses a here-string (<<<)")
		}
		strip := l.peek(2) == '-'
		l.i += 2
		if strip {
			l.i++
		}
		for l.i < len(l.src) && (l.src[l.i] == ' ' || l.src[l.i] == '\t') {
			l.i++
		}
		wstart := len(l.toks)
		if err := l.word(); err != nil {
			return err
		}
		if len(l.toks) == wstart || l.toks[len(l.toks)-1].kind != tWord {
			return fmt.Errorf("line %d: << needs a delimiter", l.line)
		}
		raw := l.src[l.toks[len(l.toks)-1].start:l.toks[len(l.toks)-1].end]
		delim := l.toks[len(l.toks)-1].text
		l.toks = l.toks[:len(l.toks)-1]
		l.emit(tHeredoc, "", start, l.i)
		l.heredocs = append(l.heredocs, heredocReq{tok: len(l.toks) - 1, delim: delim, strip: strip,
			expand: !strings.ContainsAny(raw, `'"\`)})
		return nil
	}
	op := fd + string(c)
	l.i++
	if l.i < len(l.src) && (l.src[l.i] == '>' || l.src[l.i] == '&') {
		op += string(l.src[l.i])
		l.i++
		if op[len(op)-1] == '&' {
			for l.i < len(l.src) && l.src[l.i] >= '0' && l.src[l.i] <= '9' || l.i < len(l.src) && l.src[l.i] == '-' {
				op += string(l.src[l.i])
				l.i++
			}
		}
	}
	l.emit(tRedirect, op, start, l.i)
	return nil
}

func (l *lexer) readHeredocs() error {
	for _, h := range l.heredocs {
		var content strings.Builder
		found := false
		for l.i < len(l.src) {
			end := strings.IndexByte(l.src[l.i:], '\n')
			var line string
			if end < 0 {
				line, l.i = l.src[l.i:], len(l.src)
			} else {
				line, l.i = l.src[l.i:l.i+end], l.i+end+1
			}
			l.line++
			check := line
			if h.strip {
				check = strings.TrimLeft(line, "\t")
				line = check
			}
			if strings.TrimRight(check, " \r") == h.delim {
				found = true
				break
			}
			content.WriteString(line)
			content.WriteByte('\n')
		}
		if !found {
			return fmt.Errorf("heredoc: no line %q ends it", h.delim)
		}
		text := content.String()
		var parts Word
		if h.expand {
			var err error
			end := l.line
			l.line = l.toks[h.tok].line
			text, parts, err = l.expandAll(text)
			l.line = end
			if err != nil {
				return err
			}
		}
		l.toks[h.tok].text = text
		l.toks[h.tok].parts = parts
		l.toks[h.tok].end = l.i
	}
	l.heredocs = nil
	return nil
}

// expandAll expands $VAR, ${VAR} and $(...) in heredoc text: chainsaw's
// variables now, the script's own and command substitutions when the
// script runs (parts, nil when there are none; text then has each as "x").
// Nothing in a heredoc is split into fields.
func (l *lexer) expandAll(s string) (text string, parts Word, err error) {
	var b wordBuilder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '$' || s[i+1] == '\\' || s[i+1] == '`') {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if s[i] == '\n' {
			l.line++
		}
		if s[i] == '`' {
			return "", nil, unsupported("uses command substitution (`...`)")
		}
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		v, part, n, err := l.variable(s[i:])
		if err != nil {
			return "", nil, err
		}
		if part != nil {
			part.Quoted = true
			b.part(*part)
		} else {
			b.WriteString(v)
		}
		i += n - 1
	}
	text, parts = b.token()
	return text, parts, nil
}

// variable reads the $... at the start of s: chainsaw's variables expand
// now (the value), the script's own and command substitutions when the
// script runs (a part); n is how many bytes it used.
func (l *lexer) variable(s string) (value string, part *WordPart, n int, err error) {
	if len(s) < 2 {
		return "$", nil, 1, nil
	}
	switch {
	case strings.HasPrefix(s, "$(("):
		return "", nil, 0, unsupported("uses shell arithmetic $((...))")
	case s[1] == '(':
		end, err := closingParen(s, 2)
		if err != nil {
			return "", nil, 0, fmt.Errorf("line %d: %w", l.line, err)
		}
		if l.names.depth++; l.names.depth > maxIfDepth {
			return "", nil, 0, fmt.Errorf("line %d: command substitutions are nested more than %d deep", l.line, maxIfDepth)
		}
		sub, err := parseNested(s[2:end], l.env, l.line, l.names)
		l.names.depth--
		if err != nil {
			return "", nil, 0, err
		}
		l.line += strings.Count(s[:end], "\n")
		return "", &WordPart{Sub: sub}, end + 1, nil
	case s[1] == '{':
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", nil, 0, fmt.Errorf("unterminated ${")
		}
		name := s[2:end]
		if !identifier.MatchString(name) {
			return "", nil, 0, unsupported("uses the shell expansion ${" + name + "}")
		}
		v, part := l.lookup(name)
		return v, part, end + 1, nil
	case isNameStart(s[1]):
		j := 2
		for j < len(s) && (isNameStart(s[j]) || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		v, part := l.lookup(s[1:j])
		return v, part, j, nil
	case s[1] == ' ' || s[1] == '\t' || s[1] == '\n' || s[1] == '"':
		return "$", nil, 1, nil
	case s[1] == '?':
		return "", &WordPart{Var: "?"}, 2, nil // the last status, when it runs
	}
	return "", nil, 0, unsupported("uses the shell parameter $" + string(s[1]))
}

// lookup expands chainsaw's variables now; any other is the script's, read
// when it runs.
func (l *lexer) lookup(name string) (string, *WordPart) {
	if v, ok := l.env[name]; ok {
		return v, nil
	}
	l.names.reads(name, l.line)
	return "", &WordPart{Var: name}
}

// closingParen finds the ")" that closes the "(" before s[i], skipping
// quotes and nested parentheses.
func closingParen(s string, i int) (int, error) {
	depth := 1
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return 0, fmt.Errorf("unterminated single quote")
			}
			i += end + 1
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("$( has no closing )")
}

// identifier is what ${NAME} and NAME= accept.
var identifier = regexp.MustCompile(`^\w+$`)

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// wordBuilder collects a word: literal text, and the parts known only
// when the script runs.
type wordBuilder struct {
	lit       strings.Builder
	parts     Word
	checkText strings.Builder // the word with each such part as "x"
	quoted    bool            // the word has quotes (so it is a field, even empty)
}

func (w *wordBuilder) WriteString(s string) { w.lit.WriteString(s); w.checkText.WriteString(s) }
func (w *wordBuilder) WriteByte(c byte) error {
	w.checkText.WriteByte(c)
	return w.lit.WriteByte(c)
}

func (w *wordBuilder) part(p WordPart) {
	if w.lit.Len() > 0 {
		w.parts = append(w.parts, WordPart{Lit: w.lit.String()})
		w.lit.Reset()
	}
	w.parts = append(w.parts, p)
	w.checkText.WriteString("x")
}

// token returns the word's text and, when it has parts known only when
// the script runs, its parts.
func (w *wordBuilder) token() (string, Word) {
	if w.parts == nil {
		return w.lit.String(), nil
	}
	parts := w.parts
	if w.lit.Len() > 0 {
		parts = append(parts, WordPart{Lit: w.lit.String()})
	}
	if w.quoted {
		parts = append(Word{{Quoted: true}}, parts...)
	}
	return w.checkText.String(), parts
}

func (l *lexer) emitWord(w *wordBuilder, start int) {
	text, parts := w.token()
	l.toks = append(l.toks, token{kind: tWord, text: text, parts: parts, line: l.line, start: start, end: l.i})
}

// word lexes one word with its quotes and expansions.
func (l *lexer) word() error {
	start := l.i
	var b wordBuilder
	digits := true
	emit := func() { l.emitWord(&b, start) }
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '|' || c == '&' || c == ';' || c == '(' || c == ')':
			emit()
			return nil
		case c == '<' || c == '>':
			if digits && l.i > start {
				return l.redirect(l.src[start:l.i])
			}
			emit()
			return nil
		case c == '\'':
			end := strings.IndexByte(l.src[l.i+1:], '\'')
			if end < 0 {
				return fmt.Errorf("line %d: unterminated single quote", l.line)
			}
			lit := l.src[l.i+1 : l.i+1+end]
			l.line += strings.Count(lit, "\n")
			b.WriteString(lit)
			b.quoted = true
			l.i += end + 2
		case c == '"':
			if err := l.doubleQuoted(&b); err != nil {
				return err
			}
		case c == '\\':
			if l.i+1 < len(l.src) {
				if l.src[l.i+1] != '\n' {
					b.WriteByte(l.src[l.i+1])
				} else {
					l.line++
				}
				l.i += 2
			} else {
				l.i++
			}
		case c == '`':
			return unsupported("uses command substitution (`...`)")
		case c == '$':
			if err := l.expansion(&b, false); err != nil {
				return err
			}
		default:
			b.WriteByte(c)
			l.i++
		}
		if c < '0' || c > '9' {
			digits = false
		}
	}
	emit()
	return nil
}

// doubleQuoted lexes a "..." into b: \ escapes ", \, $, ` and a newline,
// and $ expands, quoted (not split into fields).
func (l *lexer) doubleQuoted(b *wordBuilder) error {
	b.quoted = true
	l.i++
	for l.i < len(l.src) {
		d := l.src[l.i]
		switch {
		case d == '"':
			l.i++
			return nil
		case d == '\\' && l.i+1 < len(l.src) && strings.IndexByte("\"\\$`\n", l.src[l.i+1]) >= 0:
			if l.src[l.i+1] != '\n' {
				b.WriteByte(l.src[l.i+1])
			}
			l.i += 2
		case d == '`':
			return unsupported("uses command substitution (`...`)")
		case d == '$':
			if err := l.expansion(b, true); err != nil {
				return err
			}
		default:
			if d == '\n' {
				l.line++
			}
			b.WriteByte(d)
			l.i++
		}
	}
	return fmt.Errorf("line %d: unterminated double quote", l.line)
}

// expansion lexes the $... at l.i into b: chainsaw's variables now, the
// script's own and command substitutions as parts known when it runs
// (quoted: not split into fields).
func (l *lexer) expansion(b *wordBuilder, quoted bool) error {
	v, part, n, err := l.variable(l.src[l.i:])
	if err != nil {
		return err
	}
	if part != nil {
		part.Quoted = quoted
		b.part(*part)
	} else {
		b.WriteString(v)
	}
	l.i += n
	return nil
}
