package scenario

import (
	"fmt"
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
	kind       tokKind
	text       string
	line       int
	start, end int // byte offsets in the source
}

type lexer struct {
	src      string
	i        int
	line     int
	env      map[string]string
	toks     []token
	heredocs []heredocReq // waiting for the end of the line
}

type heredocReq struct {
	tok    int // index of the tHeredoc token
	delim  string
	strip  bool // <<-
	expand bool // unquoted delimiter: $VAR expands
}

func lex(src string, env map[string]string) ([]token, error) {
	l := &lexer{src: src, line: 1, env: env}
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
		if h.expand {
			var err error
			if text, err = l.expandAll(text); err != nil {
				return err
			}
		}
		l.toks[h.tok].text = text
		l.toks[h.tok].end = l.i
	}
	l.heredocs = nil
	return nil
}

// expandAll expands $VAR and ${VAR} in heredoc text.
func (l *lexer) expandAll(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '$' || s[i+1] == '\\' || s[i+1] == '`') {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if s[i] == '`' {
			return "", unsupported("uses command substitution (`...`)")
		}
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		v, n, err := l.variable(s[i:])
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		i += n - 1
	}
	return b.String(), nil
}

// variable expands the $... at the start of s; it returns the value and how
// many bytes it used.
func (l *lexer) variable(s string) (string, int, error) {
	if len(s) < 2 {
		return "$", 1, nil
	}
	switch {
	case s[1] == '(':
		return "", 0, unsupported("uses command substitution $(...)")
	case s[1] == '{':
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", 0, fmt.Errorf("unterminated ${")
		}
		name := s[2:end]
		if !identifier.MatchString(name) {
			return "", 0, unsupported("uses the shell expansion ${" + name + "}")
		}
		v, err := l.lookup(name)
		return v, end + 1, err
	case isNameStart(s[1]):
		j := 2
		for j < len(s) && (isNameStart(s[j]) || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		v, err := l.lookup(s[1:j])
		return v, j, err
	case s[1] == ' ' || s[1] == '\t' || s[1] == '\n' || s[1] == '"':
		return "$", 1, nil
	}
	return "", 0, unsupported("uses the shell parameter $" + string(s[1]))
}

func (l *lexer) lookup(name string) (string, error) {
	if v, ok := l.env[name]; ok {
		return v, nil
	}
	return "", unsupported("uses the shell variable $" + name + ", which is not set")
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// word lexes one word with its quotes and expansions.
func (l *lexer) word() error {
	start := l.i
	var b strings.Builder
	digits := true
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '|' || c == '&' || c == ';' || c == '(' || c == ')':
			l.emit(tWord, b.String(), start, l.i)
			return nil
		case c == '<' || c == '>':
			if digits && l.i > start {
				return l.redirect(l.src[start:l.i])
			}
			l.emit(tWord, b.String(), start, l.i)
			return nil
		case c == '\'':
			end := strings.IndexByte(l.src[l.i+1:], '\'')
			if end < 0 {
				return fmt.Errorf("line %d: unterminated single quote", l.line)
			}
			lit := l.src[l.i+1 : l.i+1+end]
			l.line += strings.Count(lit, "\n")
			b.WriteString(lit)
			l.i += end + 2
		case c == '"':
			l.i++
			closed := false
			for l.i < len(l.src) {
				d := l.src[l.i]
				if d == '"' {
					closed = true
					l.i++
					break
				}
				if d == '\\' && l.i+1 < len(l.src) && strings.IndexByte("\"\\$`\n", l.src[l.i+1]) >= 0 {
					if l.src[l.i+1] != '\n' {
						b.WriteByte(l.src[l.i+1])
					}
					l.i += 2
					continue
				}
				if d == '`' {
					return unsupported("uses command substitution (`...`)")
				}
				if d == '$' {
					v, n, err := l.variable(l.src[l.i:])
					if err != nil {
						return err
					}
					b.WriteString(v)
					l.i += n
					continue
				}
				if d == '\n' {
					l.line++
				}
				b.WriteByte(d)
				l.i++
			}
			if !closed {
				return fmt.Errorf("line %d: unterminated double quote", l.line)
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
			v, n, err := l.variable(l.src[l.i:])
			if err != nil {
				return err
			}
			b.WriteString(v)
			l.i += n
		default:
			b.WriteByte(c)
			l.i++
		}
		if c < '0' || c > '9' {
			digits = false
		}
	}
	l.emit(tWord, b.String(), start, l.i)
	return nil
}
