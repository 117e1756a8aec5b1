package jsbridge

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	"golang.org/x/sys/unix"
)

// node:child_process in Go, with its JavaScript half in
// node/child_process.js. Only the bdd host may start processes this way:
// in the mcp and script hosts (and in tool handlers) commands run only
// through allow.commands (docs/capabilities.md), so every function throws
// there, saying so.

// childSpec is what spawn and spawnSync receive from node/child_process.js.
type childSpec struct {
	file    string
	args    []string
	cwd     string
	env     []string
	input   []byte
	timeout time.Duration
	maxOut  int
	killSig syscall.Signal
}

func (vm *VM) childGuard(fn string) {
	if vm.opts.Host != HostBDD {
		vm.Throw(fmt.Errorf("child_process.%s: no child_process in the %s host; a command runs only when it is declared in allow.commands (tools: ctx.commands; scripts: [scripting.allow.commands] and the global commands object), see docs/capabilities.md", fn, vm.opts.Host))
	}
	if f := CurrentFrame(vm); f != nil {
		vm.Throw(fmt.Errorf("child_process.%s: tool %q cannot start processes directly; declare the command in its allow.commands and use ctx.commands", fn, f.tool.Name))
	}
}

// signalOf maps "SIGTERM" or 15 to a signal.
func (vm *VM) signalOf(v goja.Value, def syscall.Signal) syscall.Signal {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return def
	}
	if n, ok := numberOf(v); ok {
		return syscall.Signal(int(n))
	}
	s := unix.SignalNum(v.String())
	if s == 0 {
		panic(vm.newError("TypeError", fmt.Sprintf("Unknown signal: %s", v.String()), "ERR_UNKNOWN_SIGNAL"))
	}
	return s
}

func (vm *VM) childSpecOf(o *goja.Object) childSpec {
	rt := vm.rt
	spec := childSpec{file: o.Get("file").String(), cwd: vm.dir, killSig: syscall.SIGTERM, maxOut: 1 << 20}
	if a, ok := o.Get("args").(*goja.Object); ok {
		_ = rt.ExportTo(a, &spec.args)
	}
	if c := o.Get("cwd"); c != nil && !goja.IsUndefined(c) && !goja.IsNull(c) {
		spec.cwd = vm.resolve(c.String())
	}
	if e, ok := o.Get("env").(*goja.Object); ok {
		for _, k := range e.Keys() {
			if v := e.Get(k); !goja.IsUndefined(v) {
				spec.env = append(spec.env, k+"="+v.String())
			}
		}
	}
	if in := o.Get("input"); in != nil && !goja.IsUndefined(in) && !goja.IsNull(in) {
		if io, ok := in.(*goja.Object); ok {
			if b, ok := bytesOf(rt, io); ok {
				spec.input = append([]byte(nil), b...)
			}
		}
		if spec.input == nil {
			spec.input = []byte(in.String())
		}
	}
	if t, ok := numberOf(o.Get("timeout")); ok && t > 0 {
		spec.timeout = time.Duration(t * float64(time.Millisecond))
	}
	if m, ok := numberOf(o.Get("maxBuffer")); ok && m > 0 {
		spec.maxOut = int(m)
	}
	spec.killSig = vm.signalOf(o.Get("killSignal"), syscall.SIGTERM)
	return spec
}

func (s childSpec) command() *exec.Cmd {
	cmd := exec.Command(s.file, s.args...)
	cmd.Dir = s.cwd
	cmd.Env = s.env
	return cmd
}

// spawnError is Node's error for a process that could not start
// ("spawn nope ENOENT").
func (vm *VM) spawnError(file string, args []string, err error) goja.Value {
	var en syscall.Errno
	code := "ENOENT"
	if errors.As(err, &en) {
		code = unix.ErrnoName(en)
	} else if errors.Is(err, exec.ErrNotFound) {
		en = syscall.ENOENT
	}
	e := vm.newError("Error", "spawn "+file+" "+code, code).ToObject(vm.rt)
	e.Set("errno", -int(en))
	e.Set("syscall", "spawn "+file)
	e.Set("path", file)
	e.Set("spawnargs", args)
	return e
}

