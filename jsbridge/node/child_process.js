// node:child_process, the JavaScript half: ChildProcess and the exec,
// execFile, spawn families over jsbridge/node_child.go. The Go side
// refuses every call outside the bdd host.
(function (binding, require) {
  'use strict';
  const EventEmitter = require('node:events');
  const { Readable, Writable } = require('node:stream');

  function invalidArg(message) {
    const e = new TypeError(message);
    e.code = 'ERR_INVALID_ARG_TYPE';
    return e;
  }
  // The child's environment: options.env, else process.env (in ferridriver
  // only the allowed names), with PATH when it has none, so that commands
  // are found as from a shell.
  function envOf(options) {
    const env = Object.assign({}, options && options.env ? options.env : process.env);
    if (env.PATH === undefined) env.PATH = binding.path;
    return env;
  }
  function shellOf(options) {
    const sh = options && options.shell;
    return typeof sh === 'string' ? sh : '/bin/sh';
  }
  function specOf(file, args, options) {
    options = options || {};
    if (options.shell) {
      const line = [file].concat(args || []).join(' ');
      return { file: shellOf(options), args: ['-c', line], cwd: options.cwd, env: envOf(options), timeout: options.timeout, killSignal: options.killSignal, maxBuffer: options.maxBuffer, input: options.input, shown: line };
    }
    return { file, args: (args || []).map(String), cwd: options.cwd, env: envOf(options), timeout: options.timeout, killSignal: options.killSignal, maxBuffer: options.maxBuffer, input: options.input, shown: [file].concat(args || []).join(' ') };
  }
  // normalizeArgs reads (file, args?, options?, callback?).
  function normalizeArgs(file, args, options, cb) {
    if (typeof file !== 'string') throw invalidArg('The "file" argument must be of type string. Received ' + typeof file);
    if (typeof args === 'function') { cb = args; args = []; options = {}; }
    else if (!Array.isArray(args)) { cb = options; options = args; args = []; }
    if (typeof options === 'function') { cb = options; options = {}; }
    return [file, args || [], options || {}, cb];
  }

  class ChildProcess extends EventEmitter {
    constructor() {
      super();
      this.pid = undefined;
      this.exitCode = null;
      this.signalCode = null;
      this.killed = false;
      this.connected = false;
      this.stdin = null;
      this.stdout = null;
      this.stderr = null;
      this.stdio = [null, null, null];
    }
    kill(signal) {
      if (!this._handle) return false;
      const ok = this._handle.kill(signal === undefined ? 'SIGTERM' : signal);
      if (ok) this.killed = true;
      return ok;
    }
    ref() {}
    unref() {}
    disconnect() {}
    send() { throw new Error('child_process: there is no IPC channel in ferridriver'); }
  }

  function spawn(file, args, options) {
    [file, args, options] = normalizeArgs(file, args, options);
    binding.guard('spawn');
    const spec = specOf(file, args, options);
    const child = new ChildProcess();
    child.spawnfile = spec.file;
    child.spawnargs = [spec.file].concat(spec.args);
    const out = new Readable({ read() {} });
    const err = new Readable({ read() {} });
    let ended = 0;
    let exit = null;
    const maybeClose = () => {
      if (ended === 2 && exit) child.emit('close', exit[0], exit[1]);
    };
    out.on('end', () => { ended++; maybeClose(); });
    err.on('end', () => { ended++; maybeClose(); });
    const h = binding.spawn(spec, {
      onData: (fd, chunk) => (fd === 1 ? out : err).push(chunk),
      onExit: (code, signal) => {
        child.exitCode = code;
        child.signalCode = signal;
        child._handle = null;
        exit = [code, signal];
        child.emit('exit', code, signal);
        out.push(null);
        err.push(null);
        // 'close' follows when both streams have ended (they may be unread).
        if (out.listenerCount('data') === 0 && !out.readableFlowing) out.resume();
        if (err.listenerCount('data') === 0 && !err.readableFlowing) err.resume();
      },
    });
    if (h instanceof Error) {
      Promise.resolve().then(() => {
        child.emit('error', h);
        child.emit('close', -2, null);
      });
      return child;
    }
    child._handle = h;
    child.pid = h.pid;
    child.stdout = out;
    child.stderr = err;
    child.stdin = new Writable({
      write(chunk, enc, cb) { h.write(chunk); cb(); },
      final(cb) { h.end(); cb(); },
    });
    if (spec.input !== undefined) child.stdin.end(spec.input);
    child.stdio = [child.stdin, out, err];
    Promise.resolve().then(() => child.emit('spawn'));
    return child;
  }

  function execError(spec, code, signal, stderr, killedByTimeout) {
    const e = new Error('Command failed: ' + spec.shown + (stderr ? '\n' + stderr : ''));
    e.code = code;
    e.killed = killedByTimeout;
    e.signal = signal;
    e.cmd = spec.shown;
    return e;
  }
  function decode(buf, encoding) {
    return encoding === 'buffer' || encoding === null ? buf : buf.toString(encoding || 'utf8');
  }

  function execFile(file, args, options, cb) {
    [file, args, options, cb] = normalizeArgs(file, args, options, cb);
    binding.guard(options.shell ? 'exec' : 'execFile');
    const child = spawn(file, args, Object.assign({}, options, { timeout: undefined }));
    const outs = [];
    const errs = [];
    let size = 0;
    const maxBuffer = options.maxBuffer === undefined ? 1024 * 1024 : options.maxBuffer;
    let failure = null;
    let timedOut = false;
    let timer = null;
    if (options.timeout > 0) {
      timer = setTimeout(() => { timedOut = true; child.kill(options.killSignal || 'SIGTERM'); }, options.timeout);
    }
    const collect = (list) => (chunk) => {
      size += chunk.length;
      if (size > maxBuffer && !failure) {
        failure = Object.assign(new RangeError('stdout maxBuffer length exceeded'), { code: 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' });
        child.kill(options.killSignal || 'SIGTERM');
      }
      list.push(chunk);
    };
    if (child.stdout) child.stdout.on('data', collect(outs));
    if (child.stderr) child.stderr.on('data', collect(errs));
    const spec = specOf(file, args, options);
    let done = false;
    const finish = (err, code, signal) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      const stdout = decode(Buffer.concat(outs), options.encoding);
      const stderr = decode(Buffer.concat(errs), options.encoding);
      if (!err && (code !== 0 || signal)) err = failure || execError(spec, code, signal, String(stderr), timedOut);
      if (err) {
        err.stdout = stdout;
        err.stderr = stderr;
      }
      if (cb) cb(err || null, stdout, stderr);
    };
    child.on('error', (e) => finish(e));
    child.on('close', (code, signal) => finish(failure, code, signal));
    return child;
  }
  function exec(command, options, cb) {
    if (typeof options === 'function') { cb = options; options = {}; }
    options = Object.assign({}, options, { shell: options && typeof options.shell === 'string' ? options.shell : true });
    return execFile(command, [], options, cb);
  }
  const promisified = (fn) => (...args) => new Promise((resolve, reject) => {
    fn(...args, (err, stdout, stderr) => (err ? reject(err) : resolve({ stdout, stderr })));
  });
  const kCustom = Symbol.for('nodejs.util.promisify.custom');
  exec[kCustom] = promisified(exec);
  execFile[kCustom] = promisified(execFile);

  function spawnSync(file, args, options) {
    [file, args, options] = normalizeArgs(file, args, options);
    const spec = specOf(file, args, options);
    const r = binding.spawnSync(spec);
    const enc = options.encoding;
    const out = {
      pid: r.pid || 0,
      output: [null, decode(r.stdout || Buffer.alloc(0), enc || 'buffer'), decode(r.stderr || Buffer.alloc(0), enc || 'buffer')],
      status: r.status,
      signal: r.signal,
    };
    out.stdout = out.output[1];
    out.stderr = out.output[2];
    if (r.error) out.error = r.error;
    return out;
  }
  function checkSync(spec, r, options) {
    if (r.error) throw Object.assign(r.error, { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, output: r.output, pid: r.pid });
    if (r.status !== 0 || r.signal) {
      const e = new Error('Command failed: ' + spec.shown + (r.stderr && r.stderr.length ? '\n' + String(r.stderr) : ''));
      Object.assign(e, { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, output: r.output, pid: r.pid });
      throw e;
    }
    // Node's *Sync functions pass the child's stderr through by default.
    if (!options.stdio && r.stderr && r.stderr.length) process.stderr.write(String(r.stderr));
    return r.stdout;
  }
  function execFileSync(file, args, options) {
    [file, args, options] = normalizeArgs(file, args, options);
    binding.guard('execFileSync');
    const r = spawnSync(file, args, options);
    return checkSync(specOf(file, args, options), r, options);
  }
  function execSync(command, options) {
    binding.guard('execSync');
    options = Object.assign({}, options, { shell: options && typeof options.shell === 'string' ? options.shell : true });
    const r = spawnSync(command, [], options);
    return checkSync(specOf(command, [], options), r, options);
  }
  function fork() {
    const e = new Error('child_process.fork is not available in ferridriver (there is no Node.js to fork)');
    e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
    throw e;
  }
  return { ChildProcess, spawn, exec, execFile, spawnSync, execSync, execFileSync, fork };
});
