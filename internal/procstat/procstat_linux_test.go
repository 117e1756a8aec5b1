package procstat

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// waitState polls pid's stat until its zombie flag is want.
func waitState(t *testing.T, pid int, want bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, _, zombie, ok := Stat(pid); ok && zombie == want {
			return
		}
	}
	t.Fatalf("process %d never reached zombie=%v", pid, want)
}

func TestRunningAndGroupAlive(t *testing.T) {
	if !Running(os.Getpid()) {
		t.Fatal("this process is not running")
	}
	ppid, pgid, zombie, ok := Stat(os.Getpid())
	if !ok || zombie || ppid != os.Getppid() || pgid != syscall.Getpgrp() {
		t.Fatalf("Stat(self) = %d %d %v %v", ppid, pgid, zombie, ok)
	}

	// A child in a group of its own: running, then a zombie (exited, not
	// yet reaped), then gone.
	cmd := exec.Command("sleep", "0.2")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if !Running(pid) || !GroupAlive(pid) {
		t.Fatal("a sleeping child is not running")
	}
	waitState(t, pid, true)
	if Running(pid) || GroupAlive(pid) {
		t.Error("an exited, unreaped child counts as running")
	}
	_ = cmd.Wait()
	if Running(pid) || GroupAlive(pid) {
		t.Error("a reaped child counts as running")
	}
}

// TestZombieWithThreadsRuns: a process whose main thread has exited while
// another thread runs shows as a zombie, yet still holds its files.
func TestZombieWithThreadsRuns(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	// The main thread ends with the exit system call (not exit_group),
	// leaving a thread that sleeps two seconds.
	script := `import ctypes, os, threading, time
threading.Thread(target=time.sleep, args=(2,)).start()
nr = {"x86_64": 60, "aarch64": 93}[os.uname().machine]
ctypes.CDLL(None).syscall(nr, 0)
`
	cmd := exec.Command("python3", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	pid := cmd.Process.Pid
	waitState(t, pid, true)
	if !Running(pid) || !GroupAlive(pid) {
		t.Error("a zombie main thread with a live thread counts as gone")
	}
	for deadline := time.Now().Add(5 * time.Second); Running(pid) && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	if Running(pid) || GroupAlive(pid) {
		t.Error("still running after its last thread ended")
	}
}
