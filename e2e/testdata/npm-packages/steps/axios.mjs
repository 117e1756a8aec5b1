import { When, Then } from '@cucumber/cucumber';
import axios from 'axios';
import assert from 'node:assert/strict';

When('axios gets JSON from the server', async function () {
  const res = await axios.get(this.parameters.server + '/json', { headers: { 'X-Test': 'axios' } });
  assert.equal(res.status, 200);
  // axios's Node adapter (node:http), not its fetch adapter.
  assert.equal(res.request.constructor.name, 'ClientRequest');
  assert.equal(res.headers['content-type'], 'application/json');
  assert.deepEqual(res.data, { hello: 'world', items: [1, 2, 3] });
});

When('axios posts JSON to the server', async function () {
  const client = axios.create({ baseURL: this.parameters.server, timeout: 5000 });
  const res = await client.post('/echo?x=1', { name: 'ferri', n: 2 });
  assert.equal(res.data.method, 'POST');
  assert.equal(res.data.query, 'x=1');
  assert.equal(res.data.contentType, 'application/json');
  assert.deepEqual(JSON.parse(res.data.body), { name: 'ferri', n: 2 });
  this.attach(res.data.body);
});

Then('axios decompresses a gzip response, follows a redirect and reports a 404', async function () {
  const gz = await axios.get(this.parameters.server + '/gzip');
  assert.deepEqual(gz.data, { compressed: true });
  const redirected = await axios.get(this.parameters.server + '/redirect');
  assert.deepEqual(redirected.data, { hello: 'world', items: [1, 2, 3] });
  const err = await axios.get(this.parameters.server + '/missing').then(() => null, (e) => e);
  assert.ok(err, 'a 404 rejects');
  assert.equal(err.name, 'AxiosError');
  assert.equal(err.response.status, 404);
  this.attach(err.message);
});
