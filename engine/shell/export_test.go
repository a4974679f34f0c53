package shell

// JQAvailable exports jqAvailable to the package's external tests.
const JQAvailable = jqAvailable

// InvalidMessage exports invalidMessage to the package's external tests.
var InvalidMessage = invalidMessage

// ApplyPatch exports applyPatch to the package's external tests.
var ApplyPatch = applyPatch

// Grep exports grep to the package's external tests.
var Grep = grep

// KubeconfigsAvailable says whether this build has kubeconfigs, client
// certificates and openssl (the browser's core build has not).
const KubeconfigsAvailable = kubeconfigMissing == ""

// ParseScriptEnv is parseScriptEnv for the package's external tests.
func ParseScriptEnv(content string, env map[string]string) (List, error) {
	list, _, err := parseScriptEnv(content, env)
	return list, err
}
