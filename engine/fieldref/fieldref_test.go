package fieldref

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const generated = "../../site/src/fieldref.json"

// The playground bundles the checked-in JSON: it must be what Build makes
// from the engine's schemas now.
func TestTheCheckedInJSONIsCurrent(t *testing.T) {
	want := JSON()
	got, err := os.ReadFile(generated)
	require.NoError(t, err)
	if !bytes.Equal(want, got) {
		t.Fatalf("%s is stale: the engine's schemas or docs.go changed; refresh with go run ./site/fieldrefgen (make site does)", generated)
	}
	assert.True(t, bytes.Equal(JSON(), want), "the same bytes every time")
}

// resolve finds the node at family:a.b[].c.
func resolve(ref *Reference, path string) *Node {
	family, rest, _ := strings.Cut(path, ":")
	n := ref.Roots[family]
	for _, part := range strings.Split(rest, ".") {
		if n == nil || part == "" {
			break
		}
		name, items := strings.CutSuffix(part, "[]")
		n = n.Props[name]
		for items && n != nil {
			n = n.Items
			name, items = strings.CutSuffix(name, "[]")
		}
	}
	return n
}

func TestEveryDocNamesAField(t *testing.T) {
	ref := Build()
	for path := range docs {
		assert.NotNil(t, resolve(ref, path), "docs.go documents %s, which the schema does not have", path)
	}
	for prefix := range urls {
		if !strings.HasSuffix(prefix, ":") {
			assert.NotNil(t, resolve(ref, prefix), "urls names %s, which the schema does not have", prefix)
		}
	}
}

func TestTheGenerateFieldsAreDocumented(t *testing.T) {
	ref := Build()
	for _, path := range documented {
		n := resolve(ref, path)
		require.NotNil(t, n, path)
		assert.NotEmpty(t, n.Doc, path)
	}
	gen := resolve(ref, "policy:spec.rules[].generate")
	assert.Equal(t, "https://kyverno.io/docs/policy-types/cluster-policy/generate/", gen.URL)
	assert.Empty(t, gen.Props["synchronize"].URL, "a field inherits its parent's page")
	assert.Equal(t, "boolean", gen.Props["synchronize"].Type)
	assert.NotContains(t, gen.Props, "orphaned", "not a Kyverno field: the API server refuses it")
	assert.Equal(t, []string{"Ignore", "Fail"}, resolve(ref, "policy:spec.failurePolicy").Enum)
	assert.True(t, resolve(ref, "chainsaw:spec.steps[].try[].apply.resource").Object)
	assert.Equal(t, "https://kyverno.io/docs/policy-types/generating-policy/", ref.Roots[GPol].URL)
}

func TestEveryURLIsKyvernoDocumentation(t *testing.T) {
	for _, u := range urls {
		assert.True(t, strings.HasPrefix(u, "https://kyverno.io/docs/") || strings.HasPrefix(u, "https://kyverno.github.io/chainsaw/"), u)
	}
}
