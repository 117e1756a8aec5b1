package jsbridge

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// testServer serves on 127.0.0.1: /ok, /json, /echo, /multipart (lists
// the parts it parsed), /redirect-evil
// (to a disallowed host), /redirect-localhost (same server, other name),
// /redirect-ok (same server, same name), /cookie and /whoami.
func testServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Add("X-Multi", "a")
		w.Header().Add("X-Multi", "b")
		fmt.Fprint(w, "fine")
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a":1,"list":[true,null]}`)
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"method":%q,"query":%q,"ctype":%q,"auth":%q,"body":%q}`, r.Method, r.URL.RawQuery, r.Header.Get("Content-Type"), r.Header.Get("Authorization"), b)
	})
	mux.HandleFunc("/status/", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		var code int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/status/"), "%d", &code)
		w.WriteHeader(code)
	})
	mux.HandleFunc("/redirect-evil", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, "http://evil.test/steal", http.StatusFound)
	})
	mux.HandleFunc("/redirect-metadata", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/multipart", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		// Go's own multipart reader is the oracle for the encoding.
		mr, err := r.MultipartReader()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var parts []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			b, _ := io.ReadAll(p)
			parts = append(parts, fmt.Sprintf("%s|%s|%s|%q", p.FormName(), p.FileName(), p.Header.Get("Content-Type"), b))
		}
		fmt.Fprint(w, strings.Join(parts, "\n"))
	})
	mux.HandleFunc("/cookie", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "s3cret", Path: "/"})
	})
	mux.HandleFunc("/whoami", func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Cookie("sid")
		if c == nil {
			fmt.Fprint(w, "anonymous")
			return
		}
		fmt.Fprint(w, c.Value)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("test server not on 127.0.0.1: %s", srv.URL)
	}
	return srv, &hits
}

func port(srv *httptest.Server) string {
	_, p, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	return p
}

func TestNetAllowListOnRequestAndFetch(t *testing.T) {
	srv, hits := testServer(t)
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({ name: "loop.request", allow: { net: ["127.0.0.1"] } }, async ({ args, request }) => {
  const r = await request.get(args.url);
  return { status: r.status(), text: await r.text() };
});
defineTool({ name: "loop.fetch", allow: { net: ["127.0.0.1"] } }, async ({ args }) => {
  const r = await fetch(args.url);
  return { status: r.status, text: await r.text() };
});
defineTool({ name: "named.fetch", allow: { net: ["localhost"] } }, async ({ args }) => (await fetch(args.url)).status);
defineTool({ name: "open.fetch" }, async ({ args }) => (await fetch(args.url)).status);
`,
	}).mustLoad()
	u := srv.URL
	got := e.mustRun(fmt.Sprintf(`return JSON.stringify(await plugins["loop.request"]({ url: %q }))`, u+"/ok"))
	if got != `{"status":200,"text":"fine"}` {
		t.Fatalf("allowed request: %v", got)
	}
	got = e.mustRun(fmt.Sprintf(`return JSON.stringify(await plugins["loop.fetch"]({ url: %q }))`, u+"/ok"))
	if got != `{"status":200,"text":"fine"}` {
		t.Fatalf("allowed fetch: %v", got)
	}
	before := hits.Load()
	for _, tool := range []string{"loop.request", "loop.fetch"} {
		// A redirect from the allowed host to one off the list is refused at the hop.
		msg := e.runErr(fmt.Sprintf(`return await plugins[%q]({ url: %q })`, tool, u+"/redirect-evil"))
		mustContain(t, msg, "redirect to http://evil.test/steal denied", `request host "evil.test" is not in allow.net [127.0.0.1]`)
		// Other spellings of a host are other hosts.
		for _, bad := range []string{
			"http://localhost:" + port(srv) + "/ok",
			"http://127.0.0.1.:" + port(srv) + "/ok",
			"http://2130706433:" + port(srv) + "/ok",
			"http://0x7f.1:" + port(srv) + "/ok",
			"http://[::ffff:127.0.0.1]:" + port(srv) + "/ok",
			"http://127.0.0.1@evil.test/ok",
			"http://evil.test\\@127.0.0.1/ok",
			"file:///etc/passwd",
			"ftp://127.0.0.1/x",
			"/relative",
			"http://%zz",
			"http://169.254.169.254/",
		} {
			msg := e.runErr(fmt.Sprintf(`return await plugins[%q]({ url: %q })`, tool, bad))
			if !strings.Contains(msg, "not in allow.net") && !strings.Contains(msg, "not allowed") && !strings.Contains(msg, "cannot be parsed") && !strings.Contains(msg, "not an absolute") && !strings.Contains(msg, "metadata") {
				t.Fatalf("%s %s: unexpected error %s", tool, bad, msg)
			}
		}
	}
	// Only the redirecting hops reached the server: every other denial
	// happened before a request was made.
	if n := hits.Load() - before; n != 2 {
		t.Fatalf("denied requests reached the server: %d hits, want 2 (the two redirects)", n)
	}
	msg := e.runErr(fmt.Sprintf(`return await plugins["named.fetch"]({ url: %q })`, u+"/ok"))
	mustContain(t, msg, `request host "127.0.0.1" is not in allow.net [localhost]`)
	// No list: unrestricted but for metadata, also after a redirect.
	if got := e.mustRun(fmt.Sprintf(`return await plugins["open.fetch"]({ url: %q })`, u+"/ok")); got != int64(200) {
		t.Fatalf("open: %v", got)
	}
	mustContain(t, e.runErr(fmt.Sprintf(`return await plugins["open.fetch"]({ url: %q })`, u+"/redirect-metadata")), "cloud metadata endpoint")
	// First-party code (steps, scripts): unrestricted but for metadata.
	if got := e.mustRun(fmt.Sprintf(`return (await fetch(%q)).status`, "http://localhost:"+port(srv)+"/ok")); got != int64(200) {
		t.Fatalf("first-party fetch: %v", got)
	}
	mustContain(t, e.runErr(`return await fetch("http://169.254.169.254/latest/")`), "cloud metadata endpoint and is always denied")
	mustContain(t, e.runErr(`return await fetch("http://[fd00:ec2::254]/")`), "cloud metadata endpoint")
}

