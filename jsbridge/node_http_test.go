package jsbridge

import (
	"compress/gzip"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// get is JS that requests url with node:http and resolves to
// "status|message|headers JSON|body".
const httpGet = `const http = require('http');
const res = await new Promise((resolve, reject) => http.get(URL_, resolve).on('error', reject));
const chunks = [];
res.on('data', (c) => chunks.push(c));
await new Promise((r) => res.on('end', r));
return [res.statusCode, res.statusMessage, JSON.stringify(res.headers), Buffer.concat(chunks).toString('latin1')].join('|')`

func TestHTTPClient(t *testing.T) {
	srv, _ := testServer(t)
	extra := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gzip":
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("X-Accept-Encoding", r.Header.Get("Accept-Encoding"))
			gz := gzip.NewWriter(w)
			gz.Write([]byte("zipped"))
			gz.Close()
		case "/slow":
			time.Sleep(300 * time.Millisecond)
		case "/reason":
			// A reason phrase of the server's own.
			w.Header().Set("Content-Length", "0")
			conn, buf, _ := w.(http.Hijacker).Hijack()
			buf.WriteString("HTTP/1.1 299 Custom Reason\r\nContent-Length: 2\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\nok")
			buf.Flush()
			conn.Close()
		}
	}))
	defer extra.Close()
	closed := func() string {
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := l.Addr().String()
		l.Close()
		return addr
	}()
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	get := func(url string) string { return strings.Replace(httpGet, "URL_", fmt.Sprintf("%q", url), 1) }
	for _, tc := range []struct{ name, src, want string }{
		{"get", get(srv.URL + "/ok"), `200|OK|{"content-length":"4","content-type":"text/plain; charset=utf-8",`},
		{"multi-valued headers", get(srv.URL + "/ok"), `"x-multi":"a, b"}|fine`},
		{"reason phrase and set-cookie list", get(extra.URL + "/reason"), `299|Custom Reason|{"content-length":"2","set-cookie":["a=1","b=2"]}|ok`},
		{"redirects are not followed", get(srv.URL + "/redirect-evil"), `302|Found|{"content-length":`},
		{"bodies stay compressed, nothing asks for compression", get(extra.URL + "/gzip"), `"x-accept-encoding":""}|` + "\x1f\u008b"},
		{"post in chunks with auth", `const http = require('http'); const req = http.request(` + fmt.Sprintf("%q", srv.URL+"/echo?q=1") + `, { method: 'POST', auth: 'u:p', headers: { 'Content-Type': 'text/plain' } }); req.write('one '); req.write(Buffer.from('two')); const res = await new Promise((r) => { req.on('response', r); req.end() }); let s = ''; res.setEncoding('utf8'); for (let c = res.read(); ; c = res.read()) { if (c !== null) { s += c; continue } if (res.readableEnded) break; await new Promise((r) => { res.once('readable', r); res.once('end', r) }) } return s`, `{"method":"POST","query":"q=1","ctype":"text/plain","auth":"Basic dTpw","body":"one two"}`},
		{"no cookie jar", `const http = require('http'); await new Promise((r) => http.get(` + fmt.Sprintf("%q", srv.URL+"/cookie") + `, (res) => { res.resume(); res.on('end', r) })); return await new Promise((r) => http.get(` + fmt.Sprintf("%q", srv.URL+"/whoami") + `, (res) => { let s = ''; res.on('data', (c) => s += c); res.on('end', () => r(s)) }))`, "anonymous"},
		{"options object", `const http = require('http'); const u = new URL(` + fmt.Sprintf("%q", srv.URL) + `); return await new Promise((r, j) => http.request({ hostname: u.hostname, port: u.port, path: '/status/204', method: 'DELETE' }, (res) => r(res.statusCode + ' ' + res.req.method)).on('error', j).end())`, "204 DELETE"},
		{"connection refused", `return await new Promise((r) => require('http').get('http://` + closed + `/', () => r('response')).on('error', (e) => r(e.code + ' ' + e.syscall + ' ' + e.message)))`, "ECONNREFUSED connect connect ECONNREFUSED " + closed},
		{"unknown host", `return await new Promise((r) => require('http').get('http://no-such-host.invalid/', () => r('response')).on('error', (e) => r(e.code)))`, "ENOTFOUND"},
		{"timeout, then destroy", `const req = require('http').get(` + fmt.Sprintf("%q", extra.URL+"/slow") + `); const events = []; req.setTimeout(30, () => { events.push('timeout'); req.destroy() }); await new Promise((r) => req.on('error', (e) => { events.push(e.code); r() })); await new Promise((r) => req.on('close', r)); return events.join()`, "timeout,ECONNRESET"},
		{"https module", `const https = require('https'); const http = require('http'); return [https.globalAgent.defaultPort, new https.Agent() instanceof http.Agent, https.request === http.request, http.STATUS_CODES[404], http.METHODS.includes('PATCH')].join()`, "443,true,false,Not Found,true"},
		{"servers are refused clearly", `try { require('http').createServer() } catch (e) { return e.message }`, "http.createServer is not available in ferridriver"},
		{"metadata endpoints are always denied", `return await new Promise((r) => { try { require('http').get('http://169.254.169.254/latest/', () => r('response')).on('error', (e) => r(e.message)) } catch (e) { r(e.message) } })`, "cloud metadata endpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustEval(t, vm, tc.src); !strings.Contains(got, tc.want) {
				t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
}

// node:http goes through the same checks as fetch: in a tool handler, the
// tool's allow.net decides, in every host.
func TestHTTPFollowsAllowNet(t *testing.T) {
	srv, _ := testServer(t)
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `import http from "node:http";
const get = (url: string) => new Promise((resolve, reject) => http.get(url, (res) => { res.resume(); resolve(res.statusCode) }).on("error", reject));
defineTool({ name: "listed", allow: { net: ["127.0.0.1"] } }, async ({ args }) => get(args.url));
defineTool({ name: "other", allow: { net: ["example.com"] } }, async ({ args }) => get(args.url));
`,
	}, withHost(HostMCP)).mustLoad()
	if got := e.mustRun(fmt.Sprintf(`return await plugins.listed({ url: %q })`, srv.URL+"/ok")); got != int64(200) {
		t.Fatalf("listed host: %v", got)
	}
	msg := e.runErr(fmt.Sprintf(`return await plugins.other({ url: %q })`, srv.URL+"/ok"))
	mustContain(t, msg, `request host "127.0.0.1" is not in allow.net [example.com]`)
}
