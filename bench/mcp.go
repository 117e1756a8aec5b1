package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/demoapp"
)

// The MCP suites.
//
// mcp-bytes: one agent flow on the demo app (open /login, fill the user
// and password, log in, read the heading; open the todo page, add two
// todos, check the counter) driven by the same client logic against
// `ferridriver mcp` and against Microsoft's @playwright/mcp (pinned in
// bench/peer), both on the same Chromium. The agent finds elements as an
// agent does: by role and name in the snapshot text it has seen, taking
// the ref written there; it calls browser_snapshot only when it needs to
// see the page and the results so far did not show it. Every byte of
// every tool result's content the agent receives is counted, with the
// number of calls.
//
// mcp-latency: a trivial exposed extension tool (it returns its
// arguments) called 1,000 times over stdio after 100 warm-up calls, one
// at a time, by the Go SDK client; p50, p95, p99 and the maximum of the
// round trips.

// mcpServer is a way to start an MCP server over stdio.
type mcpServer struct {
	name string
	dir  string
	argv []string
	// files: the agent reads linked snapshot files (see agent.files).
	files bool
	// opts are the client's options (nil: none).
	opts *sdk.ClientOptions
}

func (s mcpServer) connect(ctx context.Context) (*sdk.ClientSession, error) {
	cmd := exec.CommandContext(ctx, s.argv[0], s.argv[1:]...)
	cmd.Dir = s.dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "ferridriver-bench", Version: "1"}, s.opts).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", s.name, err, tail(stderr.String(), 2000))
	}
	return cs, nil
}

// agent drives a browser MCP server as an agent would, counting what it
// receives.
type agent struct {
	cs    *sdk.ClientSession
	calls int
	bytes int
	// seen are the texts with snapshot lines (refs) the agent has seen on
	// the current document, oldest first.
	seen []string
	// last is the latest result's text.
	last string
	// log lists each call with its size, for a look at where bytes go.
	log []string
	// files: when a result links its snapshot as a file ("[Snapshot](path)",
	// as @playwright/mcp 0.0.83's actions do), the agent reads that file
	// (relative to dir) instead of calling browser_snapshot; reads counts
	// them, and their bytes are received bytes too.
	files bool
	dir   string
	reads int
	// progressToken, when set, goes with each call.
	progressToken any
}

var snapshotLink = regexp.MustCompile(`\[Snapshot\]\(([^)]+)\)`)

var hasRef = regexp.MustCompile(`\[ref=[a-z0-9]+\]`)

// call calls a tool; a navigation starts a new document (refs seen before
// it are forgotten).
func (a *agent) call(ctx context.Context, name string, args map[string]any, navigates bool) error {
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	if a.progressToken != nil {
		params.SetProgressToken(a.progressToken)
	}
	res, err := a.cs.CallTool(ctx, params)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	a.calls++
	var text strings.Builder
	n := 0
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			n += len(c.Text)
			text.WriteString(c.Text)
		case *sdk.ImageContent:
			n += len(c.Data) * 4 / 3
		}
	}
	a.bytes += n
	a.log = append(a.log, fmt.Sprintf("%s %d", name, n))
	if os.Getenv("BENCH_MCP_DUMP") != "" {
		fmt.Fprintf(os.Stderr, "--- %s %v (%d bytes)\n%s\n", name, args, n, text.String())
	}
	if res.IsError {
		return fmt.Errorf("%s %v: %s", name, args, text.String())
	}
	a.last = text.String()
	if navigates {
		a.seen = nil
	}
	if hasRef.MatchString(a.last) {
		a.seen = append(a.seen, a.last)
	}
	return nil
}

// snapshot asks for the page, or reads the snapshot file the latest
// result links to.
func (a *agent) snapshot(ctx context.Context) error {
	if m := snapshotLink.FindStringSubmatch(a.last); a.files && m != nil {
		b, err := os.ReadFile(filepath.Join(a.dir, m[1]))
		if err != nil {
			return fmt.Errorf("reading the linked snapshot: %w", err)
		}
		a.reads++
		a.bytes += len(b)
		a.log = append(a.log, fmt.Sprintf("(file) %d", len(b)))
		a.last = string(b)
		a.seen = append(a.seen, a.last)
		return nil
	}
	return a.call(ctx, "browser_snapshot", map[string]any{}, false)
}