func TestFetchAndRequestShapes(t *testing.T) {
	srv, _ := testServer(t)
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({ name: "api", allow: { net: ["127.0.0.1"] } }, async ({ args, request }) => {
  const base = args.base;
  const out = {};
  const g = await request.get(base + "/echo", { params: { q: "a b", n: 2 }, headers: { Authorization: "Bearer t" } });
  out.get = await g.json();
  out.headersOk = g.ok() && g.status() === 200 && g.headers()["content-type"] === "application/json";
  const p = await request.post(base + "/echo", { data: { x: 1 } });
  out.post = await p.json();
  const f = await request.put(base + "/echo", { form: { a: "1", b: "x y" } });
  out.put = (await f.json()).body;
  const s = await request.fetch(base + "/echo", { method: "patch", data: "raw" });
  out.patch = (await s.json()).method + ":" + (await s.json()).body;
  const d = await request.delete(base + "/status/404");
  out.notFound = [d.status(), d.ok(), d.statusText()];
  try { await request.get(base + "/status/500", { failOnStatusCode: true }); } catch (e) { out.fail = e.message; }
  const m = await request.get(base + "/redirect-evil", { maxRedirects: 0 });
  out.manual = m.status() + " " + m.headers()["location"];
  out.body = (await (await request.get(base + "/ok")).body()).toString();
  await request.get(base + "/cookie");
  out.cookie = await (await request.get(base + "/whoami")).text();
  return out;
});
`,
	}).mustLoad()
	got := e.mustRun(fmt.Sprintf(`return JSON.stringify(await plugins.api({ base: %q }))`, srv.URL))
	var want = `{"get":{"method":"GET","query":"q=a+b&n=2","ctype":"","auth":"Bearer t","body":""},"headersOk":true,` +
		`"post":{"method":"POST","query":"","ctype":"application/json","auth":"","body":"{\"x\":1}"},` +
		`"put":"a=1&b=x+y","patch":"PATCH:raw","notFound":[404,false,"Not Found"],` +
		`"fail":"GET ` + srv.URL + `/status/500 failed: 500 Internal Server Error","manual":"302 http://evil.test/steal","body":"fine","cookie":"s3cret"}`
	if got != want {
		t.Fatalf("request API:\n got %v\nwant %v", got, want)
	}
	got = e.mustRun(fmt.Sprintf(`
const r = await fetch(%q);
const j = await fetch(%q);
const body = await j.json();
let reread;
try { await j.text(); } catch (e) { reread = e.name; }
const ab = await (await fetch(%q)).arrayBuffer();
const post = await (await fetch(%q, { method: "POST", body: new URLSearchParams({ k: "v" }), headers: [["X-A", "1"]] })).json();
const h = new Headers({ "X-One": "1" }); h.append("x-one", "2");
return JSON.stringify({ status: r.status, ok: r.ok, multi: r.headers.get("X-MULTI"), has: r.headers.has("x-multi"), text: await r.text(),
  body, reread, bytes: ab.byteLength, post, h: h.get("x-one"), resp: await new Response("hi", { status: 201 }).text() });
`, srv.URL+"/ok", srv.URL+"/json", srv.URL+"/ok", srv.URL+"/echo"))
	want = `{"status":200,"ok":true,"multi":"a, b","has":true,"text":"fine","body":{"a":1,"list":[true,null]},"reread":"TypeError","bytes":4,` +
		`"post":{"method":"POST","query":"","ctype":"application/x-www-form-urlencoded;charset=UTF-8","auth":"","body":"k=v"},"h":"1, 2","resp":"hi"}`
	if got != want {
		t.Fatalf("fetch API:\n got %v\nwant %v", got, want)
	}
	// A tool's cookies are its own: first-party code does not see them.
	if got := e.mustRun(fmt.Sprintf(`return await (await fetch(%q)).text()`, srv.URL+"/whoami")); got != "anonymous" {
		t.Fatalf("cookie jar shared with first-party code: %v", got)
	}
	// AbortSignal cancels a fetch.
	got = e.mustRun(fmt.Sprintf(`const c = new AbortController(); const p = fetch(%q, { signal: c.signal }); c.abort(); try { await p; } catch (e) { return e.name; } return "not aborted"`, srv.URL+"/ok"))
	if got != "AbortError" {
		t.Fatalf("abort: %v", got)
	}
}

func TestRequestMultipart(t *testing.T) {
	srv, _ := testServer(t)
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({ name: "upload", allow: { net: ["127.0.0.1"] } }, async ({ args, request }) => {
  const r = await request.post(args.base + "/multipart", { multipart: {
    title: "a \"quoted\" name",
    count: 3,
    draft: false,
    file: { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("line 1\r\n--not a boundary\n") },
    bytes: { name: "raw.bin", mimeType: "application/octet-stream", buffer: new Uint8Array([0, 255, 13, 10]) },
  } });
  return r.status() + "\n" + await r.text();
});
defineTool({ name: "bad", allow: { net: ["127.0.0.1"] } }, async ({ args, request }) => {
  const out = [];
  for (const opts of [{ multipart: { f: { name: "x" } } }, { multipart: { f: "x" }, form: { a: "b" } }, { multipart: "x" }]) {
    try { await request.post(args.base + "/multipart", opts); out.push("sent"); } catch (e) { out.push(e.message); }
  }
  return out.join("\n");
});
`,
	}).mustLoad()
	got := e.mustRun(fmt.Sprintf(`return await plugins.upload({ base: %q })`, srv.URL))
	want := `200
title|||"a \"quoted\" name"
count|||"3"
draft|||"false"
file|notes.txt|text/plain|"line 1\r\n--not a boundary\n"
bytes|raw.bin|application/octet-stream|"\x00\xff\r\n"`
	if got != want {
		t.Errorf("multipart as the server parsed it:\n got %v\nwant %v", got, want)
	}
	got = e.mustRun(fmt.Sprintf(`return await plugins.bad({ base: %q })`, srv.URL))
	want = `request: multipart field "f" must be a string, a number, a boolean or { name, mimeType, buffer }
request: pass only one of data, form and multipart
request: multipart must be an object`
	if got != want {
		t.Errorf("bad multipart options:\n got %v\nwant %v", got, want)
	}
}

