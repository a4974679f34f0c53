package scalegen

import (
	"fmt"
	"strings"
)

// Namespace is the name of the i-th Namespace of a scenario.
func Namespace(i int) string { return fmt.Sprintf("team-%03d", i) }

// Scenario returns a chainsaw Test: the policy, namespaces labelled
// Namespaces (one chainsaw step), then deletes steps, the i-th deleting the
// NetworkPolicy of Namespace(i % namespaces) and asserting it back.
func Scenario(namespaces, deletes int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `# %d Namespaces with a generated default-deny NetworkPolicy each, then %d
# deletes of one of them, each recreated by Kyverno (synchronize: true).
# Written by internal/scalegen.
apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: scale-%dx%d
spec:
  steps:
  - name: create the policy
    try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: default-deny
          spec:
            rules:
            - name: default-deny
              match:
                any:
                - resources:
                    kinds:
                    - Namespace
                    selector:
                      matchLabels:
                        netpol: "on"
              generate:
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                name: default-deny
                namespace: '{{request.object.metadata.name}}'
                synchronize: true
                data:
                  spec:
                    podSelector: {}
                    policyTypes:
                    - Ingress
                    - Egress
    - assert:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: default-deny
          status:
            conditions:
            - reason: Succeeded
              status: "True"
              type: Ready
  - name: create the namespaces
    try:
`, namespaces, deletes, namespaces, deletes)
	for i := range namespaces {
		fmt.Fprintf(&b, `    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: %s
            labels:
              netpol: "on"
`, Namespace(i))
	}
	for i := range deletes {
		ns := Namespace(i % max(namespaces, 1))
		fmt.Fprintf(&b, `  - name: delete %d
    try:
    - delete:
        ref:
          apiVersion: networking.k8s.io/v1
          kind: NetworkPolicy
          name: default-deny
          namespace: %s
    - assert:
        resource:
          apiVersion: networking.k8s.io/v1
          kind: NetworkPolicy
          metadata:
            name: default-deny
            namespace: %s
`, i+1, ns, ns)
	}
	return []byte(b.String())
}
