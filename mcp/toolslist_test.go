package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/browsing"
)

// playwrightMCPListBytes is the size of @playwright/mcp 0.0.83's
// tools/list result on its default tool set (JSON.stringify of the
// result its TypeScript SDK client got: 25 tools), measured with
// `npx @playwright/mcp@0.0.83`.
const playwrightMCPListBytes = 20296

// playwrightMCPTools are @playwright/mcp 0.0.83's tools with their
// arguments: the default set, then those of --caps testing, vision and
// pdf (from its tools/list).
var playwrightMCPTools = map[string][]string{
	"browser_close":            {},
	"browser_resize":           {"width", "height"},
	"browser_console_messages": {"level", "all", "filename"},
	"browser_handle_dialog":    {"accept", "promptText"},
	"browser_emulate_media":    {"colorScheme", "reducedMotion", "forcedColors", "contrast", "media"},
	"browser_evaluate":         {"element", "target", "function", "filename"},
	"browser_file_upload":      {"paths"},
	"browser_drop":             {"element", "target", "paths", "data"},
	"browser_find":             {"text", "regex", "filename"},
	"browser_fill_form":        {"fields"},
	"browser_press_key":        {"key"},
	"browser_type":             {"element", "target", "text", "submit", "slowly"},
	"browser_navigate":         {"url"},
	"browser_navigate_back":    {},
	"browser_network_requests": {"static", "filter", "filename"},
	"browser_network_request":  {"index", "part", "filename"},
	"browser_run_code_unsafe":  {"code", "filename"},
	"browser_take_screenshot":  {"element", "target", "type", "filename", "fullPage", "scale"},
	"browser_snapshot":         {"target", "filename", "depth", "boxes"},
	"browser_click":            {"element", "target", "doubleClick", "button", "modifiers"},
	"browser_drag":             {"startElement", "startTarget", "endElement", "endTarget"},
	"browser_hover":            {"element", "target"},
	"browser_select_option":    {"element", "target", "values"},
	"browser_tabs":             {"action", "index", "url"},
	"browser_wait_for":         {"time", "text", "textGone"},
	// --caps testing (on by default in ferridriver)
	"browser_verify_element_visible": {"role", "accessibleName"},
	"browser_verify_text_visible":    {"text"},
	"browser_verify_list_visible":    {"element", "target", "items"},
	"browser_verify_value":           {"type", "element", "target", "value"},
	"browser_generate_locator":       {"element", "target"},
}

var playwrightMCPCapsTools = map[string][]string{
	"browser_mouse_move_xy":  {"x", "y"},
	"browser_mouse_click_xy": {"x", "y", "button", "clickCount", "delay"},
	"browser_mouse_drag_xy":  {"startX", "startY", "endX", "endY"},
	"browser_mouse_down":     {"button"},
	"browser_mouse_up":       {"button"},
	"browser_mouse_wheel":    {"deltaX", "deltaY"},
	"browser_pdf_save":       {"filename"},
	// --caps network
	"browser_route":             {"pattern", "status", "body", "contentType", "headers", "removeHeaders"},
	"browser_route_list":        {},
	"browser_unroute":           {"pattern"},
	"browser_network_state_set": {"state"},
	// --caps storage
	"browser_cookie_list":           {"domain", "path"},
	"browser_cookie_get":            {"name"},
	"browser_cookie_set":            {"name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite"},
	"browser_cookie_delete":         {"name"},
	"browser_cookie_clear":          {},
	"browser_localstorage_list":     {},
	"browser_localstorage_get":      {"key"},
	"browser_localstorage_set":      {"key", "value"},
	"browser_localstorage_delete":   {"key"},
	"browser_localstorage_clear":    {},
	"browser_sessionstorage_list":   {},
	"browser_sessionstorage_get":    {"key"},
	"browser_sessionstorage_set":    {"key", "value"},
	"browser_sessionstorage_delete": {"key"},
	"browser_sessionstorage_clear":  {},
	"browser_storage_state":         {"filename"},
	"browser_set_storage_state":     {"filename"},
	// --caps devtools (part)
	"browser_start_tracing":      {},
	"browser_stop_tracing":       {},
	"browser_highlight":          {"element", "target", "style"},
	"browser_hide_highlight":     {"element", "target"},
	"browser_start_video":        {"filename", "size", "fps", "cursor"},
	"browser_stop_video":         {},
	"browser_video_chapter":      {"title", "description", "duration"},
	"browser_video_show_actions": {"duration", "position", "cursor", "style"},
	"browser_video_hide_actions": {},
	"browser_start_recording":    {},
	"browser_stop_recording":     {},
	"browser_resume":             {"step", "location"},
	"browser_annotate":           {},
	// --caps config
	"browser_get_config": {},
}

