package source

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/genplay/genplay/engine/resource"
)

// Limits that keep hostile input from exhausting the parser.
const (
	// MaxInputSize is the largest file Parse accepts, in bytes.
	MaxInputSize = 2 << 20
	// MaxDepth is the deepest nesting of mappings and sequences.
	MaxDepth = 200
	// MaxAliasNodes is how many nodes alias expansion may produce per document.
	MaxAliasNodes = 10000
	// maxParseDiagnostics caps the diagnostics of one file.
	maxParseDiagnostics = 50
)

// Document is one YAML document of a file, converted to JSON shape.
type Document struct {
	File string
	// Index is the position of the document among the documents Parse
	// returned for the file (empty documents are not counted).
	Index int
	// Line is the first line of the document's content.
	Line int
	// Value is the JSON-shaped content: map[string]any, []any, string,
	// float64, bool or nil.
	Value any

	root *yaml.Node
	src  []byte // the whole file, for Scalar
}

// Object returns the document as a Kubernetes object when it is a mapping.
func (d *Document) Object() (resource.Object, bool) {
	if d == nil {
		return nil, false
	}
	m, ok := d.Value.(map[string]any)
	return resource.Object(m), ok
}

// Pos returns the position of the value at path, a list of string keys and
// int indexes. For a key it is the position of the key, for an index the
// position of the element. When the path does not exist, it is the position
// of the nearest ancestor that does; a nil Document yields only the file.
func (d *Document) Pos(path ...any) Pos {
	if d == nil {
		return Pos{}
	}
	n := d.root
	if n == nil {
		return Pos{File: d.File, Line: d.Line, Col: 1}
	}
	pos := Pos{File: d.File, Line: n.Line, Col: n.Column}
	for _, step := range path {
		n = deref(n, 0)
		var at, next *yaml.Node
		switch s := step.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				at, next = lookupKey(n, s, 0)
			}
		case int:
			if n.Kind == yaml.SequenceNode && s >= 0 && s < len(n.Content) {
				at, next = n.Content[s], n.Content[s]
			}
		}
		if next == nil {
			return pos
		}
		pos = Pos{File: d.File, Line: at.Line, Col: at.Column}
		n = next
	}
	return pos
}

// deref follows aliases.
func deref(n *yaml.Node, depth int) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && depth < MaxDepth {
		n = n.Alias
		depth++
	}
	return n
}

