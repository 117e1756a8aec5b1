// node:fs, the JavaScript half: Node's API over the Go operations of
// jsbridge/node_fs.go (binding.call runs one synchronously, binding.promise
// off the loop). Argument handling, Stats, Dirent, Dir, FileHandle and the
// streams are here; every system call is in Go.
(function (binding, require) {
  'use strict';
  const constants = binding.constants;
  const fs = {};
  const promises = {};

  function typeError(code, message) {
    const e = new TypeError(message);
    e.code = code;
    return e;
  }
  function received(v) {
    if (v === null) return 'null';
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return 'function ' + (v.name || '');
    if (typeof v === 'object') return 'an instance of ' + ((v.constructor && v.constructor.name) || 'Object');
    return 'type ' + typeof v + ' (' + String(v).slice(0, 25) + ')';
  }

  // toPath accepts what Node accepts: a string, a Buffer or a file: URL.
  function toPath(p, name) {
    if (typeof p === 'string') return p;
    if (p && typeof p === 'object') {
      if (typeof p.href === 'string' && typeof p.protocol === 'string') {
        if (p.protocol !== 'file:') throw typeError('ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
        return decodeURIComponent(p.pathname);
      }
      if (ArrayBuffer.isView(p)) return Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString();
    }
    throw typeError('ERR_INVALID_ARG_TYPE', 'The "' + (name || 'path') + '" argument must be of type string or an instance of Buffer or URL. Received ' + received(p));
  }
  const isFd = (v) => typeof v === 'number';
  function pathOrFd(p) {
    if (isFd(p)) return p;
    if (p instanceof FileHandle) return p.fd;
    return toPath(p);
  }
  function encodingOf(options, def) {
    if (typeof options === 'string') return options;
    if (options && options.encoding !== undefined && options.encoding !== null) return options.encoding;
    return def;
  }
  function flagOf(options, def) {
    return options && typeof options === 'object' && options.flag !== undefined ? options.flag : def;
  }
  function modeOf(m, def) {
    if (m === undefined || m === null) return def;
    if (typeof m === 'string') return parseInt(m, 8);
    return m;
  }
  const isUtf8 = (e) => typeof e === 'string' && /^utf-?8$/i.test(e);
  function decoded(r, enc) {
    if (typeof r === 'string' || !enc || enc === 'buffer') return r;
    return r.toString(enc);
  }
  // dataOf is what the Go side writes: a string (UTF-8) or bytes.
  function dataOf(data, options) {
    if (typeof data === 'string') {
      const enc = encodingOf(options, 'utf8');
      return isUtf8(enc) ? data : Buffer.from(data, enc);
    }
    if (ArrayBuffer.isView(data)) return data;
    throw typeError('ERR_INVALID_ARG_TYPE', 'The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ' + received(data));
  }
  function checkCallback(cb) {
    if (typeof cb !== 'function') throw typeError('ERR_INVALID_ARG_TYPE', 'The "cb" argument must be of type function. Received ' + received(cb));
    return cb;
  }

  // def installs an operation in its three forms: fs.nameSync, fs.name
  // (callback last) and fs.promises.name. prep maps Node's arguments to
  // [goOperation, goArguments, post], post shaping the result.
  function def(name, prep, opts) {
    opts = opts || {};
    fs[name + 'Sync'] = function () {
      const [op, args, post] = prep.apply(null, arguments);
      const r = binding.call(name + 'Sync', op, ...args);
      return post ? post(r) : r;
    };
    fs[name] = function () {
      const args = Array.prototype.slice.call(arguments);
      const cb = opts.optionalCallback && typeof args[args.length - 1] !== 'function' ? () => {} : checkCallback(args.pop());
      const [op, goArgs, post] = prep.apply(null, args);
      binding.promise(name, op, ...goArgs).then((r) => {
        const v = post ? post(r) : r;
        if (opts.spread) cb(null, ...v); else cb(null, v);
      }, (e) => cb(e));
    };
    if (opts.noPromise) return;
    promises[name] = function () {
      try {
        const [op, args, post] = prep.apply(null, arguments);
        const p = binding.promise('promises.' + name, op, ...args);
        return post ? p.then(post) : p;
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }

  // ---- Stats, Dirent ----
  const S_IFMT = constants.S_IFMT;
  class StatsBase {
    isFile() { return (this.mode & S_IFMT) === constants.S_IFREG; }
    isDirectory() { return (this.mode & S_IFMT) === constants.S_IFDIR; }
    isSymbolicLink() { return (this.mode & S_IFMT) === constants.S_IFLNK; }
    isFIFO() { return (this.mode & S_IFMT) === constants.S_IFIFO; }
    isSocket() { return (this.mode & S_IFMT) === constants.S_IFSOCK; }
    isCharacterDevice() { return (this.mode & S_IFMT) === constants.S_IFCHR; }
    isBlockDevice() { return (this.mode & S_IFMT) === constants.S_IFBLK; }
  }
  class Stats extends StatsBase {
    constructor(d) {
      super();
      Object.assign(this, d);
      this.atime = new Date(d.atimeMs);
      this.mtime = new Date(d.mtimeMs);
      this.ctime = new Date(d.ctimeMs);
      this.birthtime = new Date(d.birthtimeMs);
    }
  }
  class BigIntStats extends StatsBase {
    constructor(d) {
      super();
      for (const k of Object.keys(d)) this[k] = BigInt(Math.trunc(d[k]));
      for (const t of ['atime', 'mtime', 'ctime', 'birthtime']) {
        this[t + 'Ns'] = BigInt(Math.trunc(d[t + 'Ms'] * 1e6));
        this[t] = new Date(d[t + 'Ms']);
      }
    }
    isFile() { return (Number(this.mode) & S_IFMT) === constants.S_IFREG; }
    isDirectory() { return (Number(this.mode) & S_IFMT) === constants.S_IFDIR; }
    isSymbolicLink() { return (Number(this.mode) & S_IFMT) === constants.S_IFLNK; }
  }
  const statsOf = (options) => (d) => (options && options.bigint ? new BigIntStats(d) : new Stats(d));

  class Dirent {
    constructor(name, parentPath, type) {
      this.name = name;
      this.parentPath = parentPath;
      this.path = parentPath;
      Object.defineProperty(this, '_type', { value: type });
    }
    isFile() { return this._type === constants.S_IFREG; }
    isDirectory() { return this._type === constants.S_IFDIR; }
    isSymbolicLink() { return this._type === constants.S_IFLNK; }
    isFIFO() { return this._type === constants.S_IFIFO; }
    isSocket() { return this._type === constants.S_IFSOCK; }
    isCharacterDevice() { return this._type === constants.S_IFCHR; }
    isBlockDevice() { return this._type === constants.S_IFBLK; }
  }
  const dirents = (list) => list.map(([name, parent, type]) => new Dirent(name, parent, type));

  // ---- the operations ----
  def('access', (p, mode) => ['access', [toPath(p), mode === undefined ? constants.F_OK : mode]]);
  def('stat', (p, options) => ['stat', [toPath(p)], statsOf(options)]);
  def('lstat', (p, options) => ['lstat', [toPath(p)], statsOf(options)]);
  def('fstat', (fd, options) => ['fstat', [fd], statsOf(options)]);
  // statSync(p, {throwIfNoEntry: false}) returns undefined for a missing file.
  for (const name of ['statSync', 'lstatSync']) {
    const inner = fs[name];
    fs[name] = function (p, options) {
      try {
        return inner(p, options);
      } catch (e) {
        if (options && options.throwIfNoEntry === false && (e.code === 'ENOENT' || e.code === 'ENOTDIR')) return undefined;
        throw e;
      }
    };
  }
  def('readFile', (p, options) => {
    const enc = encodingOf(options, null);
    return ['readFile', [pathOrFd(p), isUtf8(enc), flagOf(options, 'r')], (r) => decoded(r, enc)];
  });
  def('writeFile', (p, data, options) => ['writeFile', [pathOrFd(p), dataOf(data, options), flagOf(options, 'w'), modeOf(options && options.mode, 0o666)]]);
  def('appendFile', (p, data, options) => ['writeFile', [pathOrFd(p), dataOf(data, options), flagOf(options, 'a'), modeOf(options && options.mode, 0o666)]]);
  def('mkdir', (p, options) => {
    const o = typeof options === 'object' && options !== null ? options : { mode: options };
    return ['mkdir', [toPath(p), !!o.recursive, modeOf(o.mode, 0o777)]];
  });
  def('mkdtemp', (prefix, options) => ['mkdtemp', [toPath(prefix, 'prefix')]]);
  def('readdir', (p, options) => {
    const o = typeof options === 'object' && options !== null ? options : {};
    return ['readdir', [toPath(p), !!o.withFileTypes, !!o.recursive], (r) => (o.withFileTypes ? dirents(r) : r)];
  });
  def('rm', (p, options) => {
    const o = options || {};
    return ['rm', [toPath(p), !!o.recursive, !!o.force]];
  });
  def('rmdir', (p, options) => ['rmdir', [toPath(p), !!(options && options.recursive)]]);
  def('unlink', (p) => ['unlink', [toPath(p)]]);
  def('rename', (from, to) => ['rename', [toPath(from, 'oldPath'), toPath(to, 'newPath')]]);
  def('copyFile', (from, to, mode) => ['copyFile', [toPath(from, 'src'), toPath(to, 'dest'), mode || 0]]);
  def('realpath', (p, options) => ['realpath', [toPath(p)]]);
  def('readlink', (p, options) => ['readlink', [toPath(p)]]);
  def('symlink', (target, p, type) => ['symlink', [toPath(target, 'target'), toPath(p)]]);
  def('link', (from, to) => ['link', [toPath(from, 'existingPath'), toPath(to, 'newPath')]]);
  def('chmod', (p, mode) => ['chmod', [toPath(p), modeOf(mode, 0)]]);
  def('fchmod', (fd, mode) => ['fchmod', [fd, modeOf(mode, 0)]]);
  def('chown', (p, uid, gid) => ['chown', [toPath(p), uid, gid]]);
  def('lchown', (p, uid, gid) => ['lchown', [toPath(p), uid, gid]]);
  def('fchown', (fd, uid, gid) => ['fchown', [fd, uid, gid]]);
  const seconds = (t) => (t instanceof Date ? t.getTime() / 1000 : typeof t === 'string' ? Number(t) : t);
  def('utimes', (p, at, mt) => ['utimes', [toPath(p), seconds(at), seconds(mt)]]);
  def('lutimes', (p, at, mt) => ['lutimes', [toPath(p), seconds(at), seconds(mt)]]);
  def('futimes', (fd, at, mt) => ['futimes', [fd, seconds(at), seconds(mt)]]);
  def('truncate', (p, len) => (isFd(p) ? ['ftruncate', [p, len || 0]] : ['truncate', [toPath(p), len || 0]]));
  def('ftruncate', (fd, len) => ['ftruncate', [fd, len || 0]]);
  def('open', (p, flags, mode) => ['open', [toPath(p), flags === undefined || flags === null ? 'r' : flags, modeOf(mode, 0o666)]], { noPromise: true });
  def('close', (fd) => ['close', [fd]], { noPromise: true, optionalCallback: true });
  def('fsync', (fd) => ['fsync', [fd]], { noPromise: true });
  def('fdatasync', (fd) => ['fsync', [fd]], { noPromise: true });

  // read(fd, buffer, offset, length, position) or read(fd, {buffer,
  // offset, length, position}): the bytes are copied into buffer.
  function readArgs(fd, buffer, offset, length, position) {
    if (buffer && !ArrayBuffer.isView(buffer) && typeof buffer === 'object') {
      ({ buffer, offset, length, position } = buffer);
    }
    if (buffer === undefined) buffer = Buffer.alloc(16384);
    if (!ArrayBuffer.isView(buffer)) throw typeError('ERR_INVALID_ARG_TYPE', 'The "buffer" argument must be an instance of Buffer, TypedArray, or DataView. Received ' + received(buffer));
    if (offset && typeof offset === 'object') ({ offset, length, position } = offset);
    offset = offset || 0;
    if (length === undefined) length = buffer.byteLength - offset;
    if (position === null || position === undefined || typeof position === 'bigint') position = position === undefined || position === null ? -1 : Number(position);
    const target = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    return ['read', [fd, length, position], (bytes) => { target.set(bytes, offset); return [bytes.length, buffer]; }];
  }
  fs.readSync = function (fd, buffer, offset, length, position) {
    const [op, args, post] = readArgs(fd, buffer, offset, length, position);
    return post(binding.call('readSync', op, ...args))[0];
  };
  fs.read = function (fd, ...rest) {
    const cb = checkCallback(rest.pop());
    const [op, args, post] = readArgs(fd, ...rest);
    binding.promise('read', op, ...args).then((r) => cb(null, ...post(r)), cb);
  };
  // write(fd, buffer, offset, length, position) or write(fd, string,
  // position, encoding).
  function writeArgs(fd, data, a, b, c) {
    if (typeof data === 'string') {
      const position = typeof a === 'number' ? a : -1;
      const enc = typeof b === 'string' ? b : 'utf8';
      return ['write', [fd, isUtf8(enc) ? data : Buffer.from(data, enc), position], (n) => [n, data]];
    }
    if (!ArrayBuffer.isView(data)) throw typeError('ERR_INVALID_ARG_TYPE', 'The "buffer" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ' + received(data));
    let offset = a, length = b, position = c;
    if (offset && typeof offset === 'object') ({ offset, length, position } = offset);
    offset = offset || 0;
    if (length === undefined) length = data.byteLength - offset;
    const bytes = new Uint8Array(data.buffer, data.byteOffset + offset, length);
    return ['write', [fd, bytes, typeof position === 'number' ? position : -1], (n) => [n, data]];
  }
  fs.writeSync = function (fd, data, a, b, c) {
    const [op, args, post] = writeArgs(fd, data, a, b, c);
    return post(binding.call('writeSync', op, ...args))[0];
  };
  fs.write = function (fd, data, ...rest) {
    const cb = checkCallback(rest.pop());
    const [op, args, post] = writeArgs(fd, data, ...rest);
    binding.promise('write', op, ...args).then((r) => cb(null, ...post(r)), cb);
  };

  fs.existsSync = (p) => {
    try {
      return binding.call('existsSync', 'exists', toPath(p));
    } catch (e) {
      if (e instanceof TypeError) return false;
      throw e;
    }
  };
  fs.exists = (p, cb) => {
    checkCallback(cb);
    let path;
    try { path = toPath(p); } catch (e) { Promise.resolve().then(() => cb(false)); return; }
    binding.promise('exists', 'exists', path).then(cb, () => cb(false));
  };
  fs.realpathSync.native = fs.realpathSync;
  fs.realpath.native = fs.realpath;

  // ---- cp: a recursive copy with Node's main options ----
  function cpPlan(src, dest, options) {
    const o = Object.assign({ force: true, recursive: false, errorOnExist: false }, options || {});
    if (typeof o.filter === 'function' && o.filter.constructor.name === 'AsyncFunction') {
      throw typeError('ERR_INVALID_ARG_TYPE', 'cpSync: filter must be synchronous');
    }
    return o;
  }
  function cpSync(src, dest, options) {
    src = toPath(src, 'src');
    dest = toPath(dest, 'dest');
    const o = cpPlan(src, dest, options);
    if (o.filter && !o.filter(src, dest)) return;
    const st = fs.statSync(src);
    if (st.isDirectory()) {
      if (!o.recursive) {
        const e = new Error('Recursive option is required to copy a directory: ' + src);
        e.code = 'ERR_FS_EISDIR';
        throw e;
      }
      fs.mkdirSync(dest, { recursive: true });
      for (const name of fs.readdirSync(src)) cpSync(src + '/' + name, dest + '/' + name, o);
      return;
    }
    if (fs.existsSync(dest)) {
      if (o.errorOnExist && !o.force) {
        const e = new Error('Target already exists: cp returned EEXIST (' + dest + ' already exists)');
        e.code = 'ERR_FS_CP_EEXIST';
        throw e;
      }
      if (!o.force) return;
    }
    fs.copyFileSync(src, dest);
    if (o.preserveTimestamps) fs.utimesSync(dest, st.atime, st.mtime);
  }
  fs.cpSync = cpSync;
  promises.cp = (src, dest, options) => new Promise((resolve) => resolve(cpSync(src, dest, options)));
  fs.cp = (src, dest, options, cb) => {
    if (typeof options === 'function') { cb = options; options = undefined; }
    checkCallback(cb);
    promises.cp(src, dest, options).then(() => cb(null), cb);
  };

  // ---- Dir (opendir): the entries are read when it opens ----
  class Dir {
    constructor(path, entries) {
      this.path = path;
      Object.defineProperty(this, '_entries', { value: entries, writable: true });
      Object.defineProperty(this, '_closed', { value: false, writable: true });
    }
    readSync() {
      if (this._closed) throw Object.assign(new Error('Directory handle was closed'), { code: 'ERR_DIR_CLOSED' });
      return this._entries.length ? this._entries.shift() : null;
    }
    read(cb) {
      const p = new Promise((resolve) => resolve(this.readSync()));
      if (typeof cb === 'function') { p.then((v) => cb(null, v), cb); return undefined; }
      return p;
    }
    closeSync() { this._closed = true; }
    close(cb) {
      this._closed = true;
      if (typeof cb === 'function') { Promise.resolve().then(() => cb(null)); return undefined; }
      return Promise.resolve();
    }
    [Symbol.asyncIterator]() {
      return {
        next: async () => {
          const v = this.readSync();
          if (v === null) { this.closeSync(); return { done: true, value: undefined }; }
          return { done: false, value: v };
        },
        return: async () => { this.closeSync(); return { done: true, value: undefined }; },
        [Symbol.asyncIterator]() { return this; },
      };
    }
  }
  def('opendir', (p, options) => {
    const path = toPath(p);
    return ['readdir', [path, true, !!(options && options.recursive)], (r) => new Dir(path, dirents(r))];
  });

  const unsupported = (name) => function () {
    const e = new Error('fs.' + name + ' is not supported in ferridriver');
    e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
    throw e;
  };
  for (const n of ['watch', 'watchFile', 'unwatchFile', 'statfs', 'statfsSync']) fs[n] = unsupported(n);
  promises.watch = unsupported('promises.watch');

  // ---- FileHandle (fs.promises.open) ----
  class FileHandle {
    constructor(fd) { this.fd = fd; }
    getAsyncId() { return this.fd; }
    async read(buffer, offset, length, position) {
      const [op, args, post] = readArgs(this.fd, buffer, offset, length, position);
      const [bytesRead, buf] = post(await binding.promise('filehandle.read', op, ...args));
      return { bytesRead, buffer: buf };
    }
    async write(data, a, b, c) {
      const [op, args, post] = writeArgs(this.fd, data, a, b, c);
      const [n, buf] = post(await binding.promise('filehandle.write', op, ...args));
      return { bytesWritten: n, buffer: buf };
    }
    readFile(options) { return promises.readFile(this.fd, options); }
    writeFile(data, options) { return promises.writeFile(this.fd, data, options); }
    appendFile(data, options) { return promises.appendFile(this.fd, data, options); }
    stat(options) { return binding.promise('filehandle', 'fstat', this.fd).then(statsOf(options)); }
    truncate(len) { return binding.promise('filehandle', 'ftruncate', this.fd, len || 0); }
    chmod(mode) { return binding.promise('filehandle', 'fchmod', this.fd, modeOf(mode, 0)); }
    chown(uid, gid) { return binding.promise('filehandle', 'fchown', this.fd, uid, gid); }
    utimes(at, mt) { return binding.promise('filehandle', 'futimes', this.fd, seconds(at), seconds(mt)); }
    sync() { return binding.promise('filehandle', 'fsync', this.fd); }
    datasync() { return binding.promise('filehandle', 'fsync', this.fd); }
    async close() {
      if (this.fd < 0) return;
      const fd = this.fd;
      this.fd = -1;
      await binding.promise('filehandle.close', 'close', fd);
    }
    createReadStream(options) { return new ReadStream(null, Object.assign({}, options, { fd: this })); }
    createWriteStream(options) { return new WriteStream(null, Object.assign({}, options, { fd: this })); }
  }
  promises.open = async (p, flags, mode) => new FileHandle(await binding.promise('promises.open', 'open', toPath(p), flags === undefined || flags === null ? 'r' : flags, modeOf(mode, 0o666)));
  delete promises.fstat; // fs.promises has no fstat: FileHandle.stat
  promises.constants = constants;

  // ---- streams (on the npm readable-stream polyfill) ----
  let stream;
  const streams = () => stream || (stream = require('node:stream'));
  const fdOf = (fd) => (fd && typeof fd === 'object' ? fd.fd : fd);

  // openStream and closeStream open and close the file of a ReadStream or
  // WriteStream (unless it was given an fd), as Node's streams do.
  function openStream(s, cb) {
    if (s.fd !== null) { cb(); return; }
    binding.promise(s.constructor.name, 'open', s.path, s.flags, s.mode).then((fd) => {
      s.fd = fd;
      cb();
      s.emit('open', fd);
      s.emit('ready');
    }, (e) => cb(e));
  }
  function closeStream(s, err, cb) {
    if (s.fd === null || !s.autoClose) { cb(err); return; }
    const fd = s.fd;
    s.fd = null;
    binding.promise(s.constructor.name, 'close', fd).then(() => cb(err), (e) => cb(err || e));
  }

  let ReadStream, WriteStream;
  function defineStreams() {
    if (ReadStream) return;
    const { Readable, Writable } = streams();
    ReadStream = class ReadStream extends Readable {
      constructor(path, options) {
        options = typeof options === 'string' ? { encoding: options } : Object.assign({}, options);
        const hwm = options.highWaterMark === undefined ? 64 * 1024 : options.highWaterMark;
        super({ highWaterMark: hwm, encoding: options.encoding, emitClose: options.emitClose !== false, autoDestroy: options.autoClose !== false });
        this.path = options.fd === undefined || options.fd === null ? toPath(path) : undefined;
        this.fd = options.fd === undefined ? null : fdOf(options.fd);
        this.flags = options.flags === undefined ? 'r' : options.flags;
        this.mode = options.mode === undefined ? 0o666 : options.mode;
        this.start = options.start;
        this.end = options.end === undefined ? Infinity : options.end;
        this.pos = this.start;
        this.bytesRead = 0;
        this.autoClose = options.autoClose !== false;
        if (this.path !== undefined && this.start === undefined && options.end === undefined) {
          // attach() reads such a stream's file directly.
          Object.defineProperty(this, '__ferridriverPath', { value: binding.resolve(this.path) });
        }
      }
      get pending() { return this.fd === null; }
      _construct(cb) { openStream(this, cb); }
      _read(n) {
        let len = n;
        if (this.end !== Infinity) {
          const left = this.end - (this.pos === undefined ? this.bytesRead : this.pos) + 1;
          if (left <= 0) { this.push(null); return; }
          len = Math.min(n, left);
        }
        const pos = this.pos === undefined ? -1 : this.pos;
        binding.promise('ReadStream', 'read', this.fd, len, pos).then((bytes) => {
          if (this.pos !== undefined) this.pos += bytes.length;
          this.bytesRead += bytes.length;
          this.push(bytes.length > 0 ? bytes : null);
        }, (e) => this.destroy(e));
      }
      _destroy(err, cb) { closeStream(this, err, cb); }
      close(cb) {
        if (typeof cb === 'function') require('node:stream').finished(this, cb);
        this.destroy();
      }
    };
    WriteStream = class WriteStream extends Writable {
      constructor(path, options) {
        options = typeof options === 'string' ? { encoding: options } : Object.assign({}, options);
        super({ highWaterMark: options.highWaterMark, decodeStrings: true, defaultEncoding: options.encoding || 'utf8', emitClose: options.emitClose !== false, autoDestroy: options.autoClose !== false });
        this.path = options.fd === undefined || options.fd === null ? toPath(path) : undefined;
        this.fd = options.fd === undefined ? null : fdOf(options.fd);
        this.flags = options.flags === undefined ? 'w' : options.flags;
        this.mode = options.mode === undefined ? 0o666 : options.mode;
        this.start = options.start;
        this.pos = this.start;
        this.bytesWritten = 0;
        this.autoClose = options.autoClose !== false;
      }
      get pending() { return this.fd === null; }
      _construct(cb) { openStream(this, cb); }
      _write(chunk, encoding, cb) {
        const pos = this.pos === undefined ? -1 : this.pos;
        binding.promise('WriteStream', 'write', this.fd, chunk, pos).then((n) => {
          this.bytesWritten += n;
          if (this.pos !== undefined) this.pos += n;
          cb();
        }, cb);
      }
      _destroy(err, cb) { closeStream(this, err, cb); }
      close(cb) {
        if (typeof cb === 'function') {
          if (this.closed) { Promise.resolve().then(() => cb()); } else this.once('close', () => cb());
        }
        if (!this.writableEnded) this.end(); else this.destroy();
      }
      destroySoon() { this.end(); }
    };
  }
  // ReadStream and WriteStream load the stream polyfill when first used.
  for (const [name, get] of [['ReadStream', () => ReadStream], ['WriteStream', () => WriteStream]]) {
    Object.defineProperty(fs, name, {
      enumerable: true,
      configurable: true,
      get() { defineStreams(); return get(); },
      set(v) { Object.defineProperty(fs, name, { value: v, writable: true, enumerable: true, configurable: true }); },
    });
  }
  const streamCheck = (fn, path, options, flags) => {
    const o = typeof options === 'object' && options !== null ? options : {};
    if (o.fd === undefined || o.fd === null) binding.check(fn, toPath(path), o.flags === undefined ? flags : o.flags);
  };
  fs.createReadStream = (path, options) => { streamCheck('createReadStream', path, options, 'r'); defineStreams(); return new ReadStream(path, options); };
  fs.createWriteStream = (path, options) => { streamCheck('createWriteStream', path, options, 'w'); defineStreams(); return new WriteStream(path, options); };

  fs.Stats = Stats;
  fs.BigIntStats = BigIntStats;
  fs.Dirent = Dirent;
  fs.Dir = Dir;
  fs.constants = constants;
  for (const k of ['F_OK', 'R_OK', 'W_OK', 'X_OK']) fs[k] = constants[k];
  fs.promises = promises;
  return fs;
});
