import { Then } from '@cucumber/cucumber';
import { expect } from 'expect';

Then("Jest's expect matches objects and explains a failed match", function () {
  expect({ id: 7, tags: ['a', 'b'], nested: { ok: true } }).toMatchObject({ tags: expect.arrayContaining(['b']), nested: { ok: true } });
  expect([3, 1, 2].sort()).toEqual([1, 2, 3]);
  expect(() => JSON.parse('{')).toThrow(SyntaxError);
  expect('ferridriver').toEqual(expect.stringContaining('driver'));
  expect(0.1 + 0.2).toBeCloseTo(0.3);
  let message = '';
  try {
    expect({ a: 1 }).toEqual({ a: 2 });
  } catch (e) {
    message = e.message;
  }
  expect(message).toContain('expect(received).toEqual(expected)');
  expect(message).toContain('"a": 2');
  this.attach(message.replace(/\u001b\[[0-9;]*m/g, ''));
});
