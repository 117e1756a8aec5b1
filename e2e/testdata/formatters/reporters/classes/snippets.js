const { SnippetsFormatter } = require('@cucumber/cucumber')

module.exports = class SnippetsToDo extends SnippetsFormatter {
  logSnippets() {
    this.log('// TODO\n')
    super.logSnippets()
  }
}
