//go:build unix

package server

import "syscall"

// fdLimit returns how many descriptors the process may open (Go raises the
// soft limit to the hard one at start), or 0 if unknown.
func fdLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}