// listTools returns the tools/list of a server with the browser tools and
// opts, and its size as JSON.
func listTools(t *testing.T, opts Options) (map[string]*sdk.Tool, int) {
	t.Helper()
	l, err := world.NewLauncher(world.Config{OutputDir: t.TempDir()}, world.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := browsing.NewService(l)
	t.Cleanup(func() { svc.Close(); l.Close() })
	opts.Browsing = svc
	cs, _, _ := connect(t, nil, opts, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"tools": res.Tools}); err != nil {
		t.Fatal(err)
	}
	tools := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = tl
	}
	return tools, b.Len() - 1
}

// TestToolsListIsNoLargerThanPlaywrightMCPs: the default tools/list,
// with more tools than @playwright/mcp's (forward, reload, the checks,
// run_script, run_bdd, session_export...), costs no more bytes.
func TestToolsListIsNoLargerThanPlaywrightMCPs(t *testing.T) {
	tools, size := listTools(t, Options{})
	t.Logf("tools/list: %d tools, %d bytes (@playwright/mcp 0.0.83: 25 tools, %d bytes)", len(tools), size, playwrightMCPListBytes)
	if size > playwrightMCPListBytes {
		t.Errorf("tools/list is %d bytes, over @playwright/mcp's %d: shorten descriptions or share fragments (browser.go)", size, playwrightMCPListBytes)
	}
	_, lean := listTools(t, Options{Caps: []string{"-testing", "-bdd", "-script"}})
	if lean >= size {
		t.Errorf("--caps -testing,-bdd,-script: %d bytes, not less than the default %d", lean, size)
	}
}

// TestEveryPlaywrightMCPArgumentIsDeclared: each tool and argument of
// @playwright/mcp 0.0.83 (default set, testing, and with --caps vision,pdf
// the optional ones) is in ferridriver's schema, and a required argument
// there is never one that @playwright/mcp leaves optional.
func TestEveryPlaywrightMCPArgumentIsDeclared(t *testing.T) {
	check := func(tools map[string]*sdk.Tool, want map[string][]string) {
		for name, args := range want {
			tl := tools[name]
			if tl == nil {
				t.Errorf("%s is not offered", name)
				continue
			}
			b, _ := json.Marshal(tl.InputSchema)
			var s struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			for _, a := range args {
				if s.Properties[a] == nil {
					t.Errorf("%s lacks the argument %s: %s", name, a, b)
				}
			}
			for _, r := range s.Required {
				if !strings.Contains(" "+strings.Join(args, " ")+" ", " "+r+" ") {
					t.Errorf("%s requires %s, which @playwright/mcp does not have", name, r)
				}
			}
		}
	}
	tools, _ := listTools(t, Options{})
	check(tools, playwrightMCPTools)
	for name := range playwrightMCPCapsTools {
		if tools[name] != nil {
			t.Errorf("%s is offered without --caps", name)
		}
	}
	withCaps, _ := listTools(t, Options{Caps: []string{"vision,pdf", "network", "storage", "devtools", "config"},
		Config: func() (any, error) { return map[string]any{}, nil }})
	check(withCaps, playwrightMCPCapsTools)
}

func TestResolveCaps(t *testing.T) {
	for _, c := range []struct {
		in      []string
		on, off []string
		err     string
	}{
		{nil, []string{"testing", "bdd", "script"}, []string{"vision", "pdf"}, ""},
		{[]string{"vision", "pdf"}, []string{"vision", "pdf", "testing"}, nil, ""},
		{[]string{"-testing,-bdd", "core,tabs"}, []string{"script"}, []string{"testing", "bdd"}, ""},
		{[]string{"-verify"}, nil, []string{"testing"}, ""},
		{[]string{"config"}, []string{"config", "testing"}, []string{"devtools"}, ""},
		{[]string{"network,storage"}, []string{"network", "storage"}, nil, ""},
		{[]string{"bogus"}, nil, nil, `unknown group`},
	} {
		got, err := ResolveCaps(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.in, err)
			continue
		}
		for _, g := range c.on {
			if !got[g] {
				t.Errorf("%v: %s is off", c.in, g)
			}
		}
		for _, g := range c.off {
			if got[g] {
				t.Errorf("%v: %s is on", c.in, g)
			}
		}
	}
}
