package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/migrate/check"
)

const migratePolicy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: add-netpol
spec:
  rules:
  - name: add-netpol
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      data:
        spec:
          podSelector: {}
`

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func migrateRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(append([]string{"migrate"}, args...), nil, &out, &errb)
	return code, out.String(), errb.String()
}

func TestMigrateCommand(t *testing.T) {
	t.Run("a fully convertible policy prints a valid GeneratingPolicy and exits 0", func(t *testing.T) {
		code, out, errs := migrateRun(writeTemp(t, "p.yaml", migratePolicy))
		assert.Equal(t, 0, code, errs)
		assert.Contains(t, out, "kind: GeneratingPolicy")
		assert.Contains(t, out, "# from rule add-netpol, generate.data")
		assert.Empty(t, check.Policies("out.yaml", out))
		assert.Contains(t, errs, "1 rules converted fully, 0 partly, 0 not at all")
		assert.NotContains(t, errs, "note: with synchronize", "Kyverno v1.19.1's families agree on a policy update")
		code, _, errs = migrateRun("--kyverno-version", "v1.19.0", writeTemp(t, "p.yaml", migratePolicy))
		assert.Equal(t, 0, code, errs)
		assert.Contains(t, errs, "p.yaml:17:7: note: with synchronize, a GeneratingPolicy of Kyverno v1.19.0 deletes and recreates", "notes name the line and the release")
	})
	t.Run("an unconvertible piece is reported at its line and exits 1", func(t *testing.T) {
		p := strings.Replace(migratePolicy, "podSelector: {}", "podSelector: {}\n        x: \"{{ lookup(request.object.metadata.labels, 'a') }}\"", 1)
		code, out, errs := migrateRun(writeTemp(t, "p.yaml", p))
		assert.Equal(t, 1, code)
		assert.Contains(t, errs, "p.yaml:21:9: unconverted: variable {{ lookup(request.object.metadata.labels, 'a') }}: the JMESPath function lookup has no CEL counterpart (by hand: index the map or list directly")
		assert.Contains(t, errs, "0 rules converted fully, 1 partly")
		assert.Contains(t, out, "kind: GeneratingPolicy", "what converts is still printed")
	})
	t.Run("-o json gives the YAML and the findings with positions", func(t *testing.T) {
		p := strings.Replace(migratePolicy, "podSelector: {}", "podSelector: {}\n        x: \"{{ serviceAccountName }}\"", 1)
		code, out, _ := migrateRun("-o", "json", writeTemp(t, "p.yaml", p))
		assert.Equal(t, 1, code)
		var got struct {
			Status string
			Files  []struct {
				Status   string
				YAML     string
				Policies []struct {
					Source string
					Rules  []struct{ Rule, Status, Name, YAML string }
				}
				Findings []struct {
					File         string
					Line, Column int
					Kind         string
					Rule         string
					Message      string
					Recipe       string
				}
			}
		}
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		require.Len(t, got.Files, 1)
		f := got.Files[0]
		assert.Equal(t, "partial", f.Status)
		assert.Contains(t, f.YAML, "kind: GeneratingPolicy")
		require.Len(t, f.Policies, 1)
		assert.Equal(t, "ClusterPolicy/add-netpol", f.Policies[0].Source)
		assert.Equal(t, "add-netpol", f.Policies[0].Rules[0].Name)
		var unconverted int
		for _, fd := range f.Findings {
			if fd.Kind == "unconverted" {
				unconverted++
				assert.Equal(t, 21, fd.Line)
				assert.Equal(t, "add-netpol", fd.Rule)
				assert.Contains(t, fd.Message, "serviceAccountName is computed by Kyverno")
				assert.Contains(t, fd.Recipe, "system")
			}
		}
		assert.Equal(t, 1, unconverted)
	})
	t.Run("bad input exits 2 with the line", func(t *testing.T) {
		code, _, errs := migrateRun(writeTemp(t, "p.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"))
		assert.Equal(t, 2, code)
		assert.Contains(t, errs, "p.yaml:1:1: no kyverno.io ClusterPolicy or Policy in the file")
		code, _, errs = migrateRun(writeTemp(t, "p.yaml", "a: [\n"))
		assert.Equal(t, 2, code)
		assert.Contains(t, errs, "p.yaml:")
		code, _, _ = migrateRun(filepath.Join(t.TempDir(), "missing.yaml"))
		assert.Equal(t, 2, code)
		code, _, _ = migrateRun()
		assert.Equal(t, 2, code)
		code, _, _ = migrateRun("-o", "xml", writeTemp(t, "p.yaml", migratePolicy))
		assert.Equal(t, 2, code)
	})
	t.Run("a chainsaw Test becomes the same Test on the converted policies, which runs", func(t *testing.T) {
		for _, ex := range []string{"default-deny-netpol.yaml", "clone-registry-secret.yaml", "resourcequota-from-label.yaml"} {
			code, out, errs := migrateRun(filepath.Join("..", "..", "site", "examples", ex))
			assert.Equal(t, 0, code, errs)
			assert.Contains(t, out, "kind: Test")
			assert.Contains(t, out, "kind: GeneratingPolicy")
			assert.NotContains(t, out, "kind: ClusterPolicy")
			var runOut, runErr bytes.Buffer
			runCode := run([]string{"run", writeTemp(t, ex, out)}, nil, &runOut, &runErr)
			assert.Equal(t, 0, runCode, "%s: the converted scenario passes:\n%s%s", ex, runOut.String(), runErr.String())
		}
	})
}

func TestMigrateCompare(t *testing.T) {
	t.Run("a scenario whose runs agree exits 0 and names the family labels", func(t *testing.T) {
		code, out, errs := migrateRun("--compare", filepath.Join("..", "..", "site", "examples", "default-deny-netpol.yaml"))
		assert.Equal(t, 0, code, errs)
		assert.Contains(t, out, "[0] apply ClusterPolicy default-deny  create the policy  (converted: apply GeneratingPolicy default-deny)")
		assert.Contains(t, out, "labels that differ by family (not compared): generate.kyverno.io/policy-namespace, generate.kyverno.io/rule-name")
		assert.Contains(t, out, "0 of 4 steps differ")
	})
	// The case without its outcome step: the runs differ at the event.
	deletedTwice := cheatSheetCase(t, "data/downstream-deleted-twice/sync-true-orphan-false")
	deletedTwice = deletedTwice[:strings.Index(deletedTwice, "  - name: outcome\n")]
	// Kyverno v1.19.0's GeneratingPolicy recreates a deleted downstream once
	// (kyverno#17265); from v1.19.1 both families recreate it every time.
	t.Run("both families under the latest release agree", func(t *testing.T) {
		code, out, errs := migrateRun("--compare", writeTemp(t, "s.yaml", deletedTwice))
		assert.Equal(t, 0, code, errs)
		assert.Contains(t, out, "0 of ")
	})
	t.Run("a family difference is told apart, with each side's reasons", func(t *testing.T) {
		code, out, _ := migrateRun("--compare", "--kyverno-version", "v1.19.0", writeTemp(t, "s.yaml", deletedTwice))
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "differs: Kyverno's two families behave differently here")
		assert.Contains(t, out, "NetworkPolicy team-a/default-deny: ClusterPolicy run present, GeneratingPolicy run absent")
		assert.Contains(t, out, "ClusterPolicy run:    kyverno recreated (ClusterPolicy/default-deny)")
	})
	t.Run("a difference the conversion caused is told apart", func(t *testing.T) {
		at := regexp.MustCompile(`\n( *)policyTypes: \[Ingress, Egress\]`).FindStringSubmatch(deletedTwice)
		require.NotNil(t, at)
		partial := strings.Replace(deletedTwice, at[0], at[0]+"\n"+at[1]+"x: \"{{ lookup(request.object.metadata.labels, 'a') }}\"", 1)
		code, out, _ := migrateRun("--compare", "--kyverno-version", "v1.19.0", writeTemp(t, "s.yaml", partial))
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "converted (partial)")
		assert.Contains(t, out, "unconverted: variable {{ lookup(")
		assert.Contains(t, out, "the conversion is partial")
	})
	t.Run("each difference is told apart by the rule it comes from", func(t *testing.T) {
		// A second rule that converts partly: the NetworkPolicy rule's
		// difference stays a family difference.
		rule := `- name: settings
  match:
    any:
    - resources:
        kinds: [Namespace]
  generate:
    apiVersion: v1
    kind: ConfigMap
    name: settings
    namespace: "{{request.object.metadata.name}}"
    synchronize: true
    data:
      data:
        x: "{{ lookup(request.object.metadata.labels, 'env') }}"`
		const last = "                    policyTypes: [Ingress, Egress]\n"
		require.Contains(t, deletedTwice, last)
		text := strings.Replace(deletedTwice, last, last+indentLines(rule, 12)+"\n", 1)
		code, out, _ := migrateRun("--compare", "--kyverno-version", "v1.19.0", "-o", "json", writeTemp(t, "s.yaml", text))
		assert.Equal(t, 1, code)
		var got struct {
			Conversion string
			Steps      []struct {
				Summary string
				Cause   string
				Diffs   []struct{ Object, Cause string }
			}
		}
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		assert.Equal(t, "partial", got.Conversion)
		causes := map[string]string{}
		for _, s := range got.Steps {
			for _, d := range s.Diffs {
				causes[d.Object] = d.Cause
			}
		}
		assert.Equal(t, "family", causes["NetworkPolicy team-a/default-deny"], "%v", causes)
		assert.Equal(t, "conversion", causes["ConfigMap team-a/settings"], "%v", causes)
	})
	t.Run("-o json", func(t *testing.T) {
		code, out, _ := migrateRun("--compare", "--kyverno-version", "v1.19.0", "-o", "json", writeTemp(t, "s.yaml", deletedTwice))
		assert.Equal(t, 1, code)
		var got struct {
			Conversion   string
			FamilyLabels []string
			Steps        []struct {
				Summary string
				Cause   string
				Diffs   []struct {
					Object                                        string
					GeneratingPolicyRun                           string
					ClusterPolicyReasons, GeneratingPolicyReasons []string
				}
			}
		}
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		assert.Equal(t, "full", got.Conversion)
		assert.Contains(t, got.FamilyLabels, "generate.kyverno.io/rule-name")
		var causes []string
		for _, s := range got.Steps {
			if s.Cause != "" {
				causes = append(causes, s.Cause)
			}
		}
		assert.Equal(t, []string{"family"}, causes)
	})
	t.Run("a policy one family rejects is a difference of its own", func(t *testing.T) {
		clone := cheatSheetCase(t, "clone/policy-deleted/sync-true-orphan-true")
		// A default Helm install: the background controller may not
		// manage Secrets, which Kyverno checks for ClusterPolicies only.
		code, out, _ := migrateRun("--compare", writeTemp(t, "s.yaml", clone))
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "differs: Kyverno's two families admit the policy differently")
		assert.Contains(t, out, "ClusterPolicy run:    rejected: admission webhook \"validate-policy.kyverno.svc\" denied the request")
		assert.Contains(t, out, "GeneratingPolicy run: accepted")
		code, _, _ = migrateRun("--compare", "--permissions", "bogus", writeTemp(t, "s.yaml", clone))
		assert.Equal(t, 2, code)
	})
	t.Run("the same scenario gives the same bytes", func(t *testing.T) {
		f := writeTemp(t, "s.yaml", deletedTwice)
		_, a, _ := migrateRun("--compare", "-o", "json", f)
		_, b, _ := migrateRun("--compare", "-o", "json", f)
		assert.Equal(t, a, b)
	})
	t.Run("a scenario without a legacy policy is bad input", func(t *testing.T) {
		code, _, errs := migrateRun("--compare", writeTemp(t, "s.yaml", passingTest))
		assert.Equal(t, 2, code)
		assert.Contains(t, errs, "writes no kyverno.io ClusterPolicy or Policy")
	})
}

// indentLines indents every line of s by n spaces.
func indentLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Repeat(" ", n) + l
	}
	return strings.Join(lines, "\n")
}
