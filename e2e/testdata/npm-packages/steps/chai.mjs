import { Then } from '@cucumber/cucumber';
import * as chai from 'chai';

const { expect, assert } = chai;
chai.should();

Then("chai's expect, should and assert styles pass and fail as they should", function () {
  expect({ a: 1, b: [1, 2] }).to.deep.equal({ a: 1, b: [1, 2] });
  expect('ferridriver').to.be.a('string').and.have.lengthOf(11).and.match(/^ferri/);
  expect([1, 2, 3]).to.include(2).and.not.include(4);
  (42).should.be.above(41);
  assert.isTrue(true);
  assert.throws(() => { throw new TypeError('boom'); }, TypeError, 'boom');
  let message = '';
  try {
    expect({ a: 1 }).to.deep.equal({ a: 2 });
  } catch (e) {
    message = e.message;
  }
  expect(message).to.equal('expected { a: 1 } to deeply equal { a: 2 }');
  this.attach(message);
});
