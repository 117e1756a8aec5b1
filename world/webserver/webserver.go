// Package webserver starts the web servers a suite tests, like the
// webServer option of Playwright's config: run a command, wait until its
// URL answers, reuse a server that is already running if allowed, and stop
// the command's whole process group at the end.
package webserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultTimeout is how long Start waits for the URL (Playwright: 60 s).
const DefaultTimeout = 60 * time.Second

// Config is one [[webServer]] entry. Key names are Playwright's.
type Config struct {
	// Command is a shell command line (run with sh -c; cmd /c on Windows).
	Command string `mapstructure:"command" json:"command" toml:"command"`
	// URL is polled until it answers with 2xx, 3xx or 400-403 (a 404 on
	// "/" retries "/index.html"), as Playwright does.
	URL string `mapstructure:"url" json:"url,omitempty" toml:"url,omitempty"`
	// Port, instead of URL, waits until 127.0.0.1:Port (or [::1]) accepts
	// connections.
	Port int `mapstructure:"port" json:"port,omitempty" toml:"port,omitempty"`
	// ReuseExistingServer: if the URL already answers, use that server and
	// start nothing; when false, an answering URL is an error.
	ReuseExistingServer bool `mapstructure:"reuseExistingServer" json:"reuseExistingServer,omitempty" toml:"reuseExistingServer,omitempty"`
	// Timeout in milliseconds (0 = 60000).
	Timeout float64 `mapstructure:"timeout" json:"timeout,omitempty" toml:"timeout,omitempty"`
	// Cwd is the working directory (relative to Options.BaseDir).
	Cwd string `mapstructure:"cwd" json:"cwd,omitempty" toml:"cwd,omitempty"`
	// Env is added to the inherited environment.
	Env map[string]string `mapstructure:"env" json:"env,omitempty" toml:"env,omitempty"`
	// IgnoreHTTPSErrors accepts any certificate when polling URL.
	IgnoreHTTPSErrors bool `mapstructure:"ignoreHTTPSErrors" json:"ignoreHTTPSErrors,omitempty" toml:"ignoreHTTPSErrors,omitempty"`
	// Stdout and Stderr are "pipe" (copy to Options.Output, prefixed with
	// "[WebServer] ") or "ignore". Defaults: stdout ignore, stderr pipe.
	Stdout string `mapstructure:"stdout" json:"stdout,omitempty" toml:"stdout,omitempty"`
	Stderr string `mapstructure:"stderr" json:"stderr,omitempty" toml:"stderr,omitempty"`
	// Name prefixes the piped output instead of "WebServer".
	Name string `mapstructure:"name" json:"name,omitempty" toml:"name,omitempty"`
}

// Validate reports configuration mistakes, naming the key.
func (c *Config) Validate() error {
	var errs []error
	if strings.TrimSpace(c.Command) == "" {
		errs = append(errs, errors.New("[[webServer]] command is required"))
	}
	switch {
	case c.URL == "" && c.Port == 0:
		errs = append(errs, fmt.Errorf("[[webServer]] %q: set url (or port) to wait for", c.Command))
	case c.URL != "" && c.Port != 0:
		errs = append(errs, fmt.Errorf("[[webServer]] %q: set either url or port, not both", c.Command))
	case c.URL != "":
		if u, err := url.Parse(c.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("[[webServer]] url %q is not an http(s) URL", c.URL))
		}
	case c.Port < 0 || c.Port > 65535:
		errs = append(errs, fmt.Errorf("[[webServer]] port %d is out of range", c.Port))
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("[[webServer]] timeout must be >= 0 ms, got %v", c.Timeout))
	}
	for key, v := range map[string]string{"stdout": c.Stdout, "stderr": c.Stderr} {
		if v != "" && v != "pipe" && v != "ignore" {
			errs = append(errs, fmt.Errorf("[[webServer]] %s %q (want pipe or ignore)", key, v))
		}
	}
	return errors.Join(errs...)
}

func (c *Config) timeout() time.Duration {
	if c.Timeout == 0 {
		return DefaultTimeout
	}
	return time.Duration(c.Timeout * float64(time.Millisecond))
}

