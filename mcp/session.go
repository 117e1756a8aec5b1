package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Session is the state one MCP client works with: a script VM (host
// "mcp") with the extensions loaded, and the durable parts that outlive
// any VM: the persistent processes (a capability.Session) and, later, the
// browser. A goroutine owns the VM and runs the session's jobs one at a
// time, so tool calls of one session are serialised (as in the reference
// implementation); JS never runs anywhere else.
//
// The VM is disposable: it is rebuilt after a call outlived the server's
// limit (its JS may have been interrupted mid-work) and on reload. The
// persistent processes survive that; they are killed when the session
// closes.
type Session struct {
	opts *Options

	jobs chan func()
	quit chan struct{}
	done chan struct{}

	// Owned by the session goroutine:
	set      *jsbridge.ExtensionSet
	vm       *jsbridge.VM
	loadErrs []*jsbridge.FileError
	console  *consoleTee

	cmds *capability.Session

	// browser gives every VM of the session its page and context; see
	// SetBrowser. Session goroutine only.
	browser jsbridge.BrowserProvider
	// release: the job that ran dropped a VM for exhausting memory; the
	// memory is returned once the job is over (and no longer holds the
	// VM). Session goroutine only.
	release bool

	closeOnce sync.Once
}

// errClosed is returned for work submitted to a closed session.
var errClosed = errors.New("the MCP session is closed")

func newSession(opts *Options, set *jsbridge.ExtensionSet) *Session {
	s := &Session{
		opts: opts, set: set,
		jobs: make(chan func()), quit: make(chan struct{}), done: make(chan struct{}),
		cmds:    capability.NewSession(),
		console: &consoleTee{out: opts.Log},
	}
	go s.run()
	return s
}

func (s *Session) run() {
	defer close(s.done)
	for {
		select {
		case job := <-s.jobs:
			job()
			if s.release {
				s.release = false
				releaseMemory()
			}
		case <-s.quit:
			if s.vm != nil {
				s.vm.Close()
				s.vm = nil
			}
			return
		}
	}
}

// do runs fn on the session goroutine with the session's VM (built on
// first use) and waits for it. Work queued behind a running call starts
// when that call ends; ctx ends the wait for a turn.
func (s *Session) do(ctx context.Context, fn func(vm *jsbridge.VM) error) error {
	errc := make(chan error, 1)
	job := func() {
		if err := ctx.Err(); err != nil {
			errc <- err
			return
		}
		vm, err := s.ensureVM()
		if err != nil {
			errc <- err
			return
		}
		err = fn(vm)
		if vm.Interrupted() {
			// JS was cut off mid-run (a limit passed): the next call gets
			// a fresh VM rather than one in an unknown state.
			s.resetVM()
		}
		errc <- err
	}
	select {
	case s.jobs <- job:
	case <-s.quit:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-errc
}

// ensureVM builds the VM and loads the extensions into it. Session
// goroutine only.
func (s *Session) ensureVM() (*jsbridge.VM, error) {
	if s.vm != nil {
		return s.vm, nil
	}
	vm, err := jsbridge.NewVM(nil, jsbridge.VMOptions{
		Host: jsbridge.HostMCP, Dir: s.opts.Dir, Env: s.opts.Env,
		// stdout carries the protocol: console output goes to the log.
		Stdout: s.console, Stderr: s.console,
	})
	if err != nil {
		return nil, fmt.Errorf("creating the script VM: %w", err)
	}
	jsbridge.SetCommandSession(vm, s.cmds)
	jsbridge.SetScriptCommands(vm, s.opts.ScriptCommands)
	if s.browser != nil {
		jsbridge.SetBrowserProvider(vm, s.browser)
	}
	s.loadErrs = s.set.Load(vm)
	s.vm = vm
	return vm, nil
}

// SetBrowser attaches the session's browser: handler contexts and the
// page/context globals of this session's VMs (the current one and every
// rebuilt one) get their values from p. The session does not own p; the
// browser layer closes it when the session ends (see Server.Run).
func (s *Session) SetBrowser(p jsbridge.BrowserProvider) error {
	return s.do(context.Background(), func(vm *jsbridge.VM) error {
		s.browser = p
		jsbridge.SetBrowserProvider(vm, p)
		return nil
	})
}

// resetVM drops the VM; the next job builds a fresh one. Session
// goroutine only.
func (s *Session) resetVM() {
	if s.vm != nil {
		s.vm.Close()
		s.vm = nil
	}
}

// dropVMForMemory drops the VM of a call stopped for exhausting memory
// and has the memory returned after the job. Session goroutine only.
func (s *Session) dropVMForMemory() {
	s.resetVM()
	s.release = true
}

// Close ends the session: the VM is closed and every persistent process
// is killed. It waits for a running call to finish its turn.
func (s *Session) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.quit)
		<-s.done
		err = s.cmds.Close()
	})
	return err
}

// consoleTee sends console output to the log and, while a run_script call
// captures it, to that call's buffer too.
type consoleTee struct {
	mu      sync.Mutex
	out     io.Writer
	capture *bytes.Buffer
}

func (c *consoleTee) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.capture != nil && c.capture.Len() < maxConsoleCapture {
		c.capture.Write(p)
	}
	if c.out != nil {
		c.out.Write(p)
	}
	return len(p), nil
}

// startCapture begins capturing console output; the returned function
// ends it and returns what was written.
func (c *consoleTee) startCapture() func() string {
	c.mu.Lock()
	buf := &bytes.Buffer{}
	c.capture = buf
	c.mu.Unlock()
	return func() string {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.capture = nil
		return buf.String()
	}
}

// maxConsoleCapture bounds the console output returned by run_script.
const maxConsoleCapture = 1 << 20
