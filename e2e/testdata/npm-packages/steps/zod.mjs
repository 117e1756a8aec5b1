import { Then } from '@cucumber/cucumber';
import { z } from 'zod';
import assert from 'node:assert/strict';

Then('zod parses valid input and reports the issues of invalid input', function () {
  const User = z.object({
    email: z.string().email(),
    age: z.number().int().positive(),
    tags: z.array(z.string()).default([]),
  });
  assert.deepEqual(User.parse({ email: 'a@b.co', age: 3 }), { email: 'a@b.co', age: 3, tags: [] });
  const r = User.safeParse({ email: 'nope', age: -2 });
  assert.equal(r.success, false);
  const paths = r.error.issues.map((i) => i.path.join('.') + ':' + i.code).sort();
  assert.deepEqual(paths, ['age:too_small', 'email:invalid_format']);
  this.attach(paths.join(' '));
});
