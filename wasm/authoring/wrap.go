package authoring

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/genplay/genplay/engine/scaffold"
)

// WrapOptions are the wrap tool's options.
type WrapOptions struct {
	// File names the text in notes and errors.
	File string `json:"file,omitempty"`
	// Template asks for the "New scenario" template instead of a wrap.
	Template bool `json:"template,omitempty"`
}

// Wrap is the "wrap" tool: bare policies, a manifest or a kyverno-test.yaml
// wrapped into a scenario ([scaffold.Wrap], as `genplay new`), or the "New
// scenario" template.
func Wrap(text string, options []byte) (any, error) {
	var o WrapOptions
	if len(bytes.TrimSpace(options)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(options))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
	}
	if o.Template {
		return scaffold.WrapFiles(nil, scaffold.Options{})
	}
	return scaffold.Wrap(o.File, []byte(text), scaffold.Options{})
}
