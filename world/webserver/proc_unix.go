//go:build !windows

package webserver

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/ferridriver/ferridriver/internal/procstat"
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
	waitGroupGone(pgid, time.Now().Add(killWait))
	return nil
}

// killGroup kills cmd's process group at once; waitKilled then waits for
// it to be gone.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// waitKilled waits, until deadline at the latest, for the process group
// that killGroup killed to be gone.
func waitKilled(cmd *exec.Cmd, deadline time.Time) { waitGroupGone(cmd.Process.Pid, deadline) }

// waitGroupGone polls until no process of group pgid is left, or until
// deadline. The processes of a killed group die a moment after the signal,
// and hold their listening sockets until then: returning before they are
// gone would leave the server's port taken after ferridriver has exited.
func waitGroupGone(pgid int, deadline time.Time) {
	for time.Now().Before(deadline) {
		if !procstat.GroupAlive(pgid) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