func (c *Config) target() string {
	if c.URL != "" {
		return c.URL
	}
	return "port " + strconv.Itoa(c.Port)
}

// Options are not part of the config file.
type Options struct {
	// Output receives piped server output (nil = os.Stderr).
	Output io.Writer
	// BaseDir resolves a relative Cwd (the config file's directory; "" =
	// the current directory).
	BaseDir string
}

// Server is a started (or reused) web server.
type Server struct {
	cfg     Config
	reused  bool
	cmd     *exec.Cmd
	exited  chan struct{}
	exitErr error
	tail    *tailBuffer
	stop    sync.Once
	stopErr error
}

// Reused reports whether an already running server was used.
func (s *Server) Reused() bool { return s.reused }

// PID is the process id of the started command (0 when reused).
func (s *Server) PID() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Start runs cfg.Command and waits until its URL (or port) answers, or
// reuses a server already answering there when ReuseExistingServer is set.
// If the command exits early or the timeout passes, its process group is
// killed and the error says why, with the end of its stderr.
func Start(ctx context.Context, cfg Config, opts Options) (*Server, error) {
	return start(ctx, cfg, opts, nil)
}

// start is Start; running, if set, receives the server as soon as its
// process runs, before it is ready.
func start(ctx context.Context, cfg Config, opts Options, running func(*Server)) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	probe := newProbe(cfg)
	if probe(ctx) {
		if cfg.ReuseExistingServer {
			return &Server{cfg: cfg, reused: true}, nil
		}
		return nil, fmt.Errorf("[[webServer]] %s is already used, make sure that nothing is running there or set reuseExistingServer = true", cfg.target())
	}
	out := opts.Output
	if out == nil {
		out = os.Stderr
	}
	prefix := "[WebServer] "
	if cfg.Name != "" {
		prefix = "[" + cfg.Name + "] "
	}
	cmd := shellCommand(cfg.Command)
	cmd.Dir = cfg.Cwd
	if cmd.Dir != "" && !filepath.IsAbs(cmd.Dir) && opts.BaseDir != "" {
		cmd.Dir = filepath.Join(opts.BaseDir, cmd.Dir)
	}
	cmd.Env = os.Environ()
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	s := &Server{cfg: cfg, cmd: cmd, exited: make(chan struct{}), tail: &tailBuffer{max: 4096}}
	if cfg.Stdout == "pipe" {
		cmd.Stdout = &linePrefixer{w: out, prefix: prefix}
	}
	if cfg.Stderr != "ignore" {
		cmd.Stderr = io.MultiWriter(&linePrefixer{w: out, prefix: prefix}, s.tail)
	} else {
		cmd.Stderr = s.tail
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("[[webServer]] start %q: %w", cfg.Command, err)
	}
	go func() {
		s.exitErr = cmd.Wait()
		close(s.exited)
	}()
	if running != nil {
		running(s)
	}

	deadline := time.NewTimer(cfg.timeout())
	defer deadline.Stop()
	delays := []time.Duration{100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond}
	for i := 0; ; i++ {
		if probe(ctx) {
			return s, nil
		}
		d := time.Second
		if i < len(delays) {
			d = delays[i]
		}
		select {
		case <-s.exited:
			_ = s.Stop()
			return nil, fmt.Errorf("[[webServer]] %q exited (%v) before %s was ready%s", cfg.Command, s.exitErr, cfg.target(), s.tail.suffix())
		case <-deadline.C:
			_ = s.Stop()
			return nil, fmt.Errorf("[[webServer]] timed out after %v ms waiting for %s (command %q)%s",
				cfg.timeout().Milliseconds(), cfg.target(), cfg.Command, s.tail.suffix())
		case <-ctx.Done():
			_ = s.Stop()
			return nil, fmt.Errorf("[[webServer]] waiting for %s: %w", cfg.target(), ctx.Err())
		case <-time.After(d):
		}
	}
}

// Stop ends a started server: SIGTERM to its process group, SIGKILL to
// whatever is left after a grace period. A reused server is left alone.
// Stop is idempotent.
func (s *Server) Stop() error {
	if s.cmd == nil {
		return nil
	}
	s.stop.Do(func() { s.stopErr = stopGroup(s.cmd, s.exited, 3*time.Second) })
	return s.stopErr
}

