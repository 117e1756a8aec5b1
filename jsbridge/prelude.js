// ferridriver prelude: the parts of the JS API that are most natural to
// write in JS. Evaluated once per VM; returns its exports to Go.
(function (native) {
  'use strict';

  // goja lacks these; esbuild's lowering of for-await needs the symbol.
  if (!Symbol.asyncIterator) Object.defineProperty(Symbol, 'asyncIterator', { value: Symbol.for('Symbol.asyncIterator') });
  if (typeof WeakRef === 'undefined') {
    globalThis.WeakRef = class WeakRef { constructor(t) { this._t = t; } deref() { return this._t; } };
    globalThis.FinalizationRegistry = class FinalizationRegistry { register() {} unregister() {} };
  }

  // ---- util.inspect / util.format (Node's shapes, smaller) ----
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
    hashes() {
      const copy = this.raw();
      const keys = copy[0];
      const valuesArray = copy.slice(1);
      return valuesArray.map((values) => {
        const rowObject = {};
        keys.forEach((key, index) => (rowObject[key] = values[index]));
        return rowObject;
      });
    }
    raw() { return this.rawTable.map((row) => row.slice()); }
    rows() { return this.raw().slice(1); }
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
    constructor(label) { this.encoding = (label || 'utf-8').toLowerCase(); }
    decode(b) { return b === undefined ? '' : native.utf8Decode(b); }
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

  // ---- node:events ----
  class EventEmitter {
    constructor() { Object.defineProperty(this, '_events', { value: new Map(), writable: true }); }
    on(name, fn) { const l = this._events.get(name) || []; l.push(fn); this._events.set(name, l); return this; }
    addListener(name, fn) { return this.on(name, fn); }
    prependListener(name, fn) { const l = this._events.get(name) || []; l.unshift(fn); this._events.set(name, l); return this; }
    once(name, fn) { const w = (...a) => { this.off(name, w); fn.apply(this, a); }; w.listener = fn; return this.on(name, w); }
    off(name, fn) { const l = this._events.get(name); if (l) this._events.set(name, l.filter((x) => x !== fn && x.listener !== fn)); return this; }
    removeListener(name, fn) { return this.off(name, fn); }
    removeAllListeners(name) { if (name === undefined) this._events = new Map(); else this._events.delete(name); return this; }
    emit(name, ...args) {
      const l = this._events.get(name);
      if (!l || l.length === 0) {
        if (name === 'error') throw args[0] instanceof Error ? args[0] : new Error('Unhandled error: ' + args[0]);
        return false;
      }
      for (const fn of l.slice()) fn.apply(this, args);
      return true;
    }
    listenerCount(name) { return (this._events.get(name) || []).length; }
    listeners(name) { return (this._events.get(name) || []).map((f) => f.listener || f); }
    eventNames() { return Array.from(this._events.keys()); }
    setMaxListeners() { return this; }
  }
  EventEmitter.EventEmitter = EventEmitter;
  EventEmitter.once = (emitter, name) => new Promise((resolve) => emitter.once(name, (...a) => resolve(a)));

  // ---- node:assert ----
  class AssertionError extends Error {
    constructor(options) {
      super(options.message);
      this.name = 'AssertionError';
      this.code = 'ERR_ASSERTION';
      this.actual = options.actual;
      this.expected = options.expected;
      this.operator = options.operator;
      this.generatedMessage = !options.userMessage;
    }
  }
  function isDeepEqual(a, b, strict, memo) {
    if (strict ? Object.is(a, b) : (a == b || (a !== a && b !== b))) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    if (Object.prototype.toString.call(a) !== Object.prototype.toString.call(b)) return false;
    if (a instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof RegExp) return String(a) === String(b);
    if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
    memo = memo || [];
    for (const [x, y] of memo) if (x === a && y === b) return true;
    memo.push([a, b]);
    if (ArrayBuffer.isView(a)) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      return true;
    }
    if (a instanceof Map) {
      if (a.size !== b.size) return false;
      for (const [k, v] of a) if (!b.has(k) || !isDeepEqual(v, b.get(k), strict, memo)) return false;
      return true;
    }
    if (a instanceof Set) {
      if (a.size !== b.size) return false;
      for (const v of a) if (!b.has(v)) {
        let found = false;
        for (const w of b) if (isDeepEqual(v, w, strict, memo)) { found = true; break; }
        if (!found) return false;
      }
      return true;
    }
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
      if (!isDeepEqual(a[k], b[k], strict, memo)) return false;
    }
    return true;
  }
  function makeAssert(strictMode) {
    function fail(actual, expected, message, operator, generated) {
      if (message instanceof Error) throw message;
      throw new AssertionError({ message: message !== undefined ? message : generated, actual, expected, operator, userMessage: message !== undefined });
    }
    function ok(value, message) {
      if (!value) fail(value, true, message, '==', 'The expression evaluated to a falsy value:\n\n  assert.ok(' + inspect(value) + ')\n');
    }
    const assert = function (value, message) { ok(value, message); };
    assert.ok = ok;
    assert.AssertionError = AssertionError;
    assert.fail = (message) => fail(undefined, undefined, message === undefined ? 'Failed' : message, 'fail', 'Failed');
    const strictEqual = (a, b, m) => { if (!Object.is(a, b)) fail(a, b, m, 'strictEqual', 'Expected values to be strictly equal:\n\n' + inspect(a) + ' !== ' + inspect(b) + '\n'); };
    const notStrictEqual = (a, b, m) => { if (Object.is(a, b)) fail(a, b, m, 'notStrictEqual', 'Expected "actual" to be strictly unequal to: ' + inspect(b)); };
    const deepStrictEqual = (a, b, m) => { if (!isDeepEqual(a, b, true)) fail(a, b, m, 'deepStrictEqual', 'Expected values to be strictly deep-equal:\n+ actual - expected\n\n+ ' + inspect(a) + '\n- ' + inspect(b) + '\n'); };
    const notDeepStrictEqual = (a, b, m) => { if (isDeepEqual(a, b, true)) fail(a, b, m, 'notDeepStrictEqual', 'Expected "actual" not to be strictly deep-equal to: ' + inspect(b)); };
    assert.strictEqual = strictEqual;
    assert.notStrictEqual = notStrictEqual;
    assert.deepStrictEqual = deepStrictEqual;
    assert.notDeepStrictEqual = notDeepStrictEqual;
    if (strictMode) {
      assert.equal = strictEqual;
      assert.notEqual = notStrictEqual;
      assert.deepEqual = deepStrictEqual;
      assert.notDeepEqual = notDeepStrictEqual;
    } else {
      assert.equal = (a, b, m) => { if (!(a == b || (a !== a && b !== b))) fail(a, b, m, '==', inspect(a) + ' == ' + inspect(b)); };
      assert.notEqual = (a, b, m) => { if (a == b) fail(a, b, m, '!=', inspect(a) + ' != ' + inspect(b)); };
      assert.deepEqual = (a, b, m) => { if (!isDeepEqual(a, b, false)) fail(a, b, m, 'deepEqual', 'Expected values to be loosely deep-equal:\n\n' + inspect(a) + '\n\nshould loosely deep-equal\n\n' + inspect(b)); };
      assert.notDeepEqual = (a, b, m) => { if (isDeepEqual(a, b, false)) fail(a, b, m, 'notDeepEqual', '"actual" deepEqual "expected"'); };
    }
    function matches(err, expected) {
      if (expected === undefined) return true;
      if (typeof expected === 'function') {
        if (expected.prototype !== undefined && err instanceof expected) return true;
        if (Error.isPrototypeOf(expected) || expected === Error) return false;
        return expected.call({}, err) === true;
      }
      if (expected instanceof RegExp) return expected.test(String(err && err.message !== undefined ? err.message : err)) || expected.test(String(err));
      if (typeof expected === 'object') return Object.keys(expected).every((k) => expected[k] instanceof RegExp ? expected[k].test(err[k]) : isDeepEqual(err[k], expected[k], true));
      return false;
    }
    assert.throws = (fn, expected, message) => {
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      try { fn(); } catch (e) {
        if (!matches(e, expected)) throw e;
        return;
      }
      fail(undefined, expected, message, 'throws', 'Missing expected exception.');
    };
    assert.doesNotThrow = (fn, message) => { try { fn(); } catch (e) { fail(e, undefined, message, 'doesNotThrow', 'Got unwanted exception.\nActual message: "' + (e && e.message) + '"'); } };
    assert.rejects = async (p, expected, message) => {
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      try { await (typeof p === 'function' ? p() : p); } catch (e) {
        if (!matches(e, expected)) throw e;
        return;
      }
      fail(undefined, expected, message, 'rejects', 'Missing expected rejection.');
    };
    assert.doesNotReject = async (p, message) => { try { await (typeof p === 'function' ? p() : p); } catch (e) { fail(e, undefined, message, 'doesNotReject', 'Got unwanted rejection.\nActual message: "' + (e && e.message) + '"'); } };
    assert.match = (s, re, m) => { if (!re.test(s)) fail(s, re, m, 'match', 'The input did not match the regular expression ' + String(re) + '. Input:\n\n' + inspect(s) + '\n'); };
    assert.doesNotMatch = (s, re, m) => { if (re.test(s)) fail(s, re, m, 'doesNotMatch', 'The input was expected to not match the regular expression ' + String(re) + '. Input:\n\n' + inspect(s) + '\n'); };
    assert.ifError = (v) => { if (v !== null && v !== undefined) throw v; };
    return assert;
  }
  const assert = makeAssert(false);
  assert.strict = makeAssert(true);
  assert.strict.strict = assert.strict;

  // ---- node:util ----
  const util = {
    format, inspect,
    isDeepStrictEqual: (a, b) => isDeepEqual(a, b, true),
    promisify(fn) {
      return (...args) => new Promise((resolve, reject) => fn(...args, (err, v) => (err ? reject(err) : resolve(v))));
    },
    deprecate: (fn) => fn,
    inherits(ctor, superCtor) { Object.setPrototypeOf(ctor.prototype, superCtor.prototype); Object.setPrototypeOf(ctor, superCtor); },
    types: {
      isPromise: (v) => v instanceof Promise,
      isDate: (v) => v instanceof Date,
      isRegExp: (v) => v instanceof RegExp,
      isNativeError: (v) => v instanceof Error,
    },
    TextEncoder, TextDecoder,
  };

  return {
    format, inspect, World, DataTable, PendingException, SkippedException, Status,
    setCurrentWorld, world: forwarder('world'), context: forwarder('context'), runStep,
    collectStream, TextEncoder, TextDecoder, structuredClone, queueMicrotask,
    DOMException, Event, EventTarget, AbortController, AbortSignal,
    EventEmitter, assert, util,
  };
});