// lookupKey finds key in a mapping node: explicit keys first, then merged
// mappings. It returns the key node and the value node.
func lookupKey(m *yaml.Node, key string, depth int) (*yaml.Node, *yaml.Node) {
	if depth > MaxDepth {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if isMergeKey(k) {
			continue
		}
		if s, err := keyString(k); err == nil && s == key {
			return k, m.Content[i+1]
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !isMergeKey(m.Content[i]) {
			continue
		}
		v := deref(m.Content[i+1], depth)
		var sources []*yaml.Node
		switch {
		case v == nil:
		case v.Kind == yaml.MappingNode:
			sources = []*yaml.Node{v}
		case v.Kind == yaml.SequenceNode:
			sources = v.Content
		}
		for _, src := range sources {
			if src = deref(src, depth); src != nil && src.Kind == yaml.MappingNode {
				if k, val := lookupKey(src, key, depth+1); k != nil {
					return k, val
				}
			}
		}
	}
	return nil, nil
}

var yamlErrorLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse reads every non-empty YAML document of a file. Documents that could
// not be converted are left out and reported; a syntax error stops the file.
func Parse(file string, data []byte) ([]*Document, Diagnostics) {
	if len(data) > MaxInputSize {
		return nil, Diagnostics{Errorf(Pos{File: file, Line: 1, Col: 1},
			"file is too large: %d bytes, the limit is %d", len(data), MaxInputSize)}
	}
	if pos, ok := invalidUTF8(data); !ok {
		pos.File = file
		return nil, Diagnostics{Errorf(pos, "invalid UTF-8 byte sequence")}
	}
	var (
		docs  []*Document
		diags Diagnostics
		lines = yamlLines(data)
	)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for len(diags) < maxParseDiagnostics {
		var n yaml.Node
		err := decodeSafely(dec, &n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			diags = append(diags, syntaxError(file, data, err))
			break
		}
		root := &n
		if n.Kind == yaml.DocumentNode {
			if len(n.Content) == 0 {
				continue
			}
			root = n.Content[0]
		}
		c := converter{file: file}
		v, ok := c.value(root, 0)
		diags = append(diags, c.diags...)
		if !ok || len(c.diags) > 0 || v == nil {
			continue
		}
		docs = append(docs, &Document{File: file, Index: len(docs), Line: root.Line, Value: v, root: root, src: lines})
	}
	return docs, diags.Capped(maxParseDiagnostics)
}

// decodeSafely turns a panic of the YAML library into an error.
func decodeSafely(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return dec.Decode(n)
}

// syntaxError turns a YAML library error into a diagnostic at
// file:line:column with a short excerpt of the offending text. The library
// gives a line only (and none on the first line, nor for an unknown
// alias), so the column, and a missing line, come from the text itself.
func syntaxError(file string, data []byte, err error) Diagnostic {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if m := yamlErrorLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	lines := strings.Split(string(data), "\n")
	col := 0
	if structural(msg) {
		// yaml.v3 reports the line where the enclosing block starts: find
		// the line that broke it.
		if l, ok := brokeAt(data, line, msg); ok && l != line {
			msg = fmt.Sprintf("%s (this line's indentation does not fit the lines above it)", msg)
			line = l
		}
	}
	switch {
	case strings.HasPrefix(msg, "did not find expected ',' or"):
		// yaml.v3 reports an unclosed flow collection near, not at, the
		// line where it starts: point at the unbalanced [ or { there.
		if l, c, ok := unclosedFlow(lines, line); ok {
			line, col = l, c
		}
		msg += " (a [ or { here is not closed)"
	case strings.HasPrefix(msg, "unknown anchor '"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if l, c, ok := find(lines, "*"+name); ok {
			line, col = l, c
		}
		short := clip(name)
		msg = fmt.Sprintf("unknown alias *%s: no anchor &%s is defined before it", short, short)
	case strings.HasPrefix(msg, "mapping values are not allowed"):
		if line <= len(lines) {
			text := lines[line-1]
			if i := strings.Index(text, ": "); i >= 0 {
				if j := strings.Index(text[i+2:], ": "); j >= 0 {
					col = utf8.RuneCountInString(text[:i+2+j]) + 1
				}
			}
		}
	case strings.Contains(msg, "unexpected end of stream"), strings.Contains(msg, "found unexpected end"):
		// An unterminated quoted scalar: point at its opening quote.
		for l := min(line, len(lines)); l >= 1; l-- {
			if c := strings.IndexAny(lines[l-1], `"'`); c >= 0 {
				line, col = l, utf8.RuneCountInString(lines[l-1][:c])+1
				msg += " (a quoted string here is not closed)"
				break
			}
		}
	}
	line = max(1, min(line, len(lines)))
	if col == 0 {
		text := lines[line-1]
		col = utf8.RuneCountInString(text[:len(text)-len(strings.TrimLeft(text, " \t"))]) + 1
	}
	return Errorf(Pos{File: file, Line: line, Col: col}, "yaml: %s, near %s", msg, excerpt(lines[line-1], col))
}

// structural tells the block-structure errors yaml.v3 reports at the
// start of the enclosing block rather than where the structure broke.
func structural(msg string) bool {
	return strings.HasPrefix(msg, "did not find expected key") ||
		strings.HasPrefix(msg, "did not find expected '-' indicator") ||
		strings.HasPrefix(msg, "did not find expected node content")
}

// brokeAt finds the line that broke a block structure: the first line,
// from the reported one on, such that the text up to it fails with the
// same error (the text before it parses, or fails only because it ends
// there). It bisects, checking the answer, and reports false when that
// does not hold (a flow collection or a quoted string open across lines).
func brokeAt(data []byte, from int, msg string) (int, bool) {
	ends := []int{} // ends[i]: the offset after line i+1
	for i, b := range data {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(data) {
		ends = append(ends, len(data))
	}
	fails := func(l int) bool { return prefixError(data[:ends[l-1]]) == msg }
	lo, hi := max(from, 1), len(ends)
	if lo > hi || !fails(hi) {
		return 0, false
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo > 1 && fails(lo-1) {
		return 0, false
	}
	return lo, true
}

// prefixError is the message of the first syntax error in data, "" for
// none; like Parse, it decodes every document.
func prefixError(data []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := decodeSafely(dec, &n)
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "yaml: ")
			if m := yamlErrorLine.FindStringSubmatch(err.Error()); m != nil {
				msg = m[2]
			}
			return msg
		}
	}
}

// maxExcerpt is the most characters of the user's text a message quotes.
const maxExcerpt = 40

// excerpt quotes at most maxExcerpt characters of text from column col
// (1-based).
func excerpt(text string, col int) string {
	r := []rune(text)
	from := max(0, min(col-1, len(r)))
	return strconv.Quote(clip(string(r[from:])))
}

// Excerpt quotes s as %q does, cut to its first 40 characters (and "…"):
// how a message names a key, an alias or a value the user wrote, which may
// be thousands of characters long.
func Excerpt(s string) string { return strconv.Quote(clip(s)) }

// clip cuts s to its first maxExcerpt characters, marking the cut with "…".
func clip(s string) string {
	if len(s) <= maxExcerpt {
		return s
	}
	n := 0
	for i := range s {
		if n == maxExcerpt {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// find returns the 1-based line and column of the first occurrence of s.
func find(lines []string, s string) (int, int, bool) {
	for i, text := range lines {
		if c := strings.Index(text, s); c >= 0 {
			return i + 1, utf8.RuneCountInString(text[:c]) + 1, true
		}
	}
	return 0, 0, false
}

// unclosedFlow finds, among the lines around near (1-based), the first one
// that opens more [ or { than it closes, and the column of the first
// bracket left open.
func unclosedFlow(lines []string, near int) (int, int, bool) {
	for l := max(near-1, 1); l <= min(near+1, len(lines)); l++ {
		text := lines[l-1]
		var open []int
		for i, r := range text {
			switch r {
			case '[', '{':
				open = append(open, i)
			case ']', '}':
				if len(open) > 0 {
					open = open[:len(open)-1]
				}
			}
		}
		if len(open) > 0 {
			return l, utf8.RuneCountInString(text[:open[0]]) + 1, true
		}
	}
	return 0, 0, false
}

// invalidUTF8 reports the position of the first byte that is not UTF-8.
func invalidUTF8(data []byte) (Pos, bool) {
	if utf8.Valid(data) {
		return Pos{}, true
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return Pos{Line: line, Col: col}, false
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return Pos{Line: line, Col: col}, false
}

// converter turns a YAML node tree into JSON-shaped values.
type converter struct {
	file       string
	aliasDepth int // > 0 while expanding an alias
	aliasNodes int
	diags      Diagnostics
}

func (c *converter) errorf(n *yaml.Node, format string, args ...any) {
	c.diags = append(c.diags, Errorf(Pos{File: c.file, Line: n.Line, Col: n.Column}, format, args...))
}

// value converts n; false means the document must be abandoned.
func (c *converter) value(n *yaml.Node, depth int) (any, bool) {
	if depth > MaxDepth {
		c.errorf(n, "document is nested too deeply: more than %d levels", MaxDepth)
		return nil, false
	}
	if c.aliasDepth > 0 {
		c.aliasNodes++
		if c.aliasNodes > MaxAliasNodes {
			c.errorf(n, "alias bomb: expanding aliases produces more than %d nodes", MaxAliasNodes)
			return nil, false
		}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, true
		}
		return c.value(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			c.errorf(n, "unknown anchor %q referenced", n.Value)
			return nil, false
		}
		c.aliasDepth++
		v, ok := c.value(n.Alias, depth+1)
		c.aliasDepth--
		return v, ok
	case yaml.ScalarNode:
		v, err := scalar(n)
		if err != nil {
			c.errorf(n, "%v", err)
		}
		return v, true
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, ok := c.value(e, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case yaml.MappingNode:
		return c.mapping(n, depth)
	}
	c.errorf(n, "unsupported YAML node")
	return nil, true
}

func (c *converter) mapping(n *yaml.Node, depth int) (any, bool) {
	out := make(map[string]any, len(n.Content)/2)
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		if isMergeKey(k) {
			merges = append(merges, vn)
			continue
		}
		key, err := keyString(deref(k, 0))
		if err != nil {
			c.errorf(k, "%v", err)
			continue
		}
		if first, dup := seen[key]; dup {
			c.errorf(k, "key %s already set in map (first set on line %d)", Excerpt(key), first.Line)
			continue
		}
		seen[key] = k
		v, ok := c.value(vn, depth+1)
		if !ok {
			return nil, false
		}
		out[key] = v
	}
	// Merged keys never override explicit keys; earlier merges win.
	for _, mn := range merges {
		v, ok := c.value(mn, depth+1)
		if !ok {
			return nil, false
		}
		var sources []any
		switch t := v.(type) {
		case map[string]any:
			sources = []any{t}
		case []any:
			sources = t
		}
		if sources == nil {
			c.errorf(mn, "map merge requires map or sequence of maps as the value")
			continue
		}
		for _, s := range sources {
			m, ok := s.(map[string]any)
			if !ok {
				c.errorf(mn, "map merge requires map or sequence of maps as the value")
				break
			}
			for k, e := range m {
				if _, exists := out[k]; !exists {
					out[k] = e
				}
			}
		}
	}
	return out, true
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 &&
		(k.Tag == "" || k.Tag == "!!merge" || k.Tag == "tag:yaml.org,2002:merge")
}

// keyString stringifies a mapping key as sigs.k8s.io/yaml does.
func keyString(k *yaml.Node) (string, error) {
	if k == nil || k.Kind != yaml.ScalarNode {
		return "", errors.New("unsupported map key: only scalar keys are allowed")
	}
	v, err := scalar(k)
	if err != nil {
		return "", err
	}
	switch t := v.(type) {
	case string:
		return t, nil
	case bool:
		return strconv.FormatBool(t), nil
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			return strconv.FormatInt(int64(t), 10), nil
		}
		return strconv.FormatFloat(t, 'g', -1, 32), nil
	case nil:
		return "", errors.New("unsupported map key: null")
	}
	return "", fmt.Errorf("unsupported map key %q", k.Value)
}

const (
	tagStr       = "!!str"
	tagBool      = "!!bool"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagNull      = "!!null"
	tagTimestamp = "!!timestamp"
	tagBinary    = "!!binary"
)

func shortTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, "tag:yaml.org,2002:"); ok {
		return "!!" + rest
	}
	return tag
}

// scalar resolves a scalar node with the YAML 1.1 rules of yaml.v2.
func scalar(n *yaml.Node) (any, error) {
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	tag := ""
	if n.Style&yaml.TaggedStyle != 0 {
		tag = shortTag(n.Tag)
	}
	switch tag {
	case "":
		if quoted {
			return n.Value, nil
		}
	case tagStr:
		return n.Value, nil
	case tagBinary:
		// As sigs.k8s.io/yaml (yaml.v2) reads it: the decoded bytes.
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(n.Value), ""))
		if err != nil {
			return n.Value, errors.New("!!binary value contains invalid base64 data")
		}
		if !utf8.Valid(b) {
			return string([]rune(string(b))), nil // invalid bytes become U+FFFD, as in JSON
		}
		return string(b), nil
	case tagBool, tagInt, tagFloat, tagNull, tagTimestamp:
	default:
		return n.Value, nil // unknown tags decode as strings
	}
	rtag, v := resolve11(n.Value)
	if tag != "" && tag != rtag {
		switch {
		case tag == tagFloat && rtag == tagInt:
			rtag = tagFloat
		case tag == tagTimestamp && rtag == tagStr:
			rtag = tagTimestamp
		default:
			return n.Value, fmt.Errorf("cannot decode %s `%s` as a %s", rtag, n.Value, tag)
		}
	}
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil, fmt.Errorf("unsupported value %s: JSON has no NaN or infinity", n.Value)
	}
	return v, nil
}

