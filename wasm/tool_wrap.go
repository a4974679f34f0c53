//go:build js && wasm && cel

package main

import (
	"encoding/json"
	"fmt"

	"github.com/genplay/genplay/engine/scaffold"
)

// wrap is scaffold.Wrap of the editor's text; options {file?, template?}.
func wrap(text string, options []byte) (any, error) {
	var o struct {
		File     string `json:"file"`
		Template bool   `json:"template"`
	}
	if len(options) > 0 {
		if err := json.Unmarshal(options, &o); err != nil {
			return nil, fmt.Errorf("wrap: options: %w", err)
		}
	}
	if o.Template {
		return scaffold.WrapFiles(nil, scaffold.Options{})
	}
	return scaffold.Wrap(o.File, []byte(text), scaffold.Options{})
}
