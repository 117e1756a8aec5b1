const { Given, When, Then } = require('@cucumber/cucumber')

Given('a balance of {int}', function (n) {
  this.balance = n
})

When('these amounts are deposited', function (table) {
  for (const row of table.hashes()) this.balance += Number(row.amount)
})

When('{int} is deposited', function (n) {
  this.balance += n
})

Then('the balance is {int}', function (n) {
  if (this.balance !== n) throw new Error(`expected a balance of ${n}, got ${this.balance}`)
})

Then('the ledger is closed', function () {})

When('an audit is pending', function () {
  return 'pending'
})

When(/^this note is written:$/, async function (note) {
  await this.attach(note, 'text/plain')
  this.log(`note of ${note.length} characters`)
})