// Group is several servers started together. Its methods may be called
// from several goroutines (Kill from a signal handler while Start runs).
type Group struct {
	mu      sync.Mutex
	servers []*Server
}

// StartAll starts every config in order; if one fails, those already
// started are stopped.
func StartAll(ctx context.Context, cfgs []Config, opts Options) (*Group, error) {
	g := &Group{}
	if err := g.Start(ctx, cfgs, opts); err != nil {
		return nil, err
	}
	return g, nil
}

// Start starts every config in order into g; if one fails, the servers of
// g are stopped. Each server joins g as soon as its process runs, before
// it answers, so that a Kill meanwhile (a forced exit while a server is
// coming up) reaches it too.
func (g *Group) Start(ctx context.Context, cfgs []Config, opts Options) error {
	join := func(s *Server) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.servers = append(g.servers, s)
	}
	for _, c := range cfgs {
		s, err := start(ctx, c, opts, join)
		if err != nil {
			_ = g.Stop()
			return err
		}
		if s.reused {
			join(s)
		}
	}
	return nil
}

// Servers returns the servers in start order.
func (g *Group) Servers() []*Server {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.servers)
}

// Stop stops all servers, last started first.
func (g *Group) Stop() error {
	servers := g.Servers()
	var errs []error
	for i := len(servers) - 1; i >= 0; i-- {
		errs = append(errs, servers[i].Stop())
	}
	return errors.Join(errs...)
}

// Kill kills every started server at once (its whole process group), for
// a process that is about to exit on a second interrupt, then waits a
// moment (a second at most) for them to be gone, so that their ports are
// free when it has exited. Reused servers are left alone.
func (g *Group) Kill() {
	servers := g.Servers()
	for _, s := range servers {
		if s.cmd != nil {
			killGroup(s.cmd)
		}
	}
	deadline := time.Now().Add(killWait)
	for _, s := range servers {
		if s.cmd != nil {
			waitKilled(s.cmd, deadline)
		}
	}
}

// killWait bounds the wait for a killed server's processes to be gone.
// A kill cannot be ignored, so only a loaded machine makes it take more
// than milliseconds. (Without /proc an exited child that nobody reaps
// still counts as a member of its group; it is not waited for past this.)
const killWait = time.Second

// newProbe returns a check for "the server answers".
func newProbe(cfg Config) func(context.Context) bool {
	if cfg.URL == "" {
		return func(ctx context.Context) bool {
			for _, host := range []string{"127.0.0.1", "::1"} {
				d := net.Dialer{Timeout: time.Second}
				c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(cfg.Port)))
				if err == nil {
					c.Close()
					return true
				}
			}
			return false
		}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.IgnoreHTTPSErrors {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the user asked for it
	}
	client := &http.Client{
		Transport: tr,
		Timeout:   5 * time.Second,
		// A redirect already proves the server is up.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return func(ctx context.Context) bool {
		code := statusCode(ctx, client, cfg.URL)
		if code == http.StatusNotFound {
			if u, err := url.Parse(cfg.URL); err == nil && (u.Path == "" || u.Path == "/") {
				u.Path = "/index.html"
				code = statusCode(ctx, client, u.String())
			}
		}
		return Up(code)
	}
}

// Up is Playwright's rule for "the server is up": 2xx, 3xx, or 400-403.
func Up(status int) bool { return status >= 200 && status < 404 }

func statusCode(ctx context.Context, client *http.Client, u string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	return resp.StatusCode
}

// linePrefixer writes each line with a prefix.
type linePrefixer struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  string
	midLine bool
}

func (p *linePrefixer) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []byte
	for _, c := range b {
		if !p.midLine {
			out = append(out, p.prefix...)
			p.midLine = true
		}
		out = append(out, c)
		if c == '\n' {
			p.midLine = false
		}
	}
	if _, err := p.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// tailBuffer keeps the last max bytes written, for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(b), nil
}

func (t *tailBuffer) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if s == "" {
		return ""
	}
	return "; its stderr ended with:\n" + s
}