// ref finds the element with role and name in what the agent has seen
// (newest first), taking a snapshot when it has not seen it.
func (a *agent) ref(ctx context.Context, role, name string) (string, error) {
	re := regexp.MustCompile(regexp.QuoteMeta(role+` "`+name+`"`) + `[^\n]*\[ref=([a-z0-9]+)\]`)
	for try := 0; try < 2; try++ {
		for i := len(a.seen) - 1; i >= 0; i-- {
			if m := re.FindStringSubmatch(a.seen[i]); m != nil {
				return m[1], nil
			}
		}
		if try == 0 {
			if err := a.snapshot(ctx); err != nil {
				return "", err
			}
		}
	}
	return "", fmt.Errorf("no %s %q in the page:\n%s", role, name, a.last)
}

// read checks that the page shows want, from the latest result or, when
// it does not show it, from a snapshot.
func (a *agent) read(ctx context.Context, want string) error {
	if strings.Contains(a.last, want) {
		return nil
	}
	if err := a.snapshot(ctx); err != nil {
		return err
	}
	if !strings.Contains(a.last, want) {
		return fmt.Errorf("the page does not show %q:\n%s", want, a.last)
	}
	return nil
}

// act types into or clicks the element with role and name.
func (a *agent) act(ctx context.Context, tool, role, name string, extra map[string]any, navigates bool) error {
	ref, err := a.ref(ctx, role, name)
	if err != nil {
		return err
	}
	args := map[string]any{"element": name, "target": ref}
	for k, v := range extra {
		args[k] = v
	}
	err = a.call(ctx, tool, args, navigates)
	if err == nil || !staleRef.MatchString(err.Error()) {
		return err
	}
	// The page re-rendered since the agent saw the ref (@playwright/mcp
	// numbers the new elements anew): as an agent does, it looks at the
	// page again and retries; the failed call's bytes count.
	a.seen = nil
	if ref, err = a.ref(ctx, role, name); err != nil {
		return err
	}
	args["target"] = ref
	return a.call(ctx, tool, args, navigates)
}

// staleRef matches the servers' errors for a ref the page no longer has.
var staleRef = regexp.MustCompile(`(?i)ref \S+ (not found|is not in the latest snapshot)`)

