package scaffold

import (
	"fmt"
	"path"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// isCLITest reports whether obj is a Kyverno CLI test: kind Test of
// cli.kyverno.io, or the older form without apiVersion that lists policies.
func isCLITest(obj resource.Object) bool {
	if obj == nil {
		return false
	}
	if strings.HasPrefix(obj.APIVersion(), "cli.kyverno.io/") {
		return true
	}
	_, hasPolicies := obj["policies"]
	return obj.APIVersion() == "" && hasPolicies
}

// cliTest reads the policies and resources a kyverno-test.yaml names, with
// opts.ReadFile; without it, the files are needed and their documents are
// expected in the same text.
func (w *wrapper) cliTest(doc *source.Document, obj resource.Object, opts Options) ([]input, error) {
	w.cli = true
	var (
		out  []input
		errs source.Diagnostics
	)
	for _, list := range []string{"policies", "resources"} {
		names, _ := obj[list].([]any)
		for i, n := range names {
			name, _ := n.(string)
			at := doc.Pos(list, i)
			if name == "" {
				errs = append(errs, source.Errorf(at, "%s[%d]: expected a file name", list, i))
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
				out = append(out, input{doc: d, data: data, resource: list == "resources"})
			}
		}
	}
	for _, k := range []string{"variables", "userinfo", "userInfo"} {
		if v, ok := obj[k].(string); ok && v != "" {
			w.note(doc.Pos(k), true, "%s (%s) is not wrapped: a scenario has no values file; set them in the objects", k, v)
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
