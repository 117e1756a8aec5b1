package jsbridge

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// zlibInputs are the data every round trip is made with.
func zlibInputs() map[string][]byte {
	rnd := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 100_000)
	for i := range random {
		random[i] = byte(rnd.IntN(256))
	}
	return map[string][]byte{
		"empty":  {},
		"short":  []byte("hello"),
		"text":   []byte(strings.Repeat("the quick brown fox jumps over the lazy dog. ", 5000)),
		"random": random,
	}
}

// goCodecs are Go's own compress packages: the oracle.
var goCodecs = map[string]struct {
	compress   func(w io.Writer) io.WriteCloser
	decompress func(r io.Reader) (io.Reader, error)
}{
	"gzip": {
		func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
		func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	},
	"deflate": {
		func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) },
		func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) },
	},
	"deflateRaw": {
		func(w io.Writer) io.WriteCloser { fw, _ := flate.NewWriter(w, flate.DefaultCompression); return fw },
		func(r io.Reader) (io.Reader, error) { return flate.NewReader(r), nil },
	},
}

// jsDecompressor is the JS name that undoes a Go codec.
var jsDecompressor = map[string]string{"gzip": "gunzip", "deflate": "inflate", "deflateRaw": "inflateRaw"}

func goCompress(t *testing.T, codec string, data []byte) []byte {
	var b bytes.Buffer
	w := goCodecs[codec].compress(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func goDecompress(t *testing.T, codec string, data []byte) []byte {
	t.Helper()
	r, err := goCodecs[codec].decompress(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", codec, err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", codec, err)
	}
	return out
}

// jsBytes runs src with `input` set to data and returns the bytes of the
// Buffer it resolves to.
func jsBytes(t *testing.T, vm *VM, data []byte, src string) []byte {
	t.Helper()
	vm.Runtime().Set("input", buffer.WrapBytes(vm.Runtime(), data))
	v, err := eval(t, vm, src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	b, ok := bytesOf(vm.Runtime(), v.(*goja.Object))
	if !ok {
		t.Fatalf("%s: not bytes: %v", src, v)
	}
	return append([]byte(nil), b...)
}

// Every form of every codec round-trips against Go's compress packages,
// both ways.
func TestZlibRoundTripsAgainstGo(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	// Each form turns input into a Buffer with codec fn (gzip, gunzip...).
	forms := map[string]string{
		"sync":        `return require('zlib').FNSync(input)`,
		"callback":    `return await new Promise((res, rej) => require('zlib').FN(input, (e, b) => e ? rej(e) : res(b)))`,
		"promisified": `return await require('util').promisify(require('zlib').FN)(input)`,
		// In three chunks through the stream form, read with 'data' events.
		"stream":   `const z = require('zlib'); const s = z.createCTOR(); const out = []; s.on('data', (c) => out.push(c)); const done = new Promise((res, rej) => { s.on('end', res); s.on('error', rej) }); const n = input.length; s.write(input.subarray(0, n / 3 | 0)); s.write(input.subarray(n / 3 | 0, 2 * n / 3 | 0)); s.end(input.subarray(2 * n / 3 | 0)); await done; return Buffer.concat(out)`,
		"pipeline": `const z = require('zlib'); const { Readable, Writable } = require('stream'); const out = []; await require('stream/promises').pipeline(Readable.from([input.subarray(0, 10), input.subarray(10)]), z.createCTOR({ chunkSize: 1024 }), new Writable({ write(c, e, cb) { out.push(c); cb() } })); return Buffer.concat(out)`,
	}
	ctor := func(fn string) string { return strings.ToUpper(fn[:1]) + fn[1:] }
	for name, data := range zlibInputs() {
		for codec := range goCodecs {
			for form, tmpl := range forms {
				compress := strings.NewReplacer("FN", codec, "CTOR", ctor(codec)).Replace(tmpl)
				got := goDecompress(t, codec, jsBytes(t, vm, data, compress))
				if !bytes.Equal(got, data) {
					t.Errorf("%s %s %s: Go decompresses %d bytes, want %d", name, codec, form, len(got), len(data))
				}
				dec := jsDecompressor[codec]
				decompress := strings.NewReplacer("FN", dec, "CTOR", ctor(dec)).Replace(tmpl)
				if got := jsBytes(t, vm, goCompress(t, codec, data), decompress); !bytes.Equal(got, data) {
					t.Errorf("%s %s %s: JS decompresses %d bytes, want %d", name, dec, form, len(got), len(data))
				}
			}
			// unzip recognises gzip and zlib streams.
			if codec != "deflateRaw" {
				if got := jsBytes(t, vm, goCompress(t, codec, data), `return require('zlib').unzipSync(input)`); !bytes.Equal(got, data) {
					t.Errorf("%s unzip of %s: %d bytes, want %d", name, codec, len(got), len(data))
				}
			}
		}
		vm.Runtime().Set("input", buffer.WrapBytes(vm.Runtime(), data))
		if got := mustEval(t, vm, `return require('zlib').crc32(input)`); got != strconv.FormatUint(uint64(crc32.ChecksumIEEE(data)), 10) {
			t.Errorf("%s crc32: %s", name, got)
		}
	}
}

// Node's binding protocol, as pngjs drives it: a subclass of zlib.Inflate
// made with Inflate.call(this), reading this._handle.writeSync's output
// window by window.
func TestZlibBindingProtocol(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	data := zlibInputs()["text"]
	got := jsBytes(t, vm, goCompress(t, "deflate", data), `
		const zlib = require('zlib'); const util = require('util');
		function Inflate(opts) { zlib.Inflate.call(this, opts); this._offset = this._outOffset; this._buffer = this._outBuffer }
		util.inherits(Inflate, zlib.Inflate);
		const inf = new Inflate({ chunkSize: zlib.Z_MIN_CHUNK });
		const out = []; let off = 0, inOff = 0, avail = input.length, res;
		do {
			res = inf._handle.writeSync(zlib.Z_FINISH, input, inOff, avail, inf._buffer, inf._offset, inf._chunkSize - inf._offset);
			const have = inf._chunkSize - inf._offset - res[1];
			out.push(Buffer.from(inf._buffer.subarray(inf._offset, inf._offset + have)));
			inOff += avail - res[0]; avail = res[0];
		} while (res[1] === 0);
		inf._handle.close();
		return Buffer.concat(out);
	`)
	if !bytes.Equal(got, data) {
		t.Fatalf("got %d bytes, want %d", len(got), len(data))
	}
	if got := jsBytes(t, vm, goCompress(t, "gzip", data), `const z = require('zlib'); return new z.Gunzip()._processChunk(input, z.constants.Z_FINISH)`); !bytes.Equal(got, data) {
		t.Fatalf("_processChunk: %d bytes, want %d", len(got), len(data))
	}
}

// Bad input fails as in Node; a truncated input is accepted with
// finishFlush Z_SYNC_FLUSH (what node-fetch and axios use).
func TestZlibErrors(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	data := []byte(strings.Repeat("abc", 10000))
	gz := goCompress(t, "gzip", data)
	truncated := gz[:len(gz)/2]
	vm.Runtime().Set("truncated", buffer.WrapBytes(vm.Runtime(), truncated))
	for _, tc := range []struct{ src, want string }{
		{`try { require('zlib').gunzipSync(Buffer.from('not gzip at all')) } catch (e) { return e.code + ' ' + e.errno + ' ' + e.message }`, "Z_DATA_ERROR -3 incorrect header check"},
		{`try { require('zlib').gunzipSync(truncated) } catch (e) { return e.code + ' ' + e.errno + ' ' + e.message }`, "Z_BUF_ERROR -5 unexpected end of file"},
		{`return await new Promise((res) => require('zlib').gunzip(truncated, (e) => res(e.code)))`, "Z_BUF_ERROR"},
		{`const z = require('zlib'); return await new Promise((res) => { const s = z.createGunzip(); s.on('error', (e) => res('error ' + e.code)); s.resume(); s.end(Buffer.from('garbage')) })`, "error Z_DATA_ERROR"},
		{`const z = require('zlib'); const out = z.gunzipSync(truncated, { finishFlush: z.constants.Z_SYNC_FLUSH }); return out.length > 0 && out.length < 30000 && /^(abc)+/.test(out.toString())`, "true"},
		{`try { require('zlib').gzipSync({}) } catch (e) { return e.code }`, "ERR_INVALID_ARG_TYPE"},
		{`try { require('zlib').gzipSync('x', { level: 12 }) } catch (e) { return e.code }`, "ERR_OUT_OF_RANGE"},
		{`return typeof require('zlib').createBrotliDecompress`, "undefined"},
	} {
		if got := mustEval(t, vm, tc.src); got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
}
