package variables

import (
	"strconv"
	"time"

	gojmespath "github.com/kyverno/go-jmespath"
)

func (b *boundCaller) timeFunctions() []gojmespath.FunctionEntry {
	s := one(tString)
	return []gojmespath.FunctionEntry{
		{Name: "time_now", Handler: b.bind(func(e *Evaluator, _ []any) (any, error) { return e.opts.Now().Format(time.RFC3339), nil })},
		{Name: "time_now_utc", Handler: b.bind(func(e *Evaluator, _ []any) (any, error) { return e.opts.Now().UTC().Format(time.RFC3339), nil })},
		{Name: "time_since", Arguments: args(s, s, s), Handler: b.bind((*Evaluator).jpTimeSince)},
		{Name: "time_to_cron", Arguments: args(s), Handler: timeFn1("time_to_cron", func(t time.Time) any {
			return strconv.Itoa(t.Minute()) + " " + strconv.Itoa(t.Hour()) + " " + strconv.Itoa(t.Day()) + " " +
				strconv.Itoa(int(t.Month())) + " " + strconv.Itoa(int(t.Weekday()))
		})},
		{Name: "time_add", Arguments: args(s, s), Handler: timeDurFn("time_add", func(t time.Time, d time.Duration) any { return t.Add(d).Format(time.RFC3339) })},
		{Name: "time_truncate", Arguments: args(s, s), Handler: timeDurFn("time_truncate", func(t time.Time, d time.Duration) any { return t.Truncate(d).Format(time.RFC3339) })},
		{Name: "time_parse", Arguments: args(s, s), Handler: strFn2("time_parse", jpTimeParse)},
		{Name: "time_utc", Arguments: args(s), Handler: timeFn1("time_utc", func(t time.Time) any { return t.UTC().Format(time.RFC3339) })},
		{Name: "time_diff", Arguments: args(s, s), Handler: timeFn2("time_diff", func(a, b time.Time) any { return b.Sub(a).String() })},
		{Name: "time_before", Arguments: args(s, s), Handler: timeFn2("time_before", func(a, b time.Time) any { return a.Before(b) })},
		{Name: "time_after", Arguments: args(s, s), Handler: timeFn2("time_after", func(a, b time.Time) any { return a.After(b) })},
		{Name: "time_between", Arguments: args(s, s, s), Handler: func(arguments []any) (any, error) {
			ts := make([]time.Time, 3)
			for i := range ts {
				t, err := timeArg("time_between", arguments, i)
				if err != nil {
					return nil, err
				}
				ts[i] = t
			}
			return ts[0].After(ts[1]) && ts[0].Before(ts[2]), nil
		}},
	}
}

func timeArg(name string, arguments []any, i int) (time.Time, error) {
	s, err := strArg(name, arguments, i)
	if err != nil {
		return time.Time{}, err
	}
	return time.Parse(time.RFC3339, s)
}

func timeFn1(name string, f func(time.Time) any) gojmespath.JpFunction {
	return func(arguments []any) (any, error) {
		t, err := timeArg(name, arguments, 0)
		if err != nil {
			return nil, err
		}
		return f(t), nil
	}
}

func timeFn2(name string, f func(a, b time.Time) any) gojmespath.JpFunction {
	return func(arguments []any) (any, error) {
		a, err := timeArg(name, arguments, 0)
		if err != nil {
			return nil, err
		}
		b, err := timeArg(name, arguments, 1)
		if err != nil {
			return nil, err
		}
		return f(a, b), nil
	}
}

func timeDurFn(name string, f func(time.Time, time.Duration) any) gojmespath.JpFunction {
	return func(arguments []any) (any, error) {
		t, err := timeArg(name, arguments, 0)
		if err != nil {
			return nil, err
		}
		s, err := strArg(name, arguments, 1)
		if err != nil {
			return nil, err
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, err
		}
		return f(t, d), nil
	}
}

func (e *Evaluator) jpTimeSince(arguments []any) (any, error) {
	layout, err := strArg("time_since", arguments, 0)
	if err != nil {
		return nil, err
	}
	if layout == "" {
		layout = time.RFC3339
	}
	start, err := strArg("time_since", arguments, 1)
	if err != nil {
		return nil, err
	}
	end, err := strArg("time_since", arguments, 2)
	if err != nil {
		return nil, err
	}
	t1, err := time.Parse(layout, start)
	if err != nil {
		return nil, err
	}
	t2 := e.opts.Now()
	if end != "" {
		if t2, err = time.Parse(layout, end); err != nil {
			return nil, err
		}
	}
	return t2.Sub(t1).String(), nil
}

func jpTimeParse(layout, ts string) (any, error) {
	if _, err := strconv.ParseInt(layout, 10, 64); err == nil { // an epoch layout
		epoch, err := strconv.ParseInt(ts, 10, 64)
		if err != nil {
			return nil, err
		}
		return time.Unix(epoch, 0).UTC().Format(time.RFC3339), nil
	}
	t, err := time.Parse(layout, ts)
	if err != nil {
		return nil, err
	}
	return t.Format(time.RFC3339), nil
}
