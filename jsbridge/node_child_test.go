package jsbridge

import (
	"strings"
	"testing"
)

func TestChildProcess(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{Env: map[string]string{"ALLOWED": "yes"}})
	for _, tc := range []struct{ name, src, want string }{
		{"execSync", `return require('child_process').execSync('echo hi; echo err >&2').toString()`, "hi\n"},
		{"execSync encoding and cwd", `return require('child_process').execSync('pwd', { encoding: 'utf8' }).trim() === process.cwd()`, "true"},
		{"execSync failure", `try { require('child_process').execSync('echo out; echo bad >&2; exit 3', { stdio: 'pipe' }) } catch (e) { return [e.status, e.stdout.toString().trim(), e.stderr.toString().trim(), e.message].join('|') }`, "3|out|bad|Command failed: echo out; echo bad >&2; exit 3\nbad\n"},
		{"execFileSync argv", `return require('child_process').execFileSync('printf', ['%s-%s', 'a b', '$HOME']).toString()`, "a b-$HOME"},
		{"spawnSync", `const r = require('child_process').spawnSync('sh', ['-c', 'cat; exit 2'], { input: 'piped', encoding: 'utf8' }); return [r.status, r.stdout, r.signal].join('|')`, "2|piped|"},
		{"spawnSync of a missing program", `const r = require('child_process').spawnSync('no-such-program-x'); return r.error.code + ' ' + r.error.message`, "ENOENT spawn no-such-program-x ENOENT"},
		{"spawnSync timeout", `const r = require('child_process').spawnSync('sleep', ['5'], { timeout: 50 }); return r.signal + ' ' + r.error.code`, "SIGTERM ETIMEDOUT"},
		{"exec callback", `return await new Promise((res) => require('child_process').exec('echo there; exit 4', (e, so, se) => res(e.code + ' ' + so.trim())))`, "4 there"},
		{"promisified exec", `const { stdout } = await require('util').promisify(require('child_process').exec)('echo promised'); return stdout`, "promised\n"},
		{"execFile", `return await new Promise((res, rej) => require('child_process').execFile('echo', ['a', 'b'], (e, so) => e ? rej(e) : res(so)))`, "a b\n"},
		{"spawn with stdin and events", `const p = require('child_process').spawn('cat'); let s = ''; const events = []; p.on('spawn', () => events.push('spawn')); p.on('exit', (c) => events.push('exit ' + c)); p.stdout.on('data', (c) => s += c); p.stdin.write('in'); p.stdin.end('put'); const code = await new Promise((r) => p.on('close', r)); return [s, code, events.join(','), typeof p.pid].join('|')`, "input|0|spawn,exit 0|number"},
		{"kill", `const p = require('child_process').spawn('sleep', ['10']); p.kill(); const [code, sig] = await new Promise((r) => p.on('close', (c, s) => r([c, s]))); return code + ' ' + sig + ' ' + p.killed`, "null SIGTERM true"},
		{"spawn of a missing program emits error", `const p = require('child_process').spawn('no-such-program-x'); return await new Promise((r) => p.on('error', (e) => r(e.code)))`, "ENOENT"},
		// The child's environment is process.env (the allowed names) and PATH.
		{"environment", `return require('child_process').execSync('echo "$ALLOWED/$HOME"').toString().trim() + ' ' + (process.env.PATH === undefined)`, "yes/ true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustEval(t, vm, tc.src); got != tc.want {
				t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
}

// In the mcp and script hosts commands run only through allow.commands:
// child_process refuses, naming the capability.
func TestChildProcessRefusedOutsideBDD(t *testing.T) {
	for _, host := range []string{HostMCP, HostScript} {
		vm, _ := newTestVM(t, host, map[string]string{"entry.js": ""}, VMOptions{})
		for _, fn := range []string{`execSync('true')`, `exec('true', () => {})`, `spawn('true')`, `spawnSync('true')`, `execFileSync('true')`, `execFile('true', () => {})`} {
			_, err := eval(t, vm, `require('child_process').`+fn)
			name := fn[:strings.Index(fn, "(")]
			if err == nil || !strings.Contains(err.Error(), "child_process."+name+": no child_process in the "+host+" host") || !strings.Contains(err.Error(), "allow.commands") {
				t.Errorf("%s: %s: %v", host, fn, err)
			}
		}
	}
}
