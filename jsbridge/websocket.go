package jsbridge

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// The WebSocket global, the client Node 22 has (WHATWG's API): node/
// websocket.js builds the class over the Go connection below
// (coder/websocket), whose handshake goes through the capability HTTP
// client, so the running tool's allow.net applies as to fetch and cloud
// metadata endpoints are always denied. Events are queued to the VM's
// loop in order; an open socket keeps the loop alive, as in Node, until it
// closes (or the VM does).

// wsDialTimeout bounds the opening handshake.
const wsDialTimeout = 30 * time.Second

func init() {
	RegisterInit(func(vm *VM) error {
		rt := vm.rt
		g := rt.GlobalObject()
		// Defined on first touch: most runs never use it.
		return g.DefineAccessorProperty("WebSocket", rt.ToValue(func(goja.FunctionCall) goja.Value {
			v, err := vm.nodeScript("websocket.js", vm.wsBinding())
			if err != nil {
				vm.Throw(err)
			}
			_ = g.DefineDataProperty("WebSocket", v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			return v
		}), rt.ToValue(func(call goja.FunctionCall) goja.Value {
			_ = g.DefineDataProperty("WebSocket", call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			return goja.Undefined()
		}), goja.FLAG_TRUE, goja.FLAG_FALSE)
	})
}

// wsConn is one connection: a reader goroutine queues its events to the
// loop; writes go through one writer goroutine, in order.
type wsConn struct {
	vm      *VM
	cb      *goja.Object // {open, message, close}, called on the loop
	ctx     any          // the loop's async context at connect
	release func()       // the loop hold, released on the loop once

	cancel context.CancelFunc
	writes chan wsWrite

	mu     sync.Mutex
	conn   *websocket.Conn
	closed bool
}

type wsWrite struct {
	binary bool
	data   []byte
}

// emit calls cb[name](args...) on the loop.
func (c *wsConn) emit(name string, args ...any) {
	c.vm.loop.Enqueue(c.ctx, func() {
		fn, ok := goja.AssertFunction(c.cb.Get(name))
		if !ok {
			return
		}
		vals := make([]goja.Value, len(args))
		for i, a := range args {
			if b, isBytes := a.([]byte); isBytes {
				vals[i] = c.vm.rt.ToValue(c.vm.rt.NewArrayBuffer(b))
			} else {
				vals[i] = c.vm.rt.ToValue(a)
			}
		}
		if _, err := fn(goja.Undefined(), vals...); err != nil {
			c.vm.reportUncaught(err)
		}
	})
}

// finish queues the close event and lets the loop go.
func (c *wsConn) finish(code int, reason string, clean bool) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.emit("close", code, reason, clean)
	c.vm.loop.Enqueue(c.ctx, c.release)
}

func (vm *VM) wsBinding() *goja.Object {
	rt := vm.rt
	b := rt.NewObject()
	b.Set("connect", func(call goja.FunctionCall) goja.Value {
		raw := call.Argument(0).String()
		var protocols []string
		if p, ok := call.Argument(1).Export().([]any); ok {
			for _, s := range p {
				protocols = append(protocols, fmt.Sprint(s))
			}
		}
		cb, ok := call.Argument(2).(*goja.Object)
		if !ok {
			panic(rt.NewTypeError("WebSocket: bad callbacks"))
		}
		frame := CurrentFrame(vm)
		var policy *capability.NetPolicy
		if frame != nil {
			policy = frame.Net()
		}
		u, err := url.Parse(raw)
		if err != nil {
			panic(vm.newError("SyntaxError", fmt.Sprintf("Failed to construct 'WebSocket': the URL %q is invalid: %v", raw, err), ""))
		}
		check := *u
		switch u.Scheme {
		case "ws":
			check.Scheme = "http"
		case "wss":
			check.Scheme = "https"
		default:
			panic(vm.newError("SyntaxError", fmt.Sprintf("Failed to construct 'WebSocket': the URL's scheme must be ws or wss, not %q", u.Scheme), ""))
		}
		if err := policy.CheckURL(&check); err != nil {
			panic(vm.newError("TypeError", err.Error(), "ERR_NET_DENIED"))
		}
		ctx, cancel := context.WithCancel(context.Background())
		c := &wsConn{vm: vm, cb: cb, ctx: vm.loop.Context(), release: vm.loop.Hold(), cancel: cancel, writes: make(chan wsWrite, 64)}
		vm.OnClose(func() { c.closeNow() })
		go c.run(ctx, raw, protocols, policy)
		h := rt.NewObject()
		h.Set("send", func(call goja.FunctionCall) goja.Value {
			w := wsWrite{binary: call.Argument(1).ToBoolean()}
			if s, ok := call.Argument(0).Export().(string); ok && !w.binary {
				w.data = []byte(s)
			} else if bs, ok := bytesOf(rt, call.Argument(0).ToObject(rt)); ok {
				w.data = append([]byte(nil), bs...)
			} else {
				w.data = []byte(call.Argument(0).String())
			}
			select {
			case c.writes <- w:
			case <-ctx.Done():
			}
			return goja.Undefined()
		})
		h.Set("close", func(call goja.FunctionCall) goja.Value {
			code := websocket.StatusNormalClosure
			if v := call.Argument(0); !goja.IsUndefined(v) && !goja.IsNull(v) {
				code = websocket.StatusCode(v.ToInteger())
			}
			reason := ""
			if v := call.Argument(1); !goja.IsUndefined(v) && !goja.IsNull(v) {
				reason = v.String()
			}
			go c.close(code, reason)
			return goja.Undefined()
		})
		return h
	})
	return b
}

// run dials, then reads until the connection ends.
func (c *wsConn) run(ctx context.Context, raw string, protocols []string, policy *capability.NetPolicy) {
	dctx, dcancel := context.WithTimeout(ctx, wsDialTimeout)
	conn, _, err := websocket.Dial(dctx, raw, &websocket.DialOptions{HTTPClient: policy.Client(), Subprotocols: protocols})
	dcancel()
	if err != nil {
		msg := err.Error()
		var ne *capability.NetError
		if errors.As(err, &ne) {
			msg = ne.Error()
		}
		c.emit("error", fmt.Sprintf("WebSocket connection to %s failed: %s", raw, strings.TrimPrefix(msg, "failed to WebSocket dial: ")))
		c.finish(1006, "", false)
		return
	}
	conn.SetReadLimit(MaxResponseBytes)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		conn.CloseNow()
		return
	}
	c.conn = conn
	c.mu.Unlock()
	c.emit("open", conn.Subprotocol())
	go c.writer(ctx, conn)
	for {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			code := int(websocket.CloseStatus(err))
			var ce websocket.CloseError
			reason := ""
			if errors.As(err, &ce) {
				reason = ce.Reason
			}
			if code < 0 {
				if ctx.Err() == nil {
					c.emit("error", fmt.Sprintf("WebSocket connection to %s: %v", raw, err))
				}
				c.finish(1006, reason, false)
				return
			}
			c.finish(code, reason, true)
			return
		}
		if typ == websocket.MessageText {
			c.emit("message", string(data), false)
		} else {
			c.emit("message", data, true)
		}
	}
}

func (c *wsConn) writer(ctx context.Context, conn *websocket.Conn) {
	for {
		select {
		case <-ctx.Done():
			return
		case w := <-c.writes:
			typ := websocket.MessageText
			if w.binary {
				typ = websocket.MessageBinary
			}
			if err := conn.Write(ctx, typ, w.data); err != nil {
				return // the reader sees the connection end
			}
		}
	}
}

// close starts the closing handshake (or abandons a connection still
// opening); the reader reports the close.
func (c *wsConn) close(code websocket.StatusCode, reason string) {
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	if conn == nil {
		c.cancel()
		return
	}
	if err := conn.Close(code, reason); err != nil {
		c.cancel()
	}
}

// closeNow drops the connection without a handshake (the VM is closing).
func (c *wsConn) closeNow() {
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	c.cancel()
	if conn != nil {
		conn.CloseNow()
	}
}