// capBuffer keeps at most limit bytes and remembers it overflowed.
type capBuffer struct {
	bytes.Buffer
	limit    int
	overflow bool
	onFull   func()
}

func (c *capBuffer) Write(p []byte) (int, error) {
	if room := c.limit - c.Len(); len(p) > room {
		c.Buffer.Write(p[:max(room, 0)])
		if !c.overflow {
			c.overflow = true
			if c.onFull != nil {
				c.onFull()
			}
		}
		return len(p), nil
	}
	return c.Buffer.Write(p)
}

// spawnSync runs a process to its end on the loop (Node's *Sync functions
// block the event loop too).
func (vm *VM) spawnSync(spec childSpec) goja.Value {
	rt := vm.rt
	cmd := spec.command()
	var once sync.Once
	killed := false
	kill := func() {
		once.Do(func() {
			killed = true
			if cmd.Process != nil {
				cmd.Process.Signal(spec.killSig)
			}
		})
	}
	stdout := &capBuffer{limit: spec.maxOut, onFull: kill}
	stderr := &capBuffer{limit: spec.maxOut, onFull: kill}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if spec.input != nil {
		cmd.Stdin = bytes.NewReader(spec.input)
	}
	res := rt.NewObject()
	if err := cmd.Start(); err != nil {
		res.Set("error", vm.spawnError(spec.file, spec.args, err))
		res.Set("status", goja.Null())
		res.Set("signal", goja.Null())
		return res
	}
	if spec.timeout > 0 {
		t := time.AfterFunc(spec.timeout, kill)
		defer t.Stop()
	}
	err := cmd.Wait()
	res.Set("pid", cmd.Process.Pid)
	res.Set("stdout", buffer.WrapBytes(rt, stdout.Bytes()))
	res.Set("stderr", buffer.WrapBytes(rt, stderr.Bytes()))
	status, signal := exitOf(cmd.ProcessState)
	res.Set("status", status)
	res.Set("signal", signal)
	switch {
	case stdout.overflow || stderr.overflow:
		res.Set("error", vm.newError("RangeError", "stdout maxBuffer length exceeded", "ERR_CHILD_PROCESS_STDIO_MAXBUFFER"))
	case killed && spec.timeout > 0:
		e := vm.newError("Error", "spawnSync "+spec.file+" ETIMEDOUT", "ETIMEDOUT").ToObject(rt)
		e.Set("errno", -int(syscall.ETIMEDOUT))
		res.Set("error", e)
	case err != nil && cmd.ProcessState == nil:
		res.Set("error", vm.spawnError(spec.file, spec.args, err))
	}
	return res
}

// exitOf is Node's (status, signal) pair: the exit code or null, the name
// of the killing signal or null.
func exitOf(ps *os.ProcessState) (status, signal any) {
	if ps == nil {
		return nil, nil
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return nil, unix.SignalName(ws.Signal())
	}
	return ps.ExitCode(), nil
}

