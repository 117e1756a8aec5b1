package capability

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func statusUntil(t *testing.T, c *Commands, name string, cond func(ProcStatus) bool) ProcStatus {
	t.Helper()
	var st ProcStatus
	ok := eventually(5*time.Second, func() bool {
		var err error
		st, err = c.Status(name)
		if err != nil {
			t.Fatalf("Status(%s): %v", name, err)
		}
		return cond(st)
	})
	if !ok {
		t.Fatalf("Status(%s) never satisfied the condition; last: %+v", name, st)
	}
	return st
}

func TestPersistentLifecycle(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmds := oneTool(t, map[string]any{
		"server": map[string]any{
			"run":        "echo ready on ${port}; echo warming >&2; sleep 30 & echo $! > " + shellQuote(pidfile) + "; wait",
			"persistent": true,
		},
	})
	info, err := cmds.Start("server", map[string]any{"port": 8080})
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "server" || info.Pid <= 0 {
		t.Fatalf("Start = %+v", info)
	}
	again, err := cmds.Start("server", map[string]any{"port": 9090})
	if err != nil || again != info {
		t.Fatalf("second Start = %+v, %v; want the running %+v", again, err, info)
	}
	if _, err := cmds.Start("server", nil); !errors.Is(err, ErrSubstitution) {
		t.Errorf("Start with missing vars: err = %v, want ErrSubstitution", err)
	}
	st := statusUntil(t, cmds, "server", func(s ProcStatus) bool {
		return strings.Contains(s.Stdout, "ready on 8080") && strings.Contains(s.Stderr, "warming")
	})
	if !st.Running || st.ExitCode != nil || st.Pid != info.Pid || st.Name != "server" {
		t.Errorf("Status = %+v", st)
	}
	time.Sleep(30 * time.Millisecond)
	if st2, _ := cmds.Status("server"); st2.UptimeMs <= 0 {
		t.Errorf("uptimeMs = %d", st2.UptimeMs)
	}
	grandchild := readPid(t, pidfile)

	stopped, err := cmds.Stop("server")
	if err != nil {
		t.Fatal(err)
	}
	if stopped.Running || stopped.ExitCode == nil || *stopped.ExitCode != -1 {
		t.Errorf("Stop = %+v, want not running with exitCode -1", stopped)
	}
	if !strings.Contains(stopped.Stdout, "ready on 8080") {
		t.Errorf("Stop lost the output: %+v", stopped)
	}
	waitGone(t, info.Pid)
	waitGone(t, grandchild)

	if _, err := cmds.Status("server"); !errors.Is(err, ErrNotStarted) {
		t.Errorf("Status after Stop: err = %v, want ErrNotStarted", err)
	}
	if _, err := cmds.Stop("server"); !errors.Is(err, ErrNotStarted) {
		t.Errorf("second Stop: err = %v, want ErrNotStarted", err)
	}
	restarted, err := cmds.Start("server", map[string]any{"port": 1})
	if err != nil || restarted.Pid == info.Pid {
		t.Errorf("restart = %+v, %v", restarted, err)
	}
}

