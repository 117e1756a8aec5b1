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
  // Node's inspect.colors (the SGR codes that start and end each style),
  // with its non-enumerable aliases.
  if (!inspect.colors) {
    const colors = {
      reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25], inverse: [7, 27],
      hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24], black: [30, 39], red: [31, 39], green: [32, 39],
      yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], bgBlack: [40, 49], bgRed: [41, 49],
      bgGreen: [42, 49], bgYellow: [43, 49], bgBlue: [44, 49], bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49],
      framed: [51, 54], overlined: [53, 55], gray: [90, 39], redBright: [91, 39], greenBright: [92, 39], yellowBright: [93, 39],
      blueBright: [94, 39], magentaBright: [95, 39], cyanBright: [96, 39], whiteBright: [97, 39], bgGray: [100, 49],
      bgRedBright: [101, 49], bgGreenBright: [102, 49], bgYellowBright: [103, 49], bgBlueBright: [104, 49],
      bgMagentaBright: [105, 49], bgCyanBright: [106, 49], bgWhiteBright: [107, 49],
    };
    const aliases = {
      grey: 'gray', blackBright: 'gray', bgGrey: 'bgGray', bgBlackBright: 'bgGray', faint: 'dim', crossedout: 'strikethrough',
      strikeThrough: 'strikethrough', crossedOut: 'strikethrough', conceal: 'hidden', swapColors: 'inverse',
      swapcolors: 'inverse', doubleUnderline: 'doubleunderline',
    };
    for (const [alias, name] of Object.entries(aliases)) {
      Object.defineProperty(colors, alias, { get() { return this[name]; }, configurable: true, enumerable: false });
    }
    inspect.colors = colors;
  }
  // Whether a stream takes colours, as Node decides it: FORCE_COLOR when
  // set (its colour depth), else a TTY of more than two colours.
  function forcedColorDepth(env) {
    switch (env.FORCE_COLOR) {
      case '':
      case '1':
      case 'true':
        return 4;
      case '2':
        return 8;
      case '3':
        return 24;
      default:
        return 1;
    }
  }
  function shouldColorize(stream) {
    if (process.env.FORCE_COLOR !== undefined) return forcedColorDepth(process.env) > 2;
    return !!(stream && stream.isTTY && (typeof stream.getColorDepth === 'function' ? stream.getColorDepth() > 2 : true));
  }
  const argTypeError = (message) => Object.assign(new TypeError(message), { code: 'ERR_INVALID_ARG_TYPE' });
  util.styleText = function styleText(format, text, { validateStream = true, stream = process.stdout } = {}) {
    if (typeof text !== 'string') throw argTypeError('The "text" argument must be of type string. Received ' + inspect(text));
    let colorize = true;
    if (validateStream) {
      if (stream === null || typeof stream !== 'object') {
        throw argTypeError('The "stream" argument must be an instance of ReadableStream, WritableStream, or Stream. Received ' + inspect(stream));
      }
      colorize = shouldColorize(stream);
    }
    let left = '';
    let right = '';
    for (const key of Array.isArray(format) ? format : [format]) {
      const codes = inspect.colors[key];
      if (!codes) {
        const names = Object.keys(inspect.colors).map((n) => "'" + n + "'").join(', ');
        throw Object.assign(new TypeError("The argument 'format' must be one of: " + names + '. Received ' + inspect(key)), { code: 'ERR_INVALID_ARG_VALUE' });
      }
      left += '\u001b[' + codes[0] + 'm';
      right = '\u001b[' + codes[1] + 'm' + right;
    }
    return colorize ? left + text + right : text;
  };
  util.getSystemErrorName = (n) => 'E' + String(-n);
  util.aborted = (signal) => new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  return util;
});
