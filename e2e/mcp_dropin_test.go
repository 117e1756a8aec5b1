package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// dropinPage is a page for @playwright/mcp-style calls: a form, a list, a
// confirm dialog, a file chooser opened by a button, a drop zone, a new
// tab, console output and a fetch.
const dropinPage = `<!doctype html><title>Drop-in</title>
<h1>Orders</h1>
<label>Customer <input id="customer"></label>
<label><input type="checkbox" id="gift"> Gift</label>
<label>Size <select id="size"><option>Small</option><option>Large</option></select></label>
<button id="save" onclick="document.getElementById('out').textContent = 'saved ' + document.getElementById('customer').value">Save</button>
<button id="ask" onclick="document.getElementById('out').textContent = confirm('Really?') ? 'confirmed' : 'cancelled'">Delete</button>
<button id="attach" onclick="document.getElementById('file').click()">Attach</button>
<input type="file" id="file" hidden onchange="document.getElementById('out').textContent = 'attached ' + this.files[0].name">
<div id="zone" style="width:120px;height:40px" ondragover="event.preventDefault()"
  ondrop="event.preventDefault(); document.getElementById('out').textContent = 'dropped ' + event.dataTransfer.getData('text/plain')">Drop zone</div>
<ul id="items"><li>Apples</li><li>Pears</li></ul>
<a href="/other" target="_blank">Other</a>
<p id="out" role="status"></p>
<script>console.log('page ready'); fetch('/api/orders');</script>`

// dropinProject serves dropinPage and returns a project directory whose
// baseURL is it, with a file to upload.
func dropinProject(t *testing.T) string {
	t.Helper()
	testenv.NeedBrowser(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/api/orders", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"orders":[1,2]}`))
	})
	mux.HandleFunc("/other", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`<!doctype html><title>Other</title><h1>Other page</h1>`))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(dropinPage))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "[test]\nfeatures = [\"features/**/*.feature\"]\n\n[browser]\nbaseURL = \"" + srv.URL + "\"\n",
		"notes.txt":        "order notes\n",
	})
	return dir
}

