// Replaces @cucumber/gherkin for cucumber-js's keyword types in
// ferridriver's pack (gen.go, replaced): they read only its dialects,
// which are this JSON file of the package; its index would load (and the
// VM compile) the whole Gherkin parser besides.
exports.dialects = require('@cucumber/gherkin/dist/gherkin-languages.json');
