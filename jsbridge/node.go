package jsbridge

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	"github.com/dop251/goja_nodejs/require"
	"github.com/google/uuid"
)

// Node-compatible basics that real step files use. This is not Node: only
// what test code commonly needs is here, and modules ferridriver does not
// implement throw a clear error when imported.

func init() {
	fromPrelude := func(key string) ModuleFactory {
		return func(vm *VM) (goja.Value, error) { return vm.prelude.Get(key), nil }
	}
	RegisterModule("node:assert", fromPrelude("assert"))
	RegisterModule("node:assert/strict", func(vm *VM) (goja.Value, error) {
		return vm.prelude.Get("assert").ToObject(vm.rt).Get("strict"), nil
	})
	RegisterModule("node:util", fromPrelude("util"))
	RegisterModule("node:events", fromPrelude("EventEmitter"))
	RegisterModule("node:buffer", func(vm *VM) (goja.Value, error) {
		return require.Require(vm.rt, buffer.ModuleName), nil
	})
	RegisterModule("node:url", func(vm *VM) (goja.Value, error) {
		mod := require.Require(vm.rt, "url").ToObject(vm.rt)
		out := vm.rt.NewObject()
		for _, k := range mod.Keys() {
			out.Set(k, mod.Get(k))
		}
		out.Set("fileURLToPath", func(call goja.FunctionCall) goja.Value {
			s := call.Argument(0)
			if o, ok := s.(*goja.Object); ok && o.Get("href") != nil {
				s = o.Get("href")
			}
			p, ok := strings.CutPrefix(s.String(), "file://")
			if !ok {
				panic(vm.rt.NewTypeError("The URL must be of scheme file"))
			}
			return vm.rt.ToValue(p)
		})
		out.Set("pathToFileURL", func(call goja.FunctionCall) goja.Value {
			abs, _ := filepath.Abs(vm.resolve(call.Argument(0).String()))
			ctor, _ := goja.AssertConstructor(vm.rt.Get("URL"))
			u, err := ctor(nil, vm.rt.ToValue("file://"+filepath.ToSlash(abs)))
			if err != nil {
				panic(err)
			}
			return u
		})
		return out, nil
	})
	RegisterModule("node:path", func(vm *VM) (goja.Value, error) { return vm.pathModule(), nil })
	RegisterModule("node:path/posix", func(vm *VM) (goja.Value, error) { return vm.pathModule(), nil })
	RegisterModule("node:fs", func(vm *VM) (goja.Value, error) { return vm.fsModule(), nil })
	RegisterModule("node:fs/promises", func(vm *VM) (goja.Value, error) {
		return vm.fsModule().Get("promises"), nil
	})
	RegisterModule("node:os", func(vm *VM) (goja.Value, error) { return vm.osModule(), nil })
	RegisterModule("node:process", func(vm *VM) (goja.Value, error) { return vm.rt.Get("process"), nil })
	RegisterModule("node:timers", func(vm *VM) (goja.Value, error) {
		o := vm.rt.NewObject()
		for _, n := range []string{"setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"} {
			o.Set(n, vm.rt.Get(n))
		}
		return o, nil
	})
	RegisterModule("node:timers/promises", func(vm *VM) (goja.Value, error) {
		v, err := vm.rt.RunString(`({
			setTimeout: (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms)),
			setImmediate: (value) => new Promise((resolve) => setImmediate(() => resolve(value))),
		})`)
		return v, err
	})
	RegisterModule("node:crypto", func(vm *VM) (goja.Value, error) { return vm.cryptoModule(), nil })
}

// preludeNatives are Go helpers the JS prelude needs.
func (vm *VM) preludeNatives() *goja.Object {
	rt := vm.rt
	n := rt.NewObject()
	n.Set("utf8Encode", func(call goja.FunctionCall) goja.Value {
		b := []byte(call.Argument(0).String())
		u8, _ := goja.AssertConstructor(rt.Get("Uint8Array"))
		arr, _ := u8(nil, rt.ToValue(rt.NewArrayBuffer(b)))
		return arr
	})
	n.Set("utf8Decode", func(call goja.FunctionCall) goja.Value {
		b, ok := bytesOf(rt, call.Argument(0).ToObject(rt))
		if !ok {
			panic(rt.NewTypeError("TextDecoder.decode: expected a BufferSource"))
		}
		if !utf8.Valid(b) {
			b = []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
		}
		return rt.ToValue(string(b))
	})
	n.Set("matchStep", vm.matchStep)
	return n
}

