// node:module: the names of the built-in modules and a require for them
// (step files are bundled: packages are resolved when they are bundled,
// so createRequire only reaches built-ins).
(function (names, require) {
  'use strict';
  const builtinModules = Array.from(names);
  const isBuiltin = (s) => {
    const n = String(s).replace(/^node:/, '');
    return builtinModules.includes(n);
  };
  function createRequire() {
    const r = (id) => {
      if (!isBuiltin(id)) {
        const e = new Error("Cannot find module '" + id + "': in ferridriver, createRequire reaches only Node's built-in modules (packages are bundled from import statements)");
        e.code = 'MODULE_NOT_FOUND';
        throw e;
      }
      return require(String(id).startsWith('node:') ? id : 'node:' + id);
    };
    r.resolve = (id) => { if (isBuiltin(id)) return id; const e = new Error("Cannot find module '" + id + "'"); e.code = 'MODULE_NOT_FOUND'; throw e; };
    r.cache = {};
    return r;
  }
  function Module(id) { this.id = id; this.exports = {}; }
  Module.builtinModules = builtinModules;
  Module.isBuiltin = isBuiltin;
  Module.createRequire = createRequire;
  Module.Module = Module;
  Module._extensions = {};
  Module._cache = {};
  Module.register = () => {};
  return Module;
});