// spawn starts a process and reports its output and exit through the
// callbacks of o (onData(fd, chunk), onExit(code, signal)) as loop tasks;
// it returns the handle node/child_process.js drives (write, end, kill).
func (vm *VM) spawn(spec childSpec, o *goja.Object) goja.Value {
	rt := vm.rt
	onData, _ := goja.AssertFunction(o.Get("onData"))
	onExit, _ := goja.AssertFunction(o.Get("onExit"))
	cmd := spec.command()
	stdin, err1 := cmd.StdinPipe()
	stdout, err2 := cmd.StdoutPipe()
	stderr, err3 := cmd.StderrPipe()
	if err := errors.Join(err1, err2, err3); err != nil {
		vm.Throw(err)
	}
	if err := cmd.Start(); err != nil {
		return vm.spawnError(spec.file, spec.args, err)
	}
	release := vm.loop.Hold()
	ctx := vm.loop.Context()
	call := func(fn goja.Callable, args ...goja.Value) {
		if _, err := fn(goja.Undefined(), args...); err != nil {
			vm.reportUncaught(err)
		}
	}
	var readers sync.WaitGroup
	read := func(fd int, r io.Reader) {
		defer readers.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				chunk := append([]byte(nil), buf[:n]...)
				vm.loop.Enqueue(ctx, func() { call(onData, rt.ToValue(fd), buffer.WrapBytes(rt, chunk)) })
			}
			if err != nil {
				return
			}
		}
	}
	readers.Add(2)
	go read(1, stdout)
	go read(2, stderr)
	// What JS writes to stdin is queued without bound, as Node buffers
	// it: the loop never waits for the child to read.
	writes := newByteQueue()
	go func() {
		defer stdin.Close()
		for {
			b, ok := writes.pop()
			if !ok {
				return
			}
			if _, err := stdin.Write(b); err != nil {
				writes.close()
				return
			}
		}
	}()
	var timer *time.Timer
	if spec.timeout > 0 {
		timer = time.AfterFunc(spec.timeout, func() { cmd.Process.Signal(spec.killSig) })
	}
	var exited atomic.Bool
	go func() {
		readers.Wait()
		cmd.Wait()
		exited.Store(true)
		if timer != nil {
			timer.Stop()
		}
		writes.close()
		status, signal := exitOf(cmd.ProcessState)
		vm.loop.Enqueue(ctx, func() {
			release()
			call(onExit, rt.ToValue(status), rt.ToValue(signal))
		})
	}()
	vm.OnClose(func() {
		if !exited.Load() {
			cmd.Process.Kill()
		}
	})
	h := rt.NewObject()
	h.Set("pid", cmd.Process.Pid)
	h.Set("write", func(call goja.FunctionCall) goja.Value {
		b, ok := bytesOf(rt, call.Argument(0).ToObject(rt))
		if !ok {
			b = []byte(call.Argument(0).String())
		}
		writes.push(append([]byte(nil), b...))
		return goja.Undefined()
	})
	h.Set("end", writes.close)
	h.Set("kill", func(call goja.FunctionCall) goja.Value {
		if exited.Load() {
			return rt.ToValue(false)
		}
		return rt.ToValue(cmd.Process.Signal(vm.signalOf(call.Argument(0), syscall.SIGTERM)) == nil)
	})
	return h
}

// byteQueue is an unbounded queue of chunks for one reader.
type byteQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  [][]byte
	closed bool
}

func newByteQueue() *byteQueue {
	q := &byteQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// push adds b; after close it is dropped.
func (q *byteQueue) push(b []byte) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.items = append(q.items, b)
		q.cond.Signal()
	}
}

// close ends the queue: pop returns what is left, then false.
func (q *byteQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.cond.Broadcast()
}

// pop waits for a chunk; false once the queue is closed and empty.
func (q *byteQueue) pop() ([]byte, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return nil, false
	}
	b := q.items[0]
	q.items = q.items[1:]
	return b, true
}

// childProcessBinding is the Go half of node:child_process.
func (vm *VM) childProcessBinding() *goja.Object {
	b := vm.rt.NewObject()
	b.Set("spawn", func(call goja.FunctionCall) goja.Value {
		vm.childGuard("spawn")
		return vm.spawn(vm.childSpecOf(call.Argument(0).ToObject(vm.rt)), call.Argument(1).ToObject(vm.rt))
	})
	b.Set("spawnSync", func(call goja.FunctionCall) goja.Value {
		vm.childGuard("spawnSync")
		return vm.spawnSync(vm.childSpecOf(call.Argument(0).ToObject(vm.rt)))
	})
	b.Set("guard", func(call goja.FunctionCall) goja.Value {
		vm.childGuard(call.Argument(0).String())
		return goja.Undefined()
	})
	b.Set("path", os.Getenv("PATH"))
	return b
}
