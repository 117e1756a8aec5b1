package jsbridge

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// node:zlib on Go's compress packages. A zlibHandle is the engine behind
// every form (node/zlib.js): the *Sync functions, the callback functions
// (run off the loop) and the Transform streams, which drive the handle
// with Node's own binding protocol (writeSync(flush, in, inOff, inLen,
// out, outOff, outLen) -> [availInAfter, availOutAfter]); packages such as
// pngjs drive it directly.
//
// Compression is incremental. Decompression collects its input and
// decodes it when the input ends (Z_FINISH): Go's decoders read from a
// blocking reader and cannot be resumed when input runs short, so a
// decompression stream emits its output at its end.

// Node's zlib modes and flush values (zlib.constants).
const (
	zDeflate    = 1
	zInflate    = 2
	zGzip       = 3
	zGunzip     = 4
	zDeflateRaw = 5
	zInflateRaw = 6
	zUnzip      = 7

	zNoFlush      = 0
	zPartialFlush = 1
	zSyncFlush    = 2
	zFullFlush    = 3
	zFinish       = 4
	zBlock        = 5
)

// zlibError is a failure with Node's zlib code and errno.
type zlibError struct {
	msg   string
	code  string // Z_DATA_ERROR, Z_BUF_ERROR
	errno int
}

func (e *zlibError) Error() string { return e.msg }

type zlibHandle struct {
	mode  int
	level int
	// lenient decompression returns what it decoded from a truncated
	// input instead of failing (Node's finishFlush: Z_SYNC_FLUSH).
	lenient bool

	out bytes.Buffer // output not yet handed out
	w   io.WriteCloser
	// flushed is set by a flush and cleared by new input, so that the
	// calls that drain a flush's output do not flush again.
	flushed bool
	in      bytes.Buffer // compressed input collected until the end
	ended   bool
	err     error
}

func newZlibHandle(mode, level int, lenient bool) (*zlibHandle, error) {
	if mode < zDeflate || mode > zUnzip {
		return nil, fmt.Errorf("zlib: mode %d is not supported (brotli is not available in ferridriver)", mode)
	}
	if level < -1 || level > 9 {
		return nil, fmt.Errorf("The value of \"options.level\" is out of range. It must be >= -1 and <= 9. Received %d", level)
	}
	h := &zlibHandle{mode: mode, level: level, lenient: lenient}
	return h, h.reset()
}

func (h *zlibHandle) compresses() bool {
	return h.mode == zDeflate || h.mode == zGzip || h.mode == zDeflateRaw
}

func (h *zlibHandle) reset() error {
	h.out.Reset()
	h.in.Reset()
	h.ended, h.err, h.flushed = false, nil, false
	var err error
	switch h.mode {
	case zDeflate:
		h.w, err = zlib.NewWriterLevel(&h.out, h.level)
	case zGzip:
		h.w, err = gzip.NewWriterLevel(&h.out, h.level)
	case zDeflateRaw:
		h.w, err = flate.NewWriter(&h.out, h.level)
	}
	return err
}

// write feeds input with a flush value.
func (h *zlibHandle) write(flush int, data []byte) error {
	if h.err != nil {
		return h.err
	}
	if h.ended {
		if len(data) > 0 {
			h.err = &zlibError{msg: "zlib binding closed", code: "ERR_ZLIB_BINDING_CLOSED"}
		}
		return h.err
	}
	if !h.compresses() {
		h.in.Write(data)
		if flush == zFinish {
			h.ended = true
			h.err = h.decode()
		}
		return h.err
	}
	if len(data) > 0 {
		if _, err := h.w.Write(data); err != nil {
			h.err = err
			return err
		}
		h.flushed = false
	}
	switch flush {
	case zSyncFlush, zFullFlush, zPartialFlush, zBlock:
		if h.flushed {
			return nil
		}
		type flusher interface{ Flush() error }
		h.err = h.w.(flusher).Flush()
		h.flushed = true
	case zFinish:
		h.ended = true
		h.err = h.w.Close()
	}
	return h.err
}

// decode decompresses all the input collected.
func (h *zlibHandle) decode() error {
	src := bytes.NewReader(h.in.Bytes())
	mode := h.mode
	if mode == zUnzip {
		mode = zInflate
		if b := h.in.Bytes(); len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
			mode = zGunzip
		}
	}
	if h.in.Len() == 0 {
		if h.lenient {
			return nil
		}
		return &zlibError{msg: "unexpected end of file", code: "Z_BUF_ERROR", errno: -5}
	}
	// A wrong header is reported as such even when the input is too short
	// for Go's readers to look at it.
	if b := h.in.Bytes(); len(b) >= 2 {
		badGzip := mode == zGunzip && (b[0] != 0x1f || b[1] != 0x8b)
		badZlib := mode == zInflate && (b[0]&0x0f != 8 || (uint(b[0])<<8|uint(b[1]))%31 != 0)
		if badGzip || badZlib {
			return &zlibError{msg: "incorrect header check", code: "Z_DATA_ERROR", errno: -3}
		}
	}
	var r io.Reader
	var err error
	switch mode {
	case zInflate:
		var rc io.ReadCloser
		rc, err = zlib.NewReader(src)
		r = rc
	case zGunzip:
		r, err = gzip.NewReader(src)
	case zInflateRaw:
		r = flate.NewReader(src)
	}
	if err == nil {
		_, err = io.Copy(&h.out, r)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		if h.lenient {
			return nil
		}
		return &zlibError{msg: "unexpected end of file", code: "Z_BUF_ERROR", errno: -5}
	case errors.Is(err, gzip.ErrHeader) || errors.Is(err, zlib.ErrHeader):
		return &zlibError{msg: "incorrect header check", code: "Z_DATA_ERROR", errno: -3}
	case errors.Is(err, gzip.ErrChecksum) || errors.Is(err, zlib.ErrChecksum):
		return &zlibError{msg: "incorrect data check", code: "Z_DATA_ERROR", errno: -3}
	}
	return &zlibError{msg: "invalid compressed data: " + err.Error(), code: "Z_DATA_ERROR", errno: -3}
}

