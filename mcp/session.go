package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/browserenv"
	"github.com/ferridriver/ferridriver/world/browsing"
)

// Session is the state one MCP client works with: a script VM (host
// "mcp") with the extensions loaded, the persistent processes its tools
// started (a capability.Session) and, when the server has a browser, the
// client's browser sessions (world/browsing, keyed by the client), whose
// default session's current tab is the VM's `page`. A goroutine owns the
// VM and runs the session's jobs one at a time, so tool calls of one
// client are serialised (as in the reference implementation); JS never
// runs anywhere else. Two clients never share a Session.
//
// The VM is disposable: it is rebuilt after a call outlived the server's
// limit (its JS may have been interrupted mid-work) and after a reload of
// the extensions. The persistent processes and the browser sessions
// survive that; they are closed when the client goes away.
type Session struct {
	opts *Options
	ext  *extensions
	// key is the client's key in the browser-session service.
	key string

	jobs chan func()
	quit chan struct{}
	done chan struct{}

	// Owned by the session goroutine:
	vm       *jsbridge.VM
	vmGen    int // the extension generation loaded in vm
	loadErrs []*jsbridge.FileError
	console  *consoleTee
	// job is the running job's state (nil between jobs).
	job *jobState
	// release: the job that ran dropped a VM for exhausting memory; the
	// memory is returned once the job is over (and no longer holds the
	// VM).
	release bool

	cmds *capability.Session

	// browser gives the VM its page and context (nil: no browser).
	browser *browserenv.AgentBrowser
	svc     *browsing.Service

	closeOnce sync.Once

	// dbg is the client's paused or pausable code (debug.go).
	dbg debugState
	// leaseMu guards the running job's leases, which a pause gives back
	// from another goroutine.
	leaseMu sync.Mutex
}

// jobState is what a running job holds: the browser sessions whose turn
// it took (the page is its until the job ends), and the note to record
// in them when the job touched the page without being recorded.
type jobState struct {
	ctx    context.Context
	leases map[*browsing.Session]func()
	// onPage, when set, records the job in every browser session it
	// leased, before their turns are given back (what ran on the page).
	onPage func(*browsing.Session)
}

// errClosed is returned for work submitted to a closed session.
var errClosed = errors.New("the MCP session is closed")

// extensions are the server's extension files: one build shared by every
// client's VM. gen counts reloads, so a VM built from an older build is
// rebuilt before its next job.
type extensions struct {
	mu  sync.Mutex
	set *jsbridge.ExtensionSet
	gen int
}

func (e *extensions) current() (*jsbridge.ExtensionSet, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.set, e.gen
}

// replace installs a new build (keeping the last good build of files that
// no longer build).
func (e *extensions) replace(set *jsbridge.ExtensionSet) {
	e.mu.Lock()
	defer e.mu.Unlock()
	set.KeepLastGood(e.set)
	e.set = set
	e.gen++
}

