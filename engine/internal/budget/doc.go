// Package budget is the deterministic work budget of one run: every part
// of the engine that does work in proportion to its input rather than to
// the scenario's size (JMESPath and CEL evaluation, regular expressions,
// wildcard matching, foreach, background scans, the reconcile loop, jq)
// charges units to the run's Budget, and once they are spent every further
// charge fails with the same *Exhausted error, which says what ran out and
// where. Units count work, not time, so a run that stops stops at the same
// place on every machine and in every build: the same input still gives
// the same bytes.
//
// # How a part of the engine charges it
//
// A Budget is created once per run (engine.NewSession) and handed down in
// the options of the packages that do the work (variables.Options.Budget,
// generate.Options.Budget, ...). Code that loops over input charges before
// (or while) it does the work, and returns the error Charge gives:
//
//	if err := b.Charge(int64(len(list))*cost, "foreach"); err != nil {
//		return err // the rule fails with "work budget exhausted: ..."
//	}
//
// Charge on a nil *Budget is free and never fails, so a package used
// without a budget (its own tests, a tool) needs no special case. The
// controller names the place it is working on with SetPlace (the policy,
// rule and trigger of the UpdateRequest it processes), so the error can
// say where the budget ran out. A policy family (the CEL GeneratingPolicy
// evaluator, for one) charges the same Budget: for example its CEL
// program's cost (cel-go's ActualCost) after each evaluation, or a cost
// limit derived from Remaining before it.
//
// A run may also carry a cancellation (New's done channel: the adapters'
// wall-clock deadline, or an HTTP client that went away). It is a safety
// net, not the bound: Charge looks at it every few thousand units, and a
// cancelled run fails with an error that wraps ErrCancelled, is not
// deterministic, and says so.
package budget