// TestMCPPlaywrightStyleCalls replays, with the official TypeScript
// client, calls written as for @playwright/mcp 0.0.83 from its documented
// schemas (target refs and selectors, filename, scale, webp, all, filter,
// boxes, forcedColors, contrast, null, the file chooser as a modal
// state...): every call succeeds.
func TestMCPPlaywrightStyleCalls(t *testing.T) {
	t.Parallel()
	dir := dropinProject(t)
	c := startTSClient(t, "stdio", binary, dir, "--caps", "vision,pdf,network,storage,devtools", "--allow-read", ".")
	page := c.ok("browser_navigate", map[string]any{"url": "/"})
	ref := regexp.MustCompile(`textbox "Customer" \[ref=(e\d+)\]`).FindStringSubmatch(page)
	if ref == nil {
		t.Fatalf("no ref for the Customer field:\n%s", page)
	}
	calls := []struct {
		name string
		args map[string]any
		want string // in the first text block ("" for anything)
	}{
		{"browser_snapshot", map[string]any{"boxes": true, "depth": 2}, "[box="},
		{"browser_snapshot", map[string]any{"filename": "out/page.yml"}, "Saved to out/page.yml"},
		{"browser_find", map[string]any{"text": "pears"}, "Pears"},
		{"browser_find", map[string]any{"regex": "/^.*ORDERS.*$/i"}, "Orders"},
		{"browser_type", map[string]any{"element": "Customer field", "target": ref[1], "text": "Ada", "submit": false}, ""},
		{"browser_fill_form", map[string]any{"fields": []any{
			map[string]any{"name": "Gift", "type": "checkbox", "target": "#gift", "value": "true"},
			map[string]any{"name": "Size", "type": "combobox", "target": "#size", "value": "Large"},
		}}, ""},
		{"browser_select_option", map[string]any{"element": "Size", "target": "#size", "values": []any{"Small"}}, ""},
		{"browser_hover", map[string]any{"element": "Save", "target": "#save"}, ""},
		{"browser_click", map[string]any{"element": "Save button", "target": "#save", "button": "left", "modifiers": []any{}}, "saved Ada"},
		{"browser_press_key", map[string]any{"key": "Tab"}, ""},
		{"browser_drag", map[string]any{"startElement": "Apples", "startTarget": "#items li >> nth=0", "endElement": "Pears", "endTarget": "#items li >> nth=1"}, ""},
		{"browser_drop", map[string]any{"element": "Drop zone", "target": "#zone", "data": map[string]any{"text/plain": "a note"}}, "dropped a note"},
		{"browser_evaluate", map[string]any{"function": "() => document.title"}, "Drop-in"},
		{"browser_evaluate", map[string]any{"element": "Customer field", "target": "#customer", "function": "(el) => el.value", "filename": "out/value.json"}, "Saved to out/value.json"},
		{"browser_console_messages", map[string]any{"level": "info", "all": true}, "page ready"},
		{"browser_console_messages", map[string]any{"level": "error", "filename": "out/console.log"}, "Saved to out/console.log"},
		{"browser_network_requests", map[string]any{"static": false, "filter": "/api/.*orders"}, "/api/orders => 200"},
		{"browser_network_request", map[string]any{"index": 2}, `{"orders":[1,2]}`},
		{"browser_network_request", map[string]any{"index": 2, "part": "response-headers"}, "content-type: application/json"},
		{"browser_take_screenshot", map[string]any{"type": "png", "scale": "css"}, ""},
		{"browser_take_screenshot", map[string]any{"type": "webp", "scale": "device", "fullPage": true, "filename": "out/page.webp"}, "Saved to out/page.webp"},
		{"browser_take_screenshot", map[string]any{"element": "heading", "target": "h1", "type": "jpeg", "scale": "css"}, ""},
		{"browser_emulate_media", map[string]any{"colorScheme": "dark", "forcedColors": "active", "contrast": "more", "reducedMotion": "reduce", "media": "screen"}, ""},
		{"browser_emulate_media", map[string]any{"colorScheme": nil, "forcedColors": nil, "contrast": nil}, "no-override"},
		{"browser_resize", map[string]any{"width": 1000, "height": 700}, ""},
		{"browser_wait_for", map[string]any{"text": "Orders"}, ""},
		{"browser_wait_for", map[string]any{"time": 0.1}, ""},
		{"browser_click", map[string]any{"element": "Delete", "target": "#ask"}, "confirm dialog opened"},
		{"browser_handle_dialog", map[string]any{"accept": true}, ""},
		{"browser_click", map[string]any{"element": "Attach", "target": "#attach"}, "file chooser"},
		{"browser_file_upload", map[string]any{"paths": []any{filepath.Join(dir, "notes.txt")}}, "attached notes.txt"},
		{"browser_verify_text_visible", map[string]any{"text": "attached notes.txt"}, ""},
		{"browser_verify_element_visible", map[string]any{"role": "heading", "accessibleName": "Orders"}, ""},
		{"browser_verify_value", map[string]any{"type": "textbox", "element": "Customer", "target": "#customer", "value": "Ada"}, ""},
		{"browser_verify_list_visible", map[string]any{"element": "Items", "target": "#items", "items": []any{"Apples", "Pears"}}, ""},
		{"browser_generate_locator", map[string]any{"element": "Save", "target": "#save"}, "page.locator('#save')"},
		{"browser_run_code_unsafe", map[string]any{"code": "async (page) => { return await page.locator('h1').textContent(); }"}, `"Orders"`},
		{"browser_mouse_move_xy", map[string]any{"x": 10, "y": 10}, ""},
		{"browser_mouse_click_xy", map[string]any{"x": 5, "y": 5, "button": "left", "clickCount": 1, "delay": 0}, ""},
		{"browser_mouse_wheel", map[string]any{"deltaX": 0, "deltaY": 50}, ""},
		{"browser_mouse_down", map[string]any{"button": "left"}, ""},
		{"browser_mouse_up", map[string]any{"button": "left"}, ""},
		{"browser_mouse_drag_xy", map[string]any{"startX": 5, "startY": 5, "endX": 20, "endY": 20}, ""},
		{"browser_pdf_save", map[string]any{"filename": "out/page.pdf"}, "Saved to out/page.pdf"},
		{"browser_route", map[string]any{"pattern": "**/api/mock", "status": 200, "body": `{"mocked":true}`, "contentType": "application/json"}, ""},
		{"browser_route", map[string]any{"pattern": "**/api/orders", "headers": []any{"X-Test: 1"}, "removeHeaders": "accept-language"}, ""},
		{"browser_route_list", map[string]any{}, "**/api/mock"},
		{"browser_evaluate", map[string]any{"function": "async () => (await fetch('/api/mock')).text()"}, "mocked"},
		{"browser_unroute", map[string]any{"pattern": "**/api/mock"}, ""},
		{"browser_unroute", map[string]any{}, ""},
		{"browser_network_state_set", map[string]any{"state": "offline"}, ""},
		{"browser_network_state_set", map[string]any{"state": "online"}, ""},
		{"browser_cookie_set", map[string]any{"name": "flavour", "value": "oat", "path": "/", "httpOnly": true, "secure": false, "sameSite": "Lax"}, ""},
		{"browser_cookie_get", map[string]any{"name": "flavour"}, "flavour=oat"},
		{"browser_cookie_list", map[string]any{"domain": "127.0.0.1"}, "flavour=oat"},
		{"browser_localstorage_set", map[string]any{"key": "theme", "value": "dark"}, ""},
		{"browser_localstorage_get", map[string]any{"key": "theme"}, "dark"},
		{"browser_localstorage_list", map[string]any{}, "theme=dark"},
		{"browser_sessionstorage_set", map[string]any{"key": "step", "value": "2"}, ""},
		{"browser_sessionstorage_get", map[string]any{"key": "step"}, "2"},
		{"browser_sessionstorage_list", map[string]any{}, "step=2"},
		{"browser_sessionstorage_delete", map[string]any{"key": "step"}, ""},
		{"browser_sessionstorage_clear", map[string]any{}, ""},
		{"browser_storage_state", map[string]any{"filename": "out/state.json"}, "Saved to out/state.json"},
		{"browser_localstorage_delete", map[string]any{"key": "theme"}, ""},
		{"browser_localstorage_clear", map[string]any{}, ""},
		{"browser_cookie_delete", map[string]any{"name": "flavour"}, ""},
		{"browser_cookie_clear", map[string]any{}, ""},
		{"browser_set_storage_state", map[string]any{"filename": "out/state.json"}, ""},
		{"browser_localstorage_get", map[string]any{"key": "theme"}, "dark"},
		{"browser_cookie_get", map[string]any{"name": "flavour"}, "flavour=oat"},
		{"browser_start_tracing", map[string]any{}, ""},
		{"browser_highlight", map[string]any{"element": "Save", "target": "#save", "style": "outline-color: blue"}, ""},
		{"browser_evaluate", map[string]any{"function": "() => document.querySelectorAll('[data-ferridriver-highlight]').length"}, "1"},
		{"browser_hide_highlight", map[string]any{"element": "Save", "target": "#save"}, ""},
		{"browser_evaluate", map[string]any{"function": "() => document.querySelectorAll('[data-ferridriver-highlight]').length"}, "0"},
		{"browser_stop_tracing", map[string]any{"filename": "out/trace.zip"}, "Saved to out/trace.zip"},
		{"browser_tabs", map[string]any{"action": "new", "url": "/other"}, "Other"},
		{"browser_tabs", map[string]any{"action": "list"}, "Tabs:"},
		{"browser_tabs", map[string]any{"action": "select", "index": 0}, ""},
		{"browser_tabs", map[string]any{"action": "close", "index": 1}, ""},
		{"browser_navigate", map[string]any{"url": "/other"}, "Other page"},
		{"browser_navigate_back", map[string]any{}, "Orders"},
		{"browser_close", map[string]any{}, ""},
	}
	for _, call := range calls {
		_, a := c.call(call.name, call.args, nil)
		if a.Error != "" || a.Result == nil || a.Result.IsError {
			t.Errorf("%s %v: error %q, result %q", call.name, call.args, a.Error, a.Result.text(0))
			continue
		}
		if call.want != "" && !strings.Contains(a.Result.text(0), call.want) && !strings.Contains(a.Result.text(1), call.want) {
			t.Errorf("%s %v: want %q in\n%s", call.name, call.args, call.want, a.Result.text(0))
		}
		if call.name == "browser_take_screenshot" {
			last := a.Result.Content[len(a.Result.Content)-1]
			if last.Type != "image" || !strings.HasPrefix(last.MIMEType, "image/") {
				t.Errorf("%s %v: no image: %+v", call.name, call.args, a.Result.Content)
			}
		}
	}
	for _, f := range []string{"out/page.yml", "out/value.json", "out/page.webp", "out/page.pdf", "out/state.json", "out/trace.zip"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s was not written: %v", f, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out/page.webp")); len(b) < 12 || string(b[8:12]) != "WEBP" {
		t.Errorf("out/page.webp is not a WebP image")
	}
}

