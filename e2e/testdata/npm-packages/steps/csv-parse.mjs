import { Then } from '@cucumber/cucumber';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import assert from 'node:assert/strict';

const csv = 'name,qty\n"Widget, large",3\nGadget,5\n';

Then('csv-parse parses CSV with its stream, callback and sync APIs', async function () {
  const records = [];
  const parser = parse({ columns: true, cast: true });
  parser.on('readable', () => {
    let r;
    while ((r = parser.read()) !== null) records.push(r);
  });
  const done = new Promise((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
  });
  parser.write(csv.slice(0, 10));
  parser.write(csv.slice(10));
  parser.end();
  await done;
  assert.deepEqual(records, [{ name: 'Widget, large', qty: 3 }, { name: 'Gadget', qty: 5 }]);
  const viaCallback = await new Promise((resolve, reject) => parse(csv, { from_line: 2 }, (err, rows) => (err ? reject(err) : resolve(rows))));
  assert.deepEqual(viaCallback, [['Widget, large', '3'], ['Gadget', '5']]);
  const sync = parseSync(csv, { columns: true });
  assert.equal(sync[1].name, 'Gadget');
  this.attach(JSON.stringify(records));
});
