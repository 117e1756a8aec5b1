// node:stream/consumers: read a whole stream (any async iterable).
(function () {
  'use strict';
  async function buffer(stream) {
    const chunks = [];
    const it = stream[Symbol.asyncIterator]();
    for (let r = await it.next(); !r.done; r = await it.next()) {
      chunks.push(typeof r.value === 'string' ? Buffer.from(r.value) : r.value);
    }
    return Buffer.concat(chunks);
  }
  const text = async (stream) => (await buffer(stream)).toString('utf8');
  return {
    buffer,
    text,
    json: async (stream) => JSON.parse(await text(stream)),
    arrayBuffer: async (stream) => {
      const b = await buffer(stream);
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    },
  };
});
