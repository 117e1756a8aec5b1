import { Then } from '@cucumber/cucumber';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import assert from 'node:assert/strict';

dayjs.extend(utc);
dayjs.extend(customParseFormat);

Then('dayjs adds a month to 2024-01-31 and formats dates', function () {
  const d = dayjs.utc('2024-01-31T10:00:00Z');
  assert.equal(d.add(1, 'month').format('YYYY-MM-DD'), '2024-02-29');
  assert.equal(d.startOf('week').format('ddd YYYY-MM-DD'), 'Sun 2024-01-28');
  assert.equal(dayjs.utc('2024-03-10').diff(dayjs.utc('2024-03-01'), 'day'), 9);
  assert.ok(dayjs('31/12/2023', 'DD/MM/YYYY', true).isValid());
  assert.ok(!dayjs('31/13/2023', 'DD/MM/YYYY', true).isValid());
  this.attach(d.add(3, 'day').toISOString());
});
