import { Then } from '@cucumber/cucumber';
import FormData from 'form-data';
import axios from 'axios';
import assert from 'node:assert/strict';

Then('form-data posts fields and a file to the server', async function () {
  const make = () => {
    const form = new FormData();
    form.append('name', 'ferri');
    form.append('count', '3');
    form.append('file', Buffer.from('file contents'), { filename: 'note.txt', contentType: 'text/plain' });
    return form;
  };
  const form = make();
  assert.match(form.getHeaders()['content-type'], /^multipart\/form-data; boundary=/);
  const res = await axios.post(this.parameters.server + '/upload', form, { headers: form.getHeaders() });
  assert.deepEqual(res.data, { fields: { count: '3', name: 'ferri' }, files: { file: { filename: 'note.txt', size: 13, type: 'text/plain' } } });
  // getBuffer: the whole body at once.
  const body = make().getBuffer().toString();
  assert.ok(body.includes('name="count"'));
  assert.ok(body.includes('file contents'));
  this.attach(JSON.stringify(res.data));
});
