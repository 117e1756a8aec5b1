package world

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/ferridriver/ferridriver/internal/procstat"
)

// Finding a Launcher's processes. Every browser it starts gets
// EnvMarker=<marker> in its environment. Chromium's main process keeps it
// and so do the crashpad handlers it double-forks (they end up under init),
// but the zygotes, and so the renderers, start with a cleaned environment.
// Playwright starts the browser as a session and process-group leader, so
// the rest are found by process group: the groups of marked leaders are
// remembered, so that their members are still found after the leader was
// killed. A group member must also run from the leader's directory, so a
// recycled group id can never make us touch an unrelated process.

type procInfo struct {
	ppid, pgid int
	zombie     bool
	marked     bool
	exeDir     string
}

// scanProcs reads /proc once.
func scanProcs(marker string) map[int]procInfo {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	needle := []byte(EnvMarker + "=" + marker + "\x00")
	out := map[int]procInfo{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid, needle); ok {
			out[pid] = p
		}
	}
	return out
}

// readProc reads one process: its stat, whether its environment holds
// needle, and its executable's directory.
func readProc(pid int, needle []byte) (procInfo, bool) {
	var p procInfo
	var ok bool
	if p.ppid, p.pgid, p.zombie, ok = procstat.Stat(pid); !ok {
		return procInfo{}, false
	}
	dir := "/proc/" + strconv.Itoa(pid)
	if env, err := os.ReadFile(dir + "/environ"); err == nil {
		p.marked = bytes.Contains(append(env, 0), needle)
	}
	if exe, err := os.Readlink(dir + "/exe"); err == nil {
		p.exeDir = filepath.Dir(exe)
	}
	return p, true
}

// tracked returns this Launcher's live processes (pid -> info), and records
// the process groups of marked group leaders.
func (l *Launcher) tracked() map[int]procInfo {
	all := scanProcs(l.marker)
	l.procMu.Lock()
	defer l.procMu.Unlock()
	for pid, p := range all {
		if p.marked && p.pgid == pid && p.exeDir != "" {
			l.groups[pid] = p.exeDir
		}
	}
	out := map[int]procInfo{}
	for pid, p := range all {
		if p.zombie {
			continue
		}
		if dir, ok := l.groups[p.pgid]; p.marked || (ok && p.exeDir == dir) {
			out[pid] = p
		}
	}
	return out
}

// killTracked SIGKILLs every remaining process of this Launcher and waits
// up to wait for them to disappear.
func (l *Launcher) killTracked(wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		procs := l.tracked()
		if len(procs) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("browser processes %v still running after SIGKILL", pids(procs))
		}
		for pid := range procs {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func pids(m map[int]procInfo) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// ProcessIDs lists the live processes of this Launcher's browsers,
// children included (Linux; empty elsewhere). For diagnostics and leak
// checks.
func (l *Launcher) ProcessIDs() []int { return pids(l.tracked()) }

// BrowserPIDs lists the main process of each of this Launcher's browsers
// (Linux; empty elsewhere). Killing one simulates a browser crash.
func (l *Launcher) BrowserPIDs() []int {
	var out []int
	for pid, p := range l.tracked() {
		if p.marked && p.pgid == pid {
			out = append(out, pid)
		}
	}
	return out
}

// driverChildren lists this process's live children that run a Playwright
// driver (node .../cli.js run-driver).
func driverChildren() map[int]bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	me := os.Getpid()
	out := map[int]bool{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, _, zombie, ok := procstat.Stat(pid)
		if !ok || ppid != me || zombie {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if bytes.Contains(cmd, []byte("cli.js\x00run-driver")) {
			out[pid] = true
		}
	}
	return out
}

// processGone reports whether pid has exited (an unreaped zombie
// included, once its last thread is gone).
func processGone(pid int) bool { return !procstat.Running(pid) }
