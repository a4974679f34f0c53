//go:build js

package variables

import "errors"

// errX509InWasm is x509_decode's answer in the browser and the worker:
// Go's crypto/x509, which it needs, would add 0.35 MB (brotli) to the wasm.
var errX509InWasm = errors.New("JMESPath function 'x509_decode': runs only in genplay's native builds (the CLI, genplay serve): " +
	"Go's crypto/x509 would add 0.35 MB to the browser's wasm")

func jpX509Decode(string) (any, error) { return nil, errX509InWasm }
