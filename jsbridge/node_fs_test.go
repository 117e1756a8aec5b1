package jsbridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// node:fs against the filesystem: results and errors as Node gives them
// (codes, messages, the sync, callback and promise forms agreeing).
func TestFS(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": "", "data/x.txt": "hello", "data/sub/y.txt": "y"}, VMOptions{})
	dir := vm.Dir()
	for _, tc := range []struct{ name, src, want string }{
		{"errors are Node's", `const fs = require('fs'); const out = []; for (const f of [() => fs.readFileSync('/nope/x'), () => fs.mkdirSync('data'), () => fs.rmdirSync('data'), () => fs.readFileSync('data'), () => fs.rmSync('data'), () => fs.readdirSync('data/x.txt')]) { try { f(); out.push('no error') } catch (e) { out.push(e.code + ' ' + e.syscall + ' ' + e.message.replace(process.cwd(), '.')) } } return out.join('\n')`,
			"ENOENT open ENOENT: no such file or directory, open '/nope/x'\n" +
				"EEXIST mkdir EEXIST: file already exists, mkdir './data'\n" +
				"ENOTEMPTY rmdir ENOTEMPTY: directory not empty, rmdir './data'\n" +
				"EISDIR read EISDIR: illegal operation on a directory, read './data'\n" +
				"ERR_FS_EISDIR rm Path is a directory: rm returned EISDIR (is a directory) ./data\n" +
				"ENOTDIR scandir ENOTDIR: not a directory, scandir './data/x.txt'"},
		{"errno and path", `try { require('fs').statSync('missing') } catch (e) { return [e.errno, e.path === require('path').resolve('missing'), e instanceof Error].join() }`, "-2,true,true"},
		{"mkdir recursive returns the first directory created", `const fs = require('fs'); const r = fs.mkdirSync('a/b/c', { recursive: true }); const again = fs.mkdirSync('a/b/c', { recursive: true }); return [r.replace(process.cwd(), '.'), again].join()`, "./a,"},
		{"write, append, read, encodings", `const fs = require('fs'); fs.writeFileSync('w.txt', 'héllo'); fs.appendFileSync('w.txt', Buffer.from(' world')); fs.writeFileSync('w16.txt', 'hi', 'utf16le'); return [fs.readFileSync('w.txt', 'utf8'), fs.readFileSync('w.txt').length, fs.readFileSync('w.txt', { encoding: 'base64' }), fs.readFileSync('w16.txt').length, fs.readFileSync('w16.txt', 'utf16le')].join('|')`, "héllo world|12|aMOpbGxvIHdvcmxk|4|hi"},
		{"flags", `const fs = require('fs'); fs.writeFileSync('f.txt', 'one'); try { fs.writeFileSync('f.txt', 'two', { flag: 'wx' }) } catch (e) { return e.code + ' ' + fs.readFileSync('f.txt', 'utf8') }`, "EEXIST one"},
		{"data must be a string or bytes", `try { require('fs').writeFileSync('o.txt', { a: 1 }) } catch (e) { return e.code }`, "ERR_INVALID_ARG_TYPE"},
		{"readdir, withFileTypes, recursive", `const fs = require('fs'); return [fs.readdirSync('data').join(), fs.readdirSync('data', { withFileTypes: true }).map((d) => d.name + ':' + (d.isDirectory() ? 'd' : 'f')).join(), fs.readdirSync('data', { recursive: true }).join()].join('|')`, "sub,x.txt|sub:d,x.txt:f|sub,sub/y.txt,x.txt"},
		{"stat", `const fs = require('fs'); const s = fs.statSync('data/x.txt'); const d = fs.statSync('data'); return [s.size, s.isFile(), s.isDirectory(), d.isDirectory(), s.mtime instanceof Date, s.mtimeMs > 0, s instanceof fs.Stats, fs.statSync('nope', { throwIfNoEntry: false }), typeof fs.statSync('data/x.txt', { bigint: true }).size].join()`, "5,true,false,true,true,true,true,,bigint"},
		{"rename, copy, unlink, exists", `const fs = require('fs'); fs.copyFileSync('data/x.txt', 'c.txt'); try { fs.copyFileSync('data/x.txt', 'c.txt', fs.constants.COPYFILE_EXCL) } catch (e) { var excl = e.code } fs.renameSync('c.txt', 'd.txt'); const r = fs.readFileSync('d.txt', 'utf8'); fs.unlinkSync('d.txt'); return [excl, r, fs.existsSync('c.txt'), fs.existsSync('d.txt')].join()`, "EEXIST,hello,false,false"},
		{"symlinks", `const fs = require('fs'); fs.symlinkSync('data/x.txt', 'link'); return [fs.readlinkSync('link'), fs.lstatSync('link').isSymbolicLink(), fs.statSync('link').isFile(), fs.realpathSync('link').endsWith('/data/x.txt'), fs.realpathSync.native('link') === fs.realpathSync('link')].join()`, "data/x.txt,true,true,true,true"},
		{"access and chmod", `const fs = require('fs'); fs.writeFileSync('m.txt', ''); fs.chmodSync('m.txt', '600'); fs.accessSync('m.txt', fs.constants.R_OK); return (fs.statSync('m.txt').mode & 0o777).toString(8)`, "600"},
		{"rm recursive and force", `const fs = require('fs'); fs.mkdirSync('t/u', { recursive: true }); fs.writeFileSync('t/u/v', ''); fs.rmSync('t', { recursive: true }); fs.rmSync('t', { force: true }); return fs.existsSync('t')`, "false"},
		{"file descriptors and positions", `const fs = require('fs'); const fd = fs.openSync('p.txt', 'w+'); fs.writeSync(fd, 'abcdef'); fs.writeSync(fd, Buffer.from('XY'), 0, 2, 1); const buf = Buffer.alloc(4); const n = fs.readSync(fd, buf, 0, 4, 2); const st = fs.fstatSync(fd); fs.closeSync(fd); try { fs.closeSync(fd) } catch (e) { var bad = e.code } return [n, buf.toString(), st.size, bad, fs.readFileSync('p.txt', 'utf8')].join()`, "4,Ydef,6,EBADF,aXYdef"},
		{"mkdtemp", `const fs = require('fs'); const d = fs.mkdtempSync(require('os').tmpdir() + '/fd-'); const ok = fs.statSync(d).isDirectory() && /fd-\w{6,}$/.test(d); fs.rmdirSync(d); return ok`, "true"},
		{"utimes", `const fs = require('fs'); fs.writeFileSync('u.txt', ''); fs.utimesSync('u.txt', 1000, new Date(2000000)); return fs.statSync('u.txt').mtimeMs`, "2000000"},
		{"callbacks", `const fs = require('fs'); const r = await new Promise((res, rej) => fs.writeFile('cb.txt', 'cb', (e) => e ? rej(e) : fs.readFile('cb.txt', 'utf8', (e2, d) => e2 ? rej(e2) : res(d)))); const err = await new Promise((res) => fs.readFile('none', (e) => res(e.code))); const ex = await new Promise((res) => fs.exists('cb.txt', res)); return [r, err, ex].join()`, "cb,ENOENT,true"},
		{"promises and FileHandle", `const fsp = require('fs/promises'); await fsp.mkdir('pp/q', { recursive: true }); await fsp.writeFile('pp/q/a.json', JSON.stringify({ a: 1 })); const h = await fsp.open('pp/q/a.json', 'r'); const { bytesRead, buffer } = await h.read(Buffer.alloc(3), 0, 3, 0); const whole = await h.readFile('utf8'); const st = await h.stat(); await h.close(); const names = await fsp.readdir('pp', { withFileTypes: true }); let code; try { await fsp.readFile('nope') } catch (e) { code = e.code } await fsp.rm('pp', { recursive: true }); return [bytesRead, buffer.toString(), whole, st.size, names[0].name, code, require('fs').promises === fsp].join()`, `3,{"a,{"a":1},7,q,ENOENT,true`},
		{"opendir", `const fs = require('fs'); const d = fs.opendirSync('data'); const names = []; for (let e = d.readSync(); e; e = d.readSync()) names.push(e.name); d.closeSync(); const ad = await fs.promises.opendir('data'); const it = ad[Symbol.asyncIterator](); const first = await it.next(); return names.sort().join() + ' ' + first.value.name`, "sub,x.txt sub"},
		{"cp", `const fs = require('fs'); fs.cpSync('data', 'copy', { recursive: true }); return fs.readFileSync('copy/sub/y.txt', 'utf8') + fs.readdirSync('copy').length`, "y2"},
		{"streams", `const fs = require('fs'); await new Promise((res, rej) => { const w = fs.createWriteStream('s.txt'); w.on('error', rej); w.write('one '); w.end('two', () => res()); }); const a = []; const r = fs.createReadStream('s.txt', { encoding: 'utf8', highWaterMark: 3 }); r.on('data', (c) => a.push(c)); await new Promise((res) => r.on('close', res)); const part = []; const r2 = fs.createReadStream('s.txt', { start: 2, end: 4 }); r2.on('data', (c) => part.push(String(c))); await new Promise((res) => r2.on('end', res)); return [a.join('|'), part.join(''), r instanceof fs.ReadStream, r instanceof require('stream').Readable].join()`, "one| tw|o,e t,true,true"},
		{"append stream", `const fs = require('fs'); fs.writeFileSync('ap.txt', 'a'); await new Promise((res) => fs.createWriteStream('ap.txt', { flags: 'a' }).end('b', res)); return fs.readFileSync('ap.txt', 'utf8')`, "ab"},
		{"pipe a read stream into a write stream", `const fs = require('fs'); const { pipeline } = require('stream/promises'); await pipeline(fs.createReadStream('data/x.txt'), require('zlib').createGzip(), fs.createWriteStream('x.gz')); return require('zlib').gunzipSync(fs.readFileSync('x.gz')).toString()`, "hello"},
		{"file URLs and Buffers as paths", `const fs = require('fs'); const { pathToFileURL } = require('url'); return fs.readFileSync(pathToFileURL(require('path').resolve('data/x.txt')), 'utf8') + fs.readFileSync(Buffer.from('data/x.txt'), 'utf8')`, "hellohello"},
		{"watch is refused clearly", `try { require('fs').watch('data') } catch (e) { return e.message }`, "fs.watch is not supported in ferridriver"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustEval(t, vm, tc.src); got != tc.want {
				t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
			}
		})
	}
	// What JS wrote is on disk, where Node would have put it.
	if b, err := os.ReadFile(filepath.Join(dir, "w.txt")); err != nil || string(b) != "héllo world" {
		t.Errorf("w.txt: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "b", "c")); err != nil {
		t.Error(err)
	}
}

