import { Then } from '@cucumber/cucumber';
import fetch from 'node-fetch';
import assert from 'node:assert/strict';

Then('node-fetch gets JSON, posts text and decompresses gzip from the server', async function () {
  const res = await fetch(this.parameters.server + '/json');
  assert.equal(res.ok, true);
  assert.equal(res.headers.get('content-type'), 'application/json');
  assert.deepEqual(await res.json(), { hello: 'world', items: [1, 2, 3] });
  const posted = await fetch(this.parameters.server + '/echo', { method: 'POST', body: 'plain text', headers: { 'Content-Type': 'text/plain' } });
  const echo = await posted.json();
  assert.equal(echo.body, 'plain text');
  assert.equal(echo.contentType, 'text/plain');
  const gz = await fetch(this.parameters.server + '/gzip');
  assert.deepEqual(await gz.json(), { compressed: true });
  const missing = await fetch(this.parameters.server + '/missing');
  assert.equal(missing.status, 404);
  this.attach(echo.method + ' ' + missing.status);
});
