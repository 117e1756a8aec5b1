// node:vm, approximated: code runs in the same VM with the context's
// properties in scope (a `with` block), not in an isolated realm. Enough
// for packages that evaluate small expressions (jsonpath-plus's native
// evaluator); not a security boundary.
(function () {
  const contexts = new WeakSet();
  function run(code, context) {
    const sandbox = context || {};
    return Function('__ferridriverContext', 'with (__ferridriverContext) { return eval(' + JSON.stringify(String(code)) + '); }')(sandbox);
  }
  class Script {
    constructor(code) { this.code = String(code); }
    runInNewContext(context) { return run(this.code, context); }
    runInContext(context) { return run(this.code, context); }
    runInThisContext() { return (0, eval)(this.code); }
    createCachedData() { return Buffer.alloc(0); }
  }
  return {
    Script,
    createContext(o) { o = o || {}; contexts.add(o); return o; },
    isContext: (o) => contexts.has(o),
    runInNewContext: (code, context) => run(code, context),
    runInContext: (code, context) => run(code, context),
    runInThisContext: (code) => (0, eval)(String(code)),
    compileFunction: (code, params) => Function(...(params || []), code),
  };
});
