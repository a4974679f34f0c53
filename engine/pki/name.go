package pki

import (
	"encoding/asn1"
	"errors"
	"strings"
)

// Name is a distinguished name, its attributes in order (one per relative
// distinguished name, as openssl's -subj writes them without "+").
type Name []Attribute

// Attribute is one attribute of a Name: its short name (CN, O, OU, C, ST,
// L, emailAddress) and value.
type Attribute struct {
	Type, Value string
}

// attributeTypes are the attributes genplay reads and writes, with their
// object identifiers and the string type openssl encodes them as.
var attributeTypes = []struct {
	short string
	oid   asn1.ObjectIdentifier
	tag   int
}{
	{"C", asn1.ObjectIdentifier{2, 5, 4, 6}, asn1.TagPrintableString},
	{"ST", asn1.ObjectIdentifier{2, 5, 4, 8}, asn1.TagUTF8String},
	{"L", asn1.ObjectIdentifier{2, 5, 4, 7}, asn1.TagUTF8String},
	{"O", asn1.ObjectIdentifier{2, 5, 4, 10}, asn1.TagUTF8String},
	{"OU", asn1.ObjectIdentifier{2, 5, 4, 11}, asn1.TagUTF8String},
	{"CN", asn1.ObjectIdentifier{2, 5, 4, 3}, asn1.TagUTF8String},
	{"serialNumber", asn1.ObjectIdentifier{2, 5, 4, 5}, asn1.TagPrintableString},
	{"emailAddress", asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 1}, asn1.TagIA5String},
}

// longNames are openssl's long names of the attributes.
var longNames = map[string]string{
	"countryName": "C", "stateOrProvinceName": "ST", "localityName": "L", "organizationName": "O",
	"organizationalUnitName": "OU", "commonName": "CN",
}

// KnownAttribute returns the short name of an attribute type openssl
// knows by short or long name, and whether genplay knows it.
func KnownAttribute(t string) (string, bool) {
	if s, ok := longNames[t]; ok {
		return s, true
	}
	for _, a := range attributeTypes {
		if a.short == t {
			return t, true
		}
	}
	return "", false
}

// ErrSubjectFormat is openssl's complaint about a -subj it cannot read.
var ErrSubjectFormat = errors.New("subject name is expected to be in the format /type0=value0/type1=value1/type2=... where characters may be escaped by \\")

// ParseSubject reads openssl's -subj form, "/O=testorg/CN=alice" (a
// backslash escapes the next character). Attributes genplay does not know
// are returned in unknown, as openssl skips them with a warning; an
// attribute with no value is skipped likewise (in empty).
func ParseSubject(s string) (n Name, unknown, empty []string, err error) {
	if !strings.HasPrefix(s, "/") {
		return nil, nil, nil, ErrSubjectFormat
	}
	var parts []string
	var cur strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
		case c == '/':
			parts = append(parts, cur.String())
			cur.Reset()
		case c == '+':
			return nil, nil, nil, errors.New("multi-valued relative distinguished names (+) are not simulated")
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() > 0 {
		parts = append(parts, cur.String())
	}
	for _, p := range parts {
		t, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, nil, nil, ErrSubjectFormat
		}
		short, known := KnownAttribute(t)
		switch {
		case !known:
			unknown = append(unknown, t)
		case v == "":
			empty = append(empty, t)
		default:
			n = append(n, Attribute{Type: short, Value: v})
		}
	}
	return n, unknown, empty, nil
}

// CommonName is the value of the last CN attribute ("" without one), the
// one Kubernetes takes as the user name.
func (n Name) CommonName() string {
	cn := ""
	for _, a := range n {
		if a.Type == "CN" {
			cn = a.Value
		}
	}
	return cn
}

// Organizations are the values of the O attributes, in order: the user's
// groups to Kubernetes.
func (n Name) Organizations() []string {
	var out []string
	for _, a := range n {
		if a.Type == "O" {
			out = append(out, a.Value)
		}
	}
	return out
}

// String is the name as OpenSSL 3 prints it: "O = testorg, CN = alice".
func (n Name) String() string {
	parts := make([]string, len(n))
	for i, a := range n {
		parts[i] = a.Type + " = " + a.Value
	}
	return strings.Join(parts, ", ")
}

// Equal reports whether two names hold the same attributes in order.
func (n Name) Equal(o Name) bool {
	if len(n) != len(o) {
		return false
	}
	for i := range n {
		if n[i] != o[i] {
			return false
		}
	}
	return true
}

func (n Name) rdns() []rdnSET {
	out := make([]rdnSET, 0, len(n))
	for _, a := range n {
		for _, t := range attributeTypes {
			if t.short == a.Type {
				out = append(out, rdnSET{{Type: t.oid, Value: asn1.RawValue{Tag: t.tag, Bytes: []byte(a.Value)}}})
			}
		}
	}
	return out
}

// nameOf reads a Name; attributes of other types are kept by their
// object identifier.
func nameOf(rdns []rdnSET) (Name, error) {
	var n Name
	for _, rdn := range rdns {
		for _, atv := range rdn {
			if atv.Value.Class != asn1.ClassUniversal || atv.Value.IsCompound {
				return nil, errors.New("a name attribute is not a string")
			}
			typ := atv.Type.String()
			for _, t := range attributeTypes {
				if t.oid.Equal(atv.Type) {
					typ = t.short
				}
			}
			n = append(n, Attribute{Type: typ, Value: string(atv.Value.Bytes)})
		}
	}
	return n, nil
}
