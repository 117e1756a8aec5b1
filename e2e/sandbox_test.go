package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// The escape attempts of issue 25 (items 1 and 2), each made by an
// extension tool, by run_script and by the MCP browser tools, through the
// real binary: files and hosts that the code's grant does not cover stay
// out of reach through the browser API exactly as through node:fs and
// fetch.

// sandboxExt defines the attempts once, as functions any code of the VM
// can call: the tools (whose grant is their allow.fs/allow.net) and
// run_script (whose grant is the server's --allow-read/--allow-write).
// Each returns {ok: what it got} or {err: the message it failed with}.
const sandboxExt = `
const tryIt = async (fn) => { try { return { ok: String(await fn()) }; } catch (e) { return { err: String(e && e.message || e) }; } };
globalThis.escapes = {
  // Files read through the browser.
  fulfill: (page, p) => tryIt(async () => {
    const errs = [];
    await page.route("**/escape-fulfill", async (r) => {
      try { await r.fulfill({ path: p, contentType: "text/plain" }); } catch (e) { errs.push(e.message); await r.fulfill({ body: "refused" }); }
    });
    try { await page.goto("/escape-fulfill"); } catch (e) {}
    if (errs.length) throw new Error(errs[0]);
    return await page.content();
  }),
  gotoFile: (page, p) => tryIt(async () => { await page.goto("file://" + p); return await page.content(); }),
  // In a page of its own: Chromium shows a file: page opened from a page
  // whose frame failed to load (pageFetchMetadata) as an error page.
  frames: (page, p) => tryIt(async () => {
    const own = await page.context().newPage();
    try {
      await own.goto("file://" + p);
      await own.waitForTimeout(300);
      const out = [];
      for (const f of own.frames()) out.push(await f.content());
      return out.join("\n");
    } finally { await own.close(); }
  }),
  inputFiles: (page, p) => tryIt(async () => {
    await page.setContent('<input type="file" id="f">');
    await page.setInputFiles("#f", p);
    return await page.evaluate(() => document.getElementById("f").files[0].text());
  }),
  // Files written through the browser.
  screenshot: (page, p) => tryIt(async () => { await page.screenshot({ path: p }); return "written"; }),
  storageState: (page, p) => tryIt(async () => { await page.context().storageState({ path: p }); return "written"; }),
  // Requests issued through the browser.
  pageRequest: (page, u) => tryIt(async () => (await page.request.get(u)).text()),
  contextRequest: (page, u) => tryIt(async () => (await page.context().request.get(u)).text()),
  routeFetch: (page, u) => tryIt(async () => {
    const errs = [];
    let body = "";
    await page.route("**/escape-fetch", async (r) => {
      try { body = await (await r.fetch({ url: u })).text(); await r.fulfill({ body: "fetched" }); } catch (e) { errs.push(e.message); await r.fulfill({ body: "refused" }); }
    });
    try { await page.goto("/escape-fetch"); } catch (e) {}
    if (errs.length) throw new Error(errs[0]);
    return body;
  }),
  gotoURL: (page, u) => tryIt(async () => { await page.goto(u); return await page.content(); }),
  // The page's own request to a metadata endpoint: the browser does not
  // resolve the host (--host-resolver-rules), so it fails at once, as a
  // name that does not exist.
  pageFetchMetadata: (page) => tryIt(async () => {
    await page.goto("about:blank");
    const [req] = await Promise.all([
      page.waitForEvent("requestfailed", { timeout: 5000 }),
      page.setContent('<iframe src="http://169.254.169.254/latest/meta-data/"></iframe>'),
    ]);
    return req.url() + " " + req.failure().errorText;
  }),
};
const argsSchema = { type: "object", properties: { what: { type: "string" }, arg: { type: "string" } }, required: ["what"], additionalProperties: false };
defineTool({ name: "escape", exposeAsTool: true, inputSchema: argsSchema, allow: { net: ["localhost"] } },
  async ({ args, page }) => escapes[args.what](page, args.arg));
globalThis.argsSchema = argsSchema;
`

// grantedExt is a tool with allow.fs, in a file of its own (a ferridriver
// without allow.fs refuses the file, not the other tools).
const grantedExt = `
defineTool({ name: "granted", exposeAsTool: true, inputSchema: argsSchema, allow: { net: ["localhost"], fs: { read: ["data"], write: ["out"] } } },
  async ({ args, page }) => escapes[args.what](page, args.arg));
`

