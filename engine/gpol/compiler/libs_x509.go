//go:build !nox509

package compiler

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// x509Lib decodes a PEM certificate into the map Kyverno returns: the
// fields of crypto/x509.Certificate as encoding/json renders them.
func x509Lib() []cel.EnvOption {
	return []cel.EnvOption{cel.Function("x509.decode",
		cel.Overload("x509_decode_string", []*cel.Type{cel.StringType}, cel.DynType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				block, _ := pem.Decode([]byte(str(v)))
				if block == nil {
					return errorf("failed to decode PEM block")
				}
				cert, err := x509.ParseCertificate(block.Bytes)
				if err != nil {
					return errorf("failed to parse certificate: %v", err)
				}
				b, err := json.Marshal(cert)
				if err != nil {
					return errorf("failed to encode certificate: %v", err)
				}
				var m any
				if err := json.Unmarshal(b, &m); err != nil {
					return errorf("failed to encode certificate: %v", err)
				}
				return types.DefaultTypeAdapter.NativeToValue(toCEL(m))
			})))}
}
