// node:buffer: the npm package buffer (Node's Buffer for browsers), which
// is also the global Buffer, with Node's constants, atob and btoa.
(function (buffer) {
  'use strict';
  const out = Object.assign({}, buffer);
  out.constants = { MAX_LENGTH: buffer.kMaxLength, MAX_STRING_LENGTH: (1 << 29) - 24 };
  out.kStringMaxLength = out.constants.MAX_STRING_LENGTH;
  out.atob = (s) => buffer.Buffer.from(String(s), 'base64').toString('latin1');
  out.btoa = (s) => buffer.Buffer.from(String(s), 'latin1').toString('base64');
  out.isUtf8 = (b) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(b);
      return true;
    } catch (e) {
      return false;
    }
  };
  return out;
});
