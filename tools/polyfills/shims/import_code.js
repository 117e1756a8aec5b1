// Replaces cucumber-js's lib/formatter/import_code.js in ferridriver's pack
// (gen.go, replaced): cucumber-js imports a custom formatter or snippet
// syntax named by a string at run time; ferridriver bundles every
// formatter before the run, so it must be named where ferridriver sees it.
exports.importCode = async function importCode(specifier) {
  throw new Error(
    'Custom formatter or snippet syntax (' + specifier + ') cannot be loaded at run time in ferridriver: ' +
      'name the formatter with --format (or `format` in the cucumber-js configuration) so that it is bundled',
  );
};