// process runs a whole buffer through a new handle (the *Sync and
// callback functions).
func zlibProcess(mode, level int, lenient bool, data []byte) ([]byte, error) {
	h, err := newZlibHandle(mode, level, lenient)
	if err != nil {
		return nil, err
	}
	if err := h.write(zFinish, data); err != nil {
		return nil, err
	}
	return h.out.Bytes(), nil
}

func (vm *VM) zlibError(err error) goja.Value {
	var ze *zlibError
	if errors.As(err, &ze) {
		e := vm.newError("Error", ze.msg, ze.code).ToObject(vm.rt)
		if ze.errno != 0 {
			e.Set("errno", ze.errno)
		}
		return e
	}
	return vm.newError("RangeError", err.Error(), "ERR_OUT_OF_RANGE")
}

// zlibBinding is the Go half of node:zlib given to node/zlib.js.
func (vm *VM) zlibBinding() *goja.Object {
	rt := vm.rt
	b := rt.NewObject()
	bytesArg := func(v goja.Value) []byte {
		if o, ok := v.(*goja.Object); ok {
			if data, ok := bytesOf(rt, o); ok {
				return data
			}
		}
		return []byte(v.String())
	}
	// process(mode, level, lenient, data) -> Buffer
	b.Set("process", func(call goja.FunctionCall) goja.Value {
		out, err := zlibProcess(int(call.Argument(0).ToInteger()), int(call.Argument(1).ToInteger()), call.Argument(2).ToBoolean(), bytesArg(call.Argument(3)))
		if err != nil {
			panic(vm.zlibError(err))
		}
		return buffer.WrapBytes(rt, append([]byte(nil), out...))
	})
	// processAsync: the same off the loop, as a promise.
	b.Set("processAsync", func(call goja.FunctionCall) goja.Value {
		mode, level, lenient := int(call.Argument(0).ToInteger()), int(call.Argument(1).ToInteger()), call.Argument(2).ToBoolean()
		data := append([]byte(nil), bytesArg(call.Argument(3))...)
		return vm.loop.Promise(func() (any, error) {
			out, err := zlibProcess(mode, level, lenient, data)
			return fsOutcome{v: out, err: err}, nil
		}, func(rt *goja.Runtime, v any) (goja.Value, error) {
			o := v.(fsOutcome)
			if o.err != nil {
				return nil, &JSError{Value: vm.zlibError(o.err)}
			}
			return buffer.WrapBytes(rt, o.v.([]byte)), nil
		})
	})
	b.Set("handle", func(call goja.FunctionCall) goja.Value {
		h, err := newZlibHandle(int(call.Argument(0).ToInteger()), int(call.Argument(1).ToInteger()), call.Argument(2).ToBoolean())
		if err != nil {
			panic(vm.zlibError(err))
		}
		return vm.zlibHandleObject(h)
	})
	b.Set("crc32", func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(crc32.Update(uint32(call.Argument(1).ToInteger()), crc32.IEEETable, bytesArg(call.Argument(0))))
	})
	return b
}

// zlibHandleObject is Node's zlib binding protocol over h.
func (vm *VM) zlibHandleObject(h *zlibHandle) *goja.Object {
	rt := vm.rt
	o := rt.NewObject()
	closed := false
	o.Set("writeSync", func(call goja.FunctionCall) goja.Value {
		if closed {
			panic(vm.zlibError(&zlibError{msg: "zlib binding closed", code: "ERR_ZLIB_BINDING_CLOSED"}))
		}
		flush := int(call.Argument(0).ToInteger())
		var in []byte
		if src, ok := call.Argument(1).(*goja.Object); ok {
			if b, ok := bytesOf(rt, src); ok {
				off, n := int(call.Argument(2).ToInteger()), int(call.Argument(3).ToInteger())
				if off < 0 || n < 0 || off+n > len(b) {
					panic(rt.NewTypeError("zlib: input range out of bounds"))
				}
				in = b[off : off+n]
			}
		}
		if err := h.write(flush, in); err != nil {
			panic(vm.zlibError(err))
		}
		dst, ok := bytesOf(rt, call.Argument(4).ToObject(rt))
		if !ok {
			panic(rt.NewTypeError("zlib: the output must be a Buffer"))
		}
		off, n := int(call.Argument(5).ToInteger()), int(call.Argument(6).ToInteger())
		if off < 0 || n < 0 || off+n > len(dst) {
			panic(rt.NewTypeError("zlib: output range out of bounds"))
		}
		k, _ := h.out.Read(dst[off : off+n])
		return rt.NewArray(0, n-k)
	})
	o.Set("pending", func() int { return h.out.Len() })
	o.Set("reset", func(goja.FunctionCall) goja.Value {
		if err := h.reset(); err != nil {
			panic(vm.zlibError(err))
		}
		return goja.Undefined()
	})
	o.Set("params", func(level int) {
		h.level = level
	})
	o.Set("close", func() { closed = true })
	return o
}
