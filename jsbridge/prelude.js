// ferridriver prelude: the parts of the JS API that are most natural to
// write in JS. Evaluated once per VM; returns its exports to Go.
(function (native) {
  'use strict';

  // goja lacks these; esbuild's lowering of for-await needs the symbol.
  if (!Symbol.asyncIterator) Object.defineProperty(Symbol, 'asyncIterator', { value: Symbol.for('Symbol.asyncIterator') });
  // goja has no shared memory and no resizable buffers: packages that
  // brand-check buffers read these getters (webidl-conversions).
  if (typeof SharedArrayBuffer === 'undefined') {
    // Instances are plain placeholders (no memory is shared): they exist so
    // that feature tests such as util's new SharedArrayBuffer() work.
    class SharedArrayBuffer {
      #length;
      constructor(length) { this.#length = Math.max(0, Math.trunc(Number(length) || 0)); }
      get byteLength() { return this.#length; }
      get growable() { this.#length; return false; }
      get maxByteLength() { return this.#length; }
      get [Symbol.toStringTag]() { return 'SharedArrayBuffer'; }
    }
    Object.defineProperty(globalThis, 'SharedArrayBuffer', { value: SharedArrayBuffer, writable: true, configurable: true });
  }
  if (!Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'resizable')) {
    const byteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
    Object.defineProperty(ArrayBuffer.prototype, 'resizable', { get() { byteLength.call(this); return false; }, configurable: true });
    Object.defineProperty(ArrayBuffer.prototype, 'maxByteLength', { get() { return byteLength.call(this); }, configurable: true });
  }
  // goja lacks the RegExp v (unicodeSets) flag, which packages now use in
  // literals that esbuild compiles to new RegExp(source, 'gv'). A v
  // pattern without set notation (nested classes, --, &&, \\q{}) means
  // the same with the u flag, so the constructor takes it as u; set
  // notation is a clear SyntaxError. Regular expression literals never
  // reach the constructor: only new RegExp(...) and RegExp(...) calls.
  if ((() => { try { new RegExp('', 'v'); return false; } catch (e) { return true; } })()) {
    const NativeRegExp = RegExp;
    const setNotation = (src) => {
      let inClass = false;
      for (let i = 0; i < src.length; i++) {
        const c = src[i];
        if (c === '\\') {
          if (inClass && src[i + 1] === 'q') return true;
          i++;
        } else if (inClass) {
          if (c === ']') inClass = false;
          else if (c === '[' || ((c === '-' || c === '&') && src[i + 1] === c)) return true;
        } else if (c === '[') {
          inClass = true;
        }
      }
      return false;
    };
    const translate = (args) => {
      const flags = args[1];
      if (typeof flags !== 'string' || flags.indexOf('v') < 0) return args;
      const src = args[0] instanceof NativeRegExp ? args[0].source : String(args[0] === undefined ? '' : args[0]);
      if (flags.indexOf('u') >= 0 || setNotation(src)) {
        throw new SyntaxError('Invalid regular expression: /' + src + '/' + flags + ': the v flag with set notation is not supported by ferridriver\'s JavaScript engine');
      }
      return [src, flags.replace('v', 'u')];
    };
    const hasInstance = (v) => v instanceof NativeRegExp;
    const RegExpProxy = new Proxy(NativeRegExp, {
      construct: (target, args, newTarget) => Reflect.construct(target, translate(args), newTarget === RegExpProxy ? target : newTarget),
      apply: (target, self, args) => Reflect.apply(target, self, translate(args)),
      // goja's instanceof does not call through a proxied constructor.
      get: (target, key, receiver) => (key === Symbol.hasInstance ? hasInstance : Reflect.get(target, key, receiver)),
    });
    NativeRegExp.prototype.constructor = RegExpProxy;
    globalThis.RegExp = RegExpProxy;
  }
  // %AsyncIteratorPrototype%, which goja (no async generators) does not
  // expose: internal/gojacompat rewrites the idiom that reaches it to this.
  Object.defineProperty(globalThis, '__ferridriverAsyncIteratorPrototype', {
    value: { [Symbol.asyncIterator]() { return this; } },
  });
  if (typeof WeakRef === 'undefined') {
    globalThis.WeakRef = class WeakRef { constructor(t) { this._t = t; } deref() { return this._t; } };
    globalThis.FinalizationRegistry = class FinalizationRegistry { register() {} unregister() {} };
  }

  // ---- util.inspect / util.format (Node's shapes, smaller) ----
  const customInspect = Symbol.for('nodejs.util.inspect.custom');
  function inspect(value, opts) {
    const depth = opts && typeof opts.depth === 'number' ? opts.depth : 2;
    const seen = [];
    function str(v, level, top) {
      switch (typeof v) {
        case 'string':
          return top ? v : quote(v);
        case 'number':
          return Object.is(v, -0) ? '-0' : String(v);
        case 'bigint':
          return v + 'n';
        case 'boolean':
        case 'undefined':
          return String(v);
        case 'symbol':
          return v.toString();
        case 'function': {
          const isClass = /^class\b/.test(Function.prototype.toString.call(v));
          return '[' + (isClass ? 'class ' : 'Function: ') + (v.name || '(anonymous)') + ']';
        }
      }
      if (v === null) return 'null';
      if (seen.indexOf(v) >= 0) return '[Circular *1]';
      const custom = v[customInspect];
      if (typeof custom === 'function' && custom !== inspect) {
        const r = custom.call(v, depth - level, Object.assign({}, opts, { depth: depth - level }), inspect);
        if (r !== v) return typeof r === 'string' ? r : str(r, level, false);
      }
      if (v instanceof Error) return v.stack || (v.name + ': ' + v.message);
      if (v instanceof Date) return isNaN(v) ? 'Invalid Date' : v.toISOString();
      if (v instanceof RegExp) return String(v);
      if (typeof v.then === 'function' && v instanceof Promise) return 'Promise { <pending> }';
      if (level > depth) return Array.isArray(v) ? '[Array]' : '[Object]';
      seen.push(v);
      try {
        if (Array.isArray(v)) {
          if (v.length === 0) return '[]';
          const items = v.slice(0, 100).map((x) => str(x, level + 1));
          if (v.length > 100) items.push('... ' + (v.length - 100) + ' more items');
          return wrap('[', items, ']', level);
        }
        if (v instanceof Map) {
          const items = [];
          v.forEach((val, key) => items.push(str(key, level + 1) + ' => ' + str(val, level + 1)));
          return 'Map(' + v.size + ') ' + (items.length ? wrap('{', items, '}', level) : '{}');
        }
        if (v instanceof Set) {
          const items = [];
          v.forEach((val) => items.push(str(val, level + 1)));
          return 'Set(' + v.size + ') ' + (items.length ? wrap('{', items, '}', level) : '{}');
        }
        if (ArrayBuffer.isView(v)) {
          const name = (v.constructor && v.constructor.name) || 'TypedArray';
          const items = Array.prototype.slice.call(v, 0, 50).map((b) => name === 'Buffer' ? b.toString(16).padStart(2, '0') : String(b));
          if (name === 'Buffer') return '<Buffer' + (items.length ? ' ' + items.join(' ') : '') + (v.length > 50 ? ' ... ' + (v.length - 50) + ' more bytes' : '') + '>';
          return name + '(' + v.length + ') ' + wrap('[', items, ']', level);
        }
        const keys = Object.keys(v);
        const proto = Object.getPrototypeOf(v);
        let prefix = '';
        if (proto === null) prefix = '[Object: null prototype] ';
        else if (proto !== Object.prototype && proto.constructor && proto.constructor.name) prefix = proto.constructor.name + ' ';
        if (keys.length === 0) return prefix + '{}';
        const items = keys.map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k)) + ': ' + str(v[k], level + 1));
        return prefix + wrap('{', items, '}', level);
      } finally {
        seen.pop();
      }
    }
    function wrap(open, items, close, level) {
      const oneLine = open + ' ' + items.join(', ') + ' ' + close;
      if (oneLine.length <= 72 && oneLine.indexOf('\n') < 0) return oneLine;
      const pad = '  '.repeat(level + 1);
      return open + '\n' + items.map((i) => pad + i).join(',\n') + '\n' + '  '.repeat(level) + close;
    }
    function quote(s) {
      return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
    }
    return str(value, 0, false);
  }

  function format(...args) {
    if (args.length === 0) return '';
    let first = args[0];
    let rest = args.slice(1);
    let out;
    if (typeof first === 'string') {
      out = first.replace(/%([sdifjoOc%])/g, (m, f) => {
        if (f === '%') return '%';
        if (rest.length === 0) return m;
        const a = rest.shift();
        switch (f) {
          case 's': return typeof a === 'string' ? a : (typeof a === 'object' && a !== null ? inspect(a, { depth: 1 }) : String(a));
          case 'd': case 'i': return typeof a === 'bigint' ? a + 'n' : String(f === 'i' ? parseInt(a) : Number(a));
          case 'f': return String(parseFloat(a));
          case 'j': try { return JSON.stringify(a); } catch (e) { return '[Circular]'; }
          case 'o': case 'O': return inspect(a, { depth: 4 });
          case 'c': return '';
        }
        return m;
      });
    } else {
      out = inspect(first);
    }
    for (const a of rest) out += ' ' + (typeof a === 'string' ? a : inspect(a));
    return out;
  }

  // ---- Cucumber support code ----
  class World {
    constructor(opts) {
      opts = opts || {};
      this.attach = opts.attach;
      this.log = opts.log;
      this.link = opts.link;
      this.parameters = opts.parameters;
    }
  }

  class DataTable {
    constructor(sourceTable) {
      if (Array.isArray(sourceTable)) this.rawTable = sourceTable;
      else this.rawTable = sourceTable.rows.map((row) => row.cells.map((cell) => cell.value));
    }
    // cucumber-js's methods, written as plain loops: goja's callbacks
    // (map, forEach) made hashes() of a small table cost 10 µs.
    hashes() {
      const t = this.rawTable;
      const keys = t[0];
      const out = [];
      for (let i = 1; i < t.length; i++) {
        const values = t[i];
        const rowObject = {};
        for (let j = 0; j < keys.length; j++) rowObject[keys[j]] = values[j];
        out.push(rowObject);
      }
      return out;
    }
    raw() {
      const t = this.rawTable;
      const out = [];
      for (let i = 0; i < t.length; i++) out.push(t[i].slice());
      return out;
    }
    rows() {
      const t = this.rawTable;
      const out = [];
      for (let i = 1; i < t.length; i++) out.push(t[i].slice());
      return out;
    }
    rowsHash() {
      const rows = this.raw();
      const everyRowHasTwoColumns = rows.every((row) => row.length === 2);
      if (!everyRowHasTwoColumns) {
        throw new Error('rowsHash can only be called on a data table where all rows have exactly two columns');
      }
      const result = {};
      rows.forEach((row) => (result[row[0]] = row[1]));
      return result;
    }
    transpose() {
      const transposed = this.rawTable[0] ? this.rawTable[0].map((_, i) => this.rawTable.map((row) => row[i])) : [];
      return new DataTable(transposed);
    }
  }

  class PendingException extends Error {
    constructor(message) {
      super(message === undefined ? 'TODO' : message);
      this.name = 'PendingException';
    }
  }
  class SkippedException extends Error {
    constructor(message) {
      super(message === undefined ? 'skipped' : message);
      this.name = 'SkippedException';
    }
  }

  const Status = Object.freeze({
    UNKNOWN: 'UNKNOWN', PASSED: 'PASSED', SKIPPED: 'SKIPPED', PENDING: 'PENDING',
    UNDEFINED: 'UNDEFINED', AMBIGUOUS: 'AMBIGUOUS', FAILED: 'FAILED',
  });

  // `world` and `context` forward to the current World, for arrow functions.
  let currentWorld;
  function setCurrentWorld(w) { currentWorld = w; }
  function forwarder(what) {
    return new Proxy({}, {
      get(_, key) {
        if (currentWorld === undefined) throw new Error('`' + what + '` is only available while a test case runs');
        const v = currentWorld[key];
        return typeof v === 'function' ? v.bind(currentWorld) : v;
      },
      set(_, key, value) {
        if (currentWorld === undefined) throw new Error('`' + what + '` is only available while a test case runs');
        currentWorld[key] = value;
        return true;
      },
      has(_, key) { return currentWorld !== undefined && key in currentWorld; },
    });
  }

  // runStep(text, argument?): runs the step definition that matches text,
  // as the runner would run a feature's step, with the current World as
  // this. argument is the step's doc string (a string) or data table (a
  // DataTable or an array of rows). A step that returns 'pending' or
  // 'skipped' makes runStep throw the matching exception.
  async function runStep(text, argument) {
    if (typeof text !== 'string') throw new TypeError('runStep: expected the text of a step, got ' + typeof text);
    const world = currentWorld;
    if (world === undefined) throw new Error('runStep(' + JSON.stringify(text) + '): only available while a test case runs');
    const m = native.matchStep(text, world);
    const args = await Promise.all(m.args);
    if (argument !== undefined && argument !== null) {
      args.push(Array.isArray(argument) ? new DataTable(argument.map((r) => r.map(String))) : argument);
    }
    let result;
    if (m.length === args.length + 1) {
      result = await new Promise((resolve, reject) => {
        m.fn.apply(world, args.concat([(err, r) => (err !== undefined && err !== null ? reject(err) : resolve(r))]));
      });
    } else {
      result = await m.fn.apply(world, args);
    }
    if (result === 'pending') throw new PendingException('the step "' + text + '" is pending');
    if (result === 'skipped') throw new SkippedException('the step "' + text + '" was skipped');
  }

  // Reads a stream (Node-style 'data'/'end' events, or an async iterable) to
  // one Uint8Array, for this.attach(stream).
  function collectStream(stream) {
    const toBytes = (chunk) => typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk.buffer ? chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength) : chunk);
    const join = (chunks) => {
      const total = chunks.reduce((n, c) => n + c.length, 0);
      const out = new Uint8Array(total);
      let off = 0;
      for (const c of chunks) { out.set(c, off); off += c.length; }
      return out;
    };
    if (stream && typeof stream[Symbol.asyncIterator] === 'function') {
      return (async () => {
        const chunks = [];
        const it = stream[Symbol.asyncIterator]();
        for (let r = await it.next(); !r.done; r = await it.next()) chunks.push(toBytes(r.value));
        return join(chunks);
      })();
    }
    if (stream && typeof stream.on === 'function') {
      return new Promise((resolve, reject) => {
        const chunks = [];
        stream.on('data', (c) => chunks.push(toBytes(c)));
        stream.on('end', () => resolve(join(chunks)));
        stream.on('error', reject);
      });
    }
    return Promise.reject(new TypeError('attach: data must be a string, a Buffer or a readable stream'));
  }

  // ---- Web platform basics ----
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(s) { return native.utf8Encode(String(s === undefined ? '' : s)); }
  }
  class TextDecoder {
    constructor(label, options) {
      this.encoding = (label || 'utf-8').toLowerCase();
      if (this.encoding === 'utf8') this.encoding = 'utf-8';
      if (this.encoding !== 'utf-8') throw new RangeError('The "' + label + '" encoding is not supported');
      this.fatal = !!(options && options.fatal);
      this.ignoreBOM = !!(options && options.ignoreBOM);
    }
    decode(b) {
      if (b === undefined) return '';
      const s = native.utf8Decode(b, this.fatal);
      return !this.ignoreBOM && s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
    }
  }
  function structuredClone(v) {
    const seen = new Map();
    function clone(x) {
      if (typeof x !== 'object' || x === null) {
        if (typeof x === 'function' || typeof x === 'symbol') throw new DOMException('could not be cloned', 'DataCloneError');
        return x;
      }
      if (seen.has(x)) return seen.get(x);
      let out;
      if (x instanceof Date) out = new Date(x.getTime());
      else if (x instanceof RegExp) out = new RegExp(x.source, x.flags);
      else if (x instanceof Map) { out = new Map(); seen.set(x, out); x.forEach((v, k) => out.set(clone(k), clone(v))); return out; }
      else if (x instanceof Set) { out = new Set(); seen.set(x, out); x.forEach((v) => out.add(clone(v))); return out; }
      else if (ArrayBuffer.isView(x)) out = x.slice();
      else if (x instanceof ArrayBuffer) out = x.slice(0);
      else if (Array.isArray(x)) { out = []; seen.set(x, out); x.forEach((v, i) => (out[i] = clone(v))); return out; }
      else if (x instanceof Error) { out = new x.constructor(x.message); out.stack = x.stack; }
      else { out = {}; seen.set(x, out); for (const k of Object.keys(x)) out[k] = clone(x[k]); return out; }
      seen.set(x, out);
      return out;
    }
    return clone(v);
  }
  function queueMicrotask(fn) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    Promise.resolve().then(fn);
  }

  class DOMException extends Error {
    constructor(message, name) { super(message); this.name = name || 'Error'; }
  }
  class Event {
    constructor(type, init) { this.type = type; this.defaultPrevented = false; this.cancelable = !!(init && init.cancelable); this.timeStamp = Date.now(); }
    preventDefault() { if (this.cancelable) this.defaultPrevented = true; }
    stopPropagation() {}
    stopImmediatePropagation() { this._stop = true; }
  }
  class EventTarget {
    constructor() { Object.defineProperty(this, '_listeners', { value: new Map() }); }
    addEventListener(type, fn, opts) {
      if (!fn) return;
      const list = this._listeners.get(type) || [];
      if (!list.some((l) => l.fn === fn)) list.push({ fn, once: !!(opts && opts.once) });
      this._listeners.set(type, list);
    }
    removeEventListener(type, fn) {
      const list = this._listeners.get(type);
      if (list) this._listeners.set(type, list.filter((l) => l.fn !== fn));
    }
    dispatchEvent(ev) {
      const list = (this._listeners.get(ev.type) || []).slice();
      Object.defineProperty(ev, 'target', { value: this, configurable: true });
      for (const l of list) {
        if (l.once) this.removeEventListener(ev.type, l.fn);
        if (typeof l.fn === 'function') l.fn.call(this, ev); else l.fn.handleEvent(ev);
        if (ev._stop) break;
      }
      const handler = this['on' + ev.type];
      if (typeof handler === 'function') handler.call(this, ev);
      return !ev.defaultPrevented;
    }
  }
  class AbortSignal extends EventTarget {
    constructor() { super(); this.aborted = false; this.reason = undefined; this.onabort = null; }
    throwIfAborted() { if (this.aborted) throw this.reason; }
    static abort(reason) { const c = new AbortController(); c.abort(reason); return c.signal; }
    static timeout(ms) {
      const c = new AbortController();
      setTimeout(() => c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
      return c.signal;
    }
    static any(signals) {
      const c = new AbortController();
      for (const s of signals) {
        if (s.aborted) { c.abort(s.reason); break; }
        s.addEventListener('abort', () => c.abort(s.reason), { once: true });
      }
      return c.signal;
    }
  }
  class AbortController {
    constructor() { this.signal = new AbortSignal(); }
    abort(reason) {
      const s = this.signal;
      if (s.aborted) return;
      s.aborted = true;
      s.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
      s.dispatchEvent(new Event('abort'));
    }
  }

  return {
    format, inspect, World, DataTable, PendingException, SkippedException, Status,
    setCurrentWorld, world: forwarder('world'), context: forwarder('context'), runStep,
    collectStream, TextEncoder, TextDecoder, structuredClone, queueMicrotask,
    DOMException, Event, EventTarget, AbortController, AbortSignal,
  };
});
