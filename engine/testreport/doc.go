// Package testreport writes the report of a run of tests in the formats
// chainsaw writes with --report-format, for CI systems to read: JSON (the
// fields of chainsaw's JSON report, with genplay's reasons added), and
// JUnit XML at three levels: JUNIT-TEST (one testcase per test, grouped in a
// testsuite per folder; XML is the same), JUNIT-STEP (a testsuite per test,
// a testcase per step) and JUNIT-OPERATION (a testsuite per test, a
// testcase per operation).
//
// The JUnit XML follows the schema CI tools read (Jenkins' junit-10.xsd,
// which Maven Surefire's and the JUnit 5 console launcher's reports also
// fit): testsuites > testsuite > (properties, testcase > (skipped |
// failure)), with the tests, failures, errors, skipped and time counts on
// every testsuite (tests, failures, errors and time on testsuites, whose
// schema has no skipped), which always add up. A skipped test
// says why in its skipped message, a failure says what failed in its
// message and gives every detail in its text. Text a report carries is made
// valid XML 1.0: characters XML cannot hold (terminal escapes, NUL) become
// U+FFFD, and encoding/xml escapes the rest, where Kyverno's `kyverno test
// -o junit` writes invalid XML for failing tests (kyverno#17559).
//
// The model (Run, Test, Step, Operation) is chainsaw's report model with
// the status and reason of each test explicit: a test can fail with no
// failed operation (it did not load, or a Kyverno CLI test's result did
// not hold), and a skip always has a reason.
package testreport