func TestPersistentExitOnItsOwn(t *testing.T) {
	cmds := oneTool(t, map[string]any{"job": map[string]any{"run": "echo bye; exit 7", "persistent": true}})
	first, err := cmds.Start("job", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := statusUntil(t, cmds, "job", func(s ProcStatus) bool { return !s.Running })
	if st.ExitCode == nil || *st.ExitCode != 7 || st.Stdout != "bye\n" {
		t.Errorf("Status = %+v", st)
	}
	up := st.UptimeMs
	time.Sleep(50 * time.Millisecond)
	if st, _ := cmds.Status("job"); st.UptimeMs != up {
		t.Errorf("uptime of an exited process moved: %d -> %d", up, st.UptimeMs)
	}
	second, err := cmds.Start("job", nil)
	if err != nil || second.Pid == first.Pid {
		t.Errorf("Start after exit = %+v, %v; want a new process", second, err)
	}
}

func TestPersistentRingIsBounded(t *testing.T) {
	cmds := oneTool(t, map[string]any{"chatty": map[string]any{
		"run":        "head -c 300000 /dev/zero | tr '\\0' a; echo; echo END; head -c 200000 /dev/zero | tr '\\0' e >&2; echo ERREND >&2; sleep 30",
		"persistent": true,
	}})
	if _, err := cmds.Start("chatty", nil); err != nil {
		t.Fatal(err)
	}
	st := statusUntil(t, cmds, "chatty", func(s ProcStatus) bool {
		return strings.HasSuffix(s.Stdout, "END\n") && strings.HasSuffix(s.Stderr, "ERREND\n")
	})
	if len(st.Stdout) != RingBytes || len(st.Stderr) != RingBytes {
		t.Errorf("stdout %d bytes, stderr %d bytes; want the last %d of each", len(st.Stdout), len(st.Stderr), RingBytes)
	}
	if !strings.HasPrefix(st.Stdout, "aaaa") {
		t.Errorf("stdout tail starts with %q", st.Stdout[:10])
	}
}

func TestRingBuffer(t *testing.T) {
	r := newRing(8)
	for _, w := range []string{"abc", "defgh", "ij", "klmnopqrstuvwxyz", "1", "23"} {
		r.Write([]byte(w))
		if len(r.buf) > 16 {
			t.Fatalf("buffer grew to %d", len(r.buf))
		}
	}
	if got := r.String(); got != "vwxyz123" {
		t.Errorf("tail = %q", got)
	}
	u := newRing(4)
	u.Write([]byte("xé€")) // é is 2 bytes, € is 3: the window cuts é
	if got := u.String(); got != "€" {
		t.Errorf("utf-8 tail = %q, want %q", got, "€")
	}
}

func TestPersistentLimit(t *testing.T) {
	specs := map[string]any{"quick": map[string]any{"run": []any{"true"}, "persistent": true}}
	for i := range MaxPersistent + 1 {
		specs[fmt.Sprintf("s%d", i)] = map[string]any{"run": []any{"sleep", "30"}, "persistent": true}
	}
	cmds := oneTool(t, specs)
	if _, err := cmds.Start("quick", nil); err != nil {
		t.Fatal(err)
	}
	for i := range MaxPersistent - 1 {
		if _, err := cmds.Start(fmt.Sprintf("s%d", i), nil); err != nil {
			t.Fatalf("start %d: %v", i, err)
		}
	}
	// 16 records; "quick" has exited and is pruned to make room.
	statusUntil(t, cmds, "quick", func(s ProcStatus) bool { return !s.Running })
	if _, err := cmds.Start(fmt.Sprintf("s%d", MaxPersistent-1), nil); err != nil {
		t.Fatalf("16th live process: %v", err)
	}
	if _, err := cmds.Status("quick"); !errors.Is(err, ErrNotStarted) {
		t.Errorf("pruned record still visible: %v", err)
	}
	_, err := cmds.Start(fmt.Sprintf("s%d", MaxPersistent), nil)
	if !errors.Is(err, ErrTooManyProcesses) {
		t.Fatalf("17th live process: err = %v, want ErrTooManyProcesses", err)
	}
	mustContain(t, err, fmt.Sprintf(`"s%d"`, MaxPersistent), "16")
	// The limit is per session, across tools.
	other := cmds.session.For("other", mustCommands(t, map[string]any{"x": map[string]any{"run": []any{"sleep", "30"}, "persistent": true}}))
	if _, err := other.Start("x", nil); !errors.Is(err, ErrTooManyProcesses) {
		t.Errorf("another tool's start: err = %v, want ErrTooManyProcesses", err)
	}
	if _, err := cmds.Stop("s0"); err != nil {
		t.Fatal(err)
	}
	if _, err := cmds.Start(fmt.Sprintf("s%d", MaxPersistent), nil); err != nil {
		t.Errorf("start after a stop: %v", err)
	}
}

func TestCommandKindsDoNotMix(t *testing.T) {
	cmds := oneTool(t, map[string]any{
		"once":   "echo hi",
		"server": map[string]any{"run": []any{"sleep", "30"}, "persistent": true},
	})
	if _, err := cmds.Run(t.Context(), "server", nil); !errors.Is(err, ErrKindMismatch) {
		t.Errorf("Run(persistent): err = %v", err)
	} else {
		mustContain(t, err, `"server"`, "persistent", "commands.start")
	}
	if _, err := cmds.Start("once", nil); !errors.Is(err, ErrKindMismatch) {
		t.Errorf("Start(one-shot): err = %v", err)
	} else {
		mustContain(t, err, `"once"`, "not declared persistent", "commands.run")
	}
	if _, err := cmds.Status("once"); !errors.Is(err, ErrKindMismatch) {
		t.Errorf("Status(one-shot): err = %v", err)
	}
	if _, err := cmds.Stop("once"); !errors.Is(err, ErrKindMismatch) {
		t.Errorf("Stop(one-shot): err = %v", err)
	}
	for _, f := range []func() error{
		func() error { _, err := cmds.Start("nope", nil); return err },
		func() error { _, err := cmds.Status("nope"); return err },
		func() error { _, err := cmds.Stop("nope"); return err },
	} {
		if err := f(); !errors.Is(err, ErrNotDeclared) {
			t.Errorf("undeclared: err = %v, want ErrNotDeclared", err)
		}
	}
	if _, err := cmds.Status("server"); !errors.Is(err, ErrNotStarted) {
		t.Errorf("Status before Start: err = %v, want ErrNotStarted", err)
	}
}

// A tool reaches only the processes it started from its own declarations,
// even when another tool declares the same name.
func TestPersistentScopedByTool(t *testing.T) {
	s := NewSession()
	defer s.Close()
	server := map[string]any{"server": map[string]any{"run": []any{"sleep", "30"}, "persistent": true}}
	a := s.For("tool.a", mustCommands(t, server))
	b := s.For("tool.b", mustCommands(t, server))
	c := s.For("tool.c", mustCommands(t, map[string]any{"other": "true"}))

	pa, err := a.Start("server", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Status("server"); !errors.Is(err, ErrNotStarted) {
		t.Errorf("b.Status: err = %v, want ErrNotStarted", err)
	}
	if _, err := b.Stop("server"); !errors.Is(err, ErrNotStarted) {
		t.Errorf("b.Stop: err = %v, want ErrNotStarted", err)
	}
	if _, err := c.Stop("server"); !errors.Is(err, ErrNotDeclared) {
		t.Errorf("c.Stop: err = %v, want ErrNotDeclared", err)
	}
	if st, err := a.Status("server"); err != nil || !st.Running {
		t.Fatalf("a's server after b and c tried: %+v, %v", st, err)
	}
	pb, err := b.Start("server", nil)
	if err != nil || pb.Pid == pa.Pid {
		t.Errorf("b.Start = %+v, %v; want its own process", pb, err)
	}
	// A VM rebuild binds a fresh view to the same session and tool.
	rebuilt := s.For("tool.a", mustCommands(t, server))
	if st, err := rebuilt.Status("server"); err != nil || st.Pid != pa.Pid || !st.Running {
		t.Errorf("after rebuild: %+v, %v", st, err)
	}
}

func TestSessionCloseKillsAll(t *testing.T) {
	dir := t.TempDir()
	s := NewSession()
	specs := map[string]any{}
	for i := range 3 {
		pidfile := filepath.Join(dir, fmt.Sprint(i))
		specs[fmt.Sprint("p", i)] = map[string]any{
			"run":        "sleep 30 & echo $! > " + shellQuote(pidfile) + "; wait",
			"persistent": true,
		}
	}
	var pids []int
	for _, tool := range []string{"x", "y"} {
		cmds := s.For(tool, mustCommands(t, specs))
		for i := range 3 {
			info, err := cmds.Start(fmt.Sprint("p", i), nil)
			if err != nil {
				t.Fatal(err)
			}
			pids = append(pids, info.Pid)
			if tool == "x" {
				pids = append(pids, readPid(t, filepath.Join(dir, fmt.Sprint(i))))
			}
		}
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
	for _, pid := range pids {
		waitGone(t, pid)
	}
	cmds := s.For("x", mustCommands(t, specs))
	if _, err := cmds.Start("p0", nil); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Start after Close: err = %v, want ErrSessionClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
