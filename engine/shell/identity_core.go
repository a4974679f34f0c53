//go:build js && wasm && !cel

package shell

import "github.com/genplay/genplay/engine/admission"

// The browser's core build leaves out kubeconfigs and client certificates
// (kubeconfig.go, kubectl_config.go, kubectl_certificate.go, openssl.go)
// for its size budget: chainsaw's $KUBECONFIG is not written, kubectl
// acts as the admin, and a script that reads $KUBECONFIG, selects a
// context or user, or runs kubectl config, kubectl certificate or
// openssl is skipped, saying so. The playground then runs it in the full
// build, which has them.

// kubeconfigMissing completes a reason a script is skipped.
const kubeconfigMissing = "which the browser's core build of genplay leaves out (the full build has it)"

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
