package jsbridge

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsServer echoes every message (text as text, binary as binary) on /echo
// and closes with 4001 "done" when it receives "bye".
func wsServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"chat"}})
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		for {
			typ, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			if string(data) == "bye" {
				_ = c.Close(4001, "done")
				return
			}
			if err := c.Write(ctx, typ, data); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The WebSocket global: open, text and binary messages in order, the
// subprotocol, a close by the server with its code and reason, a failed
// connection, a bad URL; and its network checks are fetch's.
func TestWebSocketGlobal(t *testing.T) {
	srv := wsServer(t)
	ws := "ws" + strings.TrimPrefix(srv.URL, "http")
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `defineTool({ name: "ws.localhost", allow: { net: ["localhost"] } }, async ({ args }) => { new WebSocket(args.url) });`,
	}).mustLoad()
	got := e.mustRun(fmt.Sprintf(`
const log = []
const s = new WebSocket(%q, ['chat'])
await new Promise((resolve) => {
  s.onopen = () => {
    log.push('open ' + s.protocol + ' ' + s.readyState)
    s.send('one'); s.send(new Uint8Array([1, 2, 3])); s.send('two'); s.send('bye')
  }
  s.addEventListener('message', (e) => log.push(typeof e.data === 'string' ? e.data : 'binary ' + new Uint8Array(e.data).join(',')))
  s.onclose = (e) => { log.push('close ' + e.code + ' ' + e.reason + ' ' + e.wasClean + ' ' + s.readyState); resolve() }
})
return log.join('|')`, ws+"/echo"))
	if got != "open chat 1|one|binary 1,2,3|two|close 4001 done true 3" {
		t.Fatalf("conversation: %v", got)
	}
	got = e.mustRun(`
const s = new WebSocket('ws://127.0.0.1:1/nothing')
return await new Promise((resolve) => {
  let err = ''
  s.onerror = (e) => (err = e.message)
  s.onclose = (e) => resolve(err + ' | ' + e.code + ' ' + e.wasClean)
})`)
	if s, _ := got.(string); !strings.Contains(s, "WebSocket connection to ws://127.0.0.1:1/nothing failed: ") || !strings.HasSuffix(s, " | 1006 false") {
		t.Fatalf("refused: %v", got)
	}
	mustContain(t, e.runErr(`new WebSocket('ftp://x/y')`), "SyntaxError", "the URL's scheme must be ws or wss")
	mustContain(t, e.runErr(`const s = new WebSocket('ws://127.0.0.1:1/x'); s.send('too early')`), "InvalidStateError", "Still in CONNECTING state")
	mustContain(t, e.runErr(`new WebSocket('ws://169.254.169.254/')`), "cloud metadata endpoint")
	mustContain(t, e.runErr(fmt.Sprintf(`await plugins["ws.localhost"]({ url: %q })`, ws+"/echo")), `request host "127.0.0.1" is not in allow.net [localhost]`)
}

// runOnce runs its function once for every VM sharing a store: a second
// caller, in another VM, waits for the first one's result (or its error).
func TestRunOnceAcrossVMs(t *testing.T) {
	store := NewOnceStore()
	a := newToolEnv(t, nil).mustLoad()
	b := newToolEnv(t, nil).mustLoad()
	a.vm.SetOnceStore(store)
	b.vm.SetOnceStore(store)
	var wg sync.WaitGroup
	var fromA any
	wg.Add(1)
	go func() {
		defer wg.Done()
		fromA = a.mustRun(`
globalThis.calls = 0
const { runOnce } = require('ferridriver')
const v = await runOnce('login', async () => { calls++; await new Promise((r) => setTimeout(r, 300)); return { token: 'abc', n: calls } })
return JSON.stringify(v) + ' ' + calls`)
	}()
	time.Sleep(100 * time.Millisecond)
	fromB := b.mustRun(`
const { runOnce } = require('ferridriver')
let ran = false
const v = await runOnce('login', async () => { ran = true; return { token: 'other' } })
return JSON.stringify(v) + ' ' + ran`)
	wg.Wait()
	if fromA != `{"token":"abc","n":1} 1` || fromB != `{"token":"abc","n":1} false` {
		t.Fatalf("A: %v, B: %v", fromA, fromB)
	}
	mustContain(t, a.runErr(`await require('ferridriver').runOnce('bad', async () => { throw new Error('no login') })`), "no login")
	mustContain(t, b.runErr(`await require('ferridriver').runOnce('bad', async () => 1)`), "no login")
	mustContain(t, newToolEnv(t, nil).mustLoad().runErr(`await require('ferridriver').runOnce('x', async () => 1)`), "runOnce only works while ferridriver bdd runs")
}
