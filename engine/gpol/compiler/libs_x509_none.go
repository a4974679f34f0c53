//go:build nox509

package compiler

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
)

// x509Unavailable is x509.decode's error in a build without crypto/x509.
const x509Unavailable = "x509.decode: this build of genplay (the browser's full build) leaves out crypto/x509 " +
	"to stay within its size budget; run the scenario with the genplay CLI"

// x509Lib, in a build tagged nox509 (the browser's full build: crypto/x509
// is 0.4 MB brotli of its 3.5 MB budget), declares x509.decode with the
// same signature, so that policies compile as with the CLI, and answers
// every call with an error that says why (engine/doc.go lists it).
func x509Lib() []cel.EnvOption {
	return []cel.EnvOption{cel.Function("x509.decode",
		cel.Overload("x509_decode_string", []*cel.Type{cel.StringType}, cel.DynType,
			cel.UnaryBinding(func(ref.Val) ref.Val { return errorf("%s", x509Unavailable) })))}
}
