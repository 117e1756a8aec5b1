// node:zlib, the JavaScript half: Node's classes and functions over the
// Go engine of jsbridge/node_zlib.go. The classes are ES5 constructors, as
// Node's are, because packages subclass them with Zlib.call(this, opts)
// (pngjs) and drive this._handle.writeSync themselves.
(function (binding, require) {
  'use strict';
  const { Transform } = require('node:stream');

  const constants = {
    Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
    Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
    Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
    Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1,
    Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3, Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4865,
    DEFLATE: 1, INFLATE: 2, GZIP: 3, GUNZIP: 4, DEFLATERAW: 5, INFLATERAW: 6, UNZIP: 7,
    BROTLI_DECODE: 8, BROTLI_ENCODE: 9,
    Z_MIN_WINDOWBITS: 8, Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15,
    Z_MIN_CHUNK: 64, Z_MAX_CHUNK: Infinity, Z_DEFAULT_CHUNK: 16384,
    Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9, Z_DEFAULT_MEMLEVEL: 8,
    Z_MIN_LEVEL: -1, Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
    BROTLI_OPERATION_PROCESS: 0, BROTLI_OPERATION_FLUSH: 1, BROTLI_OPERATION_FINISH: 2,
    BROTLI_OPERATION_EMIT_METADATA: 3, BROTLI_PARAM_MODE: 0, BROTLI_PARAM_QUALITY: 1,
    BROTLI_PARAM_LGWIN: 2, BROTLI_PARAM_SIZE_HINT: 5,
  };
  const codes = {
    Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2,
    Z_DATA_ERROR: -3, Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
  };
  for (const k of Object.keys(codes)) codes[codes[k]] = k;

  const kFlushFlag = Symbol('kFlushFlag');

  function toBytes(buffer, name) {
    if (typeof buffer === 'string') return Buffer.from(buffer);
    if (ArrayBuffer.isView(buffer)) return buffer;
    if (buffer instanceof ArrayBuffer) return new Uint8Array(buffer);
    const e = new TypeError('The "' + (name || 'buffer') + '" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer. Received ' + (buffer === null ? 'null' : typeof buffer));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  function levelOf(opts) {
    return opts && opts.level !== undefined ? opts.level : constants.Z_DEFAULT_COMPRESSION;
  }
  // A finishFlush other than Z_FINISH accepts a truncated input.
  function lenientOf(opts) {
    return !!(opts && opts.finishFlush !== undefined && opts.finishFlush !== constants.Z_FINISH);
  }

  function Zlib(opts, mode) {
    opts = opts || {};
    const chunkSize = opts.chunkSize === undefined ? constants.Z_DEFAULT_CHUNK : opts.chunkSize;
    if (!(chunkSize >= constants.Z_MIN_CHUNK)) {
      const e = new RangeError('The value of "options.chunkSize" is out of range. It must be >= 64. Received ' + chunkSize);
      e.code = 'ERR_OUT_OF_RANGE';
      throw e;
    }
    Transform.call(this, Object.assign({}, opts, { autoDestroy: true }));
    this._handle = binding.handle(mode, levelOf(opts), lenientOf(opts));
    this._mode = mode;
    this._level = levelOf(opts);
    this._strategy = opts.strategy === undefined ? constants.Z_DEFAULT_STRATEGY : opts.strategy;
    this._chunkSize = chunkSize;
    this._defaultFlushFlag = opts.flush === undefined ? constants.Z_NO_FLUSH : opts.flush;
    this._finishFlushFlag = opts.finishFlush === undefined ? constants.Z_FINISH : opts.finishFlush;
    this._defaultFullFlushFlag = constants.Z_FULL_FLUSH;
    this._outBuffer = Buffer.allocUnsafe(chunkSize);
    this._outOffset = 0;
    this._hadError = false;
    this._writeState = [0, 0];
    this.bytesWritten = 0;
  }
  Object.setPrototypeOf(Zlib.prototype, Transform.prototype);
  Object.setPrototypeOf(Zlib, Transform);

  // _run feeds chunk to the engine with a flush value and returns the
  // output, in chunkSize pieces (Node's protocol: the engine fills the
  // output window; a full window means there is more).
  Zlib.prototype._run = function (chunk, flush) {
    const h = this._handle;
    if (!h) {
      const e = new Error('zlib binding closed');
      e.code = 'ERR_ZLIB_BINDING_CLOSED';
      throw e;
    }
    const outs = [];
    let inOff = 0;
    let inLen = chunk ? chunk.length : 0;
    let res;
    do {
      const avail = this._chunkSize - this._outOffset;
      res = h.writeSync(flush, chunk, inOff, inLen, this._outBuffer, this._outOffset, avail);
      this._writeState = res;
      const have = avail - res[1];
      if (have > 0) {
        outs.push(this._outBuffer.slice(this._outOffset, this._outOffset + have));
        this._outOffset += have;
      }
      if (res[1] === 0 || this._outOffset >= this._chunkSize) {
        this._outBuffer = Buffer.allocUnsafe(this._chunkSize);
        this._outOffset = 0;
      }
      inOff += inLen - res[0];
      inLen = res[0];
    } while (res[1] === 0);
    if (chunk) this.bytesWritten += chunk.length;
    return outs;
  };
  Zlib.prototype._step = function (chunk, flush, cb) {
    let outs;
    try {
      outs = this._run(chunk, flush);
    } catch (e) {
      this._hadError = true;
      cb(e);
      return;
    }
    for (const o of outs) this.push(o);
    cb();
  };
  Zlib.prototype._transform = function (chunk, encoding, cb) {
    const flush = chunk[kFlushFlag] !== undefined ? chunk[kFlushFlag] : this._defaultFlushFlag;
    this._step(chunk, flush, cb);
  };
  // The end of the input: the engine always finishes (a lenient engine
  // accepts a truncated input, see lenientOf).
  Zlib.prototype._flush = function (cb) {
    this._step(Buffer.alloc(0), constants.Z_FINISH, cb);
  };
  // _processChunk is Node's internal entry: synchronous without cb.
  Zlib.prototype._processChunk = function (chunk, flushFlag, cb) {
    if (typeof cb === 'function') {
      this._step(chunk, flushFlag, cb);
      return undefined;
    }
    const outs = this._run(chunk, flushFlag);
    return Buffer.concat(outs);
  };
  Zlib.prototype.flush = function (kind, cb) {
    if (typeof kind === 'function' || kind === undefined) {
      cb = kind;
      kind = this._defaultFullFlushFlag;
    }
    if (this.writableFinished) {
      if (cb) process.nextTick(cb);
      return;
    }
    const chunk = Buffer.alloc(0);
    chunk[kFlushFlag] = kind;
    this.write(chunk, cb);
  };
  Zlib.prototype.params = function (level, strategy, cb) {
    this._level = level;
    this._strategy = strategy;
    if (this._handle) this._handle.params(level);
    if (typeof cb === 'function') process.nextTick(cb);
  };
  Zlib.prototype.reset = function () {
    if (this._handle) this._handle.reset();
  };
  Zlib.prototype.close = function (cb) {
    if (typeof cb === 'function') this.once('close', () => cb());
    this.destroy();
  };
  Zlib.prototype._destroy = function (err, cb) {
    if (this._handle) {
      this._handle.close();
      this._handle = null;
    }
    cb(err);
  };

  const exports = {};
  const modes = [
    ['Deflate', 'deflate', constants.DEFLATE],
    ['Inflate', 'inflate', constants.INFLATE],
    ['Gzip', 'gzip', constants.GZIP],
    ['Gunzip', 'gunzip', constants.GUNZIP],
    ['DeflateRaw', 'deflateRaw', constants.DEFLATERAW],
    ['InflateRaw', 'inflateRaw', constants.INFLATERAW],
    ['Unzip', 'unzip', constants.UNZIP],
  ];
  for (const [Name, name, mode] of modes) {
    const Ctor = {
      [Name]: function (opts) {
        if (!(this instanceof Ctor)) return new Ctor(opts);
        Zlib.call(this, opts, mode);
      },
    }[Name];
    Object.setPrototypeOf(Ctor.prototype, Zlib.prototype);
    Object.setPrototypeOf(Ctor, Zlib);
    exports[Name] = Ctor;
    exports['create' + Name] = (opts) => new Ctor(opts);
    exports[name + 'Sync'] = (buffer, opts) => binding.process(mode, levelOf(opts), lenientOf(opts), toBytes(buffer));
    exports[name] = function (buffer, opts, cb) {
      if (typeof opts === 'function') {
        cb = opts;
        opts = {};
      }
      if (typeof cb !== 'function') {
        const e = new TypeError('The "callback" argument must be of type function. Received ' + typeof cb);
        e.code = 'ERR_INVALID_ARG_TYPE';
        throw e;
      }
      binding.processAsync(mode, levelOf(opts), lenientOf(opts), toBytes(buffer)).then((r) => cb(null, r), (e) => cb(e));
    };
  }
  exports.crc32 = (data, value) => binding.crc32(toBytes(data, 'data'), value || 0);
  exports.constants = Object.freeze(Object.assign({}, constants));
  exports.codes = Object.freeze(codes);
  // Node still exposes the constants on the module itself (pngjs reads
  // zlib.Z_MIN_CHUNK and zlib.Z_FINISH).
  for (const k of Object.keys(constants)) {
    if (k.startsWith('Z_')) Object.defineProperty(exports, k, { value: constants[k], enumerable: false });
  }
  // Brotli is not in Go's standard library: createBrotliCompress and the
  // brotli functions are absent, which is how packages (axios) detect it.
  return exports;
});
