package k8sname

import (
	"regexp"
	"testing"
)

// The regular expressions of k8s.io/apimachinery's validation, as the
// API server quotes them: the functions must agree with them exactly.
var references = []struct {
	name  string
	re    *regexp.Regexp
	check func(string) bool
}{
	{"DNS-1123 label", regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`), IsDNS1123Label},
	{"DNS-1123 subdomain", regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`), IsDNS1123Subdomain},
	{"DNS-1035 label", regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`), IsDNS1035Label},
	{"qualified name", regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`), IsQualifiedName},
	{"config key", regexp.MustCompile(`^[-._a-zA-Z0-9]+$`), IsConfigKeyChars},
}

func agree(t *testing.T, s string) {
	t.Helper()
	for _, r := range references {
		if got, want := r.check(s), r.re.MatchString(s); got != want {
			t.Fatalf("%s: %q gives %v, the regular expression %v", r.name, s, got, want)
		}
	}
}

// TestTheChecksAgreeWithTheRegularExpressions tries every string of up to
// four characters over an alphabet holding one character of each class
// the patterns distinguish, plus names from real objects.
func TestTheChecksAgreeWithTheRegularExpressions(t *testing.T) {
	alphabet := []byte{'a', 'z', 'A', 'Z', '0', '9', '-', '_', '.', '/', ' ', '\n', 0xc3}
	var walk func(prefix []byte, depth int)
	walk = func(prefix []byte, depth int) {
		agree(t, string(prefix))
		if depth == 4 {
			return
		}
		for _, c := range alphabet {
			walk(append(prefix, c), depth+1)
		}
	}
	walk(nil, 0)
	for _, s := range []string{"default-deny", "team-00042", "generate.kyverno.io", "app.kubernetes.io",
		"kubernetes.io/metadata.name", "kyverno:secrets-091a1b", "a..b", ".a", "a.", "-a", "a-", "Ab", "x\n"} {
		agree(t, s)
	}
}

func FuzzTheChecksAgreeWithTheRegularExpressions(f *testing.F) {
	for _, s := range []string{"", "a", "a-b.c", "A_b.C", "1.2.3", "a..b", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { agree(t, s) })
}
