import { Given, Then, World, setWorldConstructor, DataTable, Before } from '@cucumber/cucumber';
import type { IWorldOptions, ITestCaseHookParameter } from '@cucumber/cucumber';
import assert from 'node:assert/strict';

interface Parameters {
  server: string;
}

// A typed World: every scenario of this project gets one.
export class TypedWorld extends World<Parameters> {
  scenarioName = '';
  readonly created: number;

  constructor(options: IWorldOptions<Parameters>) {
    super(options);
    this.created = 1;
  }

  describe(): string {
    return `${this.scenarioName} (server ${this.parameters.server ? 'set' : 'missing'})`;
  }
}

setWorldConstructor(TypedWorld);

Before(function (this: TypedWorld, { pickle }: ITestCaseHookParameter) {
  this.scenarioName = pickle.name;
});

Given('a world typed with the types of @cucumber\\/cucumber', function (this: TypedWorld) {
  assert.ok(this instanceof TypedWorld);
  assert.equal(this.created, 1);
});

Then('the typed data table has {int} rows', function (this: TypedWorld, count: number, table: DataTable) {
  const rows: Array<{ name: string; role: string }> = table.hashes() as Array<{ name: string; role: string }>;
  assert.equal(rows.length, count);
  assert.deepEqual(table.raw()[0], ['name', 'role']);
  this.attach(this.describe() + ': ' + rows.map((r) => `${r.name}=${r.role}`).join(', '));
});