func TestNetPolicyFollowsTheRunningHandler(t *testing.T) {
	srv, _ := testServer(t)
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function probe(url) {
  try { const r = await fetch(url); return r.status; } catch (e) { return e.message.includes("not in allow.net") ? "denied" : e.message; }
}
// Two tools with different lists, interleaving on timers and awaits.
defineTool({ name: "ip", allow: { net: ["127.0.0.1"] } }, async ({ args }) => {
  const out = [];
  for (let i = 0; i < 4; i++) { await sleep(args.ms); out.push(await probe(args.url)); }
  return out;
});
defineTool({ name: "name", allow: { net: ["localhost"] } }, async ({ args }) => {
  const out = [];
  for (let i = 0; i < 4; i++) { await sleep(args.ms); out.push(await probe(args.url)); }
  return out;
});
// Nested: the inner tool sees only its own list, the outer its own again after.
defineTool({ name: "outer", allow: { net: ["127.0.0.1"] } }, async ({ args }) => {
  const before = await probe(args.url);
  const inner = await plugins.name({ url: args.url, ms: 1 });
  const after = await probe(args.url);
  return { before, inner, after };
});
// A timer and a microtask registered by the handler keep its policy after it returned.
globalThis.late = [];
defineTool({ name: "registrar", allow: { net: ["localhost"] } }, async ({ args }) => {
  setTimeout(async () => { globalThis.late.push("timer:" + await probe(args.url)); }, 30);
  queueMicrotask(async () => { globalThis.late.push("microtask:" + await probe(args.url)); });
  Promise.resolve().then(async () => { globalThis.late.push("then:" + await probe(args.url)); });
  return "registered";
});
`,
	}).mustLoad()
	u := srv.URL + "/ok"
	got := e.mustRun(fmt.Sprintf(`
const [a, b] = await Promise.all([plugins.ip({ url: %q, ms: 3 }), plugins.name({ url: %q, ms: 5 })]);
const top = await (await fetch(%q)).status;
return JSON.stringify({ a, b, top });`, u, u, u))
	if got != `{"a":[200,200,200,200],"b":["denied","denied","denied","denied"],"top":200}` {
		t.Fatalf("Promise.all isolation: %v", got)
	}
	got = e.mustRun(fmt.Sprintf(`return JSON.stringify(await plugins.outer({ url: %q }))`, u))
	if got != `{"before":200,"inner":["denied","denied","denied","denied"],"after":200}` {
		t.Fatalf("nested: %v", got)
	}
	got = e.mustRun(fmt.Sprintf(`
await plugins.registrar({ url: %q });
setTimeout(async () => { globalThis.late.push("first-party:" + await probe(%q)); }, 10);
async function probe(url) { try { return (await fetch(url)).status; } catch (e) { return "denied"; } }
await new Promise((r) => setTimeout(r, 200));
return globalThis.late.sort().join(",");`, u, u))
	if got != "first-party:200,microtask:denied,then:denied,timer:denied" {
		t.Fatalf("callbacks: %v", got)
	}
}

func TestCapabilityObjectsStayWithTheirHandler(t *testing.T) {
	srv, _ := testServer(t)
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({ name: "leak", allow: { net: ["127.0.0.1"], commands: { hi: { run: ["echo", "hi"] } } } }, async (ctx) => {
  globalThis.stolen = { request: ctx.request, commands: ctx.commands };
  return "ok";
});
defineTool({ name: "thief" }, async () => {
  try { await globalThis.stolen.commands.run("hi"); return "ran"; } catch (e) { return e.message; }
});
defineTool({ name: "abandoned", timeoutMs: 50, allow: { net: ["127.0.0.1"] } }, async ({ args, request }) => {
  await new Promise((r) => setTimeout(r, 150));
  try { await request.get(args.url); globalThis.abandoned = "reached"; } catch (e) { globalThis.abandoned = e.message; }
});
`,
	}).mustLoad()
	e.mustRun(`return await plugins.leak()`)
	mustContain(t, e.runErr(`return await globalThis.stolen.commands.run("hi")`), `the commands of tool "leak" can only be used by that tool's handler`)
	mustContain(t, e.runErr(fmt.Sprintf(`return await globalThis.stolen.request.get(%q)`, srv.URL+"/ok")), `the request client of tool "leak" can only be used by that tool's handler`)
	if got := e.mustRun(`return await plugins.thief()`); !strings.Contains(got.(string), `can only be used by that tool's handler`) {
		t.Fatalf("another tool used the commands: %v", got)
	}
	e.runErr(fmt.Sprintf(`return await plugins.abandoned({ url: %q })`, srv.URL+"/ok"))
	got := e.mustRun(`await new Promise((r) => setTimeout(r, 300)); return globalThis.abandoned`)
	if s, _ := got.(string); !strings.Contains(s, `tool "abandoned" was abandoned`) || !strings.Contains(s, "capabilities are revoked") {
		t.Fatalf("an abandoned handler kept its capabilities: %v", got)
	}
}

