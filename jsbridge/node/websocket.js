// The WebSocket global (WHATWG's client API, as Node 22 has it) over the Go
// connection of websocket.go (binding.connect): events open, message,
// error and close, send() of text and binary data, close(code, reason),
// readyState, protocol, binaryType ("arraybuffer"; "blob" is not
// available) and the on<event> handler properties.
(function (binding) {
  'use strict';
  const CONNECTING = 0, OPEN = 1, CLOSING = 2, CLOSED = 3;

  class MessageEvent extends Event {
    constructor(type, init) {
      super(type);
      init = init || {};
      Object.defineProperty(this, 'data', { value: init.data, enumerable: true });
      Object.defineProperty(this, 'origin', { value: init.origin || '', enumerable: true });
    }
  }
  class CloseEvent extends Event {
    constructor(type, init) {
      super(type);
      init = init || {};
      Object.defineProperty(this, 'code', { value: init.code || 0, enumerable: true });
      Object.defineProperty(this, 'reason', { value: init.reason || '', enumerable: true });
      Object.defineProperty(this, 'wasClean', { value: !!init.wasClean, enumerable: true });
    }
  }
  class ErrorEvent extends Event {
    constructor(type, init) {
      super(type);
      init = init || {};
      Object.defineProperty(this, 'message', { value: init.message || '', enumerable: true });
      Object.defineProperty(this, 'error', { value: init.error, enumerable: true });
    }
  }

  const state = new WeakMap();

  class WebSocket extends EventTarget {
    constructor(url, protocols) {
      super();
      let href = String(url);
      // Node accepts http(s) URLs for ws(s).
      href = href.replace(/^http(s?):/i, 'ws$1:');
      if (protocols === undefined) protocols = [];
      else if (!Array.isArray(protocols)) protocols = [String(protocols)];
      const s = { url: href, readyState: CONNECTING, protocol: '', binaryType: 'arraybuffer', handlers: {}, handle: null };
      state.set(this, s);
      const self = this;
      s.handle = binding.connect(href, protocols.map(String), {
        open(protocol) {
          s.readyState = OPEN;
          s.protocol = protocol || '';
          self.dispatchEvent(new Event('open'));
        },
        message(data) {
          if (s.readyState !== OPEN) return;
          self.dispatchEvent(new MessageEvent('message', { data, origin: s.url.replace(/^(wss?:\/\/[^/]*).*$/, '$1') }));
        },
        error(message) {
          self.dispatchEvent(new ErrorEvent('error', { message, error: new Error(message) }));
        },
        close(code, reason, wasClean) {
          s.readyState = CLOSED;
          self.dispatchEvent(new CloseEvent('close', { code, reason, wasClean }));
        },
      });
    }
    get url() { return state.get(this).url; }
    get readyState() { return state.get(this).readyState; }
    get protocol() { return state.get(this).protocol; }
    get extensions() { return ''; }
    get bufferedAmount() { return 0; }
    get binaryType() { return state.get(this).binaryType; }
    set binaryType(v) {
      if (v !== 'arraybuffer') throw new SyntaxError(`WebSocket binaryType "${v}" is not available in ferridriver (use "arraybuffer")`);
      state.get(this).binaryType = v;
    }
    send(data) {
      const s = state.get(this);
      if (s.readyState === CONNECTING) throw new DOMException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", 'InvalidStateError');
      if (s.readyState !== OPEN) return;
      if (typeof data === 'string') s.handle.send(data, false);
      else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) s.handle.send(data, true);
      else s.handle.send(String(data), false);
    }
    close(code, reason) {
      const s = state.get(this);
      if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999)) {
        throw new DOMException(`Failed to execute 'close' on 'WebSocket': The close code must be either 1000, or between 3000 and 4999. ${code} is neither.`, 'InvalidAccessError');
      }
      if (s.readyState === CLOSING || s.readyState === CLOSED) return;
      s.readyState = CLOSING;
      s.handle.close(code, reason);
    }
  }
  for (const [name, value] of [['CONNECTING', CONNECTING], ['OPEN', OPEN], ['CLOSING', CLOSING], ['CLOSED', CLOSED]]) {
    Object.defineProperty(WebSocket, name, { value, enumerable: true });
    Object.defineProperty(WebSocket.prototype, name, { value, enumerable: true });
  }
  for (const type of ['open', 'message', 'error', 'close']) {
    Object.defineProperty(WebSocket.prototype, 'on' + type, {
      get() { return state.get(this).handlers[type] || null; },
      // EventTarget.dispatchEvent calls this['on' + type] after the listeners.
      set(fn) { state.get(this).handlers[type] = typeof fn === 'function' ? fn : null; },
      configurable: true,
    });
  }
  WebSocket.MessageEvent = MessageEvent;
  WebSocket.CloseEvent = CloseEvent;
  return WebSocket;
})