// flow is the fixed agent flow on the demo app at base.
func (a *agent) flow(ctx context.Context, base string) error {
	steps := []func() error{
		func() error { return a.call(ctx, "browser_navigate", map[string]any{"url": base + "/login"}, true) },
		func() error {
			return a.act(ctx, "browser_type", "textbox", "Username", map[string]any{"text": "demo"}, false)
		},
		func() error {
			return a.act(ctx, "browser_type", "textbox", "Password", map[string]any{"text": "secret"}, false)
		},
		func() error { return a.act(ctx, "browser_click", "button", "Log in", nil, true) },
		func() error { return a.read(ctx, `heading "Welcome, demo!"`) },
		func() error { return a.call(ctx, "browser_navigate", map[string]any{"url": base + "/todo.html"}, true) },
		func() error {
			return a.act(ctx, "browser_type", "textbox", "New todo", map[string]any{"text": "Buy milk", "submit": true}, false)
		},
		func() error {
			return a.act(ctx, "browser_type", "textbox", "New todo", map[string]any{"text": "Walk the dog", "submit": true}, false)
		},
		func() error { return a.read(ctx, "2 items left") },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

// flowRun is one run of the flow against one server.
type flowRun struct {
	bytes, calls, reads int
	took                time.Duration
	log                 []string
}

func runFlow(s mcpServer, base string) (flowRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cs, err := s.connect(ctx)
	if err != nil {
		return flowRun{}, err
	}
	defer cs.Close()
	a := &agent{cs: cs, files: s.files, dir: s.dir}
	start := time.Now()
	if err := a.flow(ctx, base); err != nil {
		return flowRun{}, fmt.Errorf("%s: %w", s.name, err)
	}
	return flowRun{bytes: a.bytes, calls: a.calls, reads: a.reads, took: time.Since(start), log: a.log}, nil
}

// mcpBytesSuite measures the flow against both servers, runs times each,
// interleaved, and prints the medians.
func mcpBytesSuite(work, ferri, node, peer string, runs int) error {
	env, err := newMCPPeers(work, "mcp", peer, node, true)
	if err != nil {
		return err
	}
	base, fdDir, pw := env.base, env.fdDir, env.pw
	pwFiles := pw
	pwFiles.name, pwFiles.files = pw.name+", snapshots read from its files", true
	servers := []mcpServer{
		{name: "ferridriver mcp", dir: fdDir, argv: []string{ferri, "mcp"}},
		pw, pwFiles,
	}
	results := make([][]flowRun, len(servers))
	for i, s := range servers { // warm-up
		if _, err := runFlow(s, base); err != nil {
			return err
		}
		_ = i
	}
	for range runs {
		for i, s := range servers {
			r, err := runFlow(s, base)
			if err != nil {
				return err
			}
			results[i] = append(results[i], r)
		}
	}
	fmt.Printf("### mcp-bytes: one agent flow on the demo app (%d runs each after a warm-up, interleaved; medians)\n\n", runs)
	fmt.Printf("| server | bytes received | tool calls | file reads | flow time | bytes / %s |\n|---|---:|---:|---:|---:|---:|\n", servers[0].name)
	med := func(rs []flowRun, f func(flowRun) int) int {
		v := make([]int, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		sort.Ints(v)
		return v[len(v)/2]
	}
	ref := med(results[0], func(r flowRun) int { return r.bytes })
	for i, s := range servers {
		b := med(results[i], func(r flowRun) int { return r.bytes })
		c := med(results[i], func(r flowRun) int { return r.calls })
		reads := med(results[i], func(r flowRun) int { return r.reads })
		took := time.Duration(med(results[i], func(r flowRun) int { return int(r.took) }))
		fmt.Printf("| %s | %d | %d | %d | %s | %.2fx |\n", s.name, b, c, reads, ms(took), float64(b)/float64(ref))
	}
	fmt.Println()
	for _, i := range []int{1, 2} {
		fmt.Printf("- ferridriver / %s: bytes %.2f, tool calls %d vs %d (target: at most 0.50 of the bytes, no more calls)\n", servers[i].name,
			float64(ref)/float64(med(results[i], func(r flowRun) int { return r.bytes })),
			med(results[0], func(r flowRun) int { return r.calls }), med(results[i], func(r flowRun) int { return r.calls }))
	}
	for i, s := range servers {
		fmt.Printf("- %s, bytes per call: %s\n", s.name, strings.Join(results[i][0].log, ", "))
	}
	fmt.Println()
	return nil
}

// peerVersion reads a package's version from peer/node_modules.
func peerVersion(peer, pkg string) string {
	b, err := os.ReadFile(filepath.Join(peer, pkg, "package.json"))
	if err != nil {
		return "?"
	}
	m := regexp.MustCompile(`"version":\s*"([^"]+)"`).FindSubmatch(b)
	if m == nil {
		return "?"
	}
	return string(m[1])
}

// mcpLatencySuite calls a trivial exposed tool calls times over stdio
// after a warm-up, in runs rounds (a fresh server each), and prints each
// round's percentiles of the round trips and their medians.
func mcpLatencySuite(work, ferri string, calls, runs int) error {
	dir := filepath.Join(work, "mcp-latency")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "ext"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "ferridriver.toml"), []byte("extensions = [\"ext\"]\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "ext", "echo.ts"), []byte(`defineTool({ name: "echo", description: "Returns its arguments", exposeAsTool: true }, async ({ args }) => args);`+"\n"), 0o644); err != nil {
		return err
	}
	us := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
	fmt.Printf("### mcp-latency: a trivial exposed tool over stdio (%d rounds of %d calls after 100 warm-up calls, Go SDK client)\n\n", runs, calls)
	fmt.Printf("| round | p50 | p95 | p99 | max |\n|---|---:|---:|---:|---:|\n")
	var p50s, p95s, p99s, maxes []time.Duration
	for round := 1; round <= runs; round++ {
		ds, err := latencyRound(dir, ferri, calls)
		if err != nil {
			return err
		}
		pct := func(p float64) time.Duration { return ds[min(len(ds)-1, int(p*float64(len(ds))))] }
		p50s, p95s, p99s, maxes = append(p50s, pct(0.50)), append(p95s, pct(0.95)), append(p99s, pct(0.99)), append(maxes, ds[len(ds)-1])
		fmt.Printf("| %d | %s | %s | %s | %s |\n", round, us(pct(0.50)), us(pct(0.95)), us(pct(0.99)), us(ds[len(ds)-1]))
	}
	fmt.Printf("| median | %s | %s | %s | %s |\n\n", us(median(p50s)), us(median(p95s)), us(median(p99s)), us(median(maxes)))
	fmt.Printf("- target: p50 ≤ 1 ms, p95 ≤ 3 ms\n\n")
	return nil
}

// latencyRound starts a server in dir and returns the sorted round trips
// of calls calls of its echo tool, after 100 warm-up calls.
func latencyRound(dir, ferri string, calls int) ([]time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := mcpServer{name: "ferridriver mcp", dir: dir, argv: []string{ferri, "mcp"}}.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	args := map[string]any{"text": "hello", "n": 1}
	call := func() (time.Duration, error) {
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: args})
		d := time.Since(start)
		if err == nil && res.IsError {
			err = errors.New("echo failed")
		}
		return d, err
	}
	for range 100 {
		if _, err := call(); err != nil {
			return nil, err
		}
	}
	ds := make([]time.Duration, 0, calls)
	for range calls {
		d, err := call()
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds, nil
}

// mcpPeers is what the MCP suites share: the demo app, a fresh folder for
// each server, ferridriver's on the system Chromium, and @playwright/mcp
// (bench/peer) on the same browser.
type mcpPeers struct {
	base, fdDir string
	pw          mcpServer
}

// newMCPPeers prepares the folders work/<prefix>-ferridriver and
// work/<prefix>-playwright; withBaseURL gives ferridriver the demo app as
// its baseURL.
func newMCPPeers(work, prefix, peer, node string, withBaseURL bool) (*mcpPeers, error) {
	chromium := os.Getenv("BENCH_BROWSER")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	pwCLI := filepath.Join(peer, "@playwright", "mcp", "cli.js")
	if _, err := os.Stat(pwCLI); err != nil {
		return nil, fmt.Errorf("%s is missing: run `make bench` (it installs the peer)", pwCLI)
	}
	base, err := demoapp.Serve(context.Background(), "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	fdDir, pwDir := filepath.Join(work, prefix+"-ferridriver"), filepath.Join(work, prefix+"-playwright")
	for _, d := range []string{fdDir, pwDir} {
		if err := os.RemoveAll(d); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	toml := "[browser]\n"
	if withBaseURL {
		toml += fmt.Sprintf("baseURL = %q\n", base)
	}
	toml += fmt.Sprintf("executablePath = %q\n", chromium)
	if err := os.WriteFile(filepath.Join(fdDir, "ferridriver.toml"), []byte(toml), 0o644); err != nil {
		return nil, err
	}
	pw := mcpServer{name: "@playwright/mcp " + peerVersion(peer, "@playwright/mcp"), dir: pwDir, argv: []string{node, pwCLI,
		"--executable-path", chromium, "--headless", "--no-sandbox", "--isolated"}}
	return &mcpPeers{base: base, fdDir: fdDir, pw: pw}, nil
}
