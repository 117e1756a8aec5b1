import { Then } from '@cucumber/cucumber';
import YAML from 'yaml';
import assert from 'node:assert/strict';

Then('yaml parses a document and writes it back', function () {
  const doc = YAML.parse('name: ferridriver\nlist:\n  - 1\n  - two\nnested:\n  ok: true\nanchor: &a { x: 1 }\nref: *a\n');
  assert.deepEqual(doc, { name: 'ferridriver', list: [1, 'two'], nested: { ok: true }, anchor: { x: 1 }, ref: { x: 1 } });
  const text = YAML.stringify({ b: [1, 2], a: 'x' });
  assert.equal(text, 'b:\n  - 1\n  - 2\na: x\n');
  const parsed = YAML.parseDocument('a: 1 # comment\n');
  assert.equal(parsed.toString(), 'a: 1 # comment\n');
  this.attach(text);
});