// resolve makes p absolute against the project directory.
func (vm *VM) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(vm.dir, p)
}

func (vm *VM) pathModule() *goja.Object {
	rt := vm.rt
	m := rt.NewObject()
	strs := func(call goja.FunctionCall) []string {
		out := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			out[i] = a.String()
		}
		return out
	}
	m.Set("sep", "/")
	m.Set("delimiter", ":")
	m.Set("join", func(call goja.FunctionCall) goja.Value {
		j := path.Join(strs(call)...)
		if j == "" {
			j = "."
		}
		return rt.ToValue(j)
	})
	m.Set("resolve", func(call goja.FunctionCall) goja.Value {
		p := vm.dir
		for _, s := range strs(call) {
			if path.IsAbs(s) {
				p = s
			} else if s != "" {
				p = path.Join(p, s)
			}
		}
		return rt.ToValue(path.Clean(p))
	})
	m.Set("normalize", func(p string) string { return path.Clean(p) })
	m.Set("isAbsolute", func(p string) bool { return path.IsAbs(p) })
	m.Set("dirname", func(p string) string { return path.Dir(p) })
	m.Set("extname", func(p string) string {
		b := path.Base(p)
		if strings.HasPrefix(b, ".") && strings.Count(b, ".") == 1 {
			return ""
		}
		return path.Ext(b)
	})
	m.Set("basename", func(call goja.FunctionCall) goja.Value {
		b := path.Base(call.Argument(0).String())
		if ext := call.Argument(1); !goja.IsUndefined(ext) {
			b = strings.TrimSuffix(b, ext.String())
		}
		return rt.ToValue(b)
	})
	m.Set("relative", func(from, to string) string {
		r, err := filepath.Rel(vm.resolve(from), vm.resolve(to))
		if err != nil {
			return to
		}
		if r == "." {
			return ""
		}
		return filepath.ToSlash(r)
	})
	m.Set("parse", func(p string) map[string]any {
		dir, base := path.Split(p)
		ext := path.Ext(base)
		root := ""
		if path.IsAbs(p) {
			root = "/"
		}
		return map[string]any{"root": root, "dir": strings.TrimSuffix(dir, "/"), "base": base, "ext": ext, "name": strings.TrimSuffix(base, ext)}
	})
	m.Set("format", func(call goja.FunctionCall) goja.Value {
		o := call.Argument(0).ToObject(rt)
		get := func(k string) string {
			if v := o.Get(k); v != nil && !goja.IsUndefined(v) {
				return v.String()
			}
			return ""
		}
		base := get("base")
		if base == "" {
			base = get("name") + get("ext")
		}
		dir := get("dir")
		if dir == "" {
			dir = get("root")
		}
		if dir == "" {
			return rt.ToValue(base)
		}
		if strings.HasSuffix(dir, "/") {
			return rt.ToValue(dir + base)
		}
		return rt.ToValue(dir + "/" + base)
	})
	m.Set("posix", m)
	m.Set("default", m)
	return m
}

// errNoFS is the error of every fs call outside the bdd host: tool handlers
// and scripts have no filesystem capability.
func (vm *VM) errNoFS(op string) error {
	return fmt.Errorf("fs.%s: no fs capability in the %s host (extension tools and scripts cannot use the filesystem)", op, vm.opts.Host)
}

