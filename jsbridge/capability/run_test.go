package capability

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunTimeoutKillsProcessGroup(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmds := oneTool(t, map[string]any{
		"hang": map[string]any{"run": "sleep 30 & echo $! > " + shellQuote(pidfile) + "; wait", "timeoutMs": 300},
	})
	start := time.Now()
	_, err := cmds.Run(t.Context(), "hang", nil)
	elapsed := time.Since(start)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	mustContain(t, err, `"hang"`, "timed out after 300ms", "process group killed")
	if elapsed > 3*time.Second {
		t.Errorf("Run returned after %v, want promptly after the 300ms timeout", elapsed)
	}
	waitGone(t, readPid(t, pidfile)) // the grandchild died with the group
}

func TestRunArgvTimeout(t *testing.T) {
	cmds := oneTool(t, map[string]any{"sleep": map[string]any{"run": []any{"sleep", "30"}, "timeout_ms": 150}})
	start := time.Now()
	_, err := cmds.Run(t.Context(), "sleep", nil)
	if !errors.Is(err, ErrTimeout) || time.Since(start) > 3*time.Second {
		t.Fatalf("err = %v after %v", err, time.Since(start))
	}
}

// A one-shot command must not leave anything running in its group, and a
// background grandchild holding stdout must not make Run wait for it.
func TestRunKillsLeftoversWhenTheLeaderExits(t *testing.T) {
	cmds := oneTool(t, map[string]any{"bg": "sleep 30 & echo $!"})
	start := time.Now()
	out, err := cmds.Run(t.Context(), "bg", nil)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("Run took %v", time.Since(start))
	}
	pid, err := strconv.Atoi(out.(string))
	if err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	waitGone(t, pid)
}

// A process that escapes the group (its own setsid) and keeps stdout open
// only delays Run by the drain grace. It is out of our reach by design.
func TestRunDoesNotWaitForEscapedProcess(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid not installed")
	}
	pidfile := shellQuote(filepath.Join(t.TempDir(), "pid"))
	cmds := oneTool(t, map[string]any{"escape": "setsid sh -c 'echo $$ > '" + pidfile + "'; exec sleep 30' & " +
		"while [ ! -s " + pidfile + " ]; do sleep 0.01; done; cat " + pidfile})
	start := time.Now()
	out, err := cmds.Run(t.Context(), "escape", nil)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(out.(string))
	if err != nil {
		t.Fatalf("output %q", out)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	if processGone(pid) {
		t.Fatal("the escaped process died: the test did not exercise the drain grace")
	}
	if elapsed < drainGrace || elapsed > drainGrace+2*time.Second {
		t.Errorf("Run took %v, want about the %v drain grace", elapsed, drainGrace)
	}
}

func TestRunContextCancelKillsGroup(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmds := oneTool(t, map[string]any{"hang": "sleep 30 & echo $! > " + shellQuote(pidfile) + "; wait"})
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	_, err := cmds.Run(ctx, "hang", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	mustContain(t, err, `"hang"`, "cancelled")
	waitGone(t, readPid(t, pidfile))
}

func TestRunOutputCap(t *testing.T) {
	cmds := oneTool(t, map[string]any{
		"stdout":  map[string]any{"run": []any{"head", "-c", "9000000", "/dev/zero"}},
		"stderr":  "head -c 9000000 /dev/zero >&2",
		"endless": map[string]any{"run": []any{"yes"}},
		"exact":   map[string]any{"run": []any{"head", "-c", strconv.Itoa(MaxOutputBytes), "/dev/zero"}},
	})
	for _, name := range []string{"stdout", "stderr", "endless"} {
		t.Run(name, func(t *testing.T) {
			_, err := cmds.Run(t.Context(), name, nil)
			if !errors.Is(err, ErrOutputLimit) {
				t.Fatalf("err = %v, want ErrOutputLimit", err)
			}
			stream := name
			if name == "endless" {
				stream = "stdout"
			}
			mustContain(t, err, `"`+name+`"`, stream+" exceeded 8388608 bytes")
		})
	}
	out, err := cmds.Run(t.Context(), "exact", nil)
	if err != nil {
		t.Fatalf("exactly %d bytes: %v", MaxOutputBytes, err)
	}
	if s, _ := out.(string); len(s) != MaxOutputBytes {
		t.Errorf("got %d bytes, want %d", len(s), MaxOutputBytes)
	}
}

func TestRunFailures(t *testing.T) {
	cmds := oneTool(t, map[string]any{
		"exit3":   "echo partial; echo '  it broke  ' >&2; exit 3",
		"signal":  "kill -TERM $$",
		"silent":  map[string]any{"run": []any{"false"}},
		"noprog":  map[string]any{"run": []any{"/nonexistent/program"}},
		"nocwd":   map[string]any{"run": []any{"true"}, "cwd": "/nonexistent/dir"},
		"badjson": map[string]any{"run": "echo '{nope'", "output": "json"},
		"twojson": map[string]any{"run": "echo '1 2'", "output": "json"},
		"noisy":   "head -c 100000 /dev/zero | tr '\\0' x >&2; echo END >&2; exit 1",
	})
	tests := []struct {
		name string
		is   error
		want []string
	}{
		{"exit3", ErrCommandFailed, []string{`command "exit3" failed: exit 3: it broke`}},
		{"signal", ErrCommandFailed, []string{`command "signal" failed: killed by signal SIGTERM`}},
		{"silent", ErrCommandFailed, []string{`command "silent" failed: exit 1`}},
		{"noprog", nil, []string{`command "noprog": cannot start`}},
		{"nocwd", nil, []string{`command "nocwd": cannot start`, "/nonexistent/dir"}},
		{"badjson", nil, []string{`command "badjson": output is not valid JSON`}},
		{"twojson", nil, []string{`command "twojson": output is not valid JSON`}},
		{"noisy", ErrCommandFailed, []string{`failed: exit 1: …`, "xxxxEND"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := cmds.Run(t.Context(), tc.name, nil)
			mustContain(t, err, tc.want...)
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("err %v is not %v", err, tc.is)
			}
			if len(err.Error()) > stderrInError+200 {
				t.Errorf("error message is %d bytes long", len(err.Error()))
			}
		})
	}
}

