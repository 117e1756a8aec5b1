package jsbridge

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"math"
	"math/big"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	"github.com/google/uuid"
)

// node:crypto: hashes, HMACs and random values (what test code uses), in
// Go. Ciphers, keys and signatures are not there.

var hashes = map[string]func() hash.Hash{
	"md5": md5.New, "sha1": sha1.New, "sha224": sha256.New224, "sha256": sha256.New,
	"sha384": sha512.New384, "sha512": sha512.New, "sha512-224": sha512.New512_224, "sha512-256": sha512.New512_256,
}

func hashNames() []string { return sortedKeys(hashes) }

// cryptoData reads a data argument: bytes, or a string in encoding enc
// (utf8 when not given).
func (vm *VM) cryptoData(v, enc goja.Value, what string) []byte {
	if o, ok := v.(*goja.Object); ok {
		if b, ok := bytesOf(vm.rt, o); ok {
			return b
		}
	}
	s, ok := v.Export().(string)
	if !ok {
		panic(vm.newError("TypeError", "The \""+what+"\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received "+v.String(), "ERR_INVALID_ARG_TYPE"))
	}
	e := ""
	if enc != nil && !goja.IsUndefined(enc) && !goja.IsNull(enc) {
		e = strings.ToLower(enc.String())
	}
	switch e {
	case "", "utf8", "utf-8":
		return []byte(s)
	case "hex":
		b, _ := hex.DecodeString(s)
		return b
	case "base64", "base64url":
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			b, _ = base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
		}
		return b
	case "latin1", "binary", "ascii":
		b := make([]byte, 0, len(s))
		for _, r := range s {
			b = append(b, byte(r))
		}
		return b
	}
	panic(vm.newError("TypeError", "Unknown encoding: "+e, "ERR_UNKNOWN_ENCODING"))
}

// digestValue encodes a digest as Node's digest(encoding) does.
func (vm *VM) digestValue(sum []byte, enc goja.Value) goja.Value {
	rt := vm.rt
	if goja.IsUndefined(enc) || goja.IsNull(enc) || enc.String() == "buffer" {
		return buffer.WrapBytes(rt, sum)
	}
	switch strings.ToLower(enc.String()) {
	case "hex":
		return rt.ToValue(hex.EncodeToString(sum))
	case "base64":
		return rt.ToValue(base64.StdEncoding.EncodeToString(sum))
	case "base64url":
		return rt.ToValue(base64.RawURLEncoding.EncodeToString(sum))
	case "latin1", "binary":
		r := make([]rune, len(sum))
		for i, c := range sum {
			r[i] = rune(c)
		}
		return rt.ToValue(string(r))
	}
	return buffer.EncodeBytes(rt, sum, enc)
}

// hashObject is a Hash or Hmac: update(data, enc), digest(enc), copy().
func (vm *VM) hashObject(h hash.Hash, alg string, copyable bool) *goja.Object {
	rt := vm.rt
	obj := rt.NewObject()
	done := false
	obj.Set("update", func(call goja.FunctionCall) goja.Value {
		if done {
			panic(vm.newError("Error", "Digest already called", "ERR_CRYPTO_HASH_FINALIZED"))
		}
		h.Write(vm.cryptoData(call.Argument(0), call.Argument(1), "data"))
		return obj
	})
	obj.Set("digest", func(call goja.FunctionCall) goja.Value {
		if done {
			panic(vm.newError("Error", "Digest already called", "ERR_CRYPTO_HASH_FINALIZED"))
		}
		done = true
		return vm.digestValue(h.Sum(nil), call.Argument(0))
	})
	if copyable {
		obj.Set("copy", func(goja.FunctionCall) goja.Value {
			// Hashes of the standard library can be cloned by marshalling.
			type marshaler interface {
				MarshalBinary() ([]byte, error)
				UnmarshalBinary([]byte) error
			}
			state, err := h.(marshaler).MarshalBinary()
			if err != nil {
				vm.Throw(err)
			}
			c := hashes[alg]()
			if err := c.(marshaler).UnmarshalBinary(state); err != nil {
				vm.Throw(err)
			}
			return vm.hashObject(c, alg, true)
		})
	}
	return obj
}

func (vm *VM) newHash(alg string) hash.Hash {
	mk, ok := hashes[strings.ToLower(alg)]
	if !ok {
		panic(vm.newError("Error", "Digest method not supported: "+alg+" (ferridriver has "+strings.Join(hashNames(), ", ")+")", "ERR_CRYPTO_INVALID_DIGEST"))
	}
	return mk()
}

// resultOrCallback returns v, or, when cb is a function, passes it to cb
// (Node's error-first convention) after the current task.
func (vm *VM) resultOrCallback(v, cb goja.Value) goja.Value {
	if fn, ok := goja.AssertFunction(cb); ok {
		vm.callbackLater(fn, goja.Null(), v)
		return goja.Undefined()
	}
	return v
}

