//go:build windows

package webserver

import (
	"os/exec"
	"strconv"
	"time"
)

func shellCommand(line string) *exec.Cmd {
	cmd := exec.Command("cmd", "/c", line)
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// stopGroup kills the process tree with taskkill, Windows' equivalent of a
// process group kill.
func stopGroup(cmd *exec.Cmd, exited <-chan struct{}, grace time.Duration) error {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
	select {
	case <-exited:
	case <-time.After(grace):
		_ = cmd.Process.Kill()
		<-exited
	}
	return nil
}

// killGroup kills cmd's process tree at once (taskkill returns when it
// has terminated them).
func killGroup(cmd *exec.Cmd) {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
}

// waitKilled has nothing left to wait for: taskkill /F waited.
func waitKilled(*exec.Cmd, time.Time) {}
