package authoring

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/migrate"
	"github.com/genplay/genplay/wasm/bridge"
)

// MigrateOptions are the migrate tool's options.
type MigrateOptions struct {
	// File names the scenario in findings and errors; default
	// bridge.DefaultFile.
	File string `json:"file,omitempty"`
	// Converted, when set, is the converted scenario as the user edited
	// it: the comparison runs it instead of the converter's.
	Converted string `json:"converted,omitempty"`
	// KyvernoVersion is the Kyverno release both sides simulate ("" the
	// latest).
	KyvernoVersion string `json:"kyvernoVersion,omitempty"`
}

// Migrate is the "migrate" tool: the scenario text converted and compared
// ([migrate.ConvertScenario], with the playground's engine options: the
// build's families, a default Helm install's permissions).
func Migrate(text string, options []byte) (any, error) {
	var o MigrateOptions
	if len(bytes.TrimSpace(options)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(options))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return nil, fmt.Errorf("options: %w", err)
		}
	}
	if o.File == "" {
		o.File = bridge.DefaultFile
	}
	if len(o.Converted) > bridge.MaxInput {
		return nil, fmt.Errorf("the converted scenario is %d bytes; the limit is %d", len(o.Converted), bridge.MaxInput)
	}
	kyverno, err := engine.ParseKyvernoVersion(o.KyvernoVersion)
	if err != nil {
		return nil, fmt.Errorf("options: kyvernoVersion: %w", err)
	}
	if len(bridge.Families) == 0 {
		return nil, errors.New("this build of genplay has no CEL engine: the converted scenario cannot run")
	}
	return migrate.ConvertScenario(o.File, []byte(text), []byte(o.Converted), engine.Options{Families: bridge.Families, Scripts: bridge.Scripts, KyvernoVersion: kyverno})
}
