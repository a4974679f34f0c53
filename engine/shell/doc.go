// Package shell runs chainsaw's script and command operations against the
// simulated cluster: a small POSIX shell whose programs are kubectl and a
// few utilities, producing the stdout, stderr and exit status a real shell
// would, then the operation's check with $error, $stdout and $stderr bound.
//
// The shell is read in two passes, as sh reads it. The lexer (lex.go)
// knows words, quotes, escapes, variables, $(...), comments, heredocs and
// the operators; the parser (parse.go) builds the AST (ast.go): a List of
// and-or lists of pipelines, each a kubectl call with its pipe stages
// (into jq, grep or another kubectl), a builtin, an assignment, or an
// if/for/while/until. parseScriptEnv and ParseCommand parse;
// what genplay cannot interpret honestly is a *scenario.UnsupportedError
// saying why. Run interprets (interp.go): lists in order, && and || on the
// status so far, !, set -e, loops bounded by a work limit, variables and
// command substitutions expanded and split as sh does. The builtins
// (builtins.go: exit, true, false, :, echo, set, break, continue, test, [,
// seq, sleep) are one table: each checks its arguments when the script is
// parsed and runs when it is reached. The common utilities (utils.go: cat,
// printf, rm, mkdir, touch, cp, mv, ls, base64, tr, sed, grep, head, tail,
// wc, cut, sort, uniq, tee) are another, with their pipes and their
// redirections to and from files, over the test's scratch folder
// (scratch.go): files in memory for the whole test, the test's own folder
// read through it, the real file system never written.
//
// Who kubectl is: chainsaw writes a kubeconfig for every operation and
// points $KUBECONFIG at it (kubeconfig.go), naming the admin's client
// certificate. kubectl config (kubectl_config.go) reads and edits
// kubeconfigs in the scratch folder; openssl genrsa, req and x509
// (openssl.go) make keys, requests and certificates (package pki);
// kubectl certificate approve|deny (kubectl_certificate.go) writes a
// CertificateSigningRequest's approval, and the cluster's signer issues
// its certificate (package certificates). A kubectl call whose context's
// user has another client certificate acts as the user the API server
// authenticates from it. The browser's builds leave these out
// (identity_wasm.go), and a script that needs them is skipped there.
//
// kubectl's flag grammar is kubectl_flags.go; each verb is a file,
// kubectl_VERB.go (apply and replace, create, delete, get, label and
// annotate, patch, run, scale, wait, exec, the kubectl-evict plugin's
// evict, and rollout restart|status of Kyverno's background controller),
// with its tests beside it; kubectl_print.go is the table printer and the
// -o formats, kubectl_args.go how a call names its objects (TYPE NAME,
// TYPE/NAME, -l, -f). Every kubectl call is one timeline step; builtins
// make none.
//
// New is the engine's script.Interpreter (package engine/script, the
// contract), which the adapters register in engine.Options.Scripts; the
// browser's core build registers none, for its size budget. It works
// through a script.Session, the narrow view of the simulation it needs:
// reads of the cluster, writes as a user, the clock and the timeline. The
// engine's facade implements it; this package never imports the engine.
// What genplay cannot simulate honestly (a container's output, Kyverno's
// own pods, a program other than kubectl) ends in Outcome.Skipped with the
// reason, before anything of the script runs.
//
// jq runs only in native builds (gojq): it would add about 0.35 MB to the
// browser's wasm, so there a script that pipes into jq is skipped.
package shell
