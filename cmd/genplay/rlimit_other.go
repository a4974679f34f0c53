//go:build !unix

package main

// limitAddressSpace is a no-op where there is no setrlimit: the run's
// process still ends alone when it runs out of memory.
func limitAddressSpace(int64) {}
