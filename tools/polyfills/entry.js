// Which npm package implements which Node built-in in ferridriver's
// JavaScript VM (see docs/architecture.md, "Node built-ins"), and the
// npm libraries ferridriver's own JavaScript uses (cucumber-js's formatter
// API, for @cucumber/cucumber's formatter exports). gen.go
// bundles this file with the packages pinned in package-lock.json; each
// getter loads its package on first use, so a VM pays only for what its
// code imports. The Node-shaped glue around them (util's and events'
// additions...) is in jsbridge/node/*.js.
module.exports = {
  get assert() { return require('assert/'); },
  get buffer() { return require('buffer/'); },
  get events() { return require('events/'); },
  get punycode() { return require('punycode/'); },
  get querystring() { return require('querystring-es3'); },
  get stream() { return require('readable-stream'); },
  get string_decoder() { return require('string_decoder/'); },
  get url() { return require('url/'); },
  get util() { return require('util/'); },
  get webStreams() { return require('web-streams-polyfill'); },
  get whatwgURL() { return require('whatwg-url'); },
  get deepEqual() { return require('assert/build/internal/util/comparisons.js'); },
  // Not a built-in: cucumber-js 13's formatter API (cucumber.js), which
  // jsbridge/formatter.js re-exports from @cucumber/cucumber.
  get cucumber() { return require('./cucumber.js'); },
  // ECMAScript built-ins of Node 22 that goja lacks (core-js installs
  // each on its global when required). The VM puts a placeholder under
  // each name of esBuiltinNames that requires them when first touched.
  esBuiltinNames: ['String.prototype.isWellFormed', 'String.prototype.toWellFormed', 'Object.groupBy', 'Map.groupBy', 'Promise.withResolvers', 'Array.fromAsync'],
  get esBuiltins() {
    require('core-js/modules/es.string.is-well-formed.js');
    require('core-js/modules/es.string.to-well-formed.js');
    require('core-js/modules/es.object.group-by.js');
    require('core-js/modules/es.map.group-by.js');
    require('core-js/modules/es.promise.with-resolvers.js');
    require('core-js/modules/es.array.from-async.js');
    return true;
  },
};