// TestMCPFileChooserIsAModalState: a click that opens a file chooser says
// so, other actions wait for it, browser_file_upload {paths} answers it
// (and is recorded as an upload to the file input), and without paths it
// cancels one.
func TestMCPFileChooserIsAModalState(t *testing.T) {
	dir := dropinProject(t)
	c := startTSClient(t, "stdio", binary, dir, "--allow-read", ".")
	c.ok("browser_navigate", map[string]any{"url": "/"})
	opened := c.ok("browser_click", map[string]any{"element": "Attach", "target": "#attach"})
	if !strings.Contains(opened, "Modal state: a file chooser opened") || !strings.Contains(opened, "browser_file_upload") {
		t.Fatalf("the click does not report the file chooser:\n%s", opened)
	}
	if _, a := c.call("browser_click", map[string]any{"target": "#save"}, nil); a.Result == nil || !a.Result.IsError || !strings.Contains(a.Result.text(0), "a file chooser is open") {
		t.Errorf("an action while the chooser waits: %+v", a.Result)
	}
	up := c.ok("browser_file_upload", map[string]any{"paths": []any{filepath.Join(dir, "notes.txt")}})
	if !strings.Contains(up, "attached notes.txt") || !strings.Contains(up, `Step: When I upload`) || !strings.Contains(up, `to "#file"`) {
		t.Errorf("the upload:\n%s", up)
	}
	c.ok("browser_click", map[string]any{"target": "#attach"})
	if cancelled := c.ok("browser_file_upload", map[string]any{}); !strings.Contains(cancelled, "cancelled") {
		t.Errorf("no paths should cancel the chooser:\n%s", cancelled)
	}
	if _, a := c.call("browser_file_upload", map[string]any{"paths": []any{"notes.txt"}}, nil); a.Result == nil || !a.Result.IsError || !strings.Contains(a.Result.text(0), "no file chooser is open") {
		t.Errorf("an upload with no chooser and no target: %+v", a.Result)
	}
	export := c.ok("session_export", map[string]any{})
	if !strings.Contains(export, `When I click "#attach"`) || !strings.Contains(export, `I upload "notes.txt" to "#file"`) {
		t.Errorf("the export lacks the click and the upload:\n%s", export)
	}
}

