package policy

import (
	"testing"

	"github.com/genplay/genplay/engine/source"
)

// FuzzParse checks that reading any input as YAML and then as a policy,
// validating it and comparing it with itself never panics.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		basePolicy,
		updateBase,
		generateRule("team-a", "", "", "      namespace: team-a\n      cloneList: {namespace: team-a, kinds: [v1/Secret, Secret, a/b/c/d]}\n"),
		"a: &a [*a]\n",
		"apiVersion: kyverno.io/v1\nkind: Policy\nspec: {rules: [{generate: {foreach: [1, {data: {(x): 1}}]}}, 3, null]}\n",
		"apiVersion: kyverno.io/v2beta1\nkind: ClusterPolicy\nspec: {rules: {}}\n---\n- [",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, _ := source.Parse("fuzz.yaml", data)
		for _, doc := range docs {
			_, _ = source.Marshal(doc.Value)
			doc.Pos("spec", "rules", 0, "generate")
			obj, ok := doc.Object()
			if !ok || !IsPolicy(obj) {
				continue
			}
			p, _ := Parse(doc, obj)
			if p == nil {
				continue
			}
			Validate(p, testKinds)
			ValidateUpdate(p, p)
			RemovedRules(p, p)
		}
	})
}
