import { Then } from '@cucumber/cucumber';
import { v4, v5, v7, validate, version, NIL } from 'uuid';
import assert from 'node:assert/strict';

Then('uuid makes v4, v5 and v7 identifiers and validates them', function () {
  const a = v4();
  const b = v4();
  assert.notEqual(a, b);
  assert.ok(validate(a));
  assert.equal(version(a), 4);
  const name = v5('ferridriver', v5.URL);
  assert.equal(version(name), 5);
  assert.equal(version(v7()), 7);
  assert.ok(!validate('not-a-uuid'));
  assert.ok(validate(NIL));
  this.attach(name);
});
