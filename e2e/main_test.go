// Package e2e holds end-to-end tests: they build the real ferridriver binary
// and run it as a user would, against the official oracles.
//
// The longest tests (a whole suite through the binary, on a remote browser
// too, tsc, a Go build, the longer MCP sessions) call t.Parallel (unless
// their timing is tight): go test runs them after the others, two at a
// time on two cores (-parallel is GOMAXPROCS), which takes minutes off
// `make test`.
// Each uses its own temporary directory, free ports and run token
// (runToken), and none counts processes other than its own. A test that
// loads the machine on purpose (burnCPU) or checks what runs on it as a
// whole stays serial.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// binary is the ferridriver binary built for the tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ferridriver-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "ferridriver")
	build := exec.Command("go", "build", "-o", binary, "./cmd/ferridriver")
	build.Dir = oracles.Root()
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building ferridriver:", err)
		os.Exit(1)
	}
	// The runs' cache of bundles is the tests' own, so that they see a
	// cold cache first and leave nothing in the user's.
	if os.Getenv("FERRIDRIVER_BUNDLE_CACHE") == "" {
		os.Setenv("FERRIDRIVER_BUNDLE_CACHE", filepath.Join(dir, "bundles"))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runResult is what a ferridriver invocation did.
type runResult struct {
	code           int
	stdout, stderr string
}

// ferridriver runs the binary in dir with args.
func ferridriver(t testing.TB, dir string, args ...string) runResult {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	return runCommand(t, cmd, "ferridriver")
}

// runCommand runs cmd (its Env set by the caller), keeping the first
// 4 MiB of its stdout and stderr; a command that cannot start fails t.
func runCommand(t testing.TB, cmd *exec.Cmd, name string) runResult {
	t.Helper()
	var out, errb limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s %v: %v", name, cmd.Args[1:], err)
	}
	return runResult{code: code, stdout: out.String(), stderr: errb.String()}
}

// limitedBuffer keeps the first 4 MiB written to it.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4<<20 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
