package api

import (
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/genplay/genplay/site/examples"
)

// Example is one scenario of the playground's gallery.
type Example struct {
	// Name is the chainsaw Test's metadata.name (also its file name).
	Name string `json:"name"`
	// Title is what the gallery shows.
	Title string `json:"title"`
	// Description is the Test's spec.description.
	Description string `json:"description"`
	// Scenario is the chainsaw Test as YAML text, ready for POST /api/v1/run.
	Scenario string `json:"scenario"`
}

// Examples returns the gallery embedded from site/examples, in gallery order
// (examples.json's, which the playground shows too).
func Examples() ([]Example, error) {
	all, err := examples.All()
	if err != nil {
		return nil, fmt.Errorf("load the examples: %w", err)
	}
	list := make([]Example, 0, len(all))
	for _, e := range all {
		var test struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Spec struct {
				Description string `json:"description"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(e.Text, &test); err != nil {
			return nil, fmt.Errorf("example %s: %w", e.File, err)
		}
		name := test.Metadata.Name
		if name == "" {
			name = strings.TrimSuffix(e.File, ".yaml")
		}
		list = append(list, Example{
			Name:        name,
			Title:       e.Title,
			Description: strings.TrimSpace(test.Spec.Description),
			Scenario:    string(e.Text),
		})
	}
	return list, nil
}
