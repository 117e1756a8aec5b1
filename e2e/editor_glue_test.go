package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// lspClient speaks the Language Server Protocol (JSON-RPC with
// Content-Length headers) to a server on stdio, as an editor does. It
// answers the server's requests: workspace/configuration with settings,
// anything else with null.
type lspClient struct {
	t        *testing.T
	in       io.Writer
	settings any

	mu          sync.Mutex
	nextID      int
	waiting     map[int]chan json.RawMessage
	diagnostics map[string]chan []lspDiagnostic
	logs        chan string
}

type lspDiagnostic struct {
	Message string
	Range   struct{ Start struct{ Line int } }
}

func startLanguageServer(t *testing.T, dir string, settings any) *lspClient {
	t.Helper()
	nm := oracles.NodeModules(t)
	server := filepath.Join(nm, "@cucumber", "language-server")
	// The package's bin looks for the parsers (WebAssembly) in its own
	// node_modules, which npm hoists; start the same server with their
	// real place.
	launch := fmt.Sprintf(`const { startStandaloneServer } = require(%q)
const { NodeFiles } = require(%q)
startStandaloneServer(%q, (rootUri) => new NodeFiles(rootUri))
`, filepath.Join(server, "dist/cjs/src/wasm/startStandaloneServer.js"), filepath.Join(server, "dist/cjs/src/node/NodeFiles.js"), filepath.Join(nm, "@cucumber", "language-service", "dist"))
	launcher := filepath.Join(t.TempDir(), "server.cjs")
	testenv.WriteFiles(t, filepath.Dir(launcher), map[string]string{"server.cjs": launch})
	cmd := exec.Command("node", launcher, "--stdio")
	cmd.Dir = dir // its file search resolves paths against the working directory
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the Cucumber language server: %v", err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("language server stderr:\n%s", stderr.String())
		}
	})
	c := &lspClient{t: t, in: in, settings: settings, waiting: map[int]chan json.RawMessage{}, diagnostics: map[string]chan []lspDiagnostic{}, logs: make(chan string, 1000)}
	go c.read(bufio.NewReader(out))
	return c
}

func (c *lspClient) send(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (c *lspClient) read(r *bufio.Reader) {
	for {
		length := 0
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(c.logs)
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			close(c.logs)
			return
		}
		var m struct {
			ID     json.RawMessage
			Method string
			Params json.RawMessage
			Result json.RawMessage
		}
		if err := json.Unmarshal(body, &m); err != nil {
			continue
		}
		switch {
		case m.Method == "workspace/configuration":
			c.send(map[string]any{"id": m.ID, "result": []any{c.settings}})
		case m.Method != "" && m.ID != nil:
			c.send(map[string]any{"id": m.ID, "result": nil})
		case m.Method == "window/logMessage":
			var p struct{ Message string }
			json.Unmarshal(m.Params, &p)
			select {
			case c.logs <- p.Message:
			default:
			}
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI         string
				Diagnostics []lspDiagnostic
			}
			json.Unmarshal(m.Params, &p)
			c.diagnosticsOf(p.URI) <- p.Diagnostics
		case m.Method == "":
			id, _ := strconv.Atoi(string(m.ID))
			c.mu.Lock()
			ch := c.waiting[id]
			c.mu.Unlock()
			if ch != nil {
				ch <- m.Result
			}
		}
	}
}

func (c *lspClient) diagnosticsOf(uri string) chan []lspDiagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.diagnostics[uri]
	if ch == nil {
		ch = make(chan []lspDiagnostic, 100)
		c.diagnostics[uri] = ch
	}
	return ch
}

func (c *lspClient) request(method string, params any) json.RawMessage {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan json.RawMessage, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"id": id, "method": method, "params": params})
	select {
	case r := <-ch:
		return r
	case <-time.After(60 * time.Second):
		c.t.Fatalf("no answer to %s", method)
		return nil
	}
}

// waitLog waits for a log line containing text and returns it.
func (c *lspClient) waitLog(text string) string {
	c.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-c.logs:
			if !ok {
				c.t.Fatalf("the language server stopped before logging %q", text)
			}
			if strings.Contains(l, text) {
				return l
			}
		case <-deadline:
			c.t.Fatalf("the language server never logged %q", text)
		}
	}
}

