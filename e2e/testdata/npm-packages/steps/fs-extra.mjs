import { Given } from '@cucumber/cucumber';
import fse from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';

Given('fs-extra writes, copies and reads back files in a temporary directory', async function () {
  const dir = await fse.mkdtemp(path.join(os.tmpdir(), 'npm-packages-fse-'));
  try {
    await fse.outputFile(path.join(dir, 'a/b/c.txt'), 'nested');
    await fse.outputJson(path.join(dir, 'a/data.json'), { n: 1, list: [1, 2] }, { spaces: 2 });
    await fse.copy(path.join(dir, 'a'), path.join(dir, 'copy'));
    assert.equal(await fse.readFile(path.join(dir, 'copy/b/c.txt'), 'utf8'), 'nested');
    assert.deepEqual(await fse.readJson(path.join(dir, 'copy/data.json')), { n: 1, list: [1, 2] });
    fse.ensureDirSync(path.join(dir, 'sync/deep'));
    fse.writeJsonSync(path.join(dir, 'sync/deep/x.json'), { ok: true });
    assert.deepEqual(fse.readJsonSync(path.join(dir, 'sync/deep/x.json')), { ok: true });
    await fse.move(path.join(dir, 'copy'), path.join(dir, 'moved'));
    assert.equal(await fse.pathExists(path.join(dir, 'copy')), false);
    assert.equal(await fse.pathExists(path.join(dir, 'moved/b/c.txt')), true);
    await fse.emptyDir(path.join(dir, 'moved'));
    assert.deepEqual(await fse.readdir(path.join(dir, 'moved')), []);
    const listing = (await fse.readdir(dir)).sort().join(',');
    this.attach(listing);
  } finally {
    await fse.remove(dir);
  }
  assert.equal(fse.existsSync(dir), false);
});