var resolveMap = func() map[string]any {
	m := map[string]any{}
	for v, words := range map[bool][]string{
		true:  {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"},
		false: {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"},
	} {
		for _, w := range words {
			m[w] = v
		}
	}
	for _, w := range []string{"", "~", "null", "Null", "NULL"} {
		m[w] = nil
	}
	for _, w := range []string{".nan", ".NaN", ".NAN"} {
		m[w] = math.NaN()
	}
	for _, w := range []string{".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"} {
		m[w] = math.Inf(1)
	}
	for _, w := range []string{"-.inf", "-.Inf", "-.INF"} {
		m[w] = math.Inf(-1)
	}
	return m
}()

var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// resolve11 resolves a plain scalar as YAML 1.1 (yaml.v2) does, returning
// the short tag and the JSON-shaped value. Timestamps stay strings, as
// sigs.k8s.io/yaml leaves them.
func resolve11(in string) (string, any) {
	if v, ok := resolveMap[in]; ok {
		switch v.(type) {
		case bool:
			return tagBool, v
		case nil:
			return tagNull, nil
		default:
			return tagFloat, v
		}
	}
	if tag, f, ok := resolve11Number(in); ok {
		return tag, f
	}
	return tagStr, in
}

// resolve11Tag is resolve11's tag alone, without boxing a number.
func resolve11Tag(in string) string {
	if v, ok := resolveMap[in]; ok {
		switch v.(type) {
		case bool:
			return tagBool
		case nil:
			return tagNull
		default:
			return tagFloat
		}
	}
	if tag, _, ok := resolve11Number(in); ok {
		return tag
	}
	return tagStr
}

// resolve11Number resolves the numbers of resolve11 (not those in
// resolveMap).
func resolve11Number(in string) (string, float64, bool) {
	if in == "" || !mayBeNumber(in) {
		return "", 0, false // skip the parsers' error allocations
	}
	switch c := in[0]; {
	case c == '.':
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return tagFloat, f, true
		}
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
		plain := strings.ReplaceAll(in, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return tagInt, float64(i), true
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return tagInt, float64(u), true
		}
		if yamlStyleFloat.MatchString(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return tagFloat, f, true
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0b"); ok {
			if u, err := strconv.ParseUint(rest, 2, 64); err == nil {
				return tagInt, float64(u), true
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
			if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
				return tagInt, float64(i), true
			}
		}
	}
	return "", 0, false
}

// Sub returns a view of the value at path as a document of its own, so a
// resource written inline inside a larger document (a chainsaw Test's
// `resource:`) can be positioned by its own field paths. When the path does
// not exist, Sub returns d itself.
func (d *Document) Sub(path ...any) *Document {
	if d == nil || d.root == nil || len(path) == 0 {
		return d
	}
	n := d.root
	for _, step := range path {
		n = deref(n, 0)
		var next *yaml.Node
		switch s := step.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				_, next = lookupKey(n, s, 0)
			}
		case int:
			if n.Kind == yaml.SequenceNode && s >= 0 && s < len(n.Content) {
				next = n.Content[s]
			}
		}
		if next == nil {
			return d
		}
		n = next
	}
	n = deref(n, 0)
	var value any = d.Value
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, _ := value.(map[string]any)
			value = m[s]
		case int:
			l, _ := value.([]any)
			if s < len(l) {
				value = l[s]
			}
		}
	}
	return &Document{File: d.File, Index: d.Index, Line: n.Line, Value: value, root: n, src: d.src}
}
