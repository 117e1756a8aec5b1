import { Given, When, Then } from '@cucumber/cucumber';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';

function image(size, square) {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const inSquare = square && x >= 10 && x < 14 && y >= 10 && y < 14;
      png.data[i] = inSquare ? 255 : 20;
      png.data[i + 1] = inSquare ? 0 : 120;
      png.data[i + 2] = inSquare ? 0 : 200;
      png.data[i + 3] = 255;
    }
  }
  return png;
}

Given('two 32x32 PNG images that differ in a 4x4 square, written to disk', function () {
  this.pngDir = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-packages-png-'));
  fs.writeFileSync(path.join(this.pngDir, 'a.png'), PNG.sync.write(image(32, false)));
  fs.writeFileSync(path.join(this.pngDir, 'b.png'), PNG.sync.write(image(32, true)));
});

When('pixelmatch compares them after pngjs reads them back', async function () {
  const a = PNG.sync.read(fs.readFileSync(path.join(this.pngDir, 'a.png')));
  // The streaming parser too: a file stream piped into a PNG.
  const b = await new Promise((resolve, reject) => {
    fs.createReadStream(path.join(this.pngDir, 'b.png')).pipe(new PNG()).on('parsed', function () { resolve(this); }).on('error', reject);
  });
  assert.equal(a.width, 32);
  const diff = new PNG({ width: a.width, height: a.height });
  this.diffPixels = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: 0.1 });
  fs.writeFileSync(path.join(this.pngDir, 'diff.png'), PNG.sync.write(diff));
});

Then('{int} pixels differ and the diff image is written', function (n) {
  assert.equal(this.diffPixels, n);
  const diff = PNG.sync.read(fs.readFileSync(path.join(this.pngDir, 'diff.png')));
  assert.equal(diff.width, 32);
  fs.rmSync(this.pngDir, { recursive: true });
  this.attach(String(this.diffPixels));
});
