package generate

// Values stand in for context and request data as a kyverno-test.yaml's
// values file, for the ClusterPolicy/Policy family (FamilyConfig.Values), (cli.kyverno.io/v1alpha1 Values) does in Kyverno's CLI
// (cmd/cli/kubectl-kyverno: variables.ComputeVariables and the store's
// context loader). A key names a path of the JSON context, dots and all
// ("request.namespace" is request's namespace), as the CLI's AddVariable
// reads it.
type Values struct {
	// Global are globalValues, for every policy and resource.
	Global map[string]any
	// Resources are a policy's values for one resource, by policy name and
	// resource name; they apply after Global.
	Resources map[string]map[string]map[string]any
	// Rules are a rule's values, by policy name and rule name. They are in
	// the context before the rule's context entries load; an entry the
	// values name that reads the cluster (apiCall, configMap,
	// globalReference) is not loaded, as the CLI has no cluster to load it
	// from; a variable entry still is.
	Rules map[string]map[string]map[string]any
}