// sandboxProject is a browser project with the attempts' extension, a
// granted folder (data) holding a symlink to a secret outside the project,
// a page that frames the secret, and a local server whose 127.0.0.1 host
// no tool lists (localhost redirects to it).
type sandboxProject struct {
	dir, secret, outside string
	local                string // http://127.0.0.1:port: its /secret says localSecret
	redirect             string // http://localhost:port/redirect -> local /secret
	metaRedirect         string // http://localhost:port/meta -> 169.254.169.254
}

const (
	secretText  = "TOP-SECRET-OUTSIDE"
	localSecret = "LOCAL-ONLY-SECRET"
	envSecret   = "ENV-SECRET-NOT-IN-ALLOWENV"
)

func newSandboxProject(t *testing.T) *sandboxProject {
	t.Helper()
	dir := browserProject(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	testenv.WriteFiles(t, outside, map[string]string{"secret.txt": secretText})
	testenv.WriteFiles(t, dir, map[string]string{
		"ext/a-escapes.ts": sandboxExt,
		"ext/b-granted.ts": grantedExt,
		"data/allowed.txt": "ALLOWED-DATA",
		"data/frame.html":  `<html><body>FRAME-PAGE<iframe src="file://` + secret + `"></iframe></body></html>`,
		"out/.keep":        "",
	})
	if err := os.Symlink(secret, filepath.Join(dir, "data/link.txt")); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "ferridriver.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ferridriver.toml"), append([]byte("extensions = [\"ext\"]\n"), cfg...), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/secret":
			fmt.Fprint(w, localSecret)
		case "/redirect":
			http.Redirect(w, r, "http://127.0.0.1:"+port+"/secret", http.StatusFound)
		case "/meta":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return &sandboxProject{
		dir: dir, secret: secret, outside: outside,
		local:        "http://127.0.0.1:" + port,
		redirect:     "http://localhost:" + port + "/redirect",
		metaRedirect: "http://localhost:" + port + "/meta",
	}
}

// outcome is what an attempt returned.
type outcome struct {
	OK  *string `json:"ok"`
	Err *string `json:"err"`
}

func (o outcome) String() string {
	switch {
	case o.OK != nil:
		return "ok: " + *o.OK
	case o.Err != nil:
		return "err: " + *o.Err
	}
	return "nothing"
}

