package capability

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// killWait bounds how long Stop and Close wait for a SIGKILLed group to be
// reaped. SIGKILL cannot be caught, so this only trips for a process stuck
// in the kernel.
const killWait = 10 * time.Second

// Session owns the persistent processes of one MCP or script session. It
// outlives the JS VMs of the session (a VM rebuild binds a new Commands to
// the same Session), so a dev server keeps running across calls. Close it
// when the session ends. Safe for concurrent use.
//
// The process table is keyed by (tool, command name): each tool has its own
// namespace, and a tool can only inspect or stop what it started from its
// own declarations.
type Session struct {
	mu     sync.Mutex
	procs  map[procKey]*persistentProc
	closed bool
}

type procKey struct{ tool, name string }

type persistentProc struct {
	name           string
	child          *child
	started        time.Time
	stdout, stderr *ring
}

// ProcInfo is the result of Commands.Start: {name, pid}.
type ProcInfo struct {
	Name string `json:"name"`
	Pid  int    `json:"pid"`
}

// ProcStatus is the result of Commands.Status and Commands.Stop.
type ProcStatus struct {
	Name    string `json:"name"`
	Pid     int    `json:"pid"`
	Running bool   `json:"running"`
	// ExitCode is nil while running, the exit status once exited, and -1
	// when the process died from a signal (including Stop's SIGKILL).
	ExitCode *int  `json:"exitCode"`
	UptimeMs int64 `json:"uptimeMs"`
	// Stdout and Stderr are the last RingBytes (64 KiB) of each stream.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// NewSession returns an empty session.
func NewSession() *Session {
	return &Session{procs: map[procKey]*persistentProc{}}
}

// For returns the commands view of tool: it may run only the commands in
// set, and reaches only the persistent processes started under the same
// tool key. tool is an opaque scope key: use the tool name for extension
// tools and one reserved key (for example "") for first-party scripts using
// [scripting.allow.commands]. A nil set declares nothing.
func (s *Session) For(tool string, set *CommandSet) *Commands {
	return &Commands{session: s, tool: tool, set: set}
}

// Close kills every persistent process of the session (their whole process
// groups) and waits for them to be reaped. Later Starts fail with
// ErrSessionClosed. Close is idempotent.
func (s *Session) Close() error {
	s.mu.Lock()
	s.closed = true
	procs := s.procs
	s.procs = map[procKey]*persistentProc{}
	s.mu.Unlock()

	for _, p := range procs {
		p.child.kill()
	}
	var errs []error
	for k, p := range procs {
		if err := p.waitDone(); err != nil {
			errs = append(errs, fmt.Errorf("tool %q command %q: %w", k.tool, k.name, err))
		}
	}
	return errors.Join(errs...)
}

// Start starts the persistent command declared under name and returns its
// {name, pid}. While a process started by this tool under that name is
// running, Start returns it again (vars are then still validated but not
// used). A process that has exited is replaced by a fresh one. Start fails
// when the name is undeclared or one-shot, vars do not fit the template,
// the session is closed, or MaxPersistent processes are already running
// (exited ones are pruned first).
func (c *Commands) Start(name string, vars map[string]any) (ProcInfo, error) {
	spec, err := c.persistentSpec(name, "start")
	if err != nil {
		return ProcInfo{}, err
	}
	argv, err := spec.resolve(vars)
	if err != nil {
		return ProcInfo{}, err
	}
	s := c.session
	if s == nil {
		return ProcInfo{}, newCmdError(ErrSessionClosed, "command %q: cannot start: no session", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ProcInfo{}, newCmdError(ErrSessionClosed, "command %q: cannot start: the session is closed", name)
	}
	key := procKey{c.tool, name}
	if p, ok := s.procs[key]; ok {
		if p.child.running() {
			return ProcInfo{Name: name, Pid: p.child.pid}, nil
		}
		delete(s.procs, key)
	}
	if len(s.procs) >= MaxPersistent {
		for k, p := range s.procs {
			if !p.child.running() {
				delete(s.procs, k)
			}
		}
	}
	if len(s.procs) >= MaxPersistent {
		return ProcInfo{}, newCmdError(ErrTooManyProcesses,
			"command %q: cannot start: the session already runs %d persistent processes (the maximum); stop one first",
			name, MaxPersistent)
	}
	p := &persistentProc{name: name, stdout: newRing(RingBytes), stderr: newRing(RingBytes)}
	ch, err := startChild(argv, spec.Cwd, childEnv(spec.Env), p.stdout, p.stderr)
	if err != nil {
		return ProcInfo{}, fmt.Errorf("command %q: cannot start: %w", name, err)
	}
	p.child, p.started = ch, time.Now()
	s.procs[key] = p
	return ProcInfo{Name: name, Pid: ch.pid}, nil
}

// Status reports on the persistent process this tool started under name:
// whether it runs, its exit code and the tail of its output. An exited
// process stays visible until it is restarted, stopped, or pruned to make
// room for another.
func (c *Commands) Status(name string) (ProcStatus, error) {
	if _, err := c.persistentSpec(name, "status"); err != nil {
		return ProcStatus{}, err
	}
	p, err := c.proc(name, false)
	if err != nil {
		return ProcStatus{}, err
	}
	return p.status(), nil
}

// Stop SIGKILLs the process group of the persistent process this tool
// started under name, waits until it is reaped, forgets it, and returns its
// final status. A later Status fails with ErrNotStarted.
func (c *Commands) Stop(name string) (ProcStatus, error) {
	if _, err := c.persistentSpec(name, "stop"); err != nil {
		return ProcStatus{}, err
	}
	p, err := c.proc(name, true)
	if err != nil {
		return ProcStatus{}, err
	}
	p.child.kill()
	if err := p.waitDone(); err != nil {
		return p.status(), fmt.Errorf("command %q: stop: %w", name, err)
	}
	return p.status(), nil
}

// persistentSpec checks that name is declared by this tool and persistent:
// Status and Stop never reach a process outside the caller's allow-list.
func (c *Commands) persistentSpec(name, verb string) (*Spec, error) {
	spec, err := c.set.lookup(name)
	if err != nil {
		return nil, err
	}
	if !spec.Persistent {
		return nil, newCmdError(ErrKindMismatch,
			"command %q is not declared persistent: use commands.run (commands.%s is for persistent commands)", name, verb)
	}
	return spec, nil
}

// proc finds this tool's record for name, removing it when remove is set.
func (c *Commands) proc(name string, remove bool) (*persistentProc, error) {
	s := c.session
	if s == nil {
		return nil, newCmdError(ErrNotStarted, "command %q: no persistent process started by this tool in this session", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := procKey{c.tool, name}
	p, ok := s.procs[key]
	if !ok {
		return nil, newCmdError(ErrNotStarted, "command %q: no persistent process started by this tool in this session", name)
	}
	if remove {
		delete(s.procs, key)
	}
	return p, nil
}

func (p *persistentProc) waitDone() error {
	select {
	case <-p.child.done:
		return nil
	case <-time.After(killWait):
		return fmt.Errorf("process group %d did not exit within %s of SIGKILL", p.child.pid, killWait)
	}
}

func (p *persistentProc) status() ProcStatus {
	st := ProcStatus{Name: p.name, Pid: p.child.pid, Running: true}
	p.child.mu.Lock()
	end := time.Now()
	if p.child.reaped {
		code := p.child.exitCode()
		st.Running, st.ExitCode, end = false, &code, p.child.endAt
	}
	p.child.mu.Unlock()
	st.UptimeMs = end.Sub(p.started).Milliseconds()
	st.Stdout, st.Stderr = p.stdout.String(), p.stderr.String()
	return st
}
