package jsbridge

import (
	"strings"
	"testing"
)

func TestNodeBasics(t *testing.T) {
	vm, out := newTestVM(t, HostBDD, map[string]string{"entry.js": "", "data/x.txt": "hello"}, VMOptions{Env: map[string]string{"ONLY": "this"}})
	for _, tc := range []struct{ src, want string }{
		{`const path = __ferridriver_require('node:path'); return [path.join('a', '../b', 'c.ts'), path.basename('/x/y.ts', '.ts'), path.extname('a.b.ts'), path.relative(process.cwd(), path.resolve('q'))].join(' ')`, "b/c.ts y .ts q"},
		{`const fs = __ferridriver_require('node:fs'); return fs.readFileSync('data/x.txt', 'utf8') + fs.existsSync('data/x.txt') + fs.readFileSync('data/x.txt').length`, "hellotrue5"},
		{`const fs = __ferridriver_require('node:fs'); try { fs.readFileSync('nope') } catch (e) { return e.code }`, "ENOENT"},
		{`return Buffer.from('hi').toString('base64') + Buffer.from([1, 2]).length`, "aGk=2"},
		{`return JSON.stringify(process.env) + Object.isFrozen(process.env)`, `{"ONLY":"this"}true`},
		{`const util = __ferridriver_require('node:util'); return util.format('%s=%d %j', 'a', 42, {b: 1}) + ' ' + util.inspect({a: [1, 'x'], m: new Map([[1, 2]])})`, `a=42 {"b":1} { a: [ 1, 'x' ], m: Map(1) { 1 => 2 } }`},
		{`const assert = __ferridriver_require('node:assert'); try { assert.strictEqual(1, 2) } catch (e) { return e.name + '|' + e.message }`, "AssertionError|Expected values to be strictly equal:\n\n1 !== 2\n"},
		{`const assert = __ferridriver_require('node:assert'); assert.deepStrictEqual({a: [1, {b: new Date(0)}]}, {a: [1, {b: new Date(0)}]}); try { assert.deepStrictEqual({a: 1}, {a: '1'}) } catch (e) { return e.name }`, "AssertionError"},
		{`const E = __ferridriver_require('node:events'); const e = new E(); let n = 0; e.once('x', (v) => n += v); e.emit('x', 2); e.emit('x', 5); return n`, "2"},
		{`const c = __ferridriver_require('node:crypto'); return c.createHash('sha256').update('a').digest('hex').slice(0, 8) + (c.randomUUID().length)`, "ca978112" + "36"},
		{`return new TextDecoder().decode(new TextEncoder().encode('héllo'))`, "héllo"},
		{`return structuredClone({a: [1, new Date(0)]}).a[1].getTime()`, "0"},
		{`try { __ferridriver_require('node:http') } catch (e) { return e.message }`, `module "node:http" is not available in ferridriver`},
		{`try { process.exit(1) } catch (e) { return e.message }`, "process.exit(1) is not allowed"},
		{`const { fileURLToPath, pathToFileURL } = __ferridriver_require('node:url'); return fileURLToPath(pathToFileURL('/a/b').href)`, "/a/b"},
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

// Outside the bdd host the handler context has no filesystem.
func TestFSDeniedOutsideBDD(t *testing.T) {
	for _, host := range []string{HostMCP, HostScript} {
		vm, _ := newTestVM(t, host, map[string]string{"entry.js": ""}, VMOptions{})
		_, err := eval(t, vm, `__ferridriver_require('node:fs').readFileSync('/etc/hostname')`)
		if err == nil || !strings.Contains(err.Error(), "no fs capability in the "+host+" host") {
			t.Errorf("%s: %v", host, err)
		}
		v, _ := eval(t, vm, "return ferridriver.host")
		if v.String() != host {
			t.Errorf("ferridriver.host = %s, want %s", v, host)
		}
	}
}

func TestConsole(t *testing.T) {
	vm, out := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	eval(t, vm, `console.log('a', 1, {b: 'c'}); console.group('g'); console.info('in'); console.groupEnd(); console.count(); console.count()`)
	if got := out.String(); got != "a 1 { b: 'c' }\ng\n  in\ndefault: 1\ndefault: 2\n" {
		t.Fatalf("%q", got)
	}
}
