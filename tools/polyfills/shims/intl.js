// Intl for the packages of ferridriver's pack that format with it (luxon,
// for cucumber-js's summary durations; gen.go, moduleGlobals): goja has
// no Intl. Intl.js (the intl package) with the en-US locale, bound to
// those modules only, never a global of the VM, and loaded when first
// used (luxon touches Intl only when it formats).
let intl;
function load() {
  if (!intl) {
    intl = require('intl/lib/core.js');
    // Intl.js restores RegExp.$1... after its own matches, from
    // properties goja does not have.
    intl.__disableRegExpRestore();
    require('intl/locale-data/jsonp/en-US.js');
  }
  return intl;
}
module.exports = new Proxy({}, {
  get: (_, name) => load()[name],
  has: (_, name) => name in load(),
});
