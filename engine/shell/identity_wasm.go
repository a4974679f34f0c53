//go:build js && wasm

package shell

import "github.com/genplay/genplay/engine/admission"

// The browser's builds leave out kubeconfigs and client certificates
// (kubeconfig.go, kubectl_config.go, kubectl_certificate.go, openssl.go)
// for their size budgets (with package pki's ASN.1 and package
// certificates they took the full build from 3,440,597 to 3,620,237 bytes
// brotli, over its 3.5 MB): chainsaw's $KUBECONFIG is not written, kubectl
// acts as the admin, and a script that reads $KUBECONFIG, selects a
// context or user, or runs kubectl config, kubectl certificate or openssl
// is skipped, saying so; the genplay CLI runs it.

// kubeconfigMissing completes a reason a script is skipped.
const kubeconfigMissing = "which genplay in the browser leaves out (the genplay CLI has it)"

func (r *runner) writeKubeconfig() string { return "" }
func (r *runner) removeKubeconfig()       {}

func (r *runner) credentials(*Command) (*admission.UserInfo, string, error) { return nil, "", nil }

func checkConfig(*Command) error { return unsupported("runs kubectl config, " + kubeconfigMissing) }

func checkCertificate(*Command) error {
	return unsupported("runs kubectl certificate, " + kubeconfigMissing)
}

func (r *runner) kubectlConfig(*Command, *kubectlOutput) error { return checkConfig(nil) }

func (r *runner) kubectlCertificate(*Command, *admission.UserInfo, *kubectlOutput) error {
	return checkCertificate(nil)
}

func init() {
	addUtility("openssl", utilSpec{check: func([]string) error { return unsupported("runs openssl, " + kubeconfigMissing) }})
}
