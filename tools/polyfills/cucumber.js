// cucumber-js 13's formatter API, as @cucumber/cucumber's index exports
// it (jsbridge/formatter.js re-exports these): cucumber-js's own modules,
// pinned in package-lock.json and packed unchanged (gen.go). Each getter
// loads its module on first use. The model classes are what ferridriver
// builds a formatter's supportCodeLibrary from (the stream's definitions).
const lib = {
  get Formatter() { return require('@cucumber/cucumber/lib/formatter/index').default; },
  get FormatterBuilder() { return require('@cucumber/cucumber/lib/formatter/builder').default; },
  get JsonFormatter() { return require('@cucumber/cucumber/lib/formatter/json_formatter').default; },
  get ProgressFormatter() { return require('@cucumber/cucumber/lib/formatter/progress_formatter').default; },
  get RerunFormatter() { return require('@cucumber/cucumber/lib/formatter/rerun_formatter').default; },
  get SnippetsFormatter() { return require('@cucumber/cucumber/lib/formatter/snippets_formatter').default; },
  get SummaryFormatter() { return require('@cucumber/cucumber/lib/formatter/summary_formatter').default; },
  get UsageFormatter() { return require('@cucumber/cucumber/lib/formatter/usage_formatter').default; },
  get UsageJsonFormatter() { return require('@cucumber/cucumber/lib/formatter/usage_json_formatter').default; },
  get formatterHelpers() { return require('@cucumber/cucumber/lib/formatter/helpers/index'); },
  get formatters() { return require('@cucumber/cucumber/lib/formatter/helpers/formatters').default; },
  get findClassOrPlugin() { return require('@cucumber/cucumber/lib/formatter/find_class_or_plugin').findClassOrPlugin; },
  get getColorFns() { return require('@cucumber/cucumber/lib/formatter/get_color_fns').default; },
  get TestCaseHookDefinition() { return require('@cucumber/cucumber/lib/models/test_case_hook_definition').default; },
  get TestStepHookDefinition() { return require('@cucumber/cucumber/lib/models/test_step_hook_definition').default; },
  get TestRunHookDefinition() { return require('@cucumber/cucumber/lib/models/test_run_hook_definition').default; },
  get StepDefinition() { return require('@cucumber/cucumber/lib/models/step_definition').default; },
  get SourcedParameterTypeRegistry() { return require('@cucumber/cucumber/lib/support_code_library_builder/sourced_parameter_type_registry').SourcedParameterTypeRegistry; },
  get parallelCanAssignHelpers() { return require('@cucumber/cucumber/lib/support_code_library_builder/parallel_can_assign_helpers'); },
  get HookTarget() { return require('@cucumber/cucumber/lib/support_code_library_builder/types').HookTarget; },
  get wrapPromiseWithTimeout() { return require('@cucumber/cucumber/lib/time').wrapPromiseWithTimeout; },
  get version() { return require('@cucumber/cucumber/package.json').version; },
  get cucumberExpressions() { return require('@cucumber/cucumber-expressions'); },
};
module.exports = lib;