func (vm *VM) fsModule() *goja.Object {
	rt := vm.rt
	m := rt.NewObject()
	promises := rt.NewObject()
	allowed := vm.opts.Host == HostBDD
	guard := func(op string) {
		if !allowed {
			vm.Throw(vm.errNoFS(op))
		}
		if f := CurrentFrame(vm); f != nil {
			vm.Throw(fmt.Errorf("fs.%s: no fs capability for extension tools (tool %q; the handler context has no filesystem)", op, f.tool.Name))
		}
	}
	throwFS := func(err error) {
		code := "EIO"
		switch {
		case errors.Is(err, fs.ErrNotExist):
			code = "ENOENT"
		case errors.Is(err, fs.ErrPermission):
			code = "EACCES"
		case errors.Is(err, fs.ErrExist):
			code = "EEXIST"
		}
		e := ErrorValue(rt, err).ToObject(rt)
		e.Set("code", code)
		panic(e)
	}
	encodingOf := func(v goja.Value) string {
		if o, ok := v.(*goja.Object); ok {
			if e := o.Get("encoding"); e != nil && !goja.IsUndefined(e) && !goja.IsNull(e) {
				return e.String()
			}
			return ""
		}
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return ""
		}
		return v.String()
	}
	decode := func(b []byte, enc string) goja.Value {
		if enc == "" {
			return buffer.WrapBytes(rt, b)
		}
		return buffer.EncodeBytes(rt, b, rt.ToValue(enc))
	}
	readFile := func(call goja.FunctionCall) goja.Value {
		guard("readFileSync")
		b, err := os.ReadFile(vm.resolve(call.Argument(0).String()))
		if err != nil {
			throwFS(err)
		}
		return decode(b, encodingOf(call.Argument(1)))
	}
	m.Set("readFileSync", readFile)
	m.Set("existsSync", func(p string) bool {
		guard("existsSync")
		_, err := os.Stat(vm.resolve(p))
		return err == nil
	})
	stat := func(call goja.FunctionCall) goja.Value {
		guard("statSync")
		info, err := os.Stat(vm.resolve(call.Argument(0).String()))
		if err != nil {
			throwFS(err)
		}
		return vm.statObject(info)
	}
	m.Set("statSync", stat)
	readdir := func(call goja.FunctionCall) goja.Value {
		guard("readdirSync")
		entries, err := os.ReadDir(vm.resolve(call.Argument(0).String()))
		if err != nil {
			throwFS(err)
		}
		names := make([]any, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		return rt.NewArray(names...)
	}
	m.Set("readdirSync", readdir)
	writeFile := func(call goja.FunctionCall) goja.Value {
		guard("writeFileSync")
		var data []byte
		if o, ok := call.Argument(1).(*goja.Object); ok {
			if b, ok := bytesOf(rt, o); ok {
				data = b
			}
		}
		if data == nil {
			data = []byte(call.Argument(1).String())
		}
		if err := os.WriteFile(vm.resolve(call.Argument(0).String()), data, 0o644); err != nil {
			throwFS(err)
		}
		return goja.Undefined()
	}
	m.Set("writeFileSync", writeFile)
	mkdir := func(call goja.FunctionCall) goja.Value {
		guard("mkdirSync")
		if err := os.MkdirAll(vm.resolve(call.Argument(0).String()), 0o755); err != nil {
			throwFS(err)
		}
		return goja.Undefined()
	}
	m.Set("mkdirSync", mkdir)
	m.Set("createReadStream", func(call goja.FunctionCall) goja.Value {
		guard("createReadStream")
		p := vm.resolve(call.Argument(0).String())
		if _, err := os.Stat(p); err != nil {
			throwFS(err)
		}
		return vm.readStream(p)
	})
	async := func(fn func(goja.FunctionCall) goja.Value) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			p, resolve, reject := rt.NewPromise()
			func() {
				defer func() {
					if r := recover(); r != nil {
						if v, ok := r.(goja.Value); ok {
							reject(v)
							return
						}
						panic(r)
					}
				}()
				resolve(fn(call))
			}()
			return rt.ToValue(p)
		}
	}
	promises.Set("readFile", async(readFile))
	promises.Set("writeFile", async(writeFile))
	promises.Set("stat", async(stat))
	promises.Set("readdir", async(readdir))
	promises.Set("mkdir", async(mkdir))
	m.Set("promises", promises)
	m.Set("default", m)
	return m
}

func (vm *VM) statObject(info os.FileInfo) goja.Value {
	rt := vm.rt
	o := rt.NewObject()
	o.Set("size", info.Size())
	o.Set("mtimeMs", info.ModTime().UnixMilli())
	o.Set("mtime", rt.ToValue(info.ModTime()))
	o.Set("isFile", func() bool { return info.Mode().IsRegular() })
	o.Set("isDirectory", func() bool { return info.IsDir() })
	o.Set("isSymbolicLink", func() bool { return info.Mode()&os.ModeSymlink != 0 })
	return o
}

