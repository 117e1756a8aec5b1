// The JS shapes of ferridriver's HTTP API: Headers, Response and fetch
// (WHATWG-like) and the request client of tool handlers (Playwright's
// APIRequestContext-like). Both sit on one native core, doRequest, which
// performs every capability check (allow.net, metadata endpoints, revoked
// frames) in Go. This code only shapes values; it is evaluated once per VM
// before any user code, and keeps references to the builtins it uses.
(function () {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const PromiseCtor = Promise;
  const bodies = new WeakMap();

  const lower = (n) => String(n).toLowerCase();

  class Headers {
    constructor(init) {
      Object.defineProperty(this, '_h', { value: new Map() });
      if (init === undefined || init === null) return;
      if (init instanceof Headers) {
        init.forEach((v, k) => this.append(k, v));
      } else if (Array.isArray(init) || typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          if (!pair || pair.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair');
          this.append(pair[0], pair[1]);
        }
      } else if (typeof init === 'object') {
        for (const k of Object.keys(init)) this.append(k, init[k]);
      } else {
        throw new TypeError('Headers: expected an object, an array of pairs or a Headers');
      }
    }
    append(name, value) {
      const n = lower(name);
      const list = this._h.get(n);
      if (list) list.push(String(value));
      else this._h.set(n, [String(value)]);
    }
    set(name, value) { this._h.set(lower(name), [String(value)]); }
    get(name) {
      const list = this._h.get(lower(name));
      return list ? list.join(', ') : null;
    }
    has(name) { return this._h.has(lower(name)); }
    delete(name) { this._h.delete(lower(name)); }
    getSetCookie() { return (this._h.get('set-cookie') || []).slice(); }
    forEach(fn, thisArg) {
      for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
    }
    entries() {
      const keys = Array.from(this._h.keys()).sort();
      return keys.map((k) => [k, this.get(k)])[Symbol.iterator]();
    }
    keys() { return Array.from(this._h.keys()).sort()[Symbol.iterator](); }
    values() { return Array.from(this.entries()).map((e) => e[1])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    // pairs lists every value separately, as sent on the wire.
    _pairs() {
      const out = [];
      for (const [k, list] of this._h) for (const v of list) out.push([k, v]);
      return out;
    }
  }

  // toWire converts a body to what doRequest accepts: a string or bytes.
  function toWire(body, headers) {
    if (body === undefined || body === null) return undefined;
    if (typeof body === 'string') return body;
    if (body instanceof ArrayBuffer) return new Uint8Array(body);
    if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    if (typeof URLSearchParams === 'function' && body instanceof URLSearchParams) {
      if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
      return body.toString();
    }
    throw new TypeError('fetch: body must be a string, an ArrayBuffer, a typed array, a Buffer or URLSearchParams');
  }

  function bodyBytes(raw) {
    if (raw === undefined || raw === null) return new ArrayBuffer(0);
    if (typeof raw === 'string') return new TextEncoder().encode(raw).buffer;
    if (raw instanceof ArrayBuffer) return raw;
    if (ArrayBuffer.isView(raw)) return raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
    throw new TypeError('Response: body must be a string, an ArrayBuffer or a typed array');
  }

  const decode = (ab) => new TextDecoder().decode(new Uint8Array(ab));

  class Response {
    constructor(body, init) {
      init = init || {};
      this.status = init.status === undefined ? 200 : Number(init.status);
      this.statusText = init.statusText === undefined ? '' : String(init.statusText);
      this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
      this.url = init.url || '';
      this.redirected = !!init.redirected;
      this.type = 'basic';
      bodies.set(this, { data: bodyBytes(body), used: false });
    }
    get ok() { return this.status >= 200 && this.status < 300; }
    get bodyUsed() { return bodies.get(this).used; }
    _take() {
      const b = bodies.get(this);
      if (b.used) throw new TypeError('Body is unusable: the body has already been read');
      b.used = true;
      return b.data;
    }
    async arrayBuffer() { return this._take(); }
    async bytes() { return new Uint8Array(this._take()); }
    async text() { return decode(this._take()); }
    async json() { return parse(decode(this._take())); }
    clone() {
      const b = bodies.get(this);
      if (b.used) throw new TypeError('Response.clone: the body has already been read');
      return new Response(b.data.slice(0), { status: this.status, statusText: this.statusText, headers: new Headers(this.headers), url: this.url, redirected: this.redirected });
    }
  }

  function abortReason(signal) {
    return signal.reason !== undefined ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
  }

  function wireError(e, signal) {
    if (e.name === 'AbortError' && signal && signal.aborted) return abortReason(signal);
    const err = e.name === 'TypeError' ? new TypeError(e.message) : new Error(e.message);
    if (e.name !== 'TypeError' && e.name !== 'Error') err.name = e.name;
    if (e.code) err.code = e.code;
    return err;
  }

  // send runs one request through the native core. doRequest performs the
  // capability checks synchronously, in the caller's async context.
  function send(doRequest, spec, signal) {
    if (signal && signal.aborted) return PromiseCtor.reject(abortReason(signal));
    let h;
    try {
      h = doRequest(spec);
    } catch (e) {
      return PromiseCtor.reject(e);
    }
    return new PromiseCtor((resolve, reject) => {
      if (signal && typeof signal.addEventListener === 'function') {
        // An abort rejects at once, even if the response is on its way.
        signal.addEventListener('abort', () => { h.abort(); reject(abortReason(signal)); }, { once: true });
      }
      h.promise.then((r) => {
        if (r.error) reject(wireError(r.error, signal));
        else resolve(r);
      }, reject);
    });
  }

  function makeFetch(doRequest) {
    return function fetch(input, init) {
      try {
        init = init || {};
        let url = input;
        let method = init.method;
        let headers = init.headers;
        if (input && typeof input === 'object' && !(typeof URL === 'function' && input instanceof URL) && 'url' in input) {
          url = input.url;
          if (method === undefined) method = input.method;
          if (headers === undefined) headers = input.headers;
        }
        const h = new Headers(headers);
        method = String(method || 'GET').toUpperCase();
        const body = toWire(init.body, h);
        if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
          throw new TypeError('fetch: a ' + method + ' request cannot have a body');
        }
        const redirect = init.redirect || 'follow';
        if (redirect !== 'follow' && redirect !== 'manual' && redirect !== 'error') {
          throw new TypeError('fetch: redirect must be "follow", "manual" or "error"');
        }
        return send(doRequest, { method, url: String(url), headers: h._pairs(), body, redirect, timeoutMs: 0 }, init.signal)
          .then((r) => new Response(r.body, { status: r.status, statusText: r.statusText, headers: new Headers(r.headers), url: r.url, redirected: r.redirected }));
      } catch (e) {
        return PromiseCtor.reject(e);
      }
    };
  }

  class APIResponse {
    constructor(r) { Object.defineProperty(this, '_r', { value: r }); }
    status() { return this._r.status; }
    statusText() { return this._r.statusText; }
    ok() { return this._r.status >= 200 && this._r.status <= 299; }
    url() { return this._r.url; }
    headers() {
      const out = {};
      for (const [k, v] of this._r.headers) out[k] = out[k] === undefined ? v : out[k] + ', ' + v;
      return out;
    }
    headersArray() { return this._r.headers.map(([name, value]) => ({ name, value })); }
    async body() { return Buffer.from(this._r.body); }
    async text() { return decode(this._r.body); }
    async json() { return parse(decode(this._r.body)); }
    async dispose() {}
    toString() { return 'APIResponse: ' + this._r.status + ' ' + this._r.statusText + ' ' + this._r.url; }
  }

  function withParams(url, params) {
    if (params === undefined || params === null) return url;
    const sp = typeof params === 'string' ? new URLSearchParams(params)
      : params instanceof URLSearchParams ? params
        : new URLSearchParams(Object.keys(params).map((k) => [k, String(params[k])]));
    const q = sp.toString();
    if (!q) return url;
    const hash = url.indexOf('#');
    const base = hash >= 0 ? url.slice(0, hash) : url;
    const frag = hash >= 0 ? url.slice(hash) : '';
    return base + (base.indexOf('?') >= 0 ? '&' : '?') + q + frag;
  }

  const boundaryChars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

  // multipartBody encodes Playwright's multipart option, an object whose
  // values are strings, numbers, booleans or files ({ name, mimeType,
  // buffer }), as multipart/form-data; it returns the body and its
  // content type.
  function multipartBody(fields) {
    if (fields === null || typeof fields !== 'object') throw new TypeError('request: multipart must be an object');
    let boundary = '----FerridriverFormBoundary';
    for (let i = 0; i < 16; i++) boundary += boundaryChars[Math.floor(Math.random() * boundaryChars.length)];
    // Names in quotes are escaped as browsers do (HTML's form encoding).
    const quoted = (s) => '"' + String(s).replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A') + '"';
    const enc = new TextEncoder();
    const parts = [];
    for (const name of Object.keys(fields)) {
      const v = fields[name];
      let head = '--' + boundary + '\r\nContent-Disposition: form-data; name=' + quoted(name);
      let data;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
        data = enc.encode(String(v));
      } else if (v && typeof v === 'object' && typeof v.name === 'string' && (v.buffer instanceof ArrayBuffer || ArrayBuffer.isView(v.buffer))) {
        head += '; filename=' + quoted(v.name) + '\r\nContent-Type: ' + (v.mimeType || 'application/octet-stream');
        data = toWire(v.buffer);
      } else {
        throw new TypeError('request: multipart field "' + name + '" must be a string, a number, a boolean or { name, mimeType, buffer }');
      }
      parts.push(enc.encode(head + '\r\n\r\n'), data, enc.encode('\r\n'));
    }
    parts.push(enc.encode('--' + boundary + '--\r\n'));
    const body = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) {
      body.set(p, at);
      at += p.byteLength;
    }
    return { body, contentType: 'multipart/form-data; boundary=' + boundary };
  }

  function makeRequest(doRequest) {
    const call = (method, url, opts) => {
      try {
        opts = opts || {};
        if (opts.ignoreHTTPSErrors !== undefined) {
          throw new TypeError('request: option ignoreHTTPSErrors is not supported by ferridriver');
        }
        const h = new Headers(opts.headers);
        let body;
        if ([opts.data, opts.form, opts.multipart].filter((v) => v !== undefined).length > 1) {
          throw new TypeError('request: pass only one of data, form and multipart');
        }
        if (opts.multipart !== undefined) {
          const m = multipartBody(opts.multipart);
          body = m.body;
          if (!h.has('content-type')) h.set('content-type', m.contentType);
        } else if (opts.data !== undefined) {
          const d = opts.data;
          if (typeof d === 'string' || d instanceof ArrayBuffer || ArrayBuffer.isView(d)) {
            body = toWire(d, h);
          } else {
            body = stringify(d);
            if (!h.has('content-type')) h.set('content-type', 'application/json');
          }
        } else if (opts.form !== undefined) {
          const f = opts.form;
          const sp = f instanceof URLSearchParams ? f : new URLSearchParams(Object.keys(f).map((k) => [k, String(f[k])]));
          body = sp.toString();
          if (!h.has('content-type')) h.set('content-type', 'application/x-www-form-urlencoded');
        }
        const max = opts.maxRedirects;
        const spec = {
          method, url: withParams(String(url), opts.params), headers: h._pairs(), body,
          redirect: max === 0 ? 'manual' : 'follow',
          maxRedirects: max === undefined ? -1 : Number(max),
          timeoutMs: opts.timeout === undefined ? 30000 : Number(opts.timeout),
        };
        return send(doRequest, spec, undefined).then((r) => {
          const res = new APIResponse(r);
          if (opts.failOnStatusCode && !res.ok()) {
            throw new Error(method + ' ' + spec.url + ' failed: ' + r.status + ' ' + r.statusText);
          }
          return res;
        });
      } catch (e) {
        return PromiseCtor.reject(e);
      }
    };
    return Object.freeze({
      get: (url, opts) => call('GET', url, opts),
      head: (url, opts) => call('HEAD', url, opts),
      post: (url, opts) => call('POST', url, opts),
      put: (url, opts) => call('PUT', url, opts),
      patch: (url, opts) => call('PATCH', url, opts),
      delete: (url, opts) => call('DELETE', url, opts),
      fetch: (input, opts) => {
        let url = input;
        let method = opts && opts.method;
        if (input && typeof input === 'object' && 'url' in input) {
          url = typeof input.url === 'function' ? input.url() : input.url;
          if (method === undefined && typeof input.method === 'function') method = input.method();
        }
        return call(String(method || 'GET').toUpperCase(), url, opts);
      },
      dispose: async () => {},
    });
  }

  return { Headers, Response, makeFetch, makeRequest };
})
