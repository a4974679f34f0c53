// Package examples holds the playground's gallery: chainsaw Tests with their
// resources inline, so each runs unchanged in the playground, with
// `genplay run`, with chainsaw against a real cluster, and in Go tests.
// examples.json lists them in gallery order with their titles.
package examples

import (
	"embed"
	"encoding/json"
	"fmt"
)

// FS holds examples.json and every example file.
//
//go:embed examples.json *.yaml
var FS embed.FS

// Example is one gallery entry.
type Example struct {
	File  string `json:"file"`  // file name in FS, e.g. "default-deny-netpol.yaml"
	Title string `json:"title"` // what the gallery shows
	Text  []byte `json:"-"`     // the chainsaw Test
}

// All returns the examples in gallery order, with their text.
func All() ([]Example, error) {
	index, err := FS.ReadFile("examples.json")
	if err != nil {
		return nil, fmt.Errorf("read examples.json: %w", err)
	}
	var list []Example
	if err := json.Unmarshal(index, &list); err != nil {
		return nil, fmt.Errorf("parse examples.json: %w", err)
	}
	for i := range list {
		if list[i].Text, err = FS.ReadFile(list[i].File); err != nil {
			return nil, fmt.Errorf("example %q: %w", list[i].Title, err)
		}
	}
	return list, nil
}
