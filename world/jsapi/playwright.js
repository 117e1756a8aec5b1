// ferridriver: Playwright's `expect`. Generic matchers are written here;
// web-first matchers (toBeVisible, toHaveText...) call native.webFirst,
// which asks the driver to retry until the condition holds. Evaluated once
// per VM; returns its exports to Go.
(function (native) {
  'use strict';

  class TimeoutError extends Error {
    constructor(message) {
      super(message);
      this.name = 'TimeoutError';
    }
  }


  // The web-first matchers are those the driver implements (optionsIndex
  // in expect.go).
  const WEB_FIRST = native.webFirstNames;
  const UNSUPPORTED = ['toMatchAriaSnapshot'];
  const DEFAULT_TIMEOUT = 5000;

  // ---- printing values, as Jest/Playwright print them (on one line) ----
  function fmt(v, depth, seen) {
    depth = depth || 0;
    seen = seen || [];
    switch (typeof v) {
      case 'string': return JSON.stringify(v);
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint': return v + 'n';
      case 'boolean': case 'undefined': return String(v);
      case 'symbol': return v.toString();
      case 'function': return '[Function ' + (v.name || 'anonymous') + ']';
    }
    if (v === null) return 'null';
    if (isAsymmetric(v)) return v.toString();
    if (v instanceof Error) return '[' + (v.name || 'Error') + ': ' + v.message + ']';
    if (v instanceof Date) return isNaN(v) ? 'Invalid Date' : v.toISOString();
    if (v instanceof RegExp) return String(v);
    if (seen.indexOf(v) >= 0) return '[Circular]';
    if (depth > 5) return Array.isArray(v) ? '[Array]' : '[Object]';
    seen = seen.concat([v]);
    if (Array.isArray(v)) return '[' + v.map((x) => fmt(x, depth + 1, seen)).join(', ') + ']';
    if (v instanceof Map) {
      const items = [];
      v.forEach((val, key) => items.push(fmt(key, depth + 1, seen) + ' => ' + fmt(val, depth + 1, seen)));
      return 'Map {' + items.join(', ') + '}';
    }
    if (v instanceof Set) {
      const items = [];
      v.forEach((val) => items.push(fmt(val, depth + 1, seen)));
      return 'Set {' + items.join(', ') + '}';
    }
    const proto = Object.getPrototypeOf(v);
    const name = proto && proto.constructor && proto.constructor.name !== 'Object' ? proto.constructor.name + ' ' : '';
    if (name === 'Locator ' || name === 'Page ' || name === 'FrameLocator ') return name.trim() + '(' + String(v.toString ? v.toString() : '') + ')';
    const keys = Object.keys(v);
    if (keys.length === 0) return name + '{}';
    return name + '{' + keys.map((k) => JSON.stringify(k) + ': ' + fmt(v[k], depth + 1, seen)).join(', ') + '}';
  }

  // ---- asymmetric matchers (expect.any, expect.objectContaining...) ----
  const ASYM = Symbol('ferridriver.asymmetricMatcher');
  function isAsymmetric(v) { return v !== null && typeof v === 'object' && v[ASYM] === true; }
  function asymmetric(name, sample, inverse, match) {
    return {
      [ASYM]: true,
      asymmetricMatch(other) { const m = match(other); return inverse ? !m : m; },
      toString() { return (inverse ? 'Not' : '') + name + '(' + (sample === undefined ? '' : fmt(sample)) + ')'; },
      toJSON() { return this.toString(); },
    };
  }
  function anyOf(ctor) {
    return asymmetric('Any', undefined, false, (o) => {
      if (ctor === String) return typeof o === 'string' || o instanceof String;
      if (ctor === Number) return typeof o === 'number' || o instanceof Number;
      if (ctor === Boolean) return typeof o === 'boolean' || o instanceof Boolean;
      if (ctor === Function) return typeof o === 'function';
      if (ctor === BigInt) return typeof o === 'bigint';
      if (ctor === Symbol) return typeof o === 'symbol';
      if (ctor === Object) return o !== null && typeof o === 'object';
      return o instanceof ctor;
    });
  }
  function asymmetricFactories(inverse) {
    return {
      objectContaining: (sample) => asymmetric('ObjectContaining', sample, inverse, (o) => o !== null && typeof o === 'object' && Object.keys(sample).every((k) => k in o && equals(o[k], sample[k], false))),
      arrayContaining: (sample) => asymmetric('ArrayContaining', sample, inverse, (o) => Array.isArray(o) && sample.every((s) => o.some((x) => equals(x, s, false)))),
      stringContaining: (sample) => asymmetric('StringContaining', sample, inverse, (o) => typeof o === 'string' && o.includes(sample)),
      stringMatching: (sample) => asymmetric('StringMatching', sample, inverse, (o) => typeof o === 'string' && (sample instanceof RegExp ? sample.test(o) : new RegExp(sample).test(o))),
    };
  }

  // ---- equality (toEqual: recursive, undefined properties ignored;
  // toStrictEqual: types, undefined properties and sparseness count) ----
  function equals(a, b, strict, seenA, seenB) {
    if (isAsymmetric(b)) return b.asymmetricMatch(a);
    if (isAsymmetric(a)) return a.asymmetricMatch(b);
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    const ta = Object.prototype.toString.call(a);
    if (ta !== Object.prototype.toString.call(b)) return false;
    if (a instanceof Date) return Object.is(a.getTime(), b.getTime());
    if (a instanceof RegExp) return a.source === b.source && a.flags === b.flags;
    if (a instanceof Error && !(a.message === b.message && a.name === b.name)) return false;
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    seenA = seenA || [];
    seenB = seenB || [];
    const i = seenA.indexOf(a);
    if (i >= 0) return seenB[i] === b;
    seenA.push(a);
    seenB.push(b);
    try {
      if (Array.isArray(a)) {
        if (a.length !== b.length) return false;
        for (let k = 0; k < a.length; k++) {
          if (strict && (k in a) !== (k in b)) return false;
          if (!equals(a[k], b[k], strict, seenA, seenB)) return false;
        }
        return true;
      }
      if (a instanceof Map) {
        if (a.size !== b.size) return false;
        for (const [k, v] of a) if (!b.has(k) || !equals(v, b.get(k), strict, seenA, seenB)) return false;
        return true;
      }
      if (a instanceof Set) {
        if (a.size !== b.size) return false;
        for (const v of a) if (!b.has(v) && !Array.from(b).some((x) => equals(v, x, strict, seenA, seenB))) return false;
        return true;
      }
      if (ArrayBuffer.isView(a)) {
        if (a.length !== b.length) return false;
        for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
        return true;
      }
      const ka = keysOf(a, strict);
      const kb = keysOf(b, strict);
      if (ka.length !== kb.length) return false;
      for (const k of ka) {
        if (!Object.prototype.hasOwnProperty.call(b, k) && !(strict ? false : b[k] === undefined && a[k] === undefined)) return false;
        if (!equals(a[k], b[k], strict, seenA, seenB)) return false;
      }
      return true;
    } finally {
      seenA.pop();
      seenB.pop();
    }
  }
  function keysOf(o, strict) {
    const keys = Object.keys(o);
    return strict ? keys : keys.filter((k) => o[k] !== undefined);
  }

  // toMatchObject: every property of expected is in received, recursively.
  function matchesObject(received, expected) {
    if (isAsymmetric(expected)) return expected.asymmetricMatch(received);
    if (typeof expected !== 'object' || expected === null) return equals(received, expected, false);
    if (typeof received !== 'object' || received === null) return false;
    if (Array.isArray(expected)) {
      return Array.isArray(received) && received.length === expected.length && expected.every((e, i) => matchesObject(received[i], e));
    }
    if (expected instanceof Date || expected instanceof RegExp) return equals(received, expected, false);
    return Object.keys(expected).every((k) => k in received && matchesObject(received[k], expected[k]));
  }

  // ---- generic matchers: (received, ...args) => { pass, message() } ----
  function hint(ctx, name, args, comment) {
    return 'expect(received)' + (ctx.isNot ? '.not' : '') + '.' + name + '(' + (args || '') + ')' + (comment ? ' // ' + comment : '') + '\n\n';
  }
  function expected(ctx, label, v) { return label + ': ' + (ctx.isNot ? 'not ' : '') + v + '\n'; }
  function typeName(v) { return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v; }

  const GENERIC = {
    toBe(received, exp) {
      const pass = Object.is(received, exp);
      return { pass, message: () => hint(this, 'toBe', 'expected', 'Object.is equality') + expected(this, 'Expected', fmt(exp)) + (this.isNot ? '' : 'Received: ' + fmt(received) + '\n') +
        (!pass && !this.isNot && equals(received, exp, false) ? '\nIf it should pass with deep equality, replace "toBe" with "toStrictEqual"\n' : '') };
    },
    toEqual(received, exp) {
      const pass = equals(received, exp, false);
      return { pass, message: () => hint(this, 'toEqual', 'expected', 'deep equality') + expected(this, 'Expected', fmt(exp)) + (this.isNot ? '' : 'Received: ' + fmt(received) + '\n') };
    },
    toStrictEqual(received, exp) {
      const pass = equals(received, exp, true);
      return { pass, message: () => hint(this, 'toStrictEqual', 'expected', 'deep equality') + expected(this, 'Expected', fmt(exp)) + (this.isNot ? '' : 'Received: ' + fmt(received) + '\n') };
    },
    toBeTruthy(received) { return { pass: !!received, message: () => hint(this, 'toBeTruthy') + 'Received: ' + fmt(received) + '\n' }; },
    toBeFalsy(received) { return { pass: !received, message: () => hint(this, 'toBeFalsy') + 'Received: ' + fmt(received) + '\n' }; },
    toBeNull(received) { return { pass: received === null, message: () => hint(this, 'toBeNull') + 'Received: ' + fmt(received) + '\n' }; },
    toBeUndefined(received) { return { pass: received === undefined, message: () => hint(this, 'toBeUndefined') + 'Received: ' + fmt(received) + '\n' }; },
    toBeDefined(received) { return { pass: received !== undefined, message: () => hint(this, 'toBeDefined') + 'Received: ' + fmt(received) + '\n' }; },
    toBeNaN(received) { return { pass: typeof received === 'number' && isNaN(received), message: () => hint(this, 'toBeNaN') + 'Received: ' + fmt(received) + '\n' }; },
    toBeInstanceOf(received, ctor) {
      const pass = received !== null && received !== undefined && received instanceof ctor;
      const rc = received !== null && received !== undefined && received.constructor ? received.constructor.name : typeName(received);
      return { pass, message: () => hint(this, 'toBeInstanceOf', 'expected') + expected(this, 'Expected constructor', ctor && ctor.name) + 'Received constructor: ' + rc + '\n' };
    },
    toContain(received, item) {
      if (typeof received === 'string') {
        const pass = received.includes(String(item));
        return { pass, message: () => hint(this, 'toContain', 'expected') + expected(this, 'Expected substring', fmt(item)) + 'Received string: ' + fmt(received) + '\n' };
      }
      if (received === null || received === undefined || typeof received[Symbol.iterator] !== 'function') {
        throw new TypeError('expect(received).toContain(expected): received value must be a string or an iterable, got ' + fmt(received));
      }
      const items = Array.from(received);
      const pass = items.some((x) => x === item || (Number.isNaN(x) && Number.isNaN(item)));
      return { pass, message: () => hint(this, 'toContain', 'expected') + expected(this, 'Expected value', fmt(item)) + 'Received ' + typeName(received) + ': ' + fmt(received) + '\n' };
    },
    toContainEqual(received, item) {
      const items = Array.from(received || []);
      const pass = items.some((x) => equals(x, item, false));
      return { pass, message: () => hint(this, 'toContainEqual', 'expected') + expected(this, 'Expected value', fmt(item)) + 'Received ' + typeName(received) + ': ' + fmt(received) + '\n' };
    },
    toMatch(received, exp) {
      if (typeof received !== 'string') throw new TypeError('expect(received).toMatch(expected): received value must be a string, got ' + fmt(received));
      const isRe = exp instanceof RegExp;
      const pass = isRe ? new RegExp(exp.source, exp.flags.replace('g', '')).test(received) : received.includes(String(exp));
      return { pass, message: () => hint(this, 'toMatch', 'expected') + expected(this, isRe ? 'Expected pattern' : 'Expected substring', isRe ? String(exp) : fmt(exp)) + 'Received string: ' + fmt(received) + '\n' };
    },
    toMatchObject(received, exp) {
      const pass = matchesObject(received, exp);
      return { pass, message: () => hint(this, 'toMatchObject', 'expected') + expected(this, 'Expected', fmt(exp)) + 'Received: ' + fmt(received) + '\n' };
    },
    toHaveLength(received, n) {
      if (received === null || received === undefined || typeof received.length !== 'number') {
        throw new TypeError('expect(received).toHaveLength(expected): received value must have a length property whose value is a number, got ' + fmt(received));
      }
      const pass = received.length === n;
      return { pass, message: () => hint(this, 'toHaveLength', 'expected') + expected(this, 'Expected length', String(n)) + 'Received length: ' + received.length + '\nReceived ' + typeName(received) + ': ' + fmt(received) + '\n' };
    },
    toHaveProperty(received, path, value) {
      const parts = Array.isArray(path) ? path : String(path).split('.');
      let cur = received;
      let found = true;
      for (const p of parts) {
        if (cur === null || cur === undefined || !(Object(cur) instanceof Object) || !(p in Object(cur))) { found = false; break; }
        cur = cur[p];
      }
      const checkValue = arguments.length > 2;
      const pass = found && (!checkValue || equals(cur, value, false));
      return { pass, message: () => hint(this, 'toHaveProperty', checkValue ? 'path, value' : 'path') + 'Expected path: ' + fmt(Array.isArray(path) ? path : String(path)) + '\n' +
        (checkValue ? expected(this, 'Expected value', fmt(value)) : '') + (found ? 'Received value: ' + fmt(cur) : 'Received path: not found') + '\n' };
    },
    toBeGreaterThan(received, n) { return compare(this, 'toBeGreaterThan', '>', received, n, received > n); },
    toBeGreaterThanOrEqual(received, n) { return compare(this, 'toBeGreaterThanOrEqual', '>=', received, n, received >= n); },
    toBeLessThan(received, n) { return compare(this, 'toBeLessThan', '<', received, n, received < n); },
    toBeLessThanOrEqual(received, n) { return compare(this, 'toBeLessThanOrEqual', '<=', received, n, received <= n); },
    toBeCloseTo(received, exp, precision) {
      if (precision === undefined) precision = 2;
      if (typeof received !== 'number') throw new TypeError('expect(received).toBeCloseTo(expected): received value must be a number, got ' + fmt(received));
      const diff = Math.abs(exp - received);
      const limit = Math.pow(10, -precision) / 2;
      const pass = (received === Infinity && exp === Infinity) || (received === -Infinity && exp === -Infinity) || diff < limit;
      return { pass, message: () => hint(this, 'toBeCloseTo', 'expected, precision') + expected(this, 'Expected', fmt(exp)) + 'Received: ' + fmt(received) + '\n\n' +
        'Expected precision:    ' + precision + '\nExpected difference: ' + (this.isNot ? '>= ' : '< ') + limit + '\nReceived difference:   ' + diff + '\n' };
    },
    toThrow(received, exp) {
      let thrown = false;
      let error;
      if (this.promise === 'rejects') {
        thrown = true;
        error = received;
      } else {
        if (typeof received !== 'function') throw new TypeError('expect(received).toThrow(expected): received value must be a function, got ' + fmt(received));
        try { received(); } catch (e) { thrown = true; error = e; }
      }
      const msg = error && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
      let pass = thrown;
      let want = '';
      if (thrown && exp !== undefined) {
        if (typeof exp === 'string') { pass = msg.includes(exp); want = 'Expected substring: ' + fmt(exp); }
        else if (exp instanceof RegExp) { pass = exp.test(msg); want = 'Expected pattern: ' + String(exp); }
        else if (typeof exp === 'function') { pass = error instanceof exp; want = 'Expected constructor: ' + exp.name; }
        else if (isAsymmetric(exp)) { pass = exp.asymmetricMatch(error); want = 'Expected: ' + fmt(exp); }
        else if (exp && typeof exp === 'object' && 'message' in exp) { pass = msg === exp.message; want = 'Expected message: ' + fmt(exp.message); }
      }
      return { pass, message: () => hint(this, 'toThrow', exp === undefined ? '' : 'expected') + (want ? (this.isNot ? want.replace(': ', ': not ') : want) + '\n' : '') +
        (thrown ? 'Received message: ' + fmt(msg) + '\n' : 'Received function did not throw\n') };
    },
  };
  GENERIC.toThrowError = GENERIC.toThrow;

  function compare(ctx, name, op, received, n, pass) {
    if (typeof received !== 'number' && typeof received !== 'bigint') {
      throw new TypeError('expect(received).' + name + '(expected): received value must be a number or a bigint, got ' + fmt(received));
    }
    return { pass, message: () => hint(ctx, name, 'expected') + 'Expected: ' + (ctx.isNot ? 'not ' : '') + op + ' ' + fmt(n) + '\nReceived: ' + ' '.repeat(op.length + 1) + fmt(received) + '\n' };
  }

  const custom = {};
  const UTILS = { printReceived: fmt, printExpected: fmt, stringify: fmt };
  const looseEquals = (a, b) => equals(a, b, false);

  // ---- failing ----
  function framesOf(holder) {
    const s = holder && holder.stack ? String(holder.stack) : '';
    const i = s.indexOf('\n');
    return i >= 0 ? s.slice(i) : '';
  }
  function failure(message, holder, options) {
    const text = (options.message ? options.message + '\n\n' : '') + message.replace(/\n+$/, '');
    const err = new Error(text);
    if (holder) err.stack = 'Error: ' + text + framesOf(holder);
    if (options.soft) {
      native.recordSoft(err);
      return;
    }
    throw err;
  }

  function settleSnapshot(res, holder, options) {
    if (res.note) console.log(res.note);
    if (res.message) failure(res.message, holder, res.soft ? Object.assign({}, options, { soft: true }) : options);
  }

  // ---- the matchers object ----
  class Matchers {
    constructor(actual, options, isNot, promise) {
      this._actual = actual;
      this._options = options;
      this._isNot = !!isNot;
      this._promise = promise || '';
    }
    get not() { return new Matchers(this._actual, this._options, !this._isNot, this._promise); }
    get resolves() { return new Matchers(this._actual, this._options, this._isNot, 'resolves'); }
    get rejects() { return new Matchers(this._actual, this._options, this._isNot, 'rejects'); }

    _ctx() {
      return { isNot: this._isNot, promise: this._promise, equals: looseEquals, utils: UTILS };
    }

    _check(name, fn, received, args, holder) {
      const res = fn.call(this._ctx(), received, ...args);
      const settle = (r) => {
        if (!r || typeof r.pass !== 'boolean') throw new TypeError('expect: matcher ' + name + ' must return { pass: boolean, message }');
        if (r.pass === this._isNot) failure(typeof r.message === 'function' ? r.message() : String(r.message || name + ' failed'), holder, this._options);
      };
      if (res && typeof res.then === 'function') return res.then(settle);
      return settle(res);
    }

    _generic(name, fn, args) {
      // A synchronous failure is thrown from here, so its stack already
      // shows the caller: only the asynchronous paths need a stack taken
      // now.
      if (!this._promise) return this._check(name, fn, this._actual, args, undefined);
      const holder = new Error();
      const actual = typeof this._actual === 'function' ? this._actual() : this._actual;
      return Promise.resolve(actual).then(
        (value) => {
          if (this._promise === 'rejects') failure('expect(received).rejects.' + name + '()\n\nReceived promise resolved instead of rejected\nResolved to value: ' + fmt(value), holder, this._options);
          return this._check(name, fn, value, args, holder);
        },
        (reason) => {
          if (this._promise === 'resolves') failure('expect(received).resolves.' + name + '()\n\nReceived promise rejected instead of resolved\nRejected to value: ' + fmt(reason), holder, this._options);
          return this._check(name, fn, reason, args, holder);
        });
    }

    _webFirst(name, args) {
      const holder = new Error();
      return native.webFirst(name, this._actual, this._isNot, args, this._options.timeout).then((msg) => {
        if (msg !== undefined) failure(msg, holder, this._options);
      });
    }

    // Visual comparisons run natively (screenshot.go), which answers
    // { message, soft, note }: a failure ('' for none), whether it lets
    // the step go on (a missing baseline written), a line to print.
    toHaveScreenshot(nameOrOptions, options) {
      const holder = new Error();
      return native.toHaveScreenshot(this._actual, this._isNot, nameOrOptions, options, this._options.timeout)
        .then((res) => settleSnapshot(res, holder, this._options));
    }
    toMatchSnapshot(nameOrOptions, options) {
      settleSnapshot(native.toMatchSnapshot(this._actual, this._isNot, nameOrOptions, options), undefined, this._options);
    }

    async toPass(options) {
      const holder = new Error();
      const o = options || {};
      const timeout = o.timeout === undefined ? 0 : o.timeout;
      const intervals = o.intervals || [100, 250, 500, 1000];
      const deadline = timeout > 0 ? Date.now() + timeout : Infinity;
      let last;
      for (let i = 0; ; i++) {
        try {
          await this._actual();
          if (this._isNot) failure('expect(received).not.toPass()\n\nExpected to fail, but passed', holder, this._options);
          return;
        } catch (e) {
          last = e;
          if (this._isNot) return;
        }
        const wait = intervals[Math.min(i, intervals.length - 1)];
        if (Date.now() + wait > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      failure('expect(received).toPass()\n\nTimeout ' + timeout + 'ms exceeded while waiting on the predicate\n\n' + (last && last.message ? last.message : String(last)), holder, this._options);
    }
  }
  for (const name of Object.keys(GENERIC)) {
    Matchers.prototype[name] = function (...args) { return this._generic(name, GENERIC[name], args); };
  }
  for (const name of WEB_FIRST) {
    Matchers.prototype[name] = function (...args) { return this._webFirst(name, args); };
  }
  for (const name of UNSUPPORTED) {
    Matchers.prototype[name] = function () { throw new Error('expect(...).' + name + '() is not supported by ferridriver'); };
  }

  // expect.poll: the generic matchers, retried on fn()'s value.
  function pollMatchers(fn, pollOptions, options, isNot) {
    const o = pollOptions || {};
    const timeout = o.timeout === undefined ? (options.timeout === undefined ? DEFAULT_TIMEOUT : options.timeout) : o.timeout;
    const intervals = o.intervals || [100, 250, 500, 1000];
    const opts = Object.assign({}, options, o.message ? { message: o.message } : {});
    const m = {};
    Object.defineProperty(m, 'not', { get: () => pollMatchers(fn, pollOptions, options, !isNot) });
    const all = Object.assign({}, GENERIC, custom);
    for (const name of Object.keys(all)) {
      m[name] = async (...args) => {
        const holder = new Error();
        const deadline = Date.now() + timeout;
        const ctx = new Matchers(undefined, opts, isNot)._ctx();
        let lastMessage = '';
        for (let i = 0; ; i++) {
          try {
            const value = await fn();
            const r = await all[name].apply(ctx, [value].concat(args));
            if (r.pass !== !!isNot) return;
            lastMessage = typeof r.message === 'function' ? r.message() : String(r.message || '');
          } catch (e) {
            lastMessage = e && e.message ? e.message : String(e);
          }
          const wait = intervals[Math.min(i, intervals.length - 1)];
          if (Date.now() + wait > deadline) break;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
        failure(lastMessage.replace(/^expect\(received\)/, 'expect.poll(received)').replace(/\n+$/, '') + '\n\nTimeout: ' + timeout + 'ms', holder, opts);
      };
    }
    return m;
  }

  function makeExpect(defaults) {
    function expect(actual, messageOrOptions) {
      return new Matchers(actual, withMessage(defaults, messageOrOptions, defaults.soft));
    }
    expect.soft = (actual, messageOrOptions) => new Matchers(actual, withMessage(defaults, messageOrOptions, true));
    expect.poll = (fn, options) => pollMatchers(fn, options, defaults, false);
    expect.configure = (c) => makeExpect(Object.assign({}, defaults, c || {}));
    expect.extend = (matchers) => {
      for (const name of Object.keys(matchers)) {
        custom[name] = matchers[name];
        Matchers.prototype[name] = function (...args) { return this._generic(name, custom[name], args); };
      }
    };
    expect.any = anyOf;
    expect.anything = () => asymmetric('Anything', undefined, false, (o) => o !== null && o !== undefined);
    expect.closeTo = (n, precision) => asymmetric('CloseTo', n, false, (o) => typeof o === 'number' && Math.abs(o - n) < Math.pow(10, -(precision === undefined ? 2 : precision)) / 2);
    Object.assign(expect, asymmetricFactories(false));
    expect.not = asymmetricFactories(true);
    return expect;
  }
  function withMessage(defaults, m, soft) {
    const o = { timeout: defaults.timeout === undefined ? DEFAULT_TIMEOUT : defaults.timeout, soft: !!soft };
    if (typeof m === 'string') o.message = m;
    else if (m && typeof m === 'object' && m.message) o.message = m.message;
    return o;
  }

  return { expect: makeExpect({}), TimeoutError };
})
