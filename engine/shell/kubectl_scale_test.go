package shell_test

import "testing"

func TestKubectlScale(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "scale sets spec.replicas and prints what kubectl prints",
			ops: `- apply:
    resource:
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
        namespace: apps
      spec:
        replicas: 1
        selector:
          matchLabels:
            app: web
        template:
          metadata:
            labels:
              app: web
          spec:
            containers:
            - name: web
              image: nginx
- script:
    content: kubectl scale deployment web -n apps --replicas=3
    check:
      ($stdout): |
        deployment.apps/web scaled
- assert:
    resource:
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: web
        namespace: apps
      spec:
        replicas: 3`,
			pass: true,
		},
		{
			name: "scale without --replicas is an error",
			ops: `- script:
    content: kubectl scale deployment web -n apps
    check:
      ($stderr): |
        error: --replicas=COUNT is required
      ($error != null): true`,
			pass: true,
		},
	})
}
