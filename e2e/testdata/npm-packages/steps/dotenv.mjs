import { Given, When, Then } from '@cucumber/cucumber';
import dotenv from 'dotenv';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';

Given('a .env file that defines GREETING and QUOTED', function () {
  this.envDir = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-packages-dotenv-'));
  this.envFile = path.join(this.envDir, '.env');
  fs.writeFileSync(this.envFile, '# comment\nGREETING=hello from dotenv\nQUOTED="two\\nlines"\nEXPANDED=${GREETING}\n');
});

When('dotenv loads it', function () {
  const result = dotenv.config({ path: this.envFile, quiet: true });
  assert.equal(result.error, undefined);
  this.parsed = result.parsed;
  fs.rmSync(this.envDir, { recursive: true });
});

Then('process.env.GREETING is {string}', function (expected) {
  assert.equal(process.env.GREETING, expected);
  assert.equal(process.env.QUOTED, 'two\nlines');
  assert.deepEqual(dotenv.parse(Buffer.from('A=1\nB = two ')), { A: '1', B: 'two' });
  this.attach(JSON.stringify(this.parsed));
});
