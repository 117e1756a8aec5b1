// node:tty: the VM's output is never a terminal.
(function (_, require) {
  'use strict';
  const { Readable, Writable } = require('node:stream');
  class ReadStream extends Readable {
    constructor(fd) { super(); this.fd = fd; this.isTTY = false; this.isRaw = false; }
    _read() { this.push(null); }
    setRawMode() { return this; }
  }
  class WriteStream extends Writable {
    constructor(fd) { super(); this.fd = fd; this.isTTY = false; this.columns = 80; this.rows = 24; }
    _write(chunk, enc, cb) { (this.fd === 2 ? process.stderr : process.stdout).write(String(chunk)); cb(); }
    getColorDepth() { return 1; }
    hasColors() { return false; }
    getWindowSize() { return [this.columns, this.rows]; }
  }
  return { isatty: () => false, ReadStream, WriteStream };
});
