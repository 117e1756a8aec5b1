//go:build !linux && !windows

package procstat

import "syscall"

// Stat needs /proc: without it, ok is always false.
func Stat(pid int) (ppid, pgid int, zombie, ok bool) { return 0, 0, false, false }

// Running reports whether pid still exists; without /proc a zombie
// counts too.
func Running(pid int) bool { return syscall.Kill(pid, 0) == nil }

// GroupAlive reports whether group pgid still has a process; without
// /proc a zombie counts too.
func GroupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
