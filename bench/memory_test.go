package main

import (
	"os"
	"testing"
	"time"
)

// A child that burns CPU and exits before the command does is counted in
// the tree's CPU (through the parent that reaped it), not in the command's
// own time.
func TestSamplerCountsReapedChildrenCPU(t *testing.T) {
	if !memoryAvailable() {
		t.Skip("no /proc")
	}
	c := command{name: "spin", dir: t.TempDir(), argv: []string{"sh", "-c", `timeout 0.4 sh -c 'while :; do :; done'; sleep 0.3`}}
	_, use, err := run(c, 20*time.Millisecond)
	if err != nil && use.Samples == 0 {
		t.Fatal(err)
	}
	if use.Samples < 5 {
		t.Fatalf("%d samples", use.Samples)
	}
	if use.CPU.Total < 200*time.Millisecond {
		t.Errorf("tree CPU %v, want at least 200ms of the spinning child's", use.CPU.Total)
	}
	if use.CPU.Own > 100*time.Millisecond {
		t.Errorf("own CPU %v: the shell itself only waits", use.CPU.Own)
	}
	if use.CPU.Browser != 0 {
		t.Errorf("browser CPU %v without a browser", use.CPU.Browser)
	}
	if use.CPU.Rest != use.CPU.Total-use.CPU.Own {
		t.Errorf("rest %v, want total %v less own %v", use.CPU.Rest, use.CPU.Total, use.CPU.Own)
	}
}

func TestProcessCPU(t *testing.T) {
	if !memoryAvailable() {
		t.Skip("no /proc")
	}
	deadline := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(deadline) { // some CPU of our own to read back
	}
	self, _, ok := processCPU(os.Getpid())
	if !ok || self < 30*time.Millisecond {
		t.Fatalf("own CPU after a 50ms spin: %v (ok %v)", self, ok)
	}
	if _, _, ok := processCPU(-1); ok {
		t.Error("a missing process read as ok")
	}
}
