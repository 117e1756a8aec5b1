package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// One MCP client, one session: each HTTP client of `ferridriver mcp` has
// its own script VM and browser session, on which its browser tools,
// run_script, browser_run_code_unsafe and extension tools all act; the
// HTTP transport's limits (idle expiry, caps, body timeout and size),
// Origin and token checks. Through the binary, with the official Go SDK
// client over HTTP.

// scriptValue runs source with run_script and returns its value as JSON.
func scriptValue(t *testing.T, cs *sdk.ClientSession, source string) string {
	t.Helper()
	r := mcpCall(t, cs, "run_script", map[string]any{"source": source})
	var out struct {
		Status string          `json:"status"`
		Value  json.RawMessage `json:"value"`
		Error  *struct{ Name, Message string }
	}
	if err := json.Unmarshal([]byte(resultText(r, 0)), &out); err != nil {
		t.Fatalf("run_script result: %v\n%s", err, resultText(r, 0))
	}
	if out.Status != "ok" {
		t.Fatalf("run_script %q: %s: %s", source, out.Error.Name, out.Error.Message)
	}
	return string(out.Value)
}

// startMCPHTTPCmd is startMCPHTTP that also returns the server's process.
func startMCPHTTPCmd(t *testing.T, dir string, env []string, args ...string) (string, *exec.Cmd, *testenv.SyncBuffer) {
	t.Helper()
	port := testenv.FreePort(t)
	cmd := exec.Command(binary, append([]string{"mcp", "--transport", "http", "--port", strconv.Itoa(port)}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	stderr := &testenv.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			t.Errorf("ferridriver mcp did not stop on SIGTERM:\n%s", stderr.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "serving streamable HTTP") {
		if time.Now().After(deadline) || cmd.ProcessState != nil {
			t.Fatalf("the HTTP server did not start:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp", cmd, stderr
}

const pageToolExt = `defineTool({ name: "page.where", exposeAsTool: true }, async (ctx) => ctx.page.url());`

// TestMCPHTTPClientsHaveTheirOwnSession: two clients of one HTTP server
// see neither each other's globals, pages nor storage; within one client
// the browser tools, run_script, browser_run_code_unsafe, extension tools
// and session_export share one page; one client's runaway script does
// not delay the other.
func TestMCPHTTPClientsHaveTheirOwnSession(t *testing.T) {
	dir := browserProject(t)
	toml := readFile(t, filepath.Join(dir, "ferridriver.toml"))
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "extensions = [\"ext\"]\n" + toml,
		"ext/page.ts":      pageToolExt,
	})
	endpoint := startMCPHTTP(t, dir, nil, "--timeout", "60s")
	a := httpClient(t, endpoint, "")
	b := httpClient(t, endpoint, "")

	// Globals.
	scriptValue(t, a, `globalThis.secret = "a's"; return 1`)
	if got := scriptValue(t, b, `return typeof globalThis.secret`); got != `"undefined"` {
		t.Errorf("client b sees client a's global: typeof secret = %s", got)
	}
	if got := scriptValue(t, a, `return globalThis.secret`); got != `"a's"` {
		t.Errorf("client a lost its own global: %s", got)
	}

	// One page per client: the page browser_navigate opened is run_script's
	// page, an extension tool's ctx.page and browser_run_code_unsafe's.
	callOK(t, a, "browser_navigate", map[string]any{"url": "/login"})
	if got := scriptValue(t, a, `return page.url()`); !strings.HasSuffix(got, `/login"`) {
		t.Errorf("run_script's page is not the page browser_navigate opened: %s", got)
	}
	if got := callOK(t, a, "page.where", nil); !strings.HasSuffix(got, "/login") {
		t.Errorf("an extension tool's ctx.page is not the page browser_navigate opened: %s", got)
	}
	ran := callOK(t, a, "browser_run_code_unsafe", map[string]any{
		"code": `async (page) => { await page.getByRole('textbox', { name: 'Username' }).fill('demo'); return page.url(); }`,
	})
	if !strings.Contains(ran, `Result: "`) || !strings.Contains(ran, `/login"`) {
		t.Errorf("browser_run_code_unsafe should return the function's value as JSON:\n%s", ran)
	}
	if !strings.Contains(ran, `Step: When I fill 'role=textbox[name="Username"]' with "demo"`) {
		t.Errorf("browser_run_code_unsafe's fill should be recorded as the built-in step:\n%s", ran)
	}
	if got := scriptValue(t, a, `return await page.getByRole('textbox', { name: 'Username' }).inputValue()`); got != `"demo"` {
		t.Errorf("run_script does not see what browser_run_code_unsafe typed: %s", got)
	}
	if snap := callOK(t, a, "browser_snapshot", nil); !strings.Contains(snap, `textbox "Username"`) || !strings.Contains(snap, "demo") {
		t.Errorf("the browser tools do not see what the code typed:\n%s", snap)
	}
	callOK(t, a, "browser_run_code_unsafe", map[string]any{
		"code": `async (page) => { for (const v of ['x']) await page.getByRole('textbox', { name: 'Password' }).fill(v); }`,
	})
	testenv.WriteFiles(t, dir, map[string]string{"code/title.js": "async (page) => await page.title()"})
	if got := callOK(t, a, "browser_run_code_unsafe", map[string]any{"filename": "code/title.js"}); !strings.Contains(got, `Result: "Log in`) {
		t.Errorf("browser_run_code_unsafe with a filename:\n%s", got)
	}
	if r := mcpCall(t, a, "browser_run_code_unsafe", map[string]any{"filename": "../outside.js"}); !r.IsError || !strings.Contains(resultText(r, 0), "inside the project directory") {
		t.Errorf("a filename outside the project: %s", resultText(r, 0))
	}
	if r := mcpCall(t, a, "browser_run_code_unsafe", map[string]any{"code": "async (page) => { throw new Error('kaput') }"}); !r.IsError || resultText(r, 0) != "Error: kaput" {
		t.Errorf("code that throws: %s", resultText(r, 0))
	}
	scriptValue(t, a, `await page.getByLabel('Password').fill('secret')`)
	scriptValue(t, a, `await page.evaluate(() => localStorage.setItem('who', 'a')); return 1`)

	// Client b: its own page and storage.
	if got := scriptValue(t, b, `return page.url()`); strings.Contains(got, "/login") {
		t.Errorf("client b's page is client a's: %s", got)
	}
	callOK(t, b, "browser_navigate", map[string]any{"url": "/login"})
	if got := scriptValue(t, b, `return await page.evaluate(() => localStorage.getItem('who'))`); got != "null" && got != "" {
		t.Errorf("client b reads client a's localStorage: %s", got)
	}
	if got := scriptValue(t, b, `return await page.getByRole('textbox', { name: 'Username' }).inputValue()`); got != `""` {
		t.Errorf("client b's page holds client a's typing: %s", got)
	}

	exported := callOK(t, a, "session_export", nil)
	t.Logf("client a's export:\n%s\nbrowser_run_code_unsafe's result:\n%s", exported, ran)
	for _, want := range []string{
		`Given I open "/login"`,
		`When I fill 'role=textbox[name="Username"]' with "demo"`,
		"# not recorded: browser_run_code_unsafe ran `async (page) => { for",
		`And I fill 'internal:label="Password"i' with "secret"`,
		"# not recorded: run_script ran `await page.evaluate(() => localStorage.setItem('who', 'a')); return 1` (page.evaluate() has no built-in step)",
		"# not recorded: the tool page.where used the page",
	} {
		if !strings.Contains(exported, want) {
			t.Errorf("client a's export lacks %q:\n%s", want, exported)
		}
	}
	if strings.Contains(exported, "return page.url()") {
		t.Errorf("a script that only read the page was recorded:\n%s", exported)
	}
	if got := callOK(t, b, "session_export", nil); strings.Contains(got, "demo") || strings.Contains(got, "run_code") {
		t.Errorf("client b's export holds client a's actions:\n%s", got)
	}

	// A runaway script of client a does not hold up client b.
	spun := make(chan string, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		r, err := a.CallTool(ctx, &sdk.CallToolParams{Name: "run_script", Arguments: map[string]any{"source": "while (true) {}", "timeout_ms": 8000}})
		if err != nil {
			spun <- err.Error()
			return
		}
		spun <- resultText(r, 0)
	}()
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	if got := scriptValue(t, b, `return 2`); got != "2" {
		t.Errorf("client b's script: %s", got)
	}
	callOK(t, b, "browser_snapshot", nil)
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("client b waited %s while client a's script spun", d)
	}
	if got := <-spun; !strings.Contains(got, "TimeoutError") {
		t.Errorf("client a's runaway script: %s", got)
	}
	if got := scriptValue(t, a, `return 3`); got != "3" {
		t.Errorf("client a after its runaway script: %s", got)
	}
}

// TestMCPHTTPIdleSessionsExpireAndContextsAreCapped: past --max-contexts
// a client gets an error that says so; a client idle past
// --session-idle-timeout is closed, which frees its browser context for
// the others.
func TestMCPHTTPIdleSessionsExpireAndContextsAreCapped(t *testing.T) {
	dir := browserProject(t)
	token := runToken(t)
	endpoint, cmd, stderr := startMCPHTTPCmd(t, dir, []string{token}, "--session-idle-timeout", "3s", "--max-contexts", "1")
	a := httpClient(t, endpoint, "")
	callOK(t, a, "browser_navigate", map[string]any{"url": "/login"})
	// b connects once a's call (which launched the browser) is done, and
	// keeps calling, so that only a idles out.
	b := httpClient(t, endpoint, "")
	r := mcpCall(t, b, "browser_navigate", map[string]any{"url": "/login"})
	if !r.IsError || !strings.Contains(resultText(r, 0), "limit") || !strings.Contains(resultText(r, 0), "--max-contexts") {
		t.Fatalf("past --max-contexts, want an error naming the limit: %s", resultText(r, 0))
	}
	// b keeps calling (and stays alive) while a is idle.
	deadline := time.Now().Add(20 * time.Second)
	for {
		time.Sleep(500 * time.Millisecond)
		r = mcpCall(t, b, "browser_navigate", map[string]any{"url": "/login"})
		if !r.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("client a's context was not freed after its session idled out: %s", resultText(r, 0))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := a.CallTool(ctx, &sdk.CallToolParams{Name: "browser_snapshot"}); err == nil {
		t.Errorf("client a's session should have expired")
	}

	// A script that closes its context: the next call opens a fresh one.
	scriptValue(t, b, `await context.close(); return 1`)
	callOK(t, b, "browser_navigate", map[string]any{"url": "/login"})

	// The server's end closes the sessions still open, and their browser.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatalf("the HTTP server did not stop on SIGTERM:\n%s", stderr.String())
	}
	noneLeft(t, token)
}

// TestMCPHTTPSessionCap: past --max-sessions a new client gets an error
// that says so; once a client leaves (DELETE) a new one gets in.
func TestMCPHTTPSessionCap(t *testing.T) {
	endpoint := startMCPHTTP(t, t.TempDir(), nil, "--max-sessions", "2")
	a := httpClient(t, endpoint, "")
	httpClient(t, endpoint, "")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := sdk.NewClient(&sdk.Implementation{Name: "third", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err == nil || !strings.Contains(err.Error(), "--max-sessions") {
		t.Fatalf("a third client past --max-sessions 2: want an error naming the limit, got %v", err)
	}
	a.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "third", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err == nil {
			cs.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a client left, a new one still cannot connect: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestMCPHTTPSlowBodiesAreCut: a body sent a byte at a time is cut at
// --read-timeout.
func TestMCPHTTPSlowBodiesAreCut(t *testing.T) {
	endpoint := startMCPHTTP(t, t.TempDir(), nil, "--read-timeout", "1s")
	addr := strings.TrimSuffix(strings.TrimPrefix(endpoint, "http://"), "/mcp")
	const n = 5
	var wg sync.WaitGroup
	took := make([]time.Duration, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			start := time.Now()
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n", addr)
			// One byte every 200 ms (the whole body would take 200 s),
			// until the server answers or closes.
			stop := make(chan struct{})
			go func() {
				for {
					select {
					case <-stop:
						return
					case <-time.After(200 * time.Millisecond):
						if _, err := c.Write([]byte(" ")); err != nil {
							return
						}
					}
				}
			}()
			_ = c.SetReadDeadline(time.Now().Add(8 * time.Second))
			_, err = bufio.NewReader(c).ReadString('\n')
			close(stop)
			took[i] = time.Since(start)
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				took[i] = -1
			}
		}()
	}
	wg.Wait()
	for i, d := range took {
		if d < 0 || d > 4*time.Second {
			t.Errorf("slow body %d was not cut within 4 s (--read-timeout 1s): %v", i, d)
		}
	}
}

// TestMCPHTTPOrigin: requests from web pages must come from a loopback
// origin or one of --http-origins (403 otherwise); requests without
// Origin (other clients) pass.
func TestMCPHTTPOrigin(t *testing.T) {
	endpoint := startMCPHTTP(t, t.TempDir(), nil, "--http-origins", "https://app.example")
	for _, c := range []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://localhost:5173", http.StatusOK},
		{"http://127.0.0.1:8080", http.StatusOK},
		{"http://[::1]:3000", http.StatusOK},
		{"https://app.example", http.StatusOK},
		{"http://evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"https://app.example.evil.example", http.StatusForbidden},
		{"http://localhost.evil.example", http.StatusForbidden},
	} {
		if got := initializeStatus(t, endpoint, map[string]string{"Origin": c.origin}); got != c.want {
			t.Errorf("Origin %q: status %d, want %d", c.origin, got, c.want)
		}
	}
}

// initializeStatus POSTs an initialize request with headers (an empty
// value: the header is not sent) and returns the status.
func initializeStatus(t *testing.T, endpoint string, headers map[string]string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		del, _ := http.NewRequest("DELETE", endpoint, nil)
		del.Header.Set("Mcp-Session-Id", id)
		for k, v := range headers {
			if v != "" {
				del.Header.Set(k, v)
			}
		}
		if r, err := http.DefaultClient.Do(del); err == nil {
			r.Body.Close()
		}
	}
	return resp.StatusCode
}

// TestMCPHTTPTokenFileAndBearerCase: the token can come from a file
// (kept out of ps), and the Bearer scheme is case-insensitive.
func TestMCPHTTPTokenFileAndBearerCase(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	endpoint, cmd, _ := startMCPHTTPCmd(t, dir, nil, "--host", "0.0.0.0", "--token-file", tokenFile)
	if cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", cmd.Process.Pid)); strings.Contains(string(cmdline), "s3cret") {
		t.Errorf("the token shows in the process list: %q", cmdline)
	}
	for auth, want := range map[string]int{
		"":              http.StatusUnauthorized,
		"Bearer wrong":  http.StatusUnauthorized,
		"Bearer s3cret": http.StatusOK,
		"bearer s3cret": http.StatusOK,
		"BEARER s3cret": http.StatusOK,
		"Basic s3cret":  http.StatusUnauthorized,
	} {
		if got := initializeStatus(t, endpoint, map[string]string{"Authorization": auth}); got != want {
			t.Errorf("Authorization %q: status %d, want %d", auth, got, want)
		}
	}
}

// rssMiB is a process's resident memory.
func rssMiB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return kb >> 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// TestMCPHTTPLargeBodiesDoNotKeepMemory: eight 30 MiB requests at once
// are answered (a tool error for arguments over the limit), and the
// server's memory comes back down after them.
func TestMCPHTTPLargeBodiesDoNotKeepMemory(t *testing.T) {
	endpoint, cmd, stderr := startMCPHTTPCmd(t, t.TempDir(), nil)
	cs := httpClient(t, endpoint, "")
	before := rssMiB(t, cmd.Process.Pid)
	big := strings.Repeat("x", 30<<20)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_script","arguments":{"source":"%s"}}}`, 100+i, big)
			req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Session-Id", cs.ID())
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(b), "the limit for one call") {
				t.Errorf("a 30 MiB call: status %d, want the size error: %.300s", resp.StatusCode, b)
			}
		}()
	}
	wg.Wait()
	time.Sleep(2 * time.Second)
	after := rssMiB(t, cmd.Process.Pid)
	t.Logf("server RSS: %d MiB before, %d MiB 2 s after eight 30 MiB requests", before, after)
	if after > before+150 {
		t.Errorf("the server kept %d MiB after the large requests (from %d MiB)\n%s", after, before, stderr.String())
	}
	if r := mcpCall(t, cs, "run_script", map[string]any{"source": "return 1"}); r.IsError {
		t.Errorf("the client's session after the large requests: %s", resultText(r, 0))
	}
}
