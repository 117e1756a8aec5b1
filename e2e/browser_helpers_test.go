package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// Helpers of the browser end-to-end tests (example suite, init, robustness).

// portOpen reports whether something accepts connections on port.
func portOpen(port int) bool {
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// runToken returns an environment variable (NAME=value) unique to one
// ferridriver invocation. Every process it starts (the driver, Chromium,
// [[webServer]] commands) inherits it, so descendants can be found in /proc
// even after they were re-parented.
func runToken(t *testing.T) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "FD_E2E_RUN=" + hex.EncodeToString(b[:])
}

// procsWith returns the live processes (not zombies) whose environment
// holds env, as "pid cmdline" lines, excluding this test process.
func procsWith(env string) []string {
	entries, _ := os.ReadDir("/proc")
	want := []byte(env)
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !containsEntry(environ, want) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue // a zombie holds no resources; its parent reaps it
			}
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, e.Name()+" "+strings.TrimSpace(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))))
	}
	return out
}

func containsEntry(environ, entry []byte) bool {
	for _, kv := range bytes.Split(environ, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return true
		}
	}
	return false
}

// browserProcs filters procsWith's lines to Chromium processes.
func browserProcs(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.Contains(l, "chrom") || strings.Contains(l, "headless_shell") {
			out = append(out, l)
		}
	}
	return out
}

// noneLeft fails the test if a process started by the run marked with
// token is still alive shortly after the run ended.
func noneLeft(t *testing.T, token string) {
	t.Helper()
	var left []string
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if left = procsWith(token); len(left) == 0 {
			return
		}
	}
	killAll(token) // do not leak them into other tests
	t.Fatalf("processes left behind by the run:\n%s", strings.Join(left, "\n"))
}

// killAll kills the processes of a run (see runToken), for tests that must
// not leave a server behind even when they fail before noneLeft.
func killAll(token string) {
	for _, l := range procsWith(token) {
		if pid, err := strconv.Atoi(strings.Fields(l)[0]); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// exampleSuite copies the repository's example suite (features/, its steps
// in features/support/, ferridriver.toml) into a temporary directory, with the demo server
// started by this test's binary on a free port instead of bin/ferridriver
// on 4173 (which a developer may be using). Everything else is unchanged.
func exampleSuite(t *testing.T) (dir string, port int) {
	t.Helper()
	root := oracles.Root()
	dir = t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "features"), os.DirFS(filepath.Join(root, "features"))); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(root, "ferridriver.toml"))
	if err != nil {
		t.Fatal(err)
	}
	port = testenv.FreePort(t)
	s := string(cfg)
	for _, want := range []string{"bin/ferridriver demo-server", "127.0.0.1:4173"} {
		if !strings.Contains(s, want) {
			t.Fatalf("ferridriver.toml no longer mentions %q: update this test", want)
		}
	}
	s = strings.ReplaceAll(s, "bin/ferridriver demo-server", binary+" demo-server")
	s = strings.ReplaceAll(s, "127.0.0.1:4173", "127.0.0.1:"+strconv.Itoa(port))
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": s})
	return dir, port
}

// startFerridriver starts the binary in dir with extra environment
// variables, without waiting for it.
func startFerridriver(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, *limitedBuffer, *limitedBuffer) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	var out, errb limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, &out, &errb
}

// exitCode waits for cmd and returns its exit status (-1 if killed by a
// signal).
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}
