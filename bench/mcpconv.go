package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcp-conversation: what an agent's context receives over a whole
// conversation on the demo app: the server's instructions and the
// tools/list answer (what a client gives the model) plus every tool result of a
// 30-odd-call flow that logs in, adds and completes todos, goes back
// through the filters' history, answers a confirm and a prompt, and opens,
// switches and closes tabs. The same client logic (agent in mcp.go) runs
// it against `ferridriver mcp` and against @playwright/mcp (pinned in
// bench/peer, on the same Chromium) in the same run. Only calls and
// arguments that both servers define are used (@playwright/mcp 0.0.83 has
// no browser_navigate_forward: the flow goes back twice instead).

// conversationStep is one step of the flow: a label and what the agent does.
type conversationStep struct {
	label string
	do    func(ctx context.Context, a *agent, base string) error
}

func navigate(path string) func(context.Context, *agent, string) error {
	return func(ctx context.Context, a *agent, base string) error {
		return a.call(ctx, "browser_navigate", map[string]any{"url": base + path}, true)
	}
}

func typeInto(name, text string, submit bool) func(context.Context, *agent, string) error {
	return func(ctx context.Context, a *agent, _ string) error {
		args := map[string]any{"text": text}
		if submit {
			args["submit"] = true
		}
		return a.act(ctx, "browser_type", "textbox", name, args, false)
	}
}

func click(role, name string, navigates bool) func(context.Context, *agent, string) error {
	return func(ctx context.Context, a *agent, _ string) error {
		return a.act(ctx, "browser_click", role, name, nil, navigates)
	}
}

func read(want string) func(context.Context, *agent, string) error {
	return func(ctx context.Context, a *agent, _ string) error { return a.read(ctx, want) }
}

func tool(name string, args map[string]any, navigates bool) func(context.Context, *agent, string) error {
	return func(ctx context.Context, a *agent, _ string) error { return a.call(ctx, name, args, navigates) }
}

// conversationFlow is the flow, in order.
var conversationFlow = []conversationStep{
	{"open /login", navigate("/login")},
	{"type the user", typeInto("Username", "demo", false)},
	{"type the password", typeInto("Password", "secret", false)},
	{"click Log in", click("button", "Log in", true)},
	{"read the welcome", read(`heading "Welcome, demo!"`)},
	{"open /todo.html", navigate("/todo.html")},
	{"add a todo", typeInto("New todo", "Buy milk", true)},
	{"add a todo", typeInto("New todo", "Walk the dog", true)},
	{"add a todo", typeInto("New todo", "Call the bank", true)},
	{"complete a todo", click("checkbox", "Buy milk", false)},
	{"complete a todo", click("checkbox", "Walk the dog", false)},
	{"read the counter", read("1 item left")},
	{"filter Completed", click("link", "Completed", false)},
	{"filter Active", click("link", "Active", false)},
	{"go back", tool("browser_navigate_back", map[string]any{}, false)},
	{"go back", tool("browser_navigate_back", map[string]any{}, false)},
	{"read the counter", read("1 item left")},
	{"open /dialogs.html", navigate("/dialogs.html")},
	{"open a confirm", click("button", "Show confirm", false)},
	{"dismiss it", tool("browser_handle_dialog", map[string]any{"accept": false}, false)},
	{"read the answer", read("Cancelled")},
	{"open a prompt", click("button", "Show prompt", false)},
	{"answer it", tool("browser_handle_dialog", map[string]any{"accept": true, "promptText": "Ada"}, false)},
	{"read the answer", read("Hello, Ada!")},
	{"go back", tool("browser_navigate_back", map[string]any{}, true)},
	{"new tab /popup.html", func(ctx context.Context, a *agent, base string) error {
		return a.call(ctx, "browser_tabs", map[string]any{"action": "new", "url": base + "/popup.html"}, true)
	}},
	{"click a target=_blank link", click("link", "Open in new tab", false)},
	{"list the tabs", func(ctx context.Context, a *agent, _ string) error {
		// The link's tab opens shortly after the click: on a loaded
		// machine the agent may have to wait for it, as an agent would.
		for try := 0; ; try++ {
			if err := a.call(ctx, "browser_tabs", map[string]any{"action": "list"}, false); err != nil || strings.Contains(a.last, "popup-content") || try == 5 {
				return err
			}
			if err := a.call(ctx, "browser_wait_for", map[string]any{"time": 1}, false); err != nil {
				return err
			}
		}
	}},
	{"select the popup's tab", tool("browser_tabs", map[string]any{"action": "select", "index": 2}, true)},
	{"read the popup", read("Hello from the popup")},
	{"close the current tab", tool("browser_tabs", map[string]any{"action": "close"}, true)},
	{"close the first tab", tool("browser_tabs", map[string]any{"action": "close", "index": 0}, true)},
	{"read the page", read("Popup")},
}

// conversation is one run of the flow against one server.
type conversation struct {
	// instructionsBytes are the server's instructions (initialize), which
	// clients put in the model's context beside the tool list.
	instructionsBytes int
	listBytes         int
	stepBytes         []int // per conversationFlow step
	calls             int
	// firstCall is the first browser call's time (the server's browser
	// launch is in it unless the server started the browser already);
	// connect is the time to connect (initialize).
	firstCall, connect, took time.Duration
	// launchWait is how long the first call waited for the server's
	// browser to start (ferridriver reports it as progress: "the browser
	// is up (waited 1.2 s)"; zero when it did not wait or the server does
	// not say).
	launchWait time.Duration
}