func (vm *VM) cryptoModule() *goja.Object {
	rt := vm.rt
	o := rt.NewObject()
	randomBytes := func(n int) []byte {
		b := make([]byte, n)
		rand.Read(b)
		return b
	}
	o.Set("randomUUID", func() string { return uuid.NewString() })
	o.Set("randomBytes", func(call goja.FunctionCall) goja.Value {
		n := call.Argument(0).ToInteger()
		if n < 0 || n > math.MaxInt32 {
			panic(vm.newError("RangeError", "The value of \"size\" is out of range.", "ERR_OUT_OF_RANGE"))
		}
		return vm.resultOrCallback(buffer.WrapBytes(rt, randomBytes(int(n))), call.Argument(1))
	})
	// fill overwrites bytes [offset, offset+size) of a typed array.
	fill := func(call goja.FunctionCall) goja.Value {
		target := call.Argument(0).ToObject(rt)
		b, ok := bytesOf(rt, target)
		if !ok {
			panic(vm.newError("TypeError", "The \"buf\" argument must be an instance of ArrayBuffer or ArrayBufferView.", "ERR_INVALID_ARG_TYPE"))
		}
		off, size := int64(0), int64(len(b))
		if a := call.Argument(1); !goja.IsUndefined(a) {
			off = a.ToInteger()
			size = int64(len(b)) - off
		}
		if a := call.Argument(2); !goja.IsUndefined(a) {
			size = a.ToInteger()
		}
		if off < 0 || size < 0 || off+size > int64(len(b)) {
			panic(vm.newError("RangeError", "The value of \"offset + size\" is out of range.", "ERR_OUT_OF_RANGE"))
		}
		rand.Read(b[off : off+size])
		return target
	}
	o.Set("randomFillSync", fill)
	o.Set("randomFill", func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		cb, ok := goja.AssertFunction(args[len(args)-1])
		if !ok {
			panic(vm.newError("TypeError", "The \"callback\" argument must be of type function.", "ERR_INVALID_ARG_TYPE"))
		}
		v := fill(goja.FunctionCall{This: call.This, Arguments: args[:len(args)-1]})
		vm.callbackLater(cb, goja.Null(), v)
		return goja.Undefined()
	})
	o.Set("randomInt", func(call goja.FunctionCall) goja.Value {
		lo, hi := int64(0), call.Argument(0).ToInteger()
		cbArg := call.Argument(1)
		if a := call.Argument(1); !goja.IsUndefined(a) {
			if _, isFn := goja.AssertFunction(a); !isFn {
				lo, hi = hi, a.ToInteger()
				cbArg = call.Argument(2)
			}
		}
		if hi <= lo {
			panic(vm.newError("RangeError", "The value of \"max\" is out of range. It must be greater than the value of \"min\".", "ERR_OUT_OF_RANGE"))
		}
		n, _ := rand.Int(rand.Reader, big.NewInt(hi-lo))
		return vm.resultOrCallback(rt.ToValue(lo+n.Int64()), cbArg)
	})
	getRandomValues := func(call goja.FunctionCall) goja.Value {
		target := call.Argument(0).ToObject(rt)
		b, ok := bytesOf(rt, target)
		if !ok {
			panic(vm.newError("TypeError", "The data argument must be an integer-type TypedArray", "ERR_INVALID_ARG_TYPE"))
		}
		if len(b) > 65536 {
			panic(vm.newError("QuotaExceededError", "The ArrayBufferView's byte length exceeds the number of bytes of entropy available via this API (65536)", ""))
		}
		rand.Read(b)
		return target
	}
	o.Set("getRandomValues", getRandomValues)
	webcrypto := rt.NewObject()
	webcrypto.Set("getRandomValues", getRandomValues)
	webcrypto.Set("randomUUID", func() string { return uuid.NewString() })
	o.Set("webcrypto", webcrypto)
	o.Set("createHash", func(call goja.FunctionCall) goja.Value {
		alg := call.Argument(0).String()
		return vm.hashObject(vm.newHash(alg), strings.ToLower(alg), true)
	})
	o.Set("createHmac", func(call goja.FunctionCall) goja.Value {
		alg := call.Argument(0).String()
		vm.newHash(alg) // validates the name
		key := append([]byte(nil), vm.cryptoData(call.Argument(1), goja.Undefined(), "key")...)
		return vm.hashObject(hmac.New(hashes[strings.ToLower(alg)], key), "", false)
	})
	o.Set("hash", func(call goja.FunctionCall) goja.Value {
		h := vm.newHash(call.Argument(0).String())
		h.Write(vm.cryptoData(call.Argument(1), goja.Undefined(), "data"))
		enc := call.Argument(2)
		if goja.IsUndefined(enc) {
			enc = rt.ToValue("hex")
		}
		return vm.digestValue(h.Sum(nil), enc)
	})
	o.Set("getHashes", func() []string { return hashNames() })
	o.Set("timingSafeEqual", func(call goja.FunctionCall) goja.Value {
		a, ok1 := bytesOf(rt, call.Argument(0).ToObject(rt))
		b, ok2 := bytesOf(rt, call.Argument(1).ToObject(rt))
		if !ok1 || !ok2 {
			panic(vm.newError("TypeError", "The \"buf1\" and \"buf2\" arguments must be instances of ArrayBuffer, Buffer, TypedArray, or DataView.", "ERR_INVALID_ARG_TYPE"))
		}
		if len(a) != len(b) {
			panic(vm.newError("RangeError", "Input buffers must have the same byte length", "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH"))
		}
		return rt.ToValue(subtle.ConstantTimeCompare(a, b) == 1)
	})
	o.Set("constants", rt.NewObject())
	return o
}