// attempt runs escapes[what](page, arg) as tool (an exposed tool name) or,
// with tool "", as run_script.
func attempt(t *testing.T, cs *sdk.ClientSession, tool, what, arg string) outcome {
	t.Helper()
	var text string
	if tool == "" {
		src := fmt.Sprintf("return await escapes[%q](page, %q)", what, arg)
		r := mcpCall(t, cs, "run_script", map[string]any{"source": src})
		var res struct {
			Status string          `json:"status"`
			Value  json.RawMessage `json:"value"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(resultText(r, 0)), &res); err != nil || res.Status != "ok" {
			t.Fatalf("run_script %s: %s", what, resultText(r, 0))
		}
		text = string(res.Value)
	} else {
		r := mcpCall(t, cs, tool, map[string]any{"what": what, "arg": arg})
		if r.IsError {
			t.Fatalf("%s %s: %s", tool, what, resultText(r, 0))
		}
		text = resultText(r, 0)
	}
	var o outcome
	if err := json.Unmarshal([]byte(text), &o); err != nil || (o.OK == nil && o.Err == nil) {
		t.Fatalf("%s %s: unexpected result %s", tool, what, text)
	}
	return o
}

// denied checks that an attempt failed with a message containing wants
// and that it did not carry leak.
func denied(t *testing.T, who, what string, o outcome, leak string, wants ...string) {
	t.Helper()
	if o.Err == nil {
		t.Errorf("%s %s: not refused: %.200s", who, what, o)
		return
	}
	for _, w := range wants {
		if !strings.Contains(*o.Err, w) {
			t.Errorf("%s %s: error %q does not say %q", who, what, *o.Err, w)
		}
	}
	if leak != "" && strings.Contains(*o.Err, leak) {
		t.Errorf("%s %s: the error leaks %q: %s", who, what, leak, *o.Err)
	}
}

func allowed(t *testing.T, who, what string, o outcome, want string) {
	t.Helper()
	if o.OK == nil || !strings.Contains(*o.OK, want) {
		t.Errorf("%s %s: want success with %q, got %.300s", who, what, want, o)
	}
}

// TestSandboxExtensionToolAndRunScript: a tool whose allow.net does not
// list 127.0.0.1 and that has no allow.fs, and run_script without
// --allow-read/--allow-write, reach no file and no unlisted host through
// the browser API; a tool with allow.fs gets its folders and only them.
func TestSandboxExtensionToolAndRunScript(t *testing.T) {
	p := newSandboxProject(t)
	cs, stderr := mcpClient(t, p.dir, []string{"FD_SANDBOX_SECRET=" + envSecret})
	_ = stderr
	// run_script sees the server's pid: /proc/<pid>/environ holds what
	// process.env hides.
	environ := "/proc/" + pidOf(t, cs) + "/environ"
	shot, state := filepath.Join(p.outside, "shot.png"), filepath.Join(p.outside, "state.json")

	for _, who := range []string{"escape", ""} {
		name := who
		if who == "" {
			name = "run_script"
		}
		fsWant := `is not allowed: it is outside the folders allow.fs.read grants (none)`
		fsWrite := `is not allowed: it is outside the folders allow.fs.write grants (none)`
		if who == "" {
			fsWant = `is not allowed: it is outside the folders [mcp] allowRead (--allow-read) grants (none)`
			fsWrite = `is not allowed: it is outside the folders [mcp] allowWrite (--allow-write) grants (none)`
		}
		denied(t, name, "route.fulfill /etc/passwd", attempt(t, cs, who, "fulfill", "/etc/passwd"), "root:", "route.fulfill", fsWant)
		denied(t, name, "route.fulfill environ", attempt(t, cs, who, "fulfill", environ), envSecret, fsWant)
		denied(t, name, "route.fulfill secret", attempt(t, cs, who, "fulfill", p.secret), secretText, fsWant)
		denied(t, name, "goto file://", attempt(t, cs, who, "gotoFile", "/etc/passwd"), "root:", "page.goto", fsWant)
		denied(t, name, "setInputFiles", attempt(t, cs, who, "inputFiles", "/etc/hostname"), "", "page.setInputFiles", fsWant)
		denied(t, name, "setInputFiles symlink", attempt(t, cs, who, "inputFiles", "data/link.txt"), secretText, "which resolves to")
		denied(t, name, "screenshot", attempt(t, cs, who, "screenshot", shot), "", "page.screenshot", fsWrite)
		denied(t, name, "storageState", attempt(t, cs, who, "storageState", state), "", "browserContext.storageState", fsWrite)
		for _, f := range []string{shot, state} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("%s: %s was written", name, f)
			}
		}
		// Cloud metadata endpoints: refused to everyone, navigation too,
		// and the page's own requests cannot resolve them.
		denied(t, name, "goto metadata", attempt(t, cs, who, "gotoURL", "http://169.254.169.254/latest/meta-data/"), "", "cloud metadata endpoint")
		denied(t, name, "request metadata", attempt(t, cs, who, "pageRequest", "http://[::ffff:169.254.169.254]/"), "", "cloud metadata endpoint")
		denied(t, name, "redirect to metadata", attempt(t, cs, who, "contextRequest", p.metaRedirect), "", "redirect to http://169.254.169.254/latest/meta-data/ refused", "cloud metadata endpoint")
		if o := attempt(t, cs, who, "pageFetchMetadata", ""); o.OK == nil || *o.OK != "http://169.254.169.254/latest/meta-data/ net::ERR_NAME_NOT_RESOLVED" {
			t.Errorf("%s: the page's own fetch of a metadata endpoint: %s", name, o)
		}
	}

	// allow.net binds the browser API's requests as it binds fetch: the
	// tool lists localhost, not 127.0.0.1; a redirect from localhost to
	// 127.0.0.1 is refused at the hop.
	netWant := `request host "127.0.0.1" is not in allow.net [localhost]`
	denied(t, "escape", "page.request", attempt(t, cs, "escape", "pageRequest", p.local+"/secret"), localSecret, `tool "escape"`, netWant)
	denied(t, "escape", "context.request", attempt(t, cs, "escape", "contextRequest", p.local+"/secret"), localSecret, netWant)
	denied(t, "escape", "route.fetch", attempt(t, cs, "escape", "routeFetch", p.local+"/secret"), localSecret, "route.fetch", netWant)
	denied(t, "escape", "redirect", attempt(t, cs, "escape", "pageRequest", p.redirect), localSecret, "redirect to "+p.local+"/secret refused", netWant)
	// First-party code (run_script) is not bound by a tool's list.
	allowed(t, "run_script", "page.request", attempt(t, cs, "", "pageRequest", p.local+"/secret"), localSecret)
	allowed(t, "run_script", "redirect", attempt(t, cs, "", "pageRequest", p.redirect), localSecret)

	// allow.fs grants its folders, and only them.
	allowed(t, "granted", "route.fulfill", attempt(t, cs, "granted", "fulfill", "data/allowed.txt"), "ALLOWED-DATA")
	allowed(t, "granted", "setInputFiles", attempt(t, cs, "granted", "inputFiles", "data/allowed.txt"), "ALLOWED-DATA")
	allowed(t, "granted", "screenshot", attempt(t, cs, "granted", "screenshot", "out/shot.png"), "written")
	if _, err := os.Stat(filepath.Join(p.dir, "out/shot.png")); err != nil {
		t.Errorf("granted screenshot: %v", err)
	}
	denied(t, "granted", "route.fulfill symlink", attempt(t, cs, "granted", "fulfill", "data/link.txt"), secretText, `tool "granted": reading "data/link.txt" (which resolves to "`+p.secret+`") is not allowed`)
	denied(t, "granted", "screenshot outside", attempt(t, cs, "granted", "screenshot", shot), "", "allow.fs.write grants (out)")
	denied(t, "granted", "screenshot in a read folder", attempt(t, cs, "granted", "screenshot", "data/x.png"), "", "allow.fs.write grants (out)")
	// A file: page of a granted folder cannot frame a file outside it.
	if o := attempt(t, cs, "granted", "frames", filepath.Join(p.dir, "data/frame.html")); o.OK == nil || !strings.Contains(*o.OK, "FRAME-PAGE") || strings.Contains(*o.OK, secretText) {
		t.Errorf("granted frames: want the page without the framed secret, got %s\n%s", o, stderr.String())
	}
}

// pidOf is the MCP server's pid, as run_script sees it.
func pidOf(t *testing.T, cs *sdk.ClientSession) string {
	t.Helper()
	r := mcpCall(t, cs, "run_script", map[string]any{"source": "return String(process.pid)"})
	var res struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal([]byte(resultText(r, 0)), &res); err != nil || res.Value == "" {
		t.Fatalf("process.pid: %s", resultText(r, 0))
	}
	return res.Value
}

// wantSays is wantContains that lets the test go on, so that each
// refusal of the test reports on its own.
func wantSays(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s: expected %q in:\n%.400s", what, w, got)
		}
	}
}

// errText calls a tool that must fail and returns its message.
func errText(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	r := mcpCall(t, cs, name, args)
	if !r.IsError {
		t.Errorf("%s %v: not refused: %.300s", name, args, resultText(r, 0))
	}
	return resultText(r, 0)
}

// TestSandboxMCPBrowserTools: the browser tools read files only from the
// folders --allow-read grants (browser_file_upload, file:// pages in
// browser_navigate and browser_tabs), never open a cloud metadata
// endpoint, follow --allowed-origins/--blocked-origins, and run_script
// gets the same grant; session_export stays in the project and does not
// overwrite unasked. Through a real client over streamable HTTP.
func TestSandboxMCPBrowserTools(t *testing.T) {
	p := newSandboxProject(t)
	// Without a grant: nothing to read.
	cs, _ := mcpClient(t, p.dir, nil)
	callOK(t, cs, "browser_navigate", map[string]any{"url": "/forms.html"})
	wantSays(t, "upload", errText(t, cs, "browser_file_upload", map[string]any{"selector": "#avatar", "paths": []string{"/etc/passwd"}}),
		`reading "/etc/passwd" is not allowed: it is outside the folders [mcp] allowRead (--allow-read) grants (none)`)
	wantSays(t, "navigate file", errText(t, cs, "browser_navigate", map[string]any{"url": "file:///etc/passwd"}),
		`reading "/etc/passwd" is not allowed`)
	wantSays(t, "view-source", errText(t, cs, "browser_navigate", map[string]any{"url": "view-source:file:///etc/passwd"}),
		`reading "/etc/passwd" is not allowed`)
	wantSays(t, "tab file", errText(t, cs, "browser_tabs", map[string]any{"action": "new", "url": "file:///etc/passwd"}),
		`reading "/etc/passwd" is not allowed`)
	wantSays(t, "navigate metadata", errText(t, cs, "browser_navigate", map[string]any{"url": "http://169.254.169.254/latest/meta-data/"}),
		"cloud metadata endpoint and is always denied")
	wantSays(t, "navigate metadata name", errText(t, cs, "browser_navigate", map[string]any{"url": "http://metadata.google.internal/computeMetadata/v1/"}),
		"cloud metadata endpoint and is always denied")

	// With --allow-read data --allow-write out and an origin filter.
	demo := demoOrigin(t, p.dir)
	endpoint := startMCPHTTP(t, p.dir, nil, "--allow-read", "data", "--allow-write", "out", "--allowed-origins", demo+";http://localhost:*")
	h := httpClient(t, endpoint, "")
	callOK(t, h, "browser_navigate", map[string]any{"url": "/forms.html"})
	callOK(t, h, "browser_file_upload", map[string]any{"selector": "#avatar", "paths": []string{"data/allowed.txt"}})
	if got := callOK(t, h, "browser_evaluate", map[string]any{"function": `() => document.querySelector("#avatar").files[0].text()`}); !strings.Contains(got, "ALLOWED-DATA") {
		t.Errorf("granted upload: %s", got)
	}
	wantSays(t, "upload symlink", errText(t, h, "browser_file_upload", map[string]any{"selector": "#avatar", "paths": []string{"data/link.txt"}}),
		`data/link.txt" (which resolves to "`+p.secret+`") is not allowed: it is outside the folders [mcp] allowRead (--allow-read) grants (data, out)`)
	wantSays(t, "upload outside", errText(t, h, "browser_file_upload", map[string]any{"selector": "#avatar", "paths": []string{p.secret}}), "is not allowed")
	// (That a granted file: page cannot frame the secret is shown by
	// TestSandboxExtensionToolAndRunScript's frames: the snapshot does not
	// show a file: frame's text.)
	wantSays(t, "navigate secret", errText(t, h, "browser_navigate", map[string]any{"url": "file://" + p.secret}), "is not allowed")
	// The origin filter: the demo app and localhost pass, 127.0.0.1 on
	// another port does not.
	wantSays(t, "blocked origin", errText(t, h, "browser_navigate", map[string]any{"url": p.local + "/secret"}),
		"navigation refused: "+p.local+" is not among the allowed origins ("+demo+"; http://localhost:*)")
	if got := callOK(t, h, "browser_navigate", map[string]any{"url": strings.Replace(p.local, "127.0.0.1", "localhost", 1) + "/secret"}); !strings.Contains(got, localSecret) {
		t.Errorf("allowed origin: %s", got)
	}
	// run_script gets the same grant.
	allowed(t, "run_script", "route.fulfill", attempt(t, h, "", "fulfill", "data/allowed.txt"), "ALLOWED-DATA")
	allowed(t, "run_script", "screenshot", attempt(t, h, "", "screenshot", "out/run.png"), "written")
	denied(t, "run_script", "route.fulfill symlink", attempt(t, h, "", "fulfill", "data/link.txt"), secretText, "which resolves to")
	denied(t, "run_script", "storageState in a read folder", attempt(t, h, "", "storageState", "data/state.json"), "", "[mcp] allowWrite (--allow-write) grants (out)")

	// session_export: a symlinked folder leading out of the project is
	// refused, an existing file is kept unless overwrite is true.
	if err := os.Symlink(p.outside, filepath.Join(p.dir, "features-out")); err != nil {
		t.Fatal(err)
	}
	wantSays(t, "export symlink", errText(t, h, "session_export", map[string]any{"path": "features-out/x.feature"}),
		`path "features-out/x.feature" resolves to `+filepath.Join(p.outside, "x.feature")+`, outside the project directory`)
	if _, err := os.Stat(filepath.Join(p.outside, "x.feature")); err == nil {
		t.Error("session_export wrote through the symlink")
	}
	testenv.WriteFiles(t, p.dir, map[string]string{"features/kept.feature": "KEEP ME"})
	wantSays(t, "export existing", errText(t, h, "session_export", map[string]any{"path": "features/kept.feature"}),
		"features/kept.feature exists: pass overwrite: true to replace it")
	if b, _ := os.ReadFile(filepath.Join(p.dir, "features/kept.feature")); string(b) != "KEEP ME" {
		t.Errorf("overwritten without overwrite: %s", b)
	}
	callOK(t, h, "session_export", map[string]any{"path": "features/kept.feature", "overwrite": true})
	if b, _ := os.ReadFile(filepath.Join(p.dir, "features/kept.feature")); !strings.Contains(string(b), "Feature:") {
		t.Errorf("overwrite: true did not replace the file: %s", b)
	}
	callOK(t, h, "session_export", map[string]any{"path": "features/new/rec.feature"})
	if _, err := os.Stat(filepath.Join(p.dir, "features/new/rec.feature")); err != nil {
		t.Error(err)
	}
}

// demoOrigin is the origin of the project's baseURL.
func demoOrigin(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "ferridriver.toml"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), "http://127.0.0.1:")
	if i < 0 {
		t.Fatalf("no baseURL in %s", b)
	}
	u := string(b[i+len("http://"):])
	return "http://" + u[:strings.IndexAny(u, "\"/")]
}
