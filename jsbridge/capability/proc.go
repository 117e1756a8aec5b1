package capability

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// drainGrace is how long readers may keep draining after the process group
// is dead. Only a process that escaped the group (its own setsid) can still
// hold the pipes then; we stop reading rather than wait for it.
const drainGrace = 500 * time.Millisecond

// child is one spawned process that leads its own session and process
// group. Its lifecycle is:
//
//	running ─► exited (leader is a zombie: its pid, hence the group id, is
//	           still reserved) ─► group SIGKILLed, leader reaped ─► done
//
// Killing the group only before the leader is reaped means kill(-pgid) can
// never hit an unrelated group that reused the id.
type child struct {
	cmd    *exec.Cmd
	pid    int
	exited chan struct{} // closed when the leader has exited (not yet reaped)
	done   chan struct{} // closed when reaped and the output is drained

	mu     sync.Mutex // guards reaped against kill
	reaped bool
	state  *os.ProcessState
	endAt  time.Time

	readers sync.WaitGroup
	pipes   []*os.File
}

// startChild starts argv (argv[0] is looked up in the server's PATH unless
// it contains a slash) with a cleared environment env, stdin /dev/null, and
// stdout/stderr copied into the given writers.
func startChild(argv []string, cwd string, env []string, stdout, stderr io.Writer) (*child, error) {
	if cwd != "" {
		// os/exec reports a bad Dir as the program missing; say what it is.
		if fi, err := os.Stat(cwd); err != nil {
			return nil, fmt.Errorf("cwd: %w", err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("cwd %s is not a directory", cwd)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	cmd.Dir = cwd
	cmd.Env = env
	cmd.Stdin = nil // os/exec connects the null device
	// The child leads a new session, hence a new process group whose id is
	// its pid: the whole tree can be killed with kill(-pid).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}

	// Our own pipes (instead of letting os/exec copy) so that Wait returns
	// when the leader exits, even while a grandchild holds the pipe.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, err
	}
	c := &child{
		cmd:    cmd,
		pid:    cmd.Process.Pid,
		exited: make(chan struct{}),
		done:   make(chan struct{}),
		pipes:  []*os.File{outR, errR},
	}
	c.readers.Add(2)
	go c.copy(stdout, outR)
	go c.copy(stderr, errR)
	go c.watch()
	return c, nil
}

func (c *child) copy(w io.Writer, r *os.File) {
	defer c.readers.Done()
	_, _ = io.Copy(w, r) // ends at EOF, or when the pipe is closed after drainGrace
}

// watch waits for the leader to exit without reaping it, kills whatever is
// left of its group, reaps it, drains the output and closes done.
func (c *child) watch() {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, c.pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			break
		}
	}
	close(c.exited)

	c.mu.Lock()
	_ = syscall.Kill(-c.pid, syscall.SIGKILL) // leftovers in the group
	_ = c.cmd.Wait()                          // reaps; a non-zero exit is in state
	c.state = c.cmd.ProcessState
	c.endAt = time.Now()
	c.reaped = true
	c.mu.Unlock()

	drained := make(chan struct{})
	go func() { c.readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(drainGrace):
		for _, p := range c.pipes {
			p.Close() // unblocks the readers
		}
		<-drained
	}
	for _, p := range c.pipes {
		p.Close()
	}
	close(c.done)
}

// kill SIGKILLs the whole process group unless the leader was already
// reaped (then the group is already dead and the id may be reused).
func (c *child) kill() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.reaped {
		_ = syscall.Kill(-c.pid, syscall.SIGKILL)
	}
}

// running reports whether the leader has not exited yet.
func (c *child) running() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

// exitDescription describes a finished process: "exit N" or "signal NAME".
// It is only valid after done.
func (c *child) exitDescription() (desc string, ok bool) {
	st := c.state
	if st == nil {
		return "unknown exit status", false
	}
	if ws, isWS := st.Sys().(syscall.WaitStatus); isWS && ws.Signaled() {
		return "killed by signal " + unix.SignalName(ws.Signal()), false
	}
	if st.ExitCode() != 0 {
		return fmt.Sprintf("exit %d", st.ExitCode()), false
	}
	return "exit 0", true
}

// exitCode is the reference's convention: the exit status, or -1 when the
// process died from a signal.
func (c *child) exitCode() int {
	if c.state == nil {
		return -1
	}
	return c.state.ExitCode()
}

// childEnv is the whole environment of a command: PATH plus the declared
// names that exist in the server environment, nothing else.
func childEnv(names []string) []string {
	vals := EnvAllowList(append([]string{"PATH"}, names...), os.Environ())
	env := make([]string, 0, len(vals))
	for k, v := range vals {
		env = append(env, k+"="+v)
	}
	sort.Strings(env) // deterministic, for debugging
	return env
}

// cmdError is an error with a free-form message that still matches one of
// the package's sentinels with errors.Is.
type cmdError struct {
	msg  string
	kind error
}

func (e *cmdError) Error() string { return e.msg }
func (e *cmdError) Unwrap() error { return e.kind }

func newCmdError(kind error, format string, args ...any) error {
	return &cmdError{msg: fmt.Sprintf(format, args...), kind: kind}
}
