package procstat

import (
	"os"
	"strconv"
	"strings"
)

// Stat reads a process's parent, process group and state from
// /proc/<pid>/stat; ok is false if the process does not exist. zombie says
// that its main thread has exited (Running tells whether the process has).
func Stat(pid int) (ppid, pgid int, zombie, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false, false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')') // the name may contain spaces and parens
	if i < 0 {
		return 0, 0, false, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return 0, 0, false, false
	}
	ppid, _ = strconv.Atoi(f[1])
	pgid, _ = strconv.Atoi(f[2])
	return ppid, pgid, f[0] == "Z" || f[0] == "X", true
}

// Running reports whether process pid still runs. A zombie does not
// (nothing may reap an orphan for a while, but it holds nothing any
// more), unless other threads of it still run: a process whose main
// thread has exited shows as a zombie while its other threads finish, and
// they hold its files (a server's listening socket) until the last one is
// gone.
func Running(pid int) bool {
	_, _, zombie, ok := Stat(pid)
	return ok && running(pid, zombie)
}

// GroupAlive reports whether a process of group pgid still runs, as
// Running says.
func GroupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, g, zombie, ok := Stat(pid); ok && g == pgid && running(pid, zombie) {
			return true
		}
	}
	return false
}

// running tells a running process from one whose stat says zombie: a
// zombie still runs while it has threads other than its main one.
func running(pid int, zombie bool) bool {
	if !zombie {
		return true
	}
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	return err == nil && len(tasks) > 1
}