var waitedRe = regexp.MustCompile(`the browser is up \(waited ([\d.]+) s\)`)

func (c conversation) total() int {
	n := c.instructionsBytes + c.listBytes
	for _, b := range c.stepBytes {
		n += b
	}
	return n
}

// results are the bytes of the flow's tool results.
func (c conversation) results() int { return c.total() - c.instructionsBytes - c.listBytes }

func runConversation(s mcpServer, base string) (conversation, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var mu sync.Mutex
	var progress []string
	s.opts = &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, r.Params.Message)
		mu.Unlock()
	}}
	start := time.Now()
	cs, err := s.connect(ctx)
	if err != nil {
		return conversation{}, err
	}
	defer cs.Close()
	c := conversation{connect: time.Since(start)}
	if init := cs.InitializeResult(); init != nil {
		c.instructionsBytes = len(init.Instructions)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		return conversation{}, fmt.Errorf("%s: tools/list: %w", s.name, err)
	}
	b, err := json.Marshal(list)
	if err != nil {
		return conversation{}, err
	}
	c.listBytes = len(b)
	// The first call carries a progressToken: what it says of waiting for
	// the browser separates the launch from the call.
	a := &agent{cs: cs, dir: s.dir, progressToken: "first"}
	start = time.Now()
	for i, st := range conversationFlow {
		before := a.bytes
		began := time.Now()
		if err := st.do(ctx, a, base); err != nil {
			return conversation{}, fmt.Errorf("%s: step %d (%s): %w", s.name, i+1, st.label, err)
		}
		if i == 0 {
			c.firstCall = time.Since(began)
			a.progressToken = nil
			mu.Lock()
			for _, m := range progress {
				if w := waitedRe.FindStringSubmatch(m); w != nil {
					secs, _ := strconv.ParseFloat(w[1], 64)
					c.launchWait = time.Duration(secs * float64(time.Second))
				}
			}
			mu.Unlock()
		}
		c.stepBytes = append(c.stepBytes, a.bytes-before)
	}
	c.took, c.calls = time.Since(start), a.calls
	return c, nil
}

// mcpConversationSuite runs the conversation against both servers, runs
// times each after a warm-up, interleaved, and prints the medians: the
// tools/list bytes, each step's bytes, the total and the ratio.
func mcpConversationSuite(work, ferri, node, peer string, runs int) error {
	env, err := newMCPPeers(work, "mcp-conv", peer, node, false)
	if err != nil {
		return err
	}
	base, fdDir := env.base, env.fdDir
	servers := []mcpServer{
		{name: "ferridriver mcp", dir: fdDir, argv: []string{ferri, "mcp"}},
		env.pw,
	}
	results := make([][]conversation, len(servers))
	for _, s := range servers { // warm-up
		if _, err := runConversation(s, base); err != nil {
			return err
		}
	}
	for range runs {
		for i, s := range servers {
			r, err := runConversation(s, base)
			if err != nil {
				return err
			}
			results[i] = append(results[i], r)
		}
	}
	med := func(rs []conversation, f func(conversation) int) int {
		v := make([]int, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		sort.Ints(v)
		return v[len(v)/2]
	}
	fd, pw := results[0], results[1]
	fmt.Printf("### mcp-conversation: tools/list + a %d-step flow on the demo app (%d runs each after a warm-up, interleaved; medians)\n\n", len(conversationFlow), runs)
	fmt.Printf("| step | %s bytes | %s bytes |\n|---|---:|---:|\n", servers[0].name, servers[1].name)
	fmt.Printf("| instructions | %d | %d |\n", med(fd, func(c conversation) int { return c.instructionsBytes }), med(pw, func(c conversation) int { return c.instructionsBytes }))
	fmt.Printf("| tools/list | %d | %d |\n", med(fd, func(c conversation) int { return c.listBytes }), med(pw, func(c conversation) int { return c.listBytes }))
	for i, st := range conversationFlow {
		fmt.Printf("| %d. %s | %d | %d |\n", i+1, st.label, med(fd, func(c conversation) int { return c.stepBytes[i] }), med(pw, func(c conversation) int { return c.stepBytes[i] }))
	}
	fdTotal, pwTotal := med(fd, conversation.total), med(pw, conversation.total)
	fmt.Printf("| **conversation total** | **%d** | **%d** |\n\n", fdTotal, pwTotal)
	dur := func(rs []conversation, f func(conversation) time.Duration) string {
		return ms(time.Duration(med(rs, func(c conversation) int { return int(f(c)) })))
	}
	for i, s := range servers {
		fmt.Printf("- %s: %d tool calls; connect %s, first call (browser_navigate) %s, of which waiting for the browser's launch %s, flow %s\n", s.name,
			med(results[i], func(c conversation) int { return c.calls }),
			dur(results[i], func(c conversation) time.Duration { return c.connect }),
			dur(results[i], func(c conversation) time.Duration { return c.firstCall }),
			dur(results[i], func(c conversation) time.Duration { return c.launchWait }),
			dur(results[i], func(c conversation) time.Duration { return c.took }))
	}
	fmt.Printf("- ferridriver / %s: conversation %.3fx (target: at most 0.600x); tools/list %.2fx; tool results %.2fx\n\n", servers[1].name,
		float64(fdTotal)/float64(pwTotal),
		float64(med(fd, func(c conversation) int { return c.listBytes }))/float64(med(pw, func(c conversation) int { return c.listBytes })),
		float64(med(fd, conversation.results))/float64(med(pw, conversation.results)))
	return nil
}
