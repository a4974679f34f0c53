// Command aboutgen writes site/src/about.json, what the playground's About
// panel shows: the Kyverno releases genplay simulates (engine.KyvernoReleases,
// the default engine.KyvernoVersion) with the behaviour changes between them
// (engine.KyvernoChanges, of every family: this program links the CEL
// family), and the list of where the simulation knowingly differs from
// Kyverno, read from engine/doc.go's package comment, the one place it is
// written. The Makefile's site target runs it; a test fails when the
// committed file is stale.
//
//	go run ./site/aboutgen [-doc engine/doc.go] [-o site/src/about.json]
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"strings"

	"github.com/genplay/genplay/engine"
	_ "github.com/genplay/genplay/engine/gpol/controller" // its changes between releases
	"github.com/genplay/genplay/engine/timeline"
)

// Heading is the section of engine/doc.go the panel shows.
const Heading = "Where genplay knowingly differs from a real cluster with Kyverno"

// About is the JSON the panel reads.
type About struct {
	Kyverno string `json:"kyverno"` // engine.KyvernoVersion, the default
	// Versions are the simulated releases, oldest first.
	Versions []Version `json:"versions"`
	// Changes are the behaviour changes between them, by release.
	Changes []timeline.VersionChange `json:"changes"`
	Source  string                   `json:"source"` // where the differences are written
	Heading string                   `json:"heading"`
	// Intro are the paragraphs between the heading and the list.
	Intro []string `json:"intro"`
	// Differences are the list's items, as plain text (paragraphs joined
	// with a blank line).
	Differences []string `json:"differences"`
}

// Version is one simulated release.
type Version struct {
	Version string `json:"version"`
	Date    string `json:"date"`
	Summary string `json:"summary"`
}

func main() {
	docPath := flag.String("doc", "engine/doc.go", "the engine's package documentation")
	out := flag.String("o", "site/src/about.json", "the file to write")
	flag.Parse()
	src, err := os.ReadFile(*docPath)
	if err == nil {
		var data []byte
		if data, err = Generate(src); err == nil {
			if old, _ := os.ReadFile(*out); !bytes.Equal(old, data) { // unchanged: the file keeps its time, and make its targets
				err = os.WriteFile(*out, data, 0o644)
			}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "aboutgen: %v\n", err)
		os.Exit(1)
	}
}

// Generate reads the package comment of src (engine/doc.go) and returns
// about.json.
func Generate(src []byte) ([]byte, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil, err
	}
	if f.Doc == nil {
		return nil, errors.New("doc.go has no package comment")
	}
	var p comment.Parser
	d := p.Parse(f.Doc.Text())
	a := About{Kyverno: engine.KyvernoVersion, Source: "engine/doc.go", Heading: Heading, Intro: []string{}, Differences: []string{},
		Versions: []Version{}, Changes: []timeline.VersionChange{}}
	for _, r := range engine.KyvernoReleases() {
		a.Versions = append(a.Versions, Version{Version: string(r.Version), Date: r.Date, Summary: r.Summary})
	}
	for _, ch := range engine.KyvernoChanges() {
		a.Changes = append(a.Changes, timeline.VersionChange{ID: ch.ID, URL: ch.URL(), Since: string(ch.Since), Family: ch.Family,
			Title: ch.Title, Before: ch.Before, After: ch.After})
	}
	in := false
	for _, b := range d.Content {
		switch b := b.(type) {
		case *comment.Heading:
			if in {
				return finish(a)
			}
			in = text(b.Text) == Heading
		case *comment.Paragraph:
			if in && len(a.Differences) == 0 {
				a.Intro = append(a.Intro, text(b.Text))
			}
		case *comment.List:
			if !in {
				continue
			}
			for _, item := range b.Items {
				var paras []string
				for _, c := range item.Content {
					if para, ok := c.(*comment.Paragraph); ok {
						paras = append(paras, text(para.Text))
					}
				}
				a.Differences = append(a.Differences, strings.Join(paras, "\n\n"))
			}
		}
	}
	return finish(a)
}

func finish(a About) ([]byte, error) {
	if len(a.Differences) == 0 {
		return nil, fmt.Errorf("doc.go has no list under the heading %q", Heading)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(a); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// text is a comment's text as one line: its words, without the line
// breaks of the source.
func text(ts []comment.Text) string {
	var b strings.Builder
	var walk func([]comment.Text)
	walk = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case comment.Plain:
				b.WriteString(string(t))
			case comment.Italic:
				b.WriteString(string(t))
			case *comment.Link:
				walk(t.Text)
			case *comment.DocLink:
				walk(t.Text)
			}
		}
	}
	walk(ts)
	return strings.Join(strings.Fields(b.String()), " ")
}
