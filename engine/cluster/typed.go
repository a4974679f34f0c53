package cluster

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"

	"github.com/genplay/genplay/engine/internal/k8sname"
	"github.com/genplay/genplay/engine/resource"
)

// The API server decodes a request into its Go type first, and validates
// the typed object after defaulting. For the two kinds whose contents users
// write by hand in generate rules, ConfigMap and Secret, the store makes the
// same checks, so a rule that generates `data: {enabled: true}` fails as it
// would in a cluster. Other kinds' specs are stored as given.

// maxDataSize is the API server's limit on a ConfigMap's or a Secret's data
// (MaxSecretSize, used for both).
const maxDataSize = 1 << 20

// dataField is a map field of a core kind that holds strings, or base64
// text of bytes when binary.
type dataField struct {
	name   string
	binary bool
}

var dataFields = map[string][]dataField{
	"ConfigMap": {{name: "data"}, {name: "binaryData", binary: true}},
	"Secret":    {{name: "data", binary: true}, {name: "stringData"}},
}

// decodeData is the decoding step for ConfigMap and Secret: a data field that
// is not a map, a value that is not a string, or base64 that does not decode
// is a BadRequest with encoding/json's words, as the API server answers. A
// null value decodes as the empty string.
func decodeData(info KindInfo, o resource.Object) error {
	if info.Group != "" {
		return nil
	}
	for _, f := range dataFields[info.Kind] {
		raw, present := o[f.name]
		if !present || raw == nil {
			continue
		}
		elem := "string"
		if f.binary {
			elem = "[]uint8"
		}
		m, ok := raw.(map[string]any)
		if !ok {
			return cannotDecode(info, fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.%s of type map[string]%s",
				jsonType(raw), info.Kind, f.name, elem))
		}
		// Checked in map order, without sorting the keys of every write;
		// the error names the first bad key in key order.
		bad, why := "", ""
		for k, v := range m {
			var problem string
			switch v := v.(type) {
			case nil:
				m[k] = ""
			case string:
				if f.binary {
					if _, err := base64.StdEncoding.DecodeString(v); err != nil {
						problem = err.Error()
					}
				}
			default:
				problem = fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", jsonType(v), info.Kind, f.name, elem)
			}
			if problem != "" && (why == "" || k < bad) {
				bad, why = k, problem
			}
		}
		if why != "" {
			return cannotDecode(info, why)
		}
	}
	return nil
}

func cannotDecode(info KindInfo, why string) error {
	return badRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", info.Kind, info.Version, info.Kind, why))
}

func jsonType(v any) string {
	switch v.(type) {
	case bool:
		return "bool"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// validateData is ValidateConfigMap's and ValidateSecret's check of the
// data, after defaulting (a Secret's stringData is in data by then): every
// key a config key, and at most 1 MiB of keys and values.
func validateData(info KindInfo, o resource.Object) []FieldError {
	if info.Group != "" || dataFields[info.Kind] == nil {
		return nil
	}
	var errs []FieldError
	size := 0
	for _, f := range dataFields[info.Kind] {
		m, _ := o[f.name].(map[string]any)
		var bad []string // reported in key order; sorted only when there are any
		for k, v := range m {
			if len(checkConfigKey(k)) > 0 {
				bad = append(bad, k)
			}
			s, _ := v.(string)
			if f.binary {
				size += len(k) + base64.StdEncoding.DecodedLen(len(s))
			} else {
				size += len(k) + len(s)
			}
		}
		slices.Sort(bad)
		for _, k := range bad {
			for _, d := range checkConfigKey(k) {
				errs = append(errs, FieldError{Type: "Invalid value", Field: f.name + "[" + k + "]", Value: strconv.Quote(k), Detail: d})
			}
		}
	}
	if size > maxDataSize {
		field := "[]" // ValidateConfigMap reports it at the root
		if info.Kind == "Secret" {
			field = "data"
		}
		errs = append(errs, FieldError{Type: "Too long", Field: field, Detail: fmt.Sprintf("must have at most %d bytes", maxDataSize)})
	}
	return errs
}

// checkConfigKey is apimachinery's IsConfigMapKey.
func checkConfigKey(k string) []string {
	var errs []string
	if len(k) > dns1123SubMax {
		errs = append(errs, maxLen(dns1123SubMax))
	}
	if !k8sname.IsConfigKeyChars(k) {
		errs = append(errs, "a valid config key must consist of alphanumeric characters, '-', '_' or '.' "+
			"(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')")
	}
	switch {
	case k == ".":
		errs = append(errs, "must not be '.'")
	case k == "..":
		errs = append(errs, "must not be '..'")
	case len(k) > 2 && k[:2] == "..":
		errs = append(errs, "must not start with '..'")
	}
	return errs
}
