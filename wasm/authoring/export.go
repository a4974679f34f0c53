package authoring

import (
	"errors"

	"github.com/genplay/genplay/engine/export"
	"github.com/genplay/genplay/wasm/bridge"
)

// Export is the "export" tool: the scenario as a chainsaw Test that checks
// what Kyverno did ([export.Test], as `genplay export`). Its options are
// run's, without override: the export checks the policies as they are
// written. The result is export.Result: {text, asserts, errors}.
func Export(text string, options []byte) (any, error) {
	file, opts, err := bridge.ParseOptions(string(options))
	if err != nil {
		return nil, err
	}
	if opts.Override != nil {
		return nil, errors.New("options: export checks the policies as written; it takes no override")
	}
	opts.Families, opts.Scripts = bridge.Families, bridge.Scripts
	return export.Test(file, []byte(text), opts)
}
