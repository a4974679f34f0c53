//go:build js

package compiler

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
)

// x509Unavailable is x509.decode's error in a js build, without crypto/x509.
const x509Unavailable = "x509.decode: runs only in genplay's native builds (the CLI, genplay serve): " +
	"Go's crypto/x509 would add 0.4 MB to the browser's wasm; run the scenario with the genplay CLI"

// x509Lib, in a js build (the browser's full build and the worker's with
// the CEL family: crypto/x509 is 0.4 MB brotli of the 3.5 MB budget),
// declares x509.decode with the same signature, so that policies compile
// as with the CLI, and answers every call with an error that says why
// (engine/doc.go lists it; JMESPath's x509_decode is cut the same way).
func x509Lib() []cel.EnvOption {
	return []cel.EnvOption{cel.Function("x509.decode",
		cel.Overload("x509_decode_string", []*cel.Type{cel.StringType}, cel.DynType,
			cel.UnaryBinding(func(ref.Val) ref.Val { return errorf("%s", x509Unavailable) })))}
}
