// node:timers/promises.
(function () {
  'use strict';
  function abortError(signal) {
    const e = new Error('The operation was aborted');
    e.name = 'AbortError';
    e.code = 'ABORT_ERR';
    e.cause = signal.reason;
    return e;
  }
  function delayed(schedule, clear, value, options) {
    const signal = options && options.signal;
    if (signal && signal.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const id = schedule(() => {
        if (signal) signal.removeEventListener('abort', onAbort);
        resolve(value);
      });
      function onAbort() {
        clear(id);
        reject(abortError(signal));
      }
      if (signal) signal.addEventListener('abort', onAbort, { once: true });
    });
  }
  const timeout = (ms, value, options) => delayed((fn) => setTimeout(fn, ms), clearTimeout, value, options);
  const immediate = (value, options) => delayed((fn) => setImmediate(fn), clearImmediate, value, options);
  // setInterval yields value every ms, for as long as it is iterated.
  function interval(ms, value, options) {
    const signal = options && options.signal;
    let ticks = 0;
    let wake = null;
    const id = setInterval(() => {
      ticks++;
      if (wake) { const w = wake; wake = null; w(); }
    }, ms);
    return {
      next() {
        if (signal && signal.aborted) { clearInterval(id); return Promise.reject(abortError(signal)); }
        if (ticks > 0) { ticks--; return Promise.resolve({ done: false, value }); }
        return new Promise((resolve) => { wake = () => { ticks--; resolve({ done: false, value }); }; });
      },
      return() { clearInterval(id); return Promise.resolve({ done: true, value: undefined }); },
      [Symbol.asyncIterator]() { return this; },
    };
  }
  return {
    setTimeout: timeout,
    setImmediate: immediate,
    setInterval: interval,
    scheduler: { wait: (ms, options) => timeout(ms, undefined, options), yield: () => immediate() },
  };
});
