// node:module: Node's module loader for what runs at run time (the step
// files and the packages they import are bundled beforehand): the global
// require's resolve, cache and main, require(variable), createRequire,
// and Module with _compile, _load and _resolveFilename, so that CommonJS
// packages that find a dependency's file (require.resolve) and compile a
// source they patched (new Module()._compile, as jsonpath does with
// esprima) load. Files are read and resolved by the Go binding (Node's
// resolution: files, directories, node_modules, package.json main and
// exports); a module loaded so is its own copy, apart from the bundle's.
(function (binding, builtinRequire) {
  'use strict';
  const builtinModules = Array.from(binding.builtins);
  const isBuiltin = (s) => {
    const n = String(s).replace(/^node:/, '');
    return builtinModules.includes(n);
  };
  const dirname = (p) => {
    const i = p.lastIndexOf('/');
    return i <= 0 ? (i === 0 ? '/' : '.') : p.slice(0, i);
  };
  const toPath = (f) => {
    const s = typeof f === 'string' ? f : String(f && f.href !== undefined ? f.href : f);
    return s.startsWith('file://') ? decodeURIComponent(s.slice(7)) : s;
  };
  const cache = Object.create(null);

  function Module(id, parent) {
    this.id = id === undefined ? '' : String(id);
    this.path = '.';
    this.exports = {};
    this.filename = null;
    this.loaded = false;
    this.children = [];
    this.paths = [];
    this.parent = parent;
    if (parent && parent.children) parent.children.push(this);
  }
  Module.prototype.require = function (id) {
    if (typeof id !== 'string' || id === '') {
      const e = new TypeError('The "id" argument must be a non-empty string. Received ' + (id === '' ? "''" : typeof id));
      e.code = 'ERR_INVALID_ARG_VALUE';
      throw e;
    }
    return Module._load(id, this);
  };
  Module.prototype._compile = function (content, filename) {
    filename = String(filename);
    this.filename = filename;
    this.path = dirname(filename);
    this.paths = Module._nodeModulePaths(this.path);
    const fn = binding.compile(String(content), filename);
    const require = makeRequire(this);
    const result = fn.call(this.exports, this.exports, require, this, filename, this.path);
    this.loaded = true;
    return result;
  };
  function makeRequire(mod) {
    const require = (id) => mod.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    require.resolve.paths = (request) => (isBuiltin(request) ? null : Module._nodeModulePaths(mod.path || binding.cwd));
    require.cache = cache;
    require.main = undefined;
    require.extensions = Module._extensions;
    return require;
  }
  Module._cache = cache;
  Module._extensions = {
    '.js'(m, filename) { m._compile(binding.read(filename), filename); },
    '.cjs'(m, filename) { m._compile(binding.read(filename), filename); },
    '.json'(m, filename) {
      try {
        m.exports = JSON.parse(binding.read(filename));
      } catch (e) {
        e.message = filename + ': ' + e.message;
        throw e;
      }
    },
    '.mjs'(m, filename) {
      const e = new Error('require() of ES Module ' + binding.rel(filename) + ' is not supported in ferridriver: an ES module can only be imported by a static import statement (it is then bundled)');
      e.code = 'ERR_REQUIRE_ESM';
      throw e;
    },
    '.node'(m, filename) {
      const e = new Error(filename + ': native addons (.node) cannot be loaded in ferridriver');
      e.code = 'ERR_DLOPEN_FAILED';
      throw e;
    },
  };
  Module._nodeModulePaths = (dir) => Array.from(binding.nodeModulePaths(String(dir)));
  Module._resolveFilename = function (request, parent, isMain, options) {
    request = String(request);
    if (isBuiltin(request)) return request;
    const from = options && Array.isArray(options.paths) && options.paths.length > 0
      ? options.paths.map(String)
      : [parent && parent.filename ? dirname(parent.filename) : parent && parent.path && parent.path !== '.' ? parent.path : binding.cwd];
    let last;
    for (const dir of from) {
      try {
        return binding.resolve(request, dir);
      } catch (e) {
        last = e;
      }
    }
    if (last && last.code === 'MODULE_NOT_FOUND') {
      const stack = [];
      for (let m = parent; m && stack.length < 10; m = m.parent) if (m.filename) stack.push('- ' + binding.rel(m.filename));
      if (stack.length > 0) last.message += '\nRequire stack:\n' + stack.join('\n');
      last.requireStack = stack.map((s) => s.slice(2));
    }
    throw last;
  };
  Module._load = function (request, parent) {
    if (isBuiltin(request)) return builtinRequire(String(request).startsWith('node:') ? request : 'node:' + request);
    const filename = Module._resolveFilename(request, parent);
    const cached = cache[filename];
    if (cached) return cached.exports;
    const m = new Module(filename, parent);
    m.filename = filename;
    m.path = dirname(filename);
    m.paths = Module._nodeModulePaths(m.path);
    cache[filename] = m;
    const ext = filename.slice(filename.lastIndexOf('.'));
    const load = Module._extensions[ext] || Module._extensions['.js'];
    try {
      load(m, filename);
    } catch (e) {
      delete cache[filename];
      throw e;
    }
    m.loaded = true;
    return m.exports;
  };
  Module.wrap = (src) => '(function (exports, require, module, __filename, __dirname) { ' + src + '\n});';
  Module.wrapper = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];
  Module.builtinModules = builtinModules;
  Module.isBuiltin = isBuiltin;
  Module.createRequire = function (filename) {
    const p = toPath(filename);
    const m = new Module(p);
    m.filename = p;
    m.path = p.endsWith('/') ? p.slice(0, -1) : dirname(p);
    m.paths = Module._nodeModulePaths(m.path);
    return makeRequire(m);
  };
  Module.Module = Module;
  Module.register = () => {};
  Module.syncBuiltinESMExports = () => {};
  Module.findSourceMap = () => undefined;
  Module.enableCompileCache = () => ({ status: 3 });
  Module.getCompileCacheDir = () => undefined;
  Module.runMain = () => {};

  // The global require of bundled code (esbuild's __require) and of
  // scripts: resolve and load relative to the calling file.
  const callerModule = () => {
    const file = binding.callerFile();
    const m = new Module(file || '.');
    if (file) {
      m.filename = file;
      m.path = dirname(file);
    } else m.path = binding.cwd;
    return m;
  };
  function installGlobalRequire(g) {
    g.resolve = (request, options) => Module._resolveFilename(request, callerModule(), false, options);
    g.resolve.paths = (request) => (isBuiltin(request) ? null : Module._nodeModulePaths(callerModule().path));
    g.cache = cache;
    g.main = undefined;
    g.extensions = Module._extensions;
  }
  Object.defineProperty(Module, '__ferridriverLoad', {
    value: (request) => Module._load(request, callerModule()),
  });
  Object.defineProperty(Module, '__ferridriverInstall', { value: installGlobalRequire });
  return Module;
});