func newSession(opts *Options, ext *extensions, key string, svc *browsing.Service) *Session {
	s := &Session{
		opts: opts, ext: ext, key: key, svc: svc,
		jobs: make(chan func()), quit: make(chan struct{}), done: make(chan struct{}), dbg: debugState{turn: make(chan struct{}, 1)},
		cmds:    capability.NewSession(),
		console: &consoleTee{out: opts.Log},
	}
	if svc != nil {
		s.browser = browserenv.NewAgentBrowser(svc.Launcher(), sessionPage{s: s, name: browsing.DefaultSession}, svc)
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

// PanicError is a job (a tool call, a script) that panicked: the server
// recovered it, rebuilt the VM and carries on.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error: %v (the server recovered and carries on; please report it)", e.Value)
}

// do runs fn on the session goroutine with the session's VM (built on
// first use, and again when the extensions were reloaded) and waits for
// it. Work queued behind a running call starts when that call ends; ctx
// ends the wait for a turn and is the job's context (the wait for the
// page's turn, see sessionPage).
func (s *Session) do(ctx context.Context, fn func(vm *jsbridge.VM) error) error {
	errc := make(chan error, 1)
	job := func() {
		s.job = &jobState{ctx: ctx}
		defer func() {
			// A panic of the job is one call's failure, never the
			// server's: the VM, in an unknown state, is rebuilt.
			if r := recover(); r != nil {
				fmt.Fprintf(s.opts.Log, "ferridriver mcp: recovered from a panic: %v\n%s", r, debug.Stack())
				s.resetVM()
				errc <- &PanicError{Value: r}
			}
			s.endJob()
		}()
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

// endJob records the job's note in the browser sessions it used and
// gives their turns back. Session goroutine only.
func (s *Session) endJob() {
	j := s.job
	s.job = nil
	if j == nil {
		return
	}
	s.leaseMu.Lock()
	leases := j.leases
	j.leases = nil
	s.leaseMu.Unlock()
	for bs, release := range leases {
		if j.onPage != nil {
			j.onPage(bs)
		}
		release()
	}
}

// onPage sets how the running job is recorded in the browser sessions
// whose page it used (see jobState.onPage). Session goroutine only.
func (s *Session) onPage(record func(*browsing.Session)) {
	if s.job != nil {
		s.job.onPage = record
	}
}

// noteJob records the running job, if it uses the page, as the comment
// note. Session goroutine only.
func (s *Session) noteJob(note string) {
	s.onPage(func(bs *browsing.Session) { bs.Note(note) })
}

// lease returns the client's browser session name with its turn held
// until the running job ends. Session goroutine only (the VM's loop).
func (s *Session) lease(name string) (*browsing.Session, error) {
	if s.svc == nil {
		return nil, errors.New("this server has no browser")
	}
	bs, err := s.svc.Session(s.key, name)
	if err != nil {
		return nil, err
	}
	j := s.job
	if j == nil {
		return nil, errors.New("the page is only available while a call runs")
	}
	s.leaseMu.Lock()
	_, ok := j.leases[bs]
	s.leaseMu.Unlock()
	if ok {
		return bs, nil
	}
	release, err := bs.Acquire(j.ctx)
	if err != nil {
		return nil, fmt.Errorf("waiting for the browser session %q: %w", name, err)
	}
	s.leaseMu.Lock()
	if j.leases == nil {
		j.leases = map[*browsing.Session]func(){}
	}
	j.leases[bs] = release
	s.leaseMu.Unlock()
	return bs, nil
}

// sessionPage is the page source of the session's VM: the current tab of
// the client's browser session name, its turn taken for the rest of the
// job.
type sessionPage struct {
	s    *Session
	name string
}

func (p sessionPage) Page() (playwright.Page, error) {
	bs, err := p.s.lease(p.name)
	if err != nil {
		return nil, err
	}
	return bs.CurrentPage(p.s.job.ctx)
}

func (p sessionPage) Context() (playwright.BrowserContext, error) {
	bs, err := p.s.lease(p.name)
	if err != nil {
		return nil, err
	}
	return bs.BrowserContext(p.s.job.ctx)
}

func (p sessionPage) Explain(err error) error {
	if p.s.svc == nil {
		return err
	}
	bs, serr := p.s.svc.Session(p.s.key, p.name)
	if serr != nil {
		return err
	}
	return bs.Explain(err)
}

// ensureVM builds the VM and loads the extensions into it, rebuilding it
// when the extensions were reloaded since. Session goroutine only.
func (s *Session) ensureVM() (*jsbridge.VM, error) {
	set, gen := s.ext.current()
	if s.vm != nil && s.vmGen == gen {
		return s.vm, nil
	}
	s.resetVM()
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
	jsbridge.SetScriptFiles(vm, s.opts.Files)
	if s.browser != nil {
		jsbridge.SetBrowserProvider(vm, s.browser)
	}
	s.loadErrs = set.Load(vm)
	s.vm, s.vmGen = vm, gen
	return vm, nil
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

// Close ends the session: the VM is closed (with the contexts its code
// created), every persistent process is killed and the client's browser
// sessions are closed. It waits for a running call to finish its turn.
func (s *Session) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.quit)
		<-s.done
		err = s.cmds.Close()
		if s.svc != nil {
			s.svc.CloseClient(s.key)
		}
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