func TestNetHostSpellings(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({ name: "idn", allow: { net: ["bücher.invalid", "*.Example.invalid"] } }, async ({ args, request }) => {
  try { await request.get(args.url, { timeout: 2000 }); return "reached"; } catch (e) { return e.message; }
});
`,
	}).mustLoad()
	check := func(url string, denied bool) {
		t.Helper()
		got := e.mustRun(fmt.Sprintf(`return await plugins.idn({ url: %q })`, url)).(string)
		if isDenied := strings.Contains(got, "not in allow.net") || strings.Contains(got, "not allowed"); isDenied != denied {
			t.Fatalf("%s: denied=%v, want %v: %s", url, isDenied, denied, got)
		}
	}
	// The same host, spelt otherwise: allowed by the policy (the request
	// then fails on DNS, which is not the point here).
	check("http://BÜCHER.invalid/x", false)
	check("http://xn--bcher-kva.invalid/x", false)
	check("http://bücher.invalid./x", false)
	check("http://api.EXAMPLE.invalid/x", false)
	check("http://example.invalid/x", false)
	// Other hosts.
	check("http://bucher.invalid/x", true)
	check("http://evilexample.invalid/x", true)
	check("http://bücher.invalid.evil.test/x", true)
	check("http://user:pass@evil.test/x", true)
}
