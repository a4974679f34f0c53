package timeline

// VersionsFormat names the JSON shape of a VersionComparison.
const VersionsFormat = "genplay.versions/v1"

// VersionComparison is one scenario run under every simulated Kyverno
// release, step by step: what `genplay run --compare-versions -o json`
// prints, the API's and the playground's compare-versions view.
type VersionComparison struct {
	Format string `json:"format"` // VersionsFormat
	Test   string `json:"test"`
	// Versions are the releases compared, oldest first.
	Versions []string `json:"versions"`
	// Passed says, per release, whether the scenario's checks passed.
	Passed map[string]bool `json:"passed"`
	// Steps are the scenario's operations, each with what every release did.
	Steps []ComparedStep `json:"steps"`
	// Changes describe the changes between releases that the steps cite.
	Changes []VersionChange `json:"changes"`
	// Differs is the number of steps that differ between releases.
	Differs int `json:"differs"`
	// Diagnostics are the input's errors and warnings (those of the latest
	// release's run).
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// ComparedStep is one operation under every release.
type ComparedStep struct {
	Index    int    `json:"index"`
	StepName string `json:"stepName"`
	Summary  string `json:"summary"`
	// Differs is set when the releases did not do the same thing: their
	// events (action and object), checks, errors, warnings or the objects
	// the step changed differ.
	Differs bool `json:"differs"`
	// Explained are the changes the events of this step name, in any
	// release: what explains the difference.
	Explained []string `json:"explained,omitempty"`
	// FollowsFrom, for a step that differs with no change of its own, is
	// the index of the earlier differing step it follows from (the clusters
	// were already different); -1 otherwise.
	FollowsFrom int `json:"followsFrom"`
	// Runs are the step under each release, in Versions' order; a release
	// whose run stopped earlier has none (Ran false).
	Runs []VersionStep `json:"runs"`
}

// VersionStep is what one release did in one step.
type VersionStep struct {
	Kyverno  string   `json:"kyverno"`
	Ran      bool     `json:"ran"`
	Events   []Event  `json:"events"`
	Changes  []Change `json:"changes"`
	Check    *Check   `json:"check,omitempty"`
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// VersionChange describes one behaviour change between releases.
type VersionChange struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Since  string `json:"since"`
	Family string `json:"family"`
	Title  string `json:"title"`
	Before string `json:"before"`
	After  string `json:"after"`
}
