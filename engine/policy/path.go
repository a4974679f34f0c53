package policy

import (
	"github.com/genplay/genplay/engine/internal/schema"
	"github.com/genplay/genplay/engine/source"
)

// fieldPath is a path of string keys and int indexes into the policy object.
type fieldPath []any

func (p fieldPath) key(k ...string) fieldPath {
	out := make(fieldPath, len(p), len(p)+len(k))
	copy(out, p)
	for _, s := range k {
		out = append(out, s)
	}
	return out
}

func (p fieldPath) index(i int) fieldPath {
	out := make(fieldPath, len(p), len(p)+1)
	copy(out, p)
	return append(out, i)
}

// String renders the path as Kubernetes field paths do: spec.rules[0].name.
func (p fieldPath) String() string { return schema.Path(p).String() }

// diags collects diagnostics positioned in one document.
type diags struct {
	doc  *source.Document
	file string
	list source.Diagnostics
}

func (d *diags) pos(p fieldPath) source.Pos {
	if d.doc == nil {
		return source.Pos{File: d.file}
	}
	return d.doc.Pos(p...)
}

func (d *diags) errorf(p fieldPath, format string, args ...any) {
	d.list = append(d.list, source.Errorf(d.pos(p), format, args...))
}

// Errorf makes diags a schema.Reporter.
func (d *diags) Errorf(p schema.Path, format string, args ...any) {
	d.errorf(fieldPath(p), format, args...)
}

func (d *diags) warnf(p fieldPath, format string, args ...any) {
	d.list = append(d.list, source.Warningf(d.pos(p), format, args...))
}

// maxDiagnostics caps the diagnostics of one policy.
const maxDiagnostics = 50

// result orders the diagnostics by position and caps them.
func (d *diags) result() source.Diagnostics { return d.list.Sorted().Capped(maxDiagnostics) }
