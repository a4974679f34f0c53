package source

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Severities of diagnostics.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Pos is a place in an input file. Line and Col are 1-based; zero means
// unknown.
type Pos struct {
	File string
	Line int
	Col  int
}

// String renders the position as "file:line:col", leaving out unknown parts.
func (p Pos) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(p.Line))
		if p.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(p.Col))
		}
	}
	return b.String()
}

// Diagnostic is an input error or warning at a position.
type Diagnostic struct {
	Pos
	Severity string // SeverityError or SeverityWarning
	Message  string
}

// Errorf returns an error diagnostic at pos.
func Errorf(pos Pos, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Severity: SeverityError, Message: fmt.Sprintf(format, args...)}
}

// Warningf returns a warning diagnostic at pos.
func Warningf(pos Pos, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Severity: SeverityWarning, Message: fmt.Sprintf(format, args...)}
}

// Error renders "file:line:col: message"; the severity is not shown.
func (d Diagnostic) Error() string {
	if p := d.Pos.String(); p != "" {
		return p + ": " + d.Message
	}
	return d.Message
}

// IsError reports whether the diagnostic is an error.
func (d Diagnostic) IsError() bool { return d.Severity != SeverityWarning }

// Diagnostics is a list of diagnostics. It implements error.
type Diagnostics []Diagnostic

// Error joins the diagnostics, one per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, Diagnostic.IsError)
}

// Errors returns the errors only.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.IsError() {
			out = append(out, d)
		}
	}
	return out
}

// Warnings returns the warnings only.
func (ds Diagnostics) Warnings() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if !d.IsError() {
			out = append(out, d)
		}
	}
	return out
}

// Err returns the errors as an error, or nil when there is none.
func (ds Diagnostics) Err() error {
	if errs := ds.Errors(); len(errs) > 0 {
		return errs
	}
	return nil
}

// Sorted returns a copy ordered by file, line and column; diagnostics at the
// same place keep their order.
func (ds Diagnostics) Sorted() Diagnostics {
	out := slices.Clone(ds)
	slices.SortStableFunc(out, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return out
}

// Capped keeps the first max diagnostics and, when some were dropped, adds
// one error saying how many.
func (ds Diagnostics) Capped(max int) Diagnostics {
	if len(ds) <= max {
		return ds
	}
	out := slices.Clone(ds[:max])
	last := ds[max]
	return append(out, Errorf(Pos{File: last.File}, "too many diagnostics: %d more not shown", len(ds)-max))
}

// FirstLine is the first line of a message, cut at 300 bytes with an
// ellipsis: a message for a report of one line per test.
func FirstLine(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return msg
}
