package engine

import "io/fs"

// Options change how a scenario runs.
type Options struct {
	// Override, when set, forces synchronize and orphanDownstreamOnPolicyDelete
	// on every generate rule of every policy the scenario applies. The
	// playground's outcome matrix runs one scenario under the four combinations.
	Override *Override
	// Files is where script and command operations read the files they
	// name (kubectl apply -f FILE), relative to the test's folder; the fs
	// the test was loaded from. Nil: scripts can read no files.
	Files fs.FS
}

// Override forces generate settings; a nil field leaves the policy's value.
type Override struct {
	Synchronize                    *bool `json:"synchronize,omitempty"`
	OrphanDownstreamOnPolicyDelete *bool `json:"orphanDownstreamOnPolicyDelete,omitempty"`
}

// MaxInputBytes bounds a scenario's size.
const MaxInputBytes = 2 << 20
