package capability

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mustCommands parses an allow.commands value or fails the test.
func mustCommands(t *testing.T, v map[string]any) *CommandSet {
	t.Helper()
	set, err := ParseCommands(v)
	if err != nil {
		t.Fatalf("ParseCommands: %v", err)
	}
	return set
}

// oneTool returns a fresh session (closed at test end) and tool "t"'s view.
func oneTool(t *testing.T, v map[string]any) *Commands {
	t.Helper()
	s := NewSession()
	t.Cleanup(func() { s.Close() })
	return s.For("t", mustCommands(t, v))
}

// processGone reports whether pid no longer runs. A SIGKILLed grandchild
// re-parented to a pid 1 that does not reap stays a zombie: dead all the
// same.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// Format: pid (comm) state ...; comm may contain spaces and parens.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// waitGone polls until pid is gone or fails the test.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if !eventually(3*time.Second, func() bool { return processGone(pid) }) {
		t.Errorf("process %d still running", pid)
	}
}

func eventually(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readPid reads a pid written by a test command, waiting for the file.
func readPid(t *testing.T, path string) int {
	t.Helper()
	var pid int
	ok := eventually(3*time.Second, func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	if !ok {
		t.Fatalf("no pid in %s", path)
	}
	return pid
}

func mustContain(t *testing.T, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("expected an error containing %q, got nil", subs)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
}
