// Package clitest reads Kyverno CLI tests (kyverno-test.yaml,
// cli.kyverno.io/v1alpha1 Test) and turns one into a chainsaw Test the
// engine runs: the namespaces the resources need, the clone sources, the
// policies and then the resources are applied to a fresh simulated
// cluster, and each generate result is checked:
//   - pass: the rule generated something for each named resource (found by
//     Kyverno's trigger-uid label), and the generatedResource file, if any,
//     matches as a chainsaw assertion (so fields genplay adds, such as
//     Kyverno's labels, do not count; the CLI compares whole objects that
//     it generates without them);
//   - skip: the rule generated nothing for the named resources.
//
// A values file (variables:) is used as the CLI uses it (ReadValues): its
// globalValues and each policy's values per resource set the rules'
// context, each rule's values stand in for the context entries they name
// (an apiCall or a configMap is then not read from the cluster), its
// namespaceSelector labels the namespaces it names and its namespaces are
// created. A resource keeps its own metadata.uid. Results for validate or
// mutate rules, result: fail, foreachValues, subresources and userinfo
// files are not simulated: Build says why, and such a test is skipped.
//
// Read takes a test's fields from its document; Build reads the files it
// names from an fs.FS (relative to the test's folder) and returns the
// chainsaw Test and the checks Verify makes on the run's result. Package
// suite runs the tests `genplay test` finds; package scaffold wraps one
// into a scenario (`genplay new`, the playground). Nothing here touches the
// OS.
package clitest
