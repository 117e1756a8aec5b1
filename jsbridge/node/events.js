// node:events: the npm package events (Node's EventEmitter for browsers),
// with the functions it lacks: on (an async iterator of events),
// getEventListeners, setMaxListeners, errorMonitor.
(function (EventEmitter) {
  'use strict';
  const errorMonitor = Symbol('events.errorMonitor');

  // on(emitter, name, {signal}) yields each event's arguments as an array
  // until the signal aborts; an 'error' event rejects the iteration.
  function on(emitter, name, options) {
    const signal = options && options.signal;
    const queue = [];
    const waiting = [];
    let error = null;
    let done = false;
    const push = (...args) => {
      if (waiting.length) waiting.shift().resolve({ done: false, value: args });
      else queue.push(args);
    };
    const fail = (err) => {
      done = true;
      if (waiting.length) waiting.shift().reject(err);
      else error = err;
      cleanup();
    };
    const cleanup = () => {
      emitter.removeListener(name, push);
      if (name !== 'error') emitter.removeListener('error', fail);
      while (waiting.length) waiting.shift().resolve({ done: true, value: undefined });
    };
    emitter.on(name, push);
    if (name !== 'error') emitter.on('error', fail);
    if (signal) {
      const abort = () => fail(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: signal.reason }));
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
    }
    const it = {
      next() {
        if (queue.length) return Promise.resolve({ done: false, value: queue.shift() });
        if (error) { const e = error; error = null; return Promise.reject(e); }
        if (done) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return() {
        done = true;
        cleanup();
        return Promise.resolve({ done: true, value: undefined });
      },
      throw(err) {
        fail(err);
        return Promise.reject(err);
      },
      [Symbol.asyncIterator]() { return this; },
    };
    return it;
  }

  function getEventListeners(target, name) {
    if (typeof target.listeners === 'function') return target.listeners(name);
    return [];
  }
  function setMaxListeners(n, ...targets) {
    if (targets.length === 0) EventEmitter.defaultMaxListeners = n;
    for (const t of targets) if (typeof t.setMaxListeners === 'function') t.setMaxListeners(n);
  }

  EventEmitter.on = on;
  EventEmitter.getEventListeners = getEventListeners;
  EventEmitter.setMaxListeners = setMaxListeners;
  EventEmitter.errorMonitor = errorMonitor;
  EventEmitter.captureRejections = false;
  EventEmitter.captureRejectionSymbol = Symbol.for('nodejs.rejection');
  EventEmitter.EventEmitter = EventEmitter;
  return EventEmitter;
});
