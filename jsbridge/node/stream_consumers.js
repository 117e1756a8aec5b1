// node:stream/consumers: read a whole stream (any async iterable).
(function (_, require) {
  'use strict';
  async function chunks(stream) {
    const out = [];
    for await (const c of stream) out.push(typeof c === 'string' ? Buffer.from(c) : c);
    return out;
  }
  const buffer = async (stream) => Buffer.concat(await chunks(stream));
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