// attach() of a file stream reads the file itself (the stream is never
// consumed in JS), so large files are not copied through the VM.
func TestAttachFileStream(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": "", "data/x.txt": "hello"}, VMOptions{})
	got := mustEval(t, vm, `const s = require('fs').createReadStream('data/x.txt'); return s.__ferridriverPath.endsWith('/data/x.txt') + ' ' + (require('fs').createReadStream('data/x.txt', { start: 1 }).__ferridriverPath === undefined)`)
	if got != "true true" {
		t.Fatal(got)
	}
}

// Outside the bdd host, first-party code has no filesystem until the host
// grants folders (SetScriptFiles); every form of every call is checked.
func TestFSDeniedOutsideBDD(t *testing.T) {
	for _, host := range []string{HostMCP, HostScript} {
		vm, _ := newTestVM(t, host, map[string]string{"entry.js": ""}, VMOptions{})
		for _, c := range []struct{ src, want string }{
			{`require('fs').readFileSync('/etc/hostname')`, `fs.readFileSync: reading "/etc/hostname" is not allowed`},
			{`require('fs').writeFileSync('/tmp/x', 'y')`, `fs.writeFileSync: writing "/tmp/x" is not allowed`},
			{`await require('fs/promises').readFile('/etc/hostname')`, `reading "/etc/hostname" is not allowed`},
			{`require('fs').createWriteStream('/tmp/x')`, `fs.createWriteStream: writing "/tmp/x" is not allowed`},
			{`require('fs').createReadStream('/etc/hostname')`, `fs.createReadStream: reading "/etc/hostname" is not allowed`},
			{`require('fs').openSync('/tmp/x', 'a')`, `writing "/tmp/x" is not allowed`},
			{`require('fs').linkSync('/etc/hostname', 'h')`, `reading "/etc/hostname" is not allowed`},
			{`require('fs').copyFileSync('/etc/hostname', 'h')`, `reading "/etc/hostname" is not allowed`},
			{`return require('fs').existsSync('/etc/hostname')`, ``}, // false, as Node says for any failure
		} {
			v, err := eval(t, vm, c.src)
			if c.want == "" {
				if err != nil || v.Export() != false {
					t.Errorf("%s: %s: %v %v", host, c.src, v, err)
				}
				continue
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "grants (none)") {
				t.Errorf("%s: %s: %v", host, c.src, err)
			}
		}
		if v := mustEval(t, vm, "return ferridriver.host"); v != host {
			t.Errorf("ferridriver.host = %s, want %s", v, host)
		}
	}
}