// TestMCPFailuresAnAgentCanActOn: a click on a disabled button names
// Playwright's reason in two lines; a refused navigation shows the error
// page's URL and why, in the error and in the next snapshot.
func TestMCPFailuresAnAgentCanActOn(t *testing.T) {
	dir := dropinProject(t)
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": "[browser]\nactionTimeout = 1500\n"})
	c := startTSClient(t, "stdio", binary, dir)
	c.ok("browser_navigate", map[string]any{"url": "data:text/html,<button disabled>Off</button>"})
	_, a := c.call("browser_click", map[string]any{"target": "button"}, nil)
	if a.Result == nil || !a.Result.IsError {
		t.Fatalf("a click on a disabled button: %+v", a)
	}
	msg := a.Result.text(0)
	if !strings.Contains(msg, "exceeded: element is not enabled") || strings.Count(msg, "\n") > 1 {
		t.Errorf("the failure should name the reason in two lines:\n%s", msg)
	}
	_, a = c.call("browser_navigate", map[string]any{"url": "http://127.0.0.1:1/"}, nil)
	if a.Result == nil || !a.Result.IsError || !strings.Contains(a.Result.text(0), "Page: chrome-error://") || !strings.Contains(a.Result.text(0), "ERR_UNSAFE_PORT") {
		t.Errorf("a refused navigation: %+v", a.Result)
	}
	if snap := c.ok("browser_snapshot", map[string]any{}); !strings.Contains(snap, "Page: chrome-error://") || !strings.Contains(snap, "ERR_UNSAFE_PORT") {
		t.Errorf("the snapshot after a refused navigation:\n%s", snap)
	}
}