// The glue file that `ferridriver steps --glue` writes makes the official
// Cucumber language server (what VS Code's Cucumber extension runs) know
// every built-in step and parameter type: a feature using built-in steps
// has no "undefined step" diagnostic, completion proposes built-in steps,
// and go-to-definition leads into the glue file. Without the file, the
// same steps are undefined to the editor. The project's own steps come
// from their source, as usual.
func TestEditorGlueForTheCucumberLanguageServer(t *testing.T) {
	t.Parallel() // long and self-contained (see the package doc)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"steps/mine.ts": "import { Given } from '@cucumber/cucumber'\nGiven('my own step', function () {})\n"})
	res := ferridriver(t, dir, "steps", "--glue", "-o", ".vscode/ferridriver-steps.ts")
	if res.code != 0 {
		t.Fatalf("steps --glue: exit %d\n%s", res.code, res.stderr)
	}
	cat := decodeCatalogue(t, ferridriver(t, dir, "steps", "--json", "--builtin").stdout)

	// A feature with every built-in step's examples, the project's step and
	// one step nothing defines.
	var lines []string
	for _, s := range cat.Steps {
		for _, ex := range s.Examples {
			lines = append(lines, "    "+strings.ReplaceAll(strings.TrimSpace(ex), "\n", "\n    "))
		}
	}
	lines = append(lines, "    Given my own step", "    Then nothing defines this step")
	feature := "Feature: built-in steps\n  Scenario: all of them\n" + strings.Join(lines, "\n") + "\n"
	testenv.WriteFiles(t, dir, map[string]string{"features/all.feature": feature})
	uri := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "features", "all.feature")}).String()

	undefined := func(glue []string) []string {
		c := startLanguageServer(t, dir, map[string]any{"features": []string{"features/**/*.feature"}, "glue": glue})
		c.request("initialize", map[string]any{
			"processId": nil,
			"rootUri":   (&url.URL{Scheme: "file", Path: dir}).String(),
			"capabilities": map[string]any{
				"workspace":    map[string]any{"configuration": true},
				"textDocument": map[string]any{"completion": map[string]any{"completionItem": map[string]any{"snippetSupport": true}}, "definition": map[string]any{}},
			},
		})
		c.send(map[string]any{"method": "initialized", "params": map[string]any{}})
		c.waitLog("suggestions for auto complete")
		c.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "cucumber", "version": 1, "text": feature}}})
		var diags []lspDiagnostic
		select {
		case diags = <-c.diagnosticsOf(uri):
		case <-time.After(60 * time.Second):
			t.Fatal("no diagnostics for the feature")
		}
		var out []string
		for _, d := range diags {
			if strings.Contains(d.Message, "Undefined step") {
				out = append(out, strings.TrimSpace(strings.Split(feature, "\n")[d.Range.Start.Line]))
			}
		}
		if len(glue) == 2 {
			// Go to definition: the built-in step's call in the glue file.
			var links []struct{ TargetURI string }
			json.Unmarshal(c.request("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 2, "character": 10}}), &links)
			if len(links) != 1 || !strings.HasSuffix(links[0].TargetURI, "/.vscode/ferridriver-steps.ts") {
				t.Errorf("the definition of %q is %+v, want the glue file", lines[0], links)
			}
			// Completion of a built-in step from its first words: up to
			// its first parameter (or the first three), enough to single
			// it out among many steps.
			var first, prefix string
			for _, st := range cat.Steps {
				var words []string
				for _, w := range strings.Fields(st.Expression) {
					if strings.ContainsAny(w, "{(/\\") || len(words) == 3 {
						break
					}
					words = append(words, w)
				}
				if len(words) > 0 && st.Type == "CucumberExpression" {
					first, prefix = st.Expression, strings.Join(words, " ")
					break
				}
			}
			doc := "Feature: f\n  Scenario: s\n    Given " + prefix + "\n"
			c.send(map[string]any{"method": "textDocument/didChange", "params": map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": doc}}}})
			var items []struct{ Label string }
			r := c.request("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 2, "character": len("    Given " + prefix)}})
			json.Unmarshal(r, &items)
			found := false
			var labels []string
			for _, it := range items {
				labels = append(labels, it.Label)
				// The label is the expression with its parameters shown as
				// choices or placeholders.
				if strings.HasPrefix(it.Label, prefix) && len(strings.Fields(it.Label)) == len(strings.Fields(first)) {
					found = true
				}
			}
			if !found {
				t.Errorf("completing %q proposes %q, not the built-in %q", "Given "+prefix, labels, first)
			}
		}
		return out
	}

	withGlue := undefined([]string{"steps/**/*.ts", ".vscode/ferridriver-steps.ts"})
	if len(withGlue) != 1 || withGlue[0] != "Then nothing defines this step" {
		t.Fatalf("with the glue file, the undefined steps are %q; want only the step nothing defines", withGlue)
	}
	without := undefined([]string{"steps/**/*.ts"})
	if len(without) != len(lines)-1 {
		t.Fatalf("without the glue file, %d undefined steps, want %d (every built-in step): %q", len(without), len(lines)-1, without)
	}
}