func TestRunOutputModes(t *testing.T) {
	cmds := oneTool(t, map[string]any{
		"text":       "printf '  hello\\n world \\n\\n'",
		"textEmpty":  "printf '  \\n'",
		"json":       map[string]any{"run": `printf '{"a":1,"b":[true,null,"x"]}\n'`, "output": "json"},
		"jsonScalar": map[string]any{"run": []any{"echo", "42"}, "output": "json"},
		"jsonEmpty":  map[string]any{"run": []any{"true"}, "output": "json"},
		"lines":      map[string]any{"run": `printf 'a\n\n  b  \r\n\t\nc'`, "output": "lines"},
		"linesEmpty": map[string]any{"run": []any{"true"}, "output": "lines"},
	})
	tests := []struct {
		name string
		want any
	}{
		{"text", "hello\n world"},
		{"textEmpty", nil},
		{"json", map[string]any{"a": 1.0, "b": []any{true, nil, "x"}}},
		{"jsonScalar", 42.0},
		{"jsonEmpty", nil},
		{"lines", []string{"a", "b", "c"}},
		{"linesEmpty", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := cmds.Run(t.Context(), tc.name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestRunEnvironment(t *testing.T) {
	t.Setenv("CAP_TEST_DECLARED", "yes it is")
	t.Setenv("CAP_TEST_SECRET", "must not leak")
	os.Unsetenv("CAP_TEST_ABSENT")
	cmds := oneTool(t, map[string]any{
		"env":  map[string]any{"run": []any{"env"}, "env": []any{"CAP_TEST_DECLARED", "CAP_TEST_ABSENT"}, "output": "lines"},
		"bare": map[string]any{"run": []any{"env"}, "output": "lines"},
	})
	got, err := cmds.Run(t.Context(), "env", nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := got.([]string)
	sort.Strings(lines)
	want := []string{"CAP_TEST_DECLARED=yes it is", "PATH=" + os.Getenv("PATH")}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("env = %q, want %q", lines, want)
	}
	got, err = cmds.Run(t.Context(), "bare", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"PATH=" + os.Getenv("PATH")}; !reflect.DeepEqual(got, want) {
		t.Errorf("env = %q, want %q", got, want)
	}
}

func TestRunStdinIsDevNull(t *testing.T) {
	cmds := oneTool(t, map[string]any{"cat": map[string]any{"run": []any{"cat"}, "timeoutMs": 5000}})
	out, err := cmds.Run(t.Context(), "cat", nil)
	if err != nil || out != nil {
		t.Fatalf("cat = %#v, %v; want nil, nil (EOF at once)", out, err)
	}
}

func TestRunCwd(t *testing.T) {
	dir := t.TempDir()
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	cmds := oneTool(t, map[string]any{
		"argv":  map[string]any{"run": []any{"pwd", "-P"}, "cwd": dir},
		"shell": map[string]any{"run": "pwd -P", "cwd": dir},
	})
	for _, name := range []string{"argv", "shell"} {
		out, err := cmds.Run(t.Context(), name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if out != want {
			t.Errorf("%s: pwd = %q, want %q", name, out, want)
		}
	}
}

// The child leads a new session and process group.
func TestRunOwnProcessGroup(t *testing.T) {
	cmds := oneTool(t, map[string]any{"ids": map[string]any{"run": "echo $$; ps -o pgid= -o sid= -p $$", "output": "lines"}})
	if _, err := exec.LookPath("ps"); err != nil {
		t.Skip("ps not installed")
	}
	out, err := cmds.Run(t.Context(), "ids", nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := out.([]string)
	if len(lines) != 2 {
		t.Fatalf("output %q", lines)
	}
	if f := strings.Fields(lines[1]); len(f) != 2 || f[0] != lines[0] || f[1] != lines[0] {
		t.Errorf("pid %s has pgid/sid %q, want both equal to the pid", lines[0], lines[1])
	}
}

func TestRunIsConcurrencySafe(t *testing.T) {
	cmds := oneTool(t, map[string]any{"echo": map[string]any{"run": []any{"echo", "${n}"}}})
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			out, err := cmds.Run(t.Context(), "echo", map[string]any{"n": i})
			if err == nil && out != strconv.Itoa(i) {
				err = errors.New("wrong output " + out.(string))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
