package schema

import (
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/source"
)

// Path is a path of string keys and int indexes into an object.
type Path []any

// Key returns the path extended by keys; p is not changed.
func (p Path) Key(k ...string) Path {
	out := make(Path, len(p), len(p)+len(k))
	copy(out, p)
	for _, s := range k {
		out = append(out, s)
	}
	return out
}

// Index returns the path extended by an index; p is not changed.
func (p Path) Index(i int) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, i)
}

// String renders the path as Kubernetes field paths do: spec.rules[0].name.
func (p Path) String() string {
	var b strings.Builder
	for _, s := range p {
		switch t := s.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(t)
		case int:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(t))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Diags collects diagnostics positioned in one document. It is a Reporter.
type Diags struct {
	Doc  *source.Document // may be nil
	File string           // names the input when Doc is nil
	List source.Diagnostics
}

// NewDiags returns a collector for doc (which may be nil).
func NewDiags(doc *source.Document) *Diags {
	d := &Diags{Doc: doc}
	if doc != nil {
		d.File = doc.File
	}
	return d
}

// Pos returns the position of the field at p.
func (d *Diags) Pos(p Path) source.Pos {
	if d.Doc == nil {
		return source.Pos{File: d.File}
	}
	return d.Doc.Pos(p...)
}

// Errorf adds an error at the field p.
func (d *Diags) Errorf(p Path, format string, args ...any) {
	d.List = append(d.List, source.Errorf(d.Pos(p), format, args...))
}

// Warnf adds a warning at the field p.
func (d *Diags) Warnf(p Path, format string, args ...any) {
	d.List = append(d.List, source.Warningf(d.Pos(p), format, args...))
}

// MaxDiagnostics caps the diagnostics of one object.
const MaxDiagnostics = 50

// Result orders the diagnostics by position and caps them.
func (d *Diags) Result() source.Diagnostics { return d.List.Sorted().Capped(MaxDiagnostics) }
