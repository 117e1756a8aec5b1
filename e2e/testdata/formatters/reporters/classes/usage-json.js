const { UsageJsonFormatter } = require('@cucumber/cucumber')

module.exports = class UsageJson extends UsageJsonFormatter {}
