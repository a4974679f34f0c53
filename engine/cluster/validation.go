package cluster

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/internal/k8sname"
)

// The patterns (checked by package k8sname) and messages below follow k8s.io/apimachinery's
// pkg/util/validation, so a user reads the same words as from kubectl.
const (
	dns1123LabelFmt   = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubFmt     = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt   = "[a-z]([-a-z0-9]*[a-z0-9])?"
	qualifiedNameFmt  = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt     = "(" + qualifiedNameFmt + ")?"
	dns1123LabelMax   = 63
	dns1123SubMax     = 253
	qualifiedNameMax  = 63
	labelValueMax     = 63
	annotationsMaxLen = 256 * 1024
)

func maxLen(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// checkDNS1123Label returns what is wrong with s as a DNS-1123 label.
func checkDNS1123Label(s string) []string {
	var errs []string
	if len(s) > dns1123LabelMax {
		errs = append(errs, maxLen(dns1123LabelMax))
	}
	if !k8sname.IsDNS1123Label(s) {
		errs = append(errs, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "+
			"and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "+
			"regex used for validation is '"+dns1123LabelFmt+"')")
	}
	return errs
}

// checkDNS1123Subdomain returns what is wrong with s as a DNS-1123 subdomain.
func checkDNS1123Subdomain(s string) []string {
	var errs []string
	if len(s) > dns1123SubMax {
		errs = append(errs, maxLen(dns1123SubMax))
	}
	if !k8sname.IsDNS1123Subdomain(s) {
		errs = append(errs, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "+
			"and must start and end with an alphanumeric character (e.g. 'example.com', "+
			"regex used for validation is '"+dns1123SubFmt+"')")
	}
	return errs
}

// checkDNS1035Label returns what is wrong with s as a DNS-1035 label.
func checkDNS1035Label(s string) []string {
	var errs []string
	if len(s) > dns1123LabelMax {
		errs = append(errs, maxLen(dns1123LabelMax))
	}
	if !k8sname.IsDNS1035Label(s) {
		errs = append(errs, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', "+
			"start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "+
			"regex used for validation is '"+dns1035LabelFmt+"')")
	}
	return errs
}

// checkPathSegment returns what is wrong with s as a name that must fit in
// one URL path segment.
func checkPathSegment(s string) []string {
	switch s {
	case ".", "..":
		return []string{fmt.Sprintf("may not be '%s'", s)}
	}
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(s, bad) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return errs
}

// checkName validates metadata.name under rule.
func checkName(rule NameRule, name string) []string {
	switch rule {
	case NameLabel:
		return checkDNS1123Label(name)
	case NameDNS1035Label:
		return checkDNS1035Label(name)
	case NamePathSegment:
		return checkPathSegment(name)
	default:
		return checkDNS1123Subdomain(name)
	}
}

// checkQualifiedName validates a label or annotation key: an optional
// DNS-1123 subdomain prefix and "/", then a name of at most 63 characters.
func checkQualifiedName(key string) []string {
	var errs []string
	name := key
	if i := strings.IndexByte(key, '/'); i >= 0 {
		prefix := key[:i]
		name = key[i+1:]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, e := range checkDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+e)
			}
		}
		if strings.Contains(name, "/") {
			return []string{"a qualified name must consist of alphanumeric characters, '-', '_' or '.', " +
				"and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', " +
				"regex used for validation is '" + qualifiedNameFmt + "') with an optional DNS subdomain prefix " +
				"and '/' (e.g. 'example.com/MyName')"}
		}
	}
	switch {
	case name == "":
		errs = append(errs, "name part must be non-empty")
	case len(name) > qualifiedNameMax:
		errs = append(errs, "name part "+maxLen(qualifiedNameMax))
	}
	if name != "" && !k8sname.IsQualifiedName(name) {
		errs = append(errs, "name part must consist of alphanumeric characters, '-', '_' or '.', "+
			"and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "+
			"regex used for validation is '"+qualifiedNameFmt+"')")
	}
	return errs
}

// checkLabelValue validates a label value: empty, or at most 63 characters
// of the qualified-name alphabet.
func checkLabelValue(v string) []string {
	var errs []string
	if len(v) > labelValueMax {
		errs = append(errs, maxLen(labelValueMax))
	}
	if v != "" && !k8sname.IsQualifiedName(v) {
		errs = append(errs, "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "+
			"and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "+
			"regex used for validation is '"+labelValueFmt+"')")
	}
	return errs
}

// validateMeta checks the parts of metadata the API server checks for every
// kind: name, labels and annotations. metadata must already be a map.
func validateMeta(info KindInfo, md map[string]any) []FieldError {
	var errs []FieldError
	name, _ := md["name"].(string)
	if name == "" {
		errs = append(errs, FieldError{Type: "Required value", Field: "metadata.name",
			Detail: "name or generateName is required"})
	} else {
		for _, d := range checkName(info.Names, name) {
			errs = append(errs, FieldError{Type: "Invalid value", Field: "metadata.name", Value: strconv.Quote(name), Detail: d})
		}
	}
	errs = append(errs, validateStringMap(md, "labels", true)...)
	errs = append(errs, validateStringMap(md, "annotations", false)...)
	return errs
}

// validateStringMap checks metadata.labels or metadata.annotations: a map of
// strings with qualified-name keys; label values are checked too.
func validateStringMap(md map[string]any, field string, labels bool) []FieldError {
	raw, present := md[field]
	if !present || raw == nil {
		return nil
	}
	path := "metadata." + field
	m, ok := raw.(map[string]any)
	if !ok {
		return []FieldError{{Type: "Invalid value", Field: path, Value: fmt.Sprintf("%v", raw), Detail: "must be a map of strings"}}
	}
	var errs []FieldError
	total := 0
	for _, k := range sortedKeys(m) {
		key := k
		if !labels {
			// The API server validates annotation keys lowercased (ValidateAnnotations).
			key = strings.ToLower(k)
		}
		for _, d := range checkQualifiedName(key) {
			errs = append(errs, FieldError{Type: "Invalid value", Field: path, Value: strconv.Quote(k), Detail: d})
		}
		v, ok := m[k].(string)
		if !ok {
			errs = append(errs, FieldError{Type: "Invalid value", Field: path + "[" + k + "]",
				Value: fmt.Sprintf("%v", m[k]), Detail: "must be a string"})
			continue
		}
		total += len(k) + len(v)
		if labels {
			for _, d := range checkLabelValue(v) {
				errs = append(errs, FieldError{Type: "Invalid value", Field: path, Value: strconv.Quote(v), Detail: d})
			}
		}
	}
	if !labels && total > annotationsMaxLen {
		errs = append(errs, FieldError{Type: "Too long", Field: path,
			Detail: fmt.Sprintf("may not be more than %d bytes", annotationsMaxLen)})
	}
	return errs
}
