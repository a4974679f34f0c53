// Package kubectl interprets chainsaw's script and command operations
// against the simulated cluster: kubectl's verbs (apply, create, get,
// delete, label, annotate, patch, replace, run, scale, wait, exec, the
// kubectl-evict plugin's evict, and rollout restart|status of Kyverno's
// background controller) with the
// pipelines scripts use (into jq, grep or another kubectl) and the shell
// around them (&&, ||, !, if, for, while, variables, $(...), test, exit,
// echo, seq, sleep, set -e), producing the
// stdout, stderr and exit status a real shell would, then the operation's
// check with $error, $stdout and $stderr bound.
//
// Package scenario parses the scripts (ParseScriptEnv, ParseCommand); this
// package runs them (Run) through a Session, the narrow view of the
// simulation it needs: reads of the cluster, writes as a user, the clock
// and the timeline. The engine's facade implements Session; this package
// never imports it. What genplay cannot simulate honestly (a container's
// output, Kyverno's own pods, a program other than kubectl) ends in
// Outcome.Skipped with the reason, before anything of the script runs.
//
// jq runs only in native builds (gojq): it would add about 0.35 MB to the
// browser's wasm, so there a script that pipes into jq is skipped.
package kubectl
