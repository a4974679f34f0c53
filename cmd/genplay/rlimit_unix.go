//go:build unix

package main

import "syscall"

// limitAddressSpace caps the process's address space (RLIMIT_AS): past it
// an allocation fails, and the Go runtime ends the process with its fatal
// out-of-memory error, in this process only.
func limitAddressSpace(bytes int64) {
	lim := syscall.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &cur); err == nil && cur.Max < lim.Max {
		lim.Cur, lim.Max = cur.Max, cur.Max // never raise a limit set from outside
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &lim)
}
