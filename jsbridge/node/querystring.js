// node:querystring: the npm package querystring-es3 (Node's querystring
// for browsers), with escape and unescape.
(function (qs) {
  'use strict';
  const out = Object.assign({}, qs);
  out.escape = (s) => encodeURIComponent(s);
  out.unescape = (s) => {
    try {
      return decodeURIComponent(s);
    } catch (e) {
      return unescape(s);
    }
  };
  return out;
});
