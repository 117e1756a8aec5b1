//go:build !windows

package webserver

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// shellCommand runs line with sh in its own process group, so that Stop
// reaches every process it starts (npm run dev and its children, say).
func shellCommand(line string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A grandchild that escaped the group could hold our output pipes open
	// forever; do not let Wait hang on it.
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

func stopGroup(cmd *exec.Cmd, exited <-chan struct{}, grace time.Duration) error {
	pgid := cmd.Process.Pid
	if err := syscall.Kill(-pgid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("[[webServer]] stop process group %d: %w", pgid, err)
	}
	select {
	case <-exited:
	case <-time.After(grace):
	}
	// The shell may be gone while its children live on: always sweep the group.
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("[[webServer]] kill process group %d: %w", pgid, err)
	}
	<-exited
	return nil
}

// killGroup kills cmd's process group at once, without waiting.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
