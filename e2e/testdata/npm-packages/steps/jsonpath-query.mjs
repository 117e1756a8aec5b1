import { Then } from '@cucumber/cucumber';
import jp from 'jsonpath';
import assert from 'node:assert/strict';

// jsonpath parses its filter expressions with a copy of esprima that it
// finds with require.resolve and compiles with new Module()._compile
// (lib/aesprim.js).
const data = {
  store: {
    book: [
      { author: 'Rees', title: 'Sayings', price: 8.95 },
      { author: 'Waugh', title: 'Sword', price: 12.99 },
      { author: 'Melville', title: 'Moby', price: 8.99 },
    ],
  },
};

Then('jsonpath queries the books with a filter', function () {
  const titles = jp.query(data, '$.store.book[?(@.price < 10)].title');
  assert.deepEqual(titles, ['Sayings', 'Moby']);
  assert.deepEqual(jp.paths(data, '$..author').length, 3);
  assert.equal(jp.value(data, '$.store.book[1].author'), 'Waugh');
  this.attach(titles.join(','));
});
