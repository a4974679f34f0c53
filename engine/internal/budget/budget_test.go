package budget

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestABudgetRunsOutOnceAndStaysSpent(t *testing.T) {
	b := New(100, nil, nil)
	require.NoError(t, b.Charge(60, "a"))
	b.SetPlace("processing x")
	err := b.Charge(41, "regex_match")
	var ex *Exhausted
	require.ErrorAs(t, err, &ex)
	assert.Equal(t, "the work budget of 100 units ran out in regex_match while processing x", err.Error())
	assert.Same(t, err, b.Charge(0, "later"), "spent stays spent, with the first cause")
	assert.Equal(t, err, b.Err())
	assert.Zero(t, b.Remaining())
}

func TestANilBudgetIsFree(t *testing.T) {
	var b *Budget
	assert.NoError(t, b.Charge(1<<62, "x"))
	assert.NoError(t, b.Err())
	assert.Equal(t, "", b.SetPlace("y"))
}

func TestACancelledRunStopsAtTheNextPoll(t *testing.T) {
	done := make(chan struct{})
	why := errors.New("deadline")
	b := New(0, done, func() error { return why })
	require.NoError(t, b.Charge(10, "a"))
	close(done)
	var err error
	for i := 0; err == nil && i < 100; i++ {
		err = b.Charge(pollEvery/10, "loop")
	}
	require.ErrorIs(t, err, ErrCancelled)
	assert.Contains(t, err.Error(), "deadline")
	assert.Contains(t, err.Error(), "depends on the machine")
}

func TestSizeCountsBytesAndValues(t *testing.T) {
	v := map[string]any{"ab": "xyz", "l": []any{1.0, true, nil}}
	assert.Equal(t, int64(1+2+4+1+1+3), Size(v, 1<<20))
	assert.LessOrEqual(t, Size(v, 2), int64(8), "stops past the limit")
}

func TestStopEndsTheBudgetWithItsReason(t *testing.T) {
	b := New(100, nil, nil)
	b.SetPlace("Kyverno processed an UpdateRequest")
	require.NoError(t, b.Charge(10, "x"))
	b.Stop("the CEL of spec.generate[0].expression: replace would build 9 GB")
	err := b.Charge(1, "y")
	var s *Stopped
	require.ErrorAs(t, err, &s)
	assert.Equal(t, "the CEL of spec.generate[0].expression: replace would build 9 GB while Kyverno processed an UpdateRequest", err.Error())
	assert.Equal(t, err, b.Err())
	b.Stop("a second reason")
	assert.Equal(t, err, b.Err(), "the first reason stays")
	var nilBudget *Budget
	nilBudget.Stop("nothing") // a nil budget is free
}

// TestAYieldIsCalledEveryFewThousandUnits: with a yield (the browser's
// main-thread runner) the budget polls every yieldEvery units rather than
// every pollEvery, and calls the yield each time; what the charges answer
// is the same with or without it.
func TestAYieldIsCalledEveryFewThousandUnits(t *testing.T) {
	plain, yielding := New(1<<20, nil, nil), New(1<<20, nil, nil)
	yields := 0
	yielding.SetYield(func() { yields++ })
	var errPlain, errYielding error
	for range 1 << 10 {
		errPlain = plain.Charge(1<<10, "work")
		errYielding = yielding.Charge(1<<10, "work")
	}
	assert.Equal(t, (1<<20)/yieldEvery, yields)
	assert.Equal(t, errPlain, errYielding)
	assert.Equal(t, plain.Used(), yielding.Used())
	require.Error(t, plain.Charge(1, "more"))
	assert.Equal(t, plain.Charge(1, "more").Error(), yielding.Charge(1, "more").Error())
}
