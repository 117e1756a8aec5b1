import { Then } from '@cucumber/cucumber';
import Ajv from 'ajv';
import assert from 'node:assert/strict';

Then('ajv validates a document against a JSON schema and reports errors', function () {
  const ajv = new Ajv({ allErrors: true });
  const validate = ajv.compile({
    type: 'object',
    properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer', minimum: 0 } },
    required: ['name', 'age'],
    additionalProperties: false,
  });
  assert.equal(validate({ name: 'al', age: 3 }), true);
  assert.equal(validate({ name: 'a', age: -1, extra: true }), false);
  const errors = validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`).sort();
  assert.equal(errors.length, 3);
  this.attach(errors.join('; '));
});
