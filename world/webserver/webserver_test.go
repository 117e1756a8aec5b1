//go:build !windows

package webserver

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/internal/procstat"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// When the test binary runs with this variable set it acts as a
// `ferridriver demo-server`-like command: serve the demo app on the given
// address until SIGTERM.
const serveEnv = "FERRIDRIVER_WEBSERVER_TEST_SERVE"

func TestMain(m *testing.M) {
	if addr := os.Getenv(serveEnv); addr != "" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
		defer stop()
		url, err := demoapp.Serve(ctx, addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(url)
		<-ctx.Done()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

func TestStartDemoServerCommand(t *testing.T) {
	port := testenv.FreePort(t)
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	var out testenv.SyncBuffer
	start := time.Now()
	s, err := Start(context.Background(), Config{
		Command: "exec " + strconv.Quote(os.Args[0]),
		URL:     url + "/api/health",
		Env:     map[string]string{serveEnv: fmt.Sprintf("127.0.0.1:%d", port)},
		Stdout:  "pipe",
	}, Options{Output: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("server up after %v", time.Since(start))
	if s.Reused() {
		t.Error("nothing was running, yet the server counts as reused")
	}
	resp, err := http.Get(url + "/todo.html")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET todo.html: %v %v", resp, err)
	}
	resp.Body.Close()
	pid := s.PID()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Errorf("server process %d still running after Stop", pid)
	}
	if _, err := http.Get(url + "/api/health"); err == nil {
		t.Error("server still answers after Stop")
	}
	if !strings.Contains(out.String(), "[WebServer] "+url) {
		t.Errorf("piped stdout not prefixed: %q", out.String())
	}
}

func TestStartPythonHTTPServerAndKillGroup(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<h1>hi</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "sleep.pid")
	port := testenv.FreePort(t)
	// A background grandchild: Stop must reach it through the process group.
	cmd := fmt.Sprintf("sleep 300 & echo $! > %s; python3 -m http.server %d --bind 127.0.0.1", pidFile, port)
	s, err := Start(context.Background(), Config{Command: cmd, URL: fmt.Sprintf("http://127.0.0.1:%d/", port), Cwd: dir, Timeout: 20000}, Options{Output: &testenv.SyncBuffer{}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	sleepPID, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if !alive(sleepPID) {
		t.Fatalf("background child %d not running", sleepPID)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for alive(sleepPID) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(sleepPID) {
		t.Errorf("grandchild %d survived Stop", sleepPID)
	}
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

func TestReuseExistingServer(t *testing.T) {
	srv := httptest.NewServer(demoapp.Handler())
	defer srv.Close()
	marker := filepath.Join(t.TempDir(), "ran")
	cfg := Config{Command: "touch " + marker, URL: srv.URL, ReuseExistingServer: true}
	s, err := Start(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Reused() || s.PID() != 0 {
		t.Error("want the running server reused")
	}
	if err := s.Stop(); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran although the server was reused")
	}
	if _, err := http.Get(srv.URL); err != nil {
		t.Error("Stop of a reused server must leave it running")
	}

	cfg.ReuseExistingServer = false
	_, err = Start(context.Background(), cfg, Options{})
	if err == nil || !strings.Contains(err.Error(), "already used") {
		t.Errorf("reuseExistingServer=false with a running server: want 'already used' error, got %v", err)
	}
}

func TestTimeout(t *testing.T) {
	port := testenv.FreePort(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	start := time.Now()
	_, err := Start(context.Background(), Config{
		Command: "echo $$ > " + pidFile + "; echo starting >&2; exec sleep 60",
		URL:     fmt.Sprintf("http://127.0.0.1:%d", port), Timeout: 600,
	}, Options{Output: &testenv.SyncBuffer{}})
	if err == nil {
		t.Fatal("want a timeout error")
	}
	took := time.Since(start)
	if !strings.Contains(err.Error(), "timed out after 600 ms") || !strings.Contains(err.Error(), "starting") {
		t.Errorf("error should say timed out and show stderr: %v", err)
	}
	if took > 5*time.Second {
		t.Errorf("timeout of 600 ms took %v", took)
	}
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if pid == 0 || alive(pid) {
		t.Errorf("the timed-out command (pid %d) must be killed", pid)
	}
}

func TestCommandExitsEarly(t *testing.T) {
	_, err := Start(context.Background(), Config{
		Command: "echo boom >&2; exit 3", URL: fmt.Sprintf("http://127.0.0.1:%d", testenv.FreePort(t)),
	}, Options{Output: &testenv.SyncBuffer{}})
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("want an exit status 3 error with stderr, got %v", err)
	}
}

func TestPortProbe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	s, err := Start(context.Background(), Config{Command: "true", Port: port, ReuseExistingServer: true}, Options{})
	if err != nil || !s.Reused() {
		t.Errorf("port in use + reuse: %v", err)
	}
}

func TestUpStatusRule(t *testing.T) {
	for code, want := range map[int]bool{200: true, 204: true, 301: true, 302: true, 400: true, 401: true, 403: true, 404: false, 500: false, 503: false} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if code == 302 {
				http.Redirect(w, r, "/elsewhere-that-404s", code)
				return
			}
			w.WriteHeader(code)
		}))
		got := newProbe(Config{URL: srv.URL + "/"})(context.Background())
		srv.Close()
		if got != want {
			t.Errorf("status %d: up=%v, want %v", code, got, want)
		}
	}
	// A 404 on "/" falls back to /index.html, as Playwright does.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/index.html" {
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	if !newProbe(Config{URL: srv.URL})(context.Background()) {
		t.Error("404 on / with /index.html answering: want up")
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]Config{
		"command is required":  {URL: "http://x"},
		"set url (or port)":    {Command: "x"},
		"not both":             {Command: "x", URL: "http://x", Port: 3},
		"not an http(s) URL":   {Command: "x", URL: "ftp://x"},
		"timeout must be >= 0": {Command: "x", URL: "http://x", Timeout: -1},
		"want pipe or ignore":  {Command: "x", URL: "http://x", Stdout: "loud"},
	}
	for want, c := range cases {
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: want error containing %q, got %v", c, want, err)
		}
	}
	ok := Config{Command: "x", URL: "http://127.0.0.1:3000"}
	if err := ok.Validate(); err != nil {
		t.Error(err)
	}
}

