// node:util: the npm package util (promisify, callbackify, inherits,
// deprecate, debuglog, types), with Node's inspect and format (the ones
// console uses, from the prelude, which also serve the assert polyfill's
// messages) and what the package lacks.
(function (parts) {
  'use strict';
  const util = parts.util;
  const inspect = parts.inspect;
  inspect.custom = Symbol.for('nodejs.util.inspect.custom');
  inspect.defaultOptions = { depth: 2 };
  util.inspect = inspect;
  util.format = parts.format;
  util.formatWithOptions = (options, ...args) => parts.format(...args);
  // Node's custom-promisify symbol is the registered one (the package
  // makes its own): child_process.exec, setTimeout... carry it.
  const kCustom = Symbol.for('nodejs.util.promisify.custom');
  const packagePromisify = util.promisify;
  util.promisify = function promisify(fn) {
    if (fn && typeof fn[kCustom] === 'function') return fn[kCustom];
    return packagePromisify(fn);
  };
  util.promisify.custom = kCustom;
  for (const [fn, p] of [[setTimeout, (ms, v) => new Promise((r) => setTimeout(() => r(v), ms))], [setImmediate, (v) => new Promise((r) => setImmediate(() => r(v)))]]) {
    if (!fn[kCustom]) Object.defineProperty(fn, kCustom, { value: p });
  }
  util.isDeepStrictEqual = (a, b) => parts.deepEqual.isDeepStrictEqual(a, b);
  util.TextEncoder = TextEncoder;
  util.TextDecoder = TextDecoder;
  // The package's isProxy and isExternal throw; these cannot tell either.
  const types = Object.assign({}, util.types, {
    isPromise: (v) => v instanceof Promise,
    isNativeError: (v) => v instanceof Error,
    isProxy: () => false,
    isExternal: () => false,
    isModuleNamespaceObject: () => false,
  });
  util.types = types;
  util.stripVTControlCharacters = (s) => String(s).replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g, '');
  util.toUSVString = (s) => String(s).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  util.styleText = (format, text) => text;
  util.getSystemErrorName = (n) => 'E' + String(-n);
  util.aborted = (signal) => new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  return util;
});
