import { Then } from '@cucumber/cucumber';
import { JSONPath } from 'jsonpath-plus';
import assert from 'node:assert/strict';

const store = {
  store: {
    book: [
      { title: 'Sayings', price: 8.95 },
      { title: 'Sword', price: 12.99 },
      { title: 'Moby', price: 8.99 },
    ],
    bicycle: { color: 'red', price: 19.95 },
  },
};

Then('jsonpath-plus selects the cheap books', function () {
  const titles = JSONPath({ path: '$.store.book[?(@.price < 10)].title', json: store });
  assert.deepEqual(titles, ['Sayings', 'Moby']);
  assert.deepEqual(JSONPath({ path: '$..price', json: store }).length, 4);
  assert.equal(JSONPath({ path: '$.store.bicycle.color', json: store, wrap: false }), 'red');
  this.attach(titles.join(','));
});
