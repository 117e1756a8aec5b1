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
	// A fixed amount of work (about 0.3 s of CPU here), so a busy machine
	// only makes it take longer; then the parent idles.
	c := command{name: "spin", dir: t.TempDir(), argv: []string{"sh", "-c", `sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'; sleep 0.3`}}
	_, use, err := run(c, 20*time.Millisecond)
	if err != nil && use.Samples == 0 {
		t.Fatal(err)
	}
	if use.Samples < 5 {
		t.Fatalf("%d samples", use.Samples)
	}
	if use.CPU.Total < 150*time.Millisecond {
		t.Errorf("tree CPU %v, want at least 150ms of the spinning child's", use.CPU.Total)
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

// processCPU reads back the CPU time this process spends.
func TestProcessCPU(t *testing.T) {
	if !memoryAvailable() {
		t.Skip("no /proc")
	}
	before, _, ok := processCPU(os.Getpid())
	if !ok {
		t.Fatal("cannot read our own stat")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		now, _, _ := processCPU(os.Getpid())
		if now-before >= 50*time.Millisecond {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("own CPU still %v after 10 s of spinning (from %v)", now, before)
		}
	}
	if _, _, ok := processCPU(-1); ok {
		t.Error("a missing process read as ok")
	}
}