func TestStartAllStopsStartedOnFailure(t *testing.T) {
	port := testenv.FreePort(t)
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	_, err := StartAll(context.Background(), []Config{
		{Command: "exec " + strconv.Quote(os.Args[0]), URL: url, Env: map[string]string{serveEnv: fmt.Sprintf("127.0.0.1:%d", port)}},
		{Command: "exit 1", URL: fmt.Sprintf("http://127.0.0.1:%d", testenv.FreePort(t))},
	}, Options{Output: &testenv.SyncBuffer{}})
	if err == nil {
		t.Fatal("want the second server's error")
	}
	if _, err := http.Get(url); err == nil {
		t.Error("the first server must be stopped when a later one fails")
	}
}

// TestKillFreesThePort: on a forced exit the servers are killed, and Kill
// returns only once their processes are gone, so the port is free the
// moment ferridriver has exited (a server a shell started, as every
// webServer command is, and one that ignores SIGTERM).
func TestKillFreesThePort(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	server := "import signal, http.server, sys\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n" +
		"http.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), http.server.SimpleHTTPRequestHandler).serve_forever()\n"
	if err := os.WriteFile(filepath.Join(dir, "server.py"), []byte(server), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		port := testenv.FreePort(t)
		cfg := Config{Command: fmt.Sprintf("python3 server.py %d", port), URL: fmt.Sprintf("http://127.0.0.1:%d/", port), Cwd: dir, Timeout: 20000}
		g, err := StartAll(context.Background(), []Config{cfg}, Options{Output: &testenv.SyncBuffer{}})
		if err != nil {
			t.Fatal(err)
		}
		pgid := g.Servers()[0].PID()
		start := time.Now()
		g.Kill()
		took := time.Since(start)
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			t.Fatalf("round %d: port %d still listening when Kill returned\n%s", i, port, processTable())
		}
		if procstat.GroupAlive(pgid) {
			t.Fatalf("round %d: a process of group %d still runs when Kill returned\n%s", i, pgid, processTable())
		}
		if took > 2*killWait {
			t.Errorf("round %d: Kill took %v, over its bound of %v", i, took, killWait)
		}
	}
}

// processTable is ps's view of every process, for a failure message.
func processTable() string {
	out, _ := exec.Command("ps", "-eo", "pid,ppid,pgid,stat,comm").Output()
	return string(out)
}
