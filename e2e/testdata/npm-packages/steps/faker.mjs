import { Then } from '@cucumber/cucumber';
import { faker } from '@faker-js/faker';
import assert from 'node:assert/strict';

Then('faker seeded with {int} makes the same person every time', function (seed) {
  const person = () => {
    faker.seed(seed);
    return {
      name: faker.person.fullName(),
      email: faker.internet.email(),
      city: faker.location.city(),
      n: faker.number.int({ min: 1, max: 1000 }),
      uuid: faker.string.uuid(),
    };
  };
  const a = person();
  const b = person();
  assert.deepEqual(a, b);
  assert.match(a.email, /@/);
  this.attach(JSON.stringify(a));
});
