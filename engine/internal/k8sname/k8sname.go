// Package k8sname checks the name shapes of Kubernetes' API machinery
// (k8s.io/apimachinery/pkg/util/validation): DNS-1123 labels and
// subdomains, DNS-1035 labels, and the name part of qualified names (label
// and annotation keys) and label values. Each function accepts exactly what
// the regular expression in its comment accepts, without regexp: the store
// checks names on every write, and regexp's backtracking matcher is among
// the costliest code of a write once compiled to wasm. Lengths are the
// callers' business; they report them with their own messages.
package k8sname

func lowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func alnum(c byte) bool { return lowerAlnum(c) || 'A' <= c && c <= 'Z' }

// IsDNS1123Label reports whether s matches [a-z0-9]([-a-z0-9]*[a-z0-9])?
func IsDNS1123Label(s string) bool {
	if s == "" || !lowerAlnum(s[0]) || !lowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if !lowerAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// IsDNS1123Subdomain reports whether s matches
// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*: DNS-1123
// labels joined by dots.
func IsDNS1123Subdomain(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !IsDNS1123Label(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// IsDNS1035Label reports whether s matches [a-z]([-a-z0-9]*[a-z0-9])?
func IsDNS1035Label(s string) bool {
	return IsDNS1123Label(s) && 'a' <= s[0] && s[0] <= 'z'
}

// IsQualifiedName reports whether s matches
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]: the name part of a qualified
// name, and a non-empty label value.
func IsQualifiedName(s string) bool {
	if s == "" || !alnum(s[0]) || !alnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}
