// Package suite is `genplay test`'s engine: it finds the tests under the
// paths it is given (chainsaw Tests and Kyverno CLI tests, kyverno-test.yaml),
// runs each in a fresh simulated cluster and reports an Outcome per test:
// pass, fail with the reason and the failing operation, or skip with why
// genplay cannot simulate it honestly.
//
// Find walks an fs.FS (the caller roots it; the CLI at the volume root, so
// that tests reach step templates with ../ paths) and classifies each YAML
// file (Classify): a chainsaw Test by its file name or its content, as
// chainsaw's discovery does, or under a chainsaw Configuration only the
// files its testFile names; a Kyverno CLI test by its apiVersion.
// FindConfiguration reads that Configuration. Run runs the files found:
// chainsaw Tests through engine.RunTest (with the Configuration's
// selection, failFast and namespace), CLI tests through package clitest.
// Paths in messages are shown relative to each test's folder.
//
// Nothing here touches the OS: the CLI gives the file system, the paths
// and a guard that bounds each run's time and memory.
package suite
