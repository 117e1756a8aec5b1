import { Then } from '@cucumber/cucumber';
import _ from 'lodash';
import assert from 'node:assert/strict';

Then('lodash groups, chunks, merges and templates', async function () {
  const users = [{ name: 'a', role: 'admin' }, { name: 'b', role: 'user' }, { name: 'c', role: 'user' }];
  assert.deepEqual(_.mapValues(_.groupBy(users, 'role'), (l) => l.length), { admin: 1, user: 2 });
  assert.deepEqual(_.chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepEqual(_.merge({ a: { b: 1 } }, { a: { c: 2 } }), { a: { b: 1, c: 2 } });
  assert.equal(_.get({ a: [{ b: { c: 3 } }] }, 'a[0].b.c'), 3);
  assert.ok(_.isEqual(_.cloneDeep({ d: new Date(0) }), { d: new Date(0) }));
  const greet = _.template('hello <%= user %>!');
  let calls = 0;
  const debounced = _.debounce(() => calls++, 10);
  debounced();
  debounced();
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(calls, 1);
  this.attach(greet({ user: 'lodash' }) + ' ' + _.kebabCase('Ferri Driver'));
});