// readStream is what fs.createReadStream returns: enough of a Node
// Readable for attach (recognised by its path), `for await` and
// 'data'/'end' listeners.
func (vm *VM) readStream(p string) goja.Value {
	mk, err := vm.rt.RunString(`(function (path, read) {
		const EventEmitter = __ferridriver_require('node:events');
		const s = new EventEmitter();
		Object.defineProperty(s, '__ferridriverPath', { value: path });
		s.path = path;
		let started = false;
		const start = () => {
			if (started) return;
			started = true;
			read(path).then((b) => { s.emit('data', b); s.emit('end'); s.emit('close'); }, (e) => s.emit('error', e));
		};
		const on = s.on.bind(s);
		s.on = (ev, fn) => { on(ev, fn); if (ev === 'data') setImmediate(start); return s; };
		s.pipe = (dest) => { s.on('data', (c) => dest.write(c)); s.on('end', () => dest.end && dest.end()); return dest; };
		s[Symbol.asyncIterator] = () => {
			let done = false;
			return { next: async () => { if (done) return { done: true, value: undefined }; done = true; return { done: false, value: await read(path) }; } };
		};
		return s;
	})`)
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(mk)
	read := func(call goja.FunctionCall) goja.Value {
		path := call.Argument(0).String()
		return vm.loop.Promise(func() (any, error) { return os.ReadFile(path) }, func(rt *goja.Runtime, v any) (goja.Value, error) {
			return buffer.WrapBytes(rt, v.([]byte)), nil
		})
	}
	s, err := fn(goja.Undefined(), vm.rt.ToValue(p), vm.rt.ToValue(read))
	if err != nil {
		panic(err)
	}
	return s
}

func (vm *VM) osModule() *goja.Object {
	o := vm.rt.NewObject()
	o.Set("EOL", "\n")
	o.Set("platform", func() string { return runtime.GOOS })
	o.Set("type", func() string { return strings.ToUpper(runtime.GOOS[:1]) + runtime.GOOS[1:] })
	o.Set("arch", func() string { return vm.rt.Get("process").ToObject(vm.rt).Get("arch").String() })
	o.Set("tmpdir", func() string { return os.TempDir() })
	o.Set("homedir", func() string { h, _ := os.UserHomeDir(); return h })
	o.Set("hostname", func() string { h, _ := os.Hostname(); return h })
	o.Set("cpus", func() []map[string]any {
		out := make([]map[string]any, runtime.NumCPU())
		for i := range out {
			out[i] = map[string]any{"model": runtime.GOARCH, "speed": 0}
		}
		return out
	})
	o.Set("uptime", func() float64 { return time.Since(startTime).Seconds() })
	return o
}

var startTime = time.Now()

func (vm *VM) cryptoModule() *goja.Object {
	rt := vm.rt
	o := rt.NewObject()
	o.Set("randomUUID", func() string { return uuid.NewString() })
	o.Set("randomBytes", func(n int) goja.Value {
		b := make([]byte, n)
		rand.Read(b)
		return buffer.WrapBytes(rt, b)
	})
	o.Set("createHash", func(alg string) goja.Value {
		var h hash.Hash
		switch strings.ToLower(alg) {
		case "md5":
			h = md5.New()
		case "sha1":
			h = sha1.New()
		case "sha256":
			h = sha256.New()
		case "sha512":
			h = sha512.New()
		default:
			panic(rt.NewTypeError("crypto.createHash: unsupported algorithm %s", alg))
		}
		obj := rt.NewObject()
		obj.Set("update", func(call goja.FunctionCall) goja.Value {
			if v, ok := call.Argument(0).(*goja.Object); ok {
				if b, ok := bytesOf(rt, v); ok {
					h.Write(b)
					return obj
				}
			}
			h.Write([]byte(call.Argument(0).String()))
			return obj
		})
		obj.Set("digest", func(call goja.FunctionCall) goja.Value {
			sum := h.Sum(nil)
			switch enc := call.Argument(0); {
			case goja.IsUndefined(enc):
				return buffer.WrapBytes(rt, sum)
			case enc.String() == "hex":
				return rt.ToValue(hex.EncodeToString(sum))
			case enc.String() == "base64":
				return rt.ToValue(base64.StdEncoding.EncodeToString(sum))
			default:
				return buffer.EncodeBytes(rt, sum, enc)
			}
		})
		return obj
	})
	o.Set("getRandomValues", func(call goja.FunctionCall) goja.Value {
		arr := call.Argument(0).ToObject(rt)
		n := int(arr.Get("length").ToInteger())
		b := make([]byte, n)
		rand.Read(b)
		for i := 0; i < n; i++ {
			arr.Set(fmt.Sprint(i), b[i])
		}
		return arr
	})
	return o
}
