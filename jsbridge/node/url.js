// node:url: WHATWG URL and URLSearchParams (goja_nodejs, the globals), the
// legacy parse/format/resolve API from the npm package url, and the
// file: URL conversions.
(function (parts, require) {
  'use strict';
  const legacy = parts.legacy;
  const path = require('node:path');

  function typeError(code, message) {
    const e = new TypeError(message);
    e.code = code;
    return e;
  }
  function fileURLToPath(u) {
    if (typeof u === 'string') u = new URL(u);
    else if (!u || typeof u.href !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', 'The "path" argument must be of type string or an instance of URL. Received ' + (u === null ? 'null' : typeof u));
    if (u.protocol !== 'file:') throw typeError('ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
    if (u.hostname !== '' && u.hostname !== 'localhost') throw typeError('ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
    if (/%2f/i.test(u.pathname)) throw typeError('ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
    return decodeURIComponent(u.pathname);
  }
  function pathToFileURL(p) {
    let abs = path.resolve(String(p));
    if (String(p).endsWith('/') && !abs.endsWith('/')) abs += '/';
    const u = new URL('file:///');
    u.pathname = abs.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/\t/g, '%09');
    return u;
  }
  function format(u, options) {
    if (typeof URL === 'function' && u instanceof URL) {
      const o = Object.assign({ auth: true, fragment: true, search: true }, options);
      let s = u.protocol + (u.host || u.protocol === 'file:' ? '//' : '');
      if (o.auth && (u.username || u.password)) s += u.username + (u.password ? ':' + u.password : '') + '@';
      s += u.host + u.pathname;
      if (o.search) s += u.search;
      if (o.fragment) s += u.hash;
      return s;
    }
    return legacy.format(u);
  }
  function urlToHttpOptions(u) {
    const o = {
      protocol: u.protocol,
      hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname,
      hash: u.hash,
      search: u.search,
      pathname: u.pathname,
      path: (u.pathname || '') + (u.search || ''),
      href: u.href,
    };
    if (u.port !== '') o.port = Number(u.port);
    if (u.username || u.password) o.auth = decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password);
    return o;
  }
  return {
    URL,
    URLSearchParams,
    Url: legacy.Url,
    parse: legacy.parse,
    resolve: legacy.resolve,
    resolveObject: legacy.resolveObject,
    format,
    fileURLToPath,
    pathToFileURL,
    urlToHttpOptions,
    domainToASCII: (d) => new URL('http://' + d).hostname,
    domainToUnicode: (d) => d,
  };
});
