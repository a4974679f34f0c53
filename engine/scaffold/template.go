package scaffold

// Template is the scenario "New scenario" starts from: a ClusterPolicy that
// gives every new Namespace a ConfigMap, the wait for its readiness, a
// Namespace, and the assert of the ConfigMap. It is the smallest scenario
// that shows generation.
const Template = `# A new scenario: a chainsaw Test that genplay runs step by step.
# Edit the policy, add steps (apply, delete, patch, assert), press Run.
apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: new-scenario
spec:
  description: A ClusterPolicy that gives every new Namespace a ConfigMap.
  steps:
  - name: create the policy
    try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: add-configmap
          spec:
            rules:
            - name: add-configmap
              match:
                any:
                - resources:
                    kinds:
                    - Namespace
              generate:
                apiVersion: v1
                kind: ConfigMap
                name: settings
                namespace: '{{request.object.metadata.name}}'
                synchronize: true
                data:
                  data:
                    team: '{{request.object.metadata.name}}'
    - assert:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: add-configmap
          status:
            conditions:
            - reason: Succeeded
              status: "True"
              type: Ready
  - name: create a namespace
    try:
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: team-a
    - assert:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: settings
            namespace: team-a
          data:
            team: team-a
`
