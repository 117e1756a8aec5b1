package jsbridge

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// mustEval runs src (the body of an async function) and returns its
// value as a string.
func mustEval(t *testing.T, vm *VM, src string) string {
	t.Helper()
	v, err := eval(t, vm, src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v.String()
}

func TestNodeBasics(t *testing.T) {
	vm, out := newTestVM(t, HostBDD, map[string]string{"entry.js": "", "data/x.txt": "hello"}, VMOptions{Env: map[string]string{"ONLY": "this"}})
	for _, tc := range []struct{ src, want string }{
		{`const path = __ferridriver_require('node:path'); return [path.join('a', '../b', 'c.ts'), path.basename('/x/y.ts', '.ts'), path.extname('a.b.ts'), path.relative(process.cwd(), path.resolve('q'))].join(' ')`, "b/c.ts y .ts q"},
		{`const fs = __ferridriver_require('node:fs'); return fs.readFileSync('data/x.txt', 'utf8') + fs.existsSync('data/x.txt') + fs.readFileSync('data/x.txt').length`, "hellotrue5"},
		{`const fs = __ferridriver_require('node:fs'); try { fs.readFileSync('nope') } catch (e) { return e.code }`, "ENOENT"},
		{`return Buffer.from('hi').toString('base64') + Buffer.from([1, 2]).length`, "aGk=2"},
		{`return JSON.stringify(process.env)`, `{"ONLY":"this"}`},
		{`const util = __ferridriver_require('node:util'); return util.format('%s=%d %j', 'a', 42, {b: 1}) + ' ' + util.inspect({a: [1, 'x'], m: new Map([[1, 2]])})`, `a=42 {"b":1} { a: [ 1, 'x' ], m: Map(1) { 1 => 2 } }`},
		{`const assert = __ferridriver_require('node:assert'); try { assert.strictEqual(1, 2) } catch (e) { return e.name + '|' + e.message }`, "AssertionError|Expected values to be strictly equal:\n\n1 !== 2\n"},
		{`const assert = __ferridriver_require('node:assert'); assert.deepStrictEqual({a: [1, {b: new Date(0)}]}, {a: [1, {b: new Date(0)}]}); try { assert.deepStrictEqual({a: 1}, {a: '1'}) } catch (e) { return e.name }`, "AssertionError"},
		{`const E = __ferridriver_require('node:events'); const e = new E(); let n = 0; e.once('x', (v) => n += v); e.emit('x', 2); e.emit('x', 5); return n`, "2"},
		{`const c = __ferridriver_require('node:crypto'); return c.createHash('sha256').update('a').digest('hex').slice(0, 8) + (c.randomUUID().length)`, "ca978112" + "36"},
		{`return new TextDecoder().decode(new TextEncoder().encode('héllo'))`, "héllo"},
		{`try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff])) } catch (e) { return e.code }`, "ERR_ENCODING_INVALID_ENCODED_DATA"},
		{`return structuredClone({a: [1, new Date(0)]}).a[1].getTime()`, "0"},
		{`try { __ferridriver_require('node:http2').connect('x') } catch (e) { return e.message }`, `module "node:http2" is not available in ferridriver`},
		{`try { require('http2') } catch (e) { return e.message }`, `require: module "http2" is not available in ferridriver`},
		{`try { process.exit(1) } catch (e) { return e.code + ': ' + e.message }`, "ERR_PROCESS_EXIT: process.exit(1) was called: ferridriver fails the running step instead of exiting"},
		{`const { fileURLToPath, pathToFileURL } = __ferridriver_require('node:url'); return fileURLToPath(pathToFileURL('/a/b c').href) + ' ' + pathToFileURL('/a/b c').href`, "/a/b c file:///a/b%20c"},
		{`const url = require('url'); const u = url.parse('http://user:pw@host:8080/p/a?x=1#h', true); return [u.hostname, u.port, u.auth, u.query.x, u.hash, url.format({protocol: 'https', host: 'a.b', pathname: '/c', search: '?d=1'}), url.resolve('http://a/b/c', '../d')].join(' ')`, "host 8080 user:pw 1 #h https://a.b/c?d=1 http://a/d"},
		{`const u = new URL('https://ex.com/a?x=1&y=2'); u.searchParams.append('z', '3'); return u.href + ' ' + (u.searchParams instanceof URLSearchParams)`, "https://ex.com/a?x=1&y=2&z=3 true"},
		// A proxied URLSearchParams subclass works, as in Node (node-fetch's Headers).
		{`class H extends URLSearchParams {}; const h = new Proxy(new H([['a', '1']]), {}); return h.get('a') + [...h].length`, "11"},
		{`return [typeof global, global === globalThis, typeof performance.now(), process.hrtime.bigint() > 0n, process.version, process.versions.node, typeof process.memoryUsage().heapUsed, Object.prototype.toString.call(process)].join(' ')`, "object true number true v" + NodeVersion + " " + NodeVersion + " number [object process]"},
		{`const [s, ns] = process.hrtime(); const d = process.hrtime([s, ns]); return d[0] === 0 && d[1] >= 0`, "true"},
		{`return btoa('hi') + atob('aGk=') + ' ' + crypto.getRandomValues(new Uint8Array(4)).length + typeof crypto.randomUUID()`, "aGk=hi 4string"},
		{`return ''.isWellFormed() && typeof Object.groupBy === 'function' && typeof Promise.withResolvers === 'function'`, "true"},
		{`return 'a12b3'.replaceAll(new RegExp('\\d+', 'gv'), '#') + (new RegExp('x') instanceof RegExp) + (/x/.constructor === RegExp)`, "a#b#truetrue"},
		{`try { new RegExp('[[a-z]--[aeiou]]', 'v') } catch (e) { return e.name }`, "SyntaxError"},
		{`return [typeof ReadableStream, typeof TransformStream, typeof SharedArrayBuffer].join()`, "function,function,function"},
		{`const r = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close() } }); const rd = r.getReader(); let s = ''; for (let x = await rd.read(); !x.done; x = await rd.read()) s += x.value; return s`, "ab"},
	} {
		v, err := eval(t, vm, tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got := v.String(); !strings.Contains(got, tc.want) {
			t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
	_ = out
}

// Every built-in module the issue names is reachable as "x" and "node:x",
// from require() and from bundled imports, and both give the same object.
func TestNodeModuleSpecifiers(t *testing.T) {
	modules := []string{"assert", "assert/strict", "buffer", "child_process", "console", "constants", "crypto", "events",
		"fs", "fs/promises", "http", "https", "module", "net", "os", "path", "path/posix", "perf_hooks", "process",
		"querystring", "stream", "stream/consumers", "stream/promises", "stream/web", "string_decoder", "timers",
		"timers/promises", "tty", "url", "util", "util/types", "vm", "worker_threads", "zlib"}
	var src strings.Builder
	for i, m := range modules {
		src.WriteString("import * as a" + strconv.Itoa(i) + " from '" + m + "';\nimport * as b" + strconv.Itoa(i) + " from 'node:" + m + "';\n")
	}
	src.WriteString("globalThis.same = [")
	for i := range modules {
		src.WriteString("a" + strconv.Itoa(i) + ".default === b" + strconv.Itoa(i) + ".default && a" + strconv.Itoa(i) + ".default !== undefined,")
	}
	src.WriteString("];\n")
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.mjs": src.String()}, VMOptions{})
	same := vm.Runtime().Get("same").Export().([]any)
	for i, m := range modules {
		if same[i] != true {
			t.Errorf("import of %q and %q: not the same module", m, "node:"+m)
		}
		if got := mustEval(t, vm, `return require('`+m+`') === require('node:`+m+`') && require('`+m+`') !== undefined`); got != "true" {
			t.Errorf("require(%q): %s", m, got)
		}
	}
}

// A package that imports a module ferridriver lacks still loads; using the
// module throws, naming it. A require() of it in a try block is refused
// as soon as its exports are read, as feature tests expect.
func TestMissingBuiltinModules(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{
		"entry.mjs": `import http2 from 'http2'
import * as tls from 'node:tls'
import { createSocket } from 'node:dgram'
globalThis.loaded = typeof http2 + typeof tls
globalThis.useIt = () => http2.connect('https://x')
globalThis.useNamed = () => createSocket('udp4')
let fallback = 'none'
try { Object.assign({}, require('stream/web-nope')) } catch (e) { fallback = 'caught' }
try { Object.assign(globalThis, require('node:inspector')) } catch (e) { fallback += ' ' + e.message.includes('node:inspector') }
globalThis.fallback = fallback
`,
	}, VMOptions{})
	if got := vm.Runtime().Get("loaded").String(); got != "objectobject" {
		t.Errorf("loaded: %s", got)
	}
	if got := vm.Runtime().Get("fallback").String(); got != "caught true" {
		t.Errorf("feature test: %s", got)
	}
	_, err := eval(t, vm, `useIt()`)
	if err == nil || !strings.Contains(err.Error(), `module "node:http2" is not available in ferridriver`) || !strings.Contains(err.Error(), "used: http2.connect") {
		t.Errorf("using http2: %v", err)
	}
	_, err = eval(t, vm, `useNamed()`)
	if err == nil || !strings.Contains(err.Error(), `module "node:dgram" is not available in ferridriver`) || !strings.Contains(err.Error(), "used: dgram.createSocket") {
		t.Errorf("a named import of dgram: %v", err)
	}
}

// A binary built without its polyfills (a plain go build on a fresh clone)
// runs; the modules that need them say how to build it.
func TestModulesWithoutPolyfills(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	vm.locals[polyfillsKey{}] = &polyfillState{err: errNoPolyfills}
	for _, m := range []string{"stream", "events", "util", "zlib", "assert", "string_decoder"} {
		_, err := eval(t, vm, `require('`+m+`')`)
		if err == nil || !strings.Contains(err.Error(), "built without its Node polyfills") || !strings.Contains(err.Error(), "make build") {
			t.Errorf("%s: %v", m, err)
		}
	}
	// Go modules that need no polyfill still work.
	if got := mustEval(t, vm, `return require('path').join('a', 'b') + require('os').EOL.length + require('crypto').createHash('md5').update('').digest('hex')`); got != "a/b1d41d8cd98f00b204e9800998ecf8427e" {
		t.Errorf("go modules: %s", got)
	}
	if _, err := loadPolyfills(fstest.MapFS{}); err != errNoPolyfills {
		t.Errorf("loadPolyfills of an empty directory: %v", err)
	}
}

func TestStreams(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	for _, tc := range []struct{ src, want string }{
		{`const { Readable, Transform, Writable, pipeline } = require('stream'); const out = []; await new Promise((res, rej) => pipeline(Readable.from(['a', 'b', 'c']), new Transform({ transform(c, e, cb) { cb(null, String(c).toUpperCase()) } }), new Writable({ write(c, e, cb) { out.push(String(c)); cb() } }), (err) => err ? rej(err) : res())); return out.join('')`, "ABC"},
		{`const sp = require('stream/promises'); const { Readable, Writable, PassThrough } = require('stream'); let s = ''; await sp.pipeline(Readable.from(['x', 'y']), new PassThrough(), new Writable({ write(c, e, cb) { s += c; cb() } })); return s`, "xy"},
		{`const { Readable, finished } = require('stream'); const r = Readable.from(['1']); r.resume(); await new Promise((res) => finished(r, res)); return r.readableEnded`, "true"},
		{`const Stream = require('stream'); const { Readable } = Stream; return (new Readable() instanceof Stream) + ' ' + (typeof Stream.promises.pipeline)`, "true function"},
		{`const { text } = require('stream/consumers'); const { Readable } = require('stream'); return await text(Readable.from(['a', 'b']))`, "ab"},
		{`const { StringDecoder } = require('string_decoder'); const d = new StringDecoder('utf8'); return d.write(Buffer.from([0xE2, 0x82])) + d.write(Buffer.from([0xAC])) + d.end()`, "€"},
		{`const qs = require('querystring'); return qs.stringify({a: [1, 2], b: 'x y'}) + '|' + JSON.stringify(qs.parse('a=1&a=2&b=x%20y')) + '|' + qs.escape('a b')`, `a=1&a=2&b=x%20y|{"a":["1","2"],"b":"x y"}|a%20b`},
		{`const { EventEmitter, once, on } = require('events'); const e = new EventEmitter(); setTimeout(() => e.emit('go', 42), 1); const [v] = await once(e, 'go'); const it = on(e, 'tick'); setTimeout(() => { e.emit('tick', 1); e.emit('tick', 2) }, 1); const got = [(await it.next()).value[0], (await it.next()).value[0]]; await it.return(); return v + ' ' + got.join(',') + ' ' + e.listenerCount('tick')`, "42 1,2 0"},
		{`const util = require('util'); const f = util.promisify((a, cb) => setTimeout(() => cb(null, a * 2), 1)); const g = util.callbackify(async (x) => x + 1); const r2 = await new Promise((r) => g(1, (e, v) => r(v))); function A() {}; function B() {}; util.inherits(B, A); return [await f(21), r2, util.types.isDate(new Date()), util.types.isPromise(Promise.resolve()), util.isDeepStrictEqual({a: [1]}, {a: [1]}), util.isDeepStrictEqual({a: 1}, {a: '1'}), new B() instanceof A, typeof util.deprecate(() => 1, 'old'), util.TextEncoder === TextEncoder].join(' ')`, "42 2 true true true false true function true"},
		{`const { setTimeout: sleep, setImmediate: soon } = require('timers/promises'); return (await sleep(1, 'slept')) + (await soon('now'))`, "sleptnow"},
		{`const { performance } = require('perf_hooks'); performance.mark('a'); performance.mark('b'); const m = performance.measure('m', 'a', 'b'); return m.name + (m.duration >= 0)`, "mtrue"},
		{`return require('vm').runInNewContext('a + b', {a: 1, b: 2})`, "3"},
		{`const net = require('net'); return [net.isIP('1.2.3.4'), net.isIP('::1'), net.isIP('x'), net.isIPv4('01.2.3.4')].join()`, "4,6,0,false"},
		{`const m = require('module'); return m.builtinModules.includes('fs') + ' ' + m.isBuiltin('node:zlib') + ' ' + (m.createRequire('/x')('fs') === require('fs'))`, "true true true"},
		{`const b = Buffer.from('abcdef'); const s = b.slice(1, 3); s[0] = 65; return b.toString() + Buffer.isBuffer(b) + Buffer.byteLength('é') + Buffer.from('hi').toString('latin1') + b.readUInt8(0) + (require('buffer').Buffer === Buffer)`, "aAcdeftrue2hi97true"},
	} {
		if got := mustEval(t, vm, tc.src); got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

// crypto against Go's own results for the same inputs.
func TestCrypto(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	for _, tc := range []struct{ src, want string }{
		{`return require('crypto').createHmac('sha256', 'key').update('data').digest('hex')`, "5031fe3d989c6d1537a013fa6e739da23463fdaec3b70137d828e36ace221bd0"},
		{`return require('crypto').createHash('md5').update('a').digest('base64')`, "DMF1ucDxtqgxw5niaXcmYQ=="},
		{`const h = require('crypto').createHash('sha1').update('ab'); const c = h.copy(); c.update('c'); return h.digest('hex').slice(0, 8) + ' ' + c.digest('hex').slice(0, 8)`, "da23614e a9993e36"},
		{`return require('crypto').createHash('sha256').update('68656c6c6f', 'hex').digest('base64url')`, "LPJNul-wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ"},
		{`const c = require('crypto'); const b = Buffer.alloc(8); c.randomFillSync(b, 4); return b.subarray(0, 4).toString('hex') + ' ' + c.randomBytes(16).length + ' ' + (c.randomInt(5, 6) === 5) + ' ' + c.timingSafeEqual(Buffer.from('a'), Buffer.from('a'))`, "00000000 16 true true"},
		{`try { require('crypto').createHash('whirlpool') } catch (e) { return e.code }`, "ERR_CRYPTO_INVALID_DIGEST"},
		{`const c = require('crypto'); const a = await new Promise((r) => c.randomBytes(3, (e, b) => r(e === null && b.length))); const n = await new Promise((r) => c.randomInt(7, 8, (e, v) => r(v))); return a + ' ' + n`, "3 7"},
	} {
		if got := mustEval(t, vm, tc.src); got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}

// Bundled step files find the same modules: a file using a module's
// named exports through its "node:" name.
func TestBundledNodeImports(t *testing.T) {
	vm, out := newTestVM(t, HostBDD, map[string]string{
		"entry.mjs": `import { Readable } from 'node:stream'
import { gzipSync, gunzipSync } from 'zlib'
import { EventEmitter } from 'events'
import { promisify } from 'util'
import { join } from 'path/posix'
const r = Readable.from(['x'])
console.log(typeof r.pipe, gunzipSync(gzipSync('z')).toString(), typeof new EventEmitter().on, typeof promisify, join('a', 'b'))
`,
	}, VMOptions{})
	_ = vm
	if got := strings.TrimSpace(out.String()); got != "function z function function a/b" {
		t.Fatalf("%q", got)
	}
}

// TestUtilStyleText: util.styleText colours as Node 22's does: FORCE_COLOR
// decides when set, else the stream (process.stdout by default) when it is
// a TTY of more than two colours; validateStream: false always colours.
func TestUtilStyleText(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	const red, bold = "\x1b[31mx\x1b[39m", "\x1b[1m\x1b[31mx\x1b[39m\x1b[22m"
	tty := `{ isTTY: true, getColorDepth: () => 8 }`
	for _, tc := range []struct{ force, call, want string }{
		{"", `'red', 'x'`, "x"},
		{"", `'red', 'x', { stream: ` + tty + ` }`, red},
		{"", `'red', 'x', { stream: { isTTY: true, getColorDepth: () => 1 } }`, "x"},
		{"", `'red', 'x', { stream: { isTTY: true } }`, red},
		{"", `['bold', 'red'], 'x', { validateStream: false }`, bold},
		{"", `'grey', 'x', { stream: ` + tty + ` }`, "\x1b[90mx\x1b[39m"},
		{"1", `'red', 'x'`, red},
		{"", `'red', 'x', { stream: ` + tty + ` }`, red},
		{"0", `'red', 'x', { stream: ` + tty + ` }`, "x"},
		{"3", `'red', 'x'`, red},
	} {
		src := "delete process.env.FORCE_COLOR\n"
		if tc.force != "" {
			src = "process.env.FORCE_COLOR = " + strconv.Quote(tc.force) + "\n"
		}
		if got := mustEval(t, vm, src+"return __ferridriver_require('node:util').styleText("+tc.call+")"); got != tc.want {
			t.Errorf("FORCE_COLOR=%q styleText(%s) = %q, want %q", tc.force, tc.call, got, tc.want)
		}
	}
	for call, code := range map[string]string{`'nope', 'x'`: "ERR_INVALID_ARG_VALUE", `'red', 3`: "ERR_INVALID_ARG_TYPE", `'red', 'x', { stream: null }`: "ERR_INVALID_ARG_TYPE"} {
		if got := mustEval(t, vm, "try { __ferridriver_require('node:util').styleText("+call+") } catch (e) { return e.code }"); got != code {
			t.Errorf("styleText(%s) threw %q, want %q", call, got, code)
		}
	}
}
