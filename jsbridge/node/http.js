// node:http and node:https, the client: ClientRequest (a Writable that
// collects the body and sends the request when it ends) and
// IncomingMessage (a Readable of the response body) over the Go HTTP core
// (binding.request, the one behind fetch, with its capability checks).
// Servers are not available.
(function (binding, require) {
  'use strict';
  const { Writable, Readable } = require('node:stream');
  const EventEmitter = require('node:events');

  const METHODS = ['ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK', 'M-SEARCH', 'MERGE',
    'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH', 'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT',
    'QUERY', 'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE'];
  // Headers of which Node keeps only the first value.
  const single = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host',
    'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization',
    'referer', 'retry-after', 'server', 'user-agent']);

  function nodeError(code, message, props) {
    const e = new Error(message);
    e.code = code;
    return Object.assign(e, props || {});
  }
  function invalidArg(message) {
    const e = new TypeError(message);
    e.code = 'ERR_INVALID_ARG_TYPE';
    return e;
  }

  class Agent extends EventEmitter {
    constructor(options) {
      super();
      this.options = Object.assign({ path: null }, options);
      this.keepAlive = !!this.options.keepAlive;
      this.keepAliveMsecs = this.options.keepAliveMsecs || 1000;
      this.maxSockets = this.options.maxSockets || Infinity;
      this.maxFreeSockets = this.options.maxFreeSockets || 256;
      this.maxTotalSockets = this.options.maxTotalSockets || Infinity;
      this.defaultPort = 80;
      this.protocol = 'http:';
      this.sockets = {};
      this.freeSockets = {};
      this.requests = {};
    }
    getName(options) {
      options = options || {};
      return (options.host || 'localhost') + ':' + (options.port || '') + ':' + (options.localAddress || '');
    }
    destroy() {}
  }
  class HttpsAgent extends Agent {
    constructor(options) {
      super(options);
      this.defaultPort = 443;
      this.protocol = 'https:';
    }
  }

  class IncomingMessage extends Readable {
    constructor(r, req) {
      super();
      this.statusCode = r.status;
      this.statusMessage = r.reason || r.statusText;
      this.httpVersion = r.httpVersion || '1.1';
      const [major, minor] = this.httpVersion.split('.').map(Number);
      this.httpVersionMajor = major;
      this.httpVersionMinor = minor;
      this.headers = {};
      this.headersDistinct = {};
      this.rawHeaders = [];
      for (const [k, v] of r.headers) {
        this.rawHeaders.push(k, v);
        (this.headersDistinct[k] = this.headersDistinct[k] || []).push(v);
        if (k === 'set-cookie') (this.headers[k] = this.headers[k] || []).push(v);
        else if (this.headers[k] === undefined) this.headers[k] = v;
        else if (!single.has(k)) this.headers[k] += (k === 'cookie' ? '; ' : ', ') + v;
      }
      this.trailers = {};
      this.rawTrailers = [];
      this.url = '';
      this.method = null;
      this.req = req;
      this.socket = req.socket;
      this.connection = req.socket;
      this.complete = false;
      this.aborted = false;
      Object.defineProperty(this, '_body', { value: Buffer.from(r.body), writable: true });
    }
    _read() {
      if (this._body === null) return;
      const b = this._body;
      this._body = null;
      if (b.length > 0) this.push(b);
      this.complete = true;
      this.push(null);
    }
    setTimeout(ms, cb) {
      if (typeof cb === 'function') this.once('timeout', cb);
      return this;
    }
  }

  // A stand-in for the request's socket: requests run on Go's connection
  // pool, so there is no socket to hand out; this answers the calls
  // packages make on one.
  class FakeSocket extends EventEmitter {
    constructor() {
      super();
      this.remoteAddress = undefined;
      this.remotePort = undefined;
      this.encrypted = false;
      this.readable = true;
      this.writable = true;
    }
    setKeepAlive() { return this; }
    setNoDelay() { return this; }
    setTimeout() { return this; }
    ref() { return this; }
    unref() { return this; }
    destroy() { return this; }
    end() { return this; }
    address() { return {}; }
  }

  // parseArgs reads request(url, options, cb), request(options, cb),
  // request(url, cb).
  function parseArgs(defaultProtocol, args) {
    let [input, options, cb] = args;
    let fromURL = {};
    if (typeof input === 'string' || (input && typeof input.href === 'string' && typeof input.searchParams === 'object')) {
      const u = typeof input === 'string' ? new URL(input) : input;
      fromURL = {
        protocol: u.protocol, hostname: u.hostname.replace(/^\[|\]$/g, ''), port: u.port,
        path: u.pathname + u.search, auth: u.username || u.password ? decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password) : undefined,
      };
      if (typeof options === 'function') { cb = options; options = {}; }
    } else {
      cb = options;
      options = input;
    }
    options = Object.assign({}, fromURL, options || {});
    return [options, typeof cb === 'function' ? cb : undefined];
  }

  class ClientRequest extends Writable {
    constructor(defaultProtocol, options, cb) {
      // The request closes itself: when its response ends or it is
      // destroyed, not when its body is written.
      super({ decodeStrings: true, autoDestroy: false, emitClose: false });
      const agent = options.agent;
      const protocol = options.protocol || (agent && agent.protocol) || defaultProtocol;
      if (protocol !== 'http:' && protocol !== 'https:') {
        throw Object.assign(new TypeError('Protocol "' + protocol + '" not supported. Expected "' + defaultProtocol + '"'), { code: 'ERR_INVALID_PROTOCOL' });
      }
      if (options.socketPath) throw nodeError('ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'http: requests over a Unix socket (socketPath) are not available in ferridriver');
      this.protocol = protocol;
      this.method = String(options.method || 'GET').toUpperCase();
      this.host = options.hostname || (options.host ? String(options.host).replace(/:\d+$/, '') : 'localhost');
      this.port = options.port || (agent && agent.defaultPort) || (protocol === 'https:' ? 443 : 80);
      this.path = options.path || '/';
      if (/[\u0000-\u0020]/.test(this.path)) throw Object.assign(new TypeError('Request path contains unescaped characters'), { code: 'ERR_UNESCAPED_CHARACTERS' });
      this.agent = agent;
      this.timeout = options.timeout;
      this.socket = new FakeSocket();
      this.connection = this.socket;
      this.reusedSocket = false;
      this.aborted = false;
      this.res = null;
      this.maxHeadersCount = null;
      Object.defineProperty(this, '_headers', { value: new Map(), writable: true });
      Object.defineProperty(this, '_chunks', { value: [] });
      Object.defineProperty(this, '_sent', { value: false, writable: true });
      Object.defineProperty(this, '_handle', { value: null, writable: true });
      Object.defineProperty(this, '_timer', { value: null, writable: true });
      Object.defineProperty(this, '_closeEmitted', { value: false, writable: true });
      const h = options.headers;
      if (Array.isArray(h)) {
        for (let i = 0; i + 1 < h.length; i += 2) this.setHeader(h[i], h[i + 1]);
      } else if (h) {
        for (const k of Object.keys(h)) if (h[k] !== undefined) this.setHeader(k, h[k]);
      }
      if (options.auth && !this.hasHeader('authorization')) this.setHeader('Authorization', 'Basic ' + Buffer.from(options.auth).toString('base64'));
      if (cb) this.once('response', cb);
      if (options.timeout !== undefined) this.setTimeout(options.timeout);
      if (options.signal) {
        const s = options.signal;
        const onAbort = () => this.destroy(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: s.reason }));
        if (s.aborted) Promise.resolve().then(onAbort);
        else s.addEventListener('abort', onAbort, { once: true });
      }
    }
    setHeader(name, value) {
      if (this._sent) throw nodeError('ERR_HTTP_HEADERS_SENT', 'Cannot set headers after they are sent to the client');
      if (typeof name !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw Object.assign(new TypeError('Header name must be a valid HTTP token ["' + name + '"]'), { code: 'ERR_INVALID_HTTP_TOKEN' });
      if (value === undefined) throw Object.assign(new TypeError('Invalid value "undefined" for header "' + name + '"'), { code: 'ERR_HTTP_INVALID_HEADER_VALUE' });
      this._headers.set(name.toLowerCase(), [name, value]);
      return this;
    }
    appendHeader(name, value) {
      const cur = this.getHeader(name);
      if (cur === undefined) return this.setHeader(name, value);
      return this.setHeader(name, [].concat(cur, value));
    }
    getHeader(name) { const e = this._headers.get(String(name).toLowerCase()); return e ? e[1] : undefined; }
    hasHeader(name) { return this._headers.has(String(name).toLowerCase()); }
    removeHeader(name) { this._headers.delete(String(name).toLowerCase()); }
    getHeaders() { const o = Object.create(null); for (const [k, [, v]] of this._headers) o[k] = v; return o; }
    getHeaderNames() { return Array.from(this._headers.keys()); }
    getRawHeaderNames() { return Array.from(this._headers.values()).map((e) => e[0]); }
    get headersSent() { return this._sent; }
    flushHeaders() {}
    setNoDelay() {}
    setSocketKeepAlive() {}
    setTimeout(ms, cb) {
      if (typeof cb === 'function') this.once('timeout', cb);
      if (this._timer) clearTimeout(this._timer);
      this._timer = null;
      if (ms > 0 && !this.res) {
        this._timer = setTimeout(() => {
          this._timer = null;
          if (!this.res && !this.destroyed) this.emit('timeout');
        }, ms);
      }
      return this;
    }
    _write(chunk, encoding, cb) {
      this._chunks.push(chunk);
      cb();
    }
    // _final sends the request: every chunk written is the body.
    _final(cb) {
      this._sent = true;
      const headers = [];
      let hasHost = false;
      for (const [, [name, value]] of this._headers) {
        if (name.toLowerCase() === 'host') hasHost = true;
        for (const v of [].concat(value)) headers.push([name, String(v)]);
      }
      const defaultPort = this.protocol === 'https:' ? 443 : 80;
      const hostPart = (this.host.includes(':') ? '[' + this.host + ']' : this.host) + (Number(this.port) === defaultPort ? '' : ':' + this.port);
      if (!hasHost) headers.push(['Host', hostPart]);
      const body = this._chunks.length ? Buffer.concat(this._chunks) : undefined;
      const url = this.protocol + '//' + hostPart + this.path;
      try {
        this._handle = binding.request({ method: this.method, url, headers, body, raw: true, timeoutMs: 0 });
      } catch (e) {
        cb(e);
        return;
      }
      this.emit('socket', this.socket);
      cb();
      this._handle.promise.then((r) => {
        if (this._timer) clearTimeout(this._timer);
        if (this.destroyed && !this.res) return;
        if (r.error) {
          this.destroy(this._error(r.error));
          return;
        }
        const res = new IncomingMessage(r, this);
        this.res = res;
        if (!this.emit('response', res)) res.resume();
        res.once('end', () => this._emitClose());
      }, (e) => this.destroy(e));
    }
    _error(w) {
      if (w.node) return Object.assign(new Error(w.node.message), w.node);
      const e = w.name === 'TypeError' ? new TypeError(w.message) : new Error(w.message);
      if (w.name !== 'TypeError' && w.name !== 'Error') e.name = w.name;
      if (w.code) e.code = w.code;
      return e;
    }
    _destroy(err, cb) {
      if (this._timer) clearTimeout(this._timer);
      if (this._handle && !this.res) this._handle.abort();
      if (!err && !this.res) err = nodeError('ECONNRESET', 'socket hang up');
      if (this.res && !this.res.complete) this.res.destroy(err);
      cb(this.res ? null : err);
      Promise.resolve().then(() => this._emitClose());
    }
    _emitClose() {
      if (this._closeEmitted) return;
      this._closeEmitted = true;
      this.emit('close');
    }
    abort() {
      if (this.aborted) return;
      this.aborted = true;
      Promise.resolve().then(() => this.emit('abort'));
      this.destroy();
    }
  }

  function make(defaultProtocol, AgentClass) {
    const globalAgent = new AgentClass({ keepAlive: true });
    const request = function (...args) {
      const [options, cb] = parseArgs(defaultProtocol, args);
      if (options.agent === undefined) options.agent = globalAgent;
      else if (options.agent === false) options.agent = new AgentClass();
      return new ClientRequest(defaultProtocol, options, cb);
    };
    const get = function (...args) {
      const req = request(...args);
      req.end();
      return req;
    };
    const createServer = () => {
      throw nodeError('ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'http.createServer is not available in ferridriver (the step VM has no server sockets; start servers with [[webServer]] or commands)');
    };
    return {
      request, get, createServer, Agent: AgentClass, globalAgent, ClientRequest, IncomingMessage,
      METHODS: METHODS.slice(), STATUS_CODES: binding.STATUS_CODES, maxHeaderSize: 16384,
      Server: createServer, validateHeaderName: (n) => { if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(n)) throw invalidArg('Header name must be a valid HTTP token ["' + n + '"]'); },
      validateHeaderValue: (n, v) => { if (v === undefined) throw invalidArg('Invalid value "undefined" for header "' + n + '"'); },
      setMaxIdleHTTPParsers: () => {},
    };
  }
  return { http: make('http:', Agent), https: make('https:', HttpsAgent) };
});
