import { Then } from '@cucumber/cucumber';
import winston from 'winston';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';

Then('winston logs JSON lines to a file', async function () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-packages-winston-'));
  const file = path.join(dir, 'test.log');
  const logger = winston.createLogger({
    level: 'info',
    format: winston.format.combine(winston.format.label({ label: 'npm' }), winston.format.json()),
    transports: [new winston.transports.File({ filename: file })],
  });
  logger.info('first', { n: 1 });
  logger.warn('second');
  logger.debug('not written');
  await new Promise((resolve) => {
    logger.on('finish', resolve);
    logger.end();
  });
  // The file transport may still be flushing when the logger finishes.
  for (let i = 0; i < 50 && fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length < 2; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  fs.rmSync(dir, { recursive: true });
  assert.deepEqual(lines, [{ label: 'npm', level: 'info', message: 'first', n: 1 }, { label: 'npm', level: 'warn', message: 'second' }]);
  this.attach(JSON.stringify(lines));
});
