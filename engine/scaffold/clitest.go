package scaffold

import (
	"fmt"
	"path"
	"strings"

	"github.com/genplay/genplay/engine/clitest"
	"github.com/genplay/genplay/engine/source"
)

// cliTest reads the policies and resources a kyverno-test.yaml names, with
// opts.ReadFile; without it, the files are needed and their documents are
// expected in the same text.
func (w *wrapper) cliTest(doc *source.Document, opts Options) ([]input, error) {
	w.cli = true
	t := clitest.Read(doc)
	var (
		out  []input
		errs source.Diagnostics
	)
	for _, list := range []struct {
		key   string
		names []string
	}{{"policies", t.Policies}, {"resources", t.Resources}} {
		for i, name := range list.names {
			at := doc.Pos(list.key, i)
			if name == "" {
				errs = append(errs, source.Errorf(at, "%s[%d]: expected a file name", list.key, i))
				continue
			}
			if opts.ReadFile == nil {
				w.needs = append(w.needs, name)
				w.note(at, true, "%s is needed: in the browser only this text is read; paste the documents of %s after the test (separated by ---) and wrap again", name, name)
				continue
			}
			data, err := opts.ReadFile(name)
			if err != nil {
				errs = append(errs, source.Errorf(at, "read %s: %v", name, err))
				continue
			}
			file := path.Join(path.Dir(doc.File), name)
			docs, diags := source.Parse(file, data)
			if diags.HasErrors() {
				errs = append(errs, diags.Errors()...)
				continue
			}
			for _, d := range docs {
				out = append(out, input{doc: d, data: data, resource: list.key == "resources"})
			}
		}
	}
	for _, f := range []struct{ key, file string }{{"variables", t.Variables}, {t.UserInfoKey, t.UserInfo}} {
		if f.file != "" {
			w.note(doc.Pos(f.key), true, "%s (%s) is not wrapped: a scenario has no values file; set them in the objects", f.key, f.file)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if opts.ReadFile == nil && len(w.needs) > 0 {
		w.note(doc.Pos(), false, "a kyverno-test.yaml names its files: %s", strings.Join(w.needs, ", "))
	}
	return out, nil
}

// Needs reports a readable error for a kyverno-test.yaml whose files are
// missing: it is what Wrap returns when the text holds no policy and files
// were not read.
func needsError(file string, needs []string) error {
	return source.Errorf(source.Pos{File: file, Line: 1, Col: 1},
		"the kyverno-test.yaml names %s; in the browser only this text is read: paste their documents after the test (separated by ---) and wrap again",
		fmt.Sprint(strings.Join(needs, ", ")))
}
