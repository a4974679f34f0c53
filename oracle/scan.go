package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Periodic scans. Kyverno's background controller reconciles every policy
// once per BACKGROUND_SCAN_INTERVAL (an hour by default; genplay's too), and
// a scenario that sleeps an hour sleeps through one such reconcile. A
// live run cannot wait hours, so a stack started with a short interval
// (up -scan-interval) runs such scenarios this way: the run starts right
// after a periodic reconcile, and each sleep of an hour or more (N whole
// hours) becomes the scan hook, which waits for the next N reconciles; the
// hook fails when a reconcile came earlier in the scenario than its sleep
// (the interval was too short for the scenario), so that the run is not
// taken for what genplay simulates. Scenarios without such a sleep are not recorded on
// such a stack: its reconciles would act in the middle of them.

// scanLine is what the background controller logs at each periodic
// reconcile (pkg/policy/policy_controller.go forceReconciliation, V(3),
// the same in v1.18 and v1.19).
const scanLine = "reconciling generate and mutateExisting policies"

func (s *stack) backgroundLog() string { return filepath.Join(s.dir, "logs", "kyverno-background.log") }

// scans counts the periodic reconciles the background controller logged
// after offset, and returns the log's size.
func (s *stack) scans(offset int64) (int, int64, error) {
	b, err := os.ReadFile(s.backgroundLog())
	if err != nil {
		return 0, 0, err
	}
	if offset > int64(len(b)) {
		offset = 0
	}
	return bytes.Count(b[offset:], []byte(scanLine)), int64(len(b)), nil
}

// awaitScans waits for n periodic reconciles after offset; it returns the
// log's size after the last.
func (s *stack) awaitScans(ctx context.Context, offset int64, n int, interval time.Duration) (int64, error) {
	deadline := time.Now().Add(time.Duration(n+1)*interval + time.Minute)
	for {
		seen, _, err := s.scans(offset)
		if err != nil {
			return 0, err
		}
		if seen >= n {
			// The offset just past the n-th reconcile's line.
			b, err := os.ReadFile(s.backgroundLog())
			if err != nil {
				return 0, err
			}
			end := offset
			for i := 0; i < n; i++ {
				j := bytes.Index(b[end:], []byte(scanLine))
				end += int64(j + len(scanLine))
			}
			return end, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%d periodic reconciles awaited, %d seen in %s (the background scan is every %s)", n, seen, s.backgroundLog(), interval)
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// alignScans waits for the next periodic reconcile before a run, so that
// the scenario has a whole interval before the next one, and writes where
// the log then ended into the run's folder for the scan hook.
func (rc *recorder) alignScans(ctx context.Context, runDir string) error {
	interval, err := time.ParseDuration(rc.ev.ScanInterval)
	if err != nil {
		return err
	}
	_, size, err := rc.s.scans(0)
	if err != nil {
		return err
	}
	end, err := rc.s.awaitScans(ctx, size, 1, interval)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(runDir, "scan-offset"), []byte(strconv.FormatInt(end, 10)), 0o644)
}

// scanHook is what a sleep of N hours runs as on a stack with a short
// background scan: it fails when a periodic reconcile came since the last
// one awaited (earlier in the scenario than its sleep), then waits for N
// more.
func scanHook(ctx context.Context, cache string, instance int, runDir string, args []string) error {
	f := flag.NewFlagSet("scan", flag.ContinueOnError)
	n := f.Int("n", 1, "periodic reconciles to wait for")
	if err := f.Parse(args); err != nil {
		return err
	}
	s, ev, err := liveStack(cache, instance)
	if err != nil {
		return err
	}
	interval, err := time.ParseDuration(ev.ScanInterval)
	if err != nil {
		return fmt.Errorf("the stack runs Kyverno's hourly background scan: a sleep of hours cannot be waited (up -scan-interval): %w", err)
	}
	file := filepath.Join(runDir, "scan-offset")
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	offset, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return err
	}
	early, size, err := s.scans(offset)
	if err != nil {
		return err
	}
	if early > 0 {
		return fmt.Errorf("%d periodic reconciles came before the scenario's sleep: the background scan (every %s) is too short for it", early, interval)
	}
	start := time.Now()
	end, err := s.awaitScans(ctx, size, *n, interval)
	if err != nil {
		return err
	}
	fmt.Printf("oracle: %d periodic reconciles in %s\n", *n, time.Since(start).Round(time.Second))
	return os.WriteFile(file, []byte(strconv.FormatInt(end, 10)), 0o644)
}
