// ferridriver's glue around cucumber-js's formatter API (native.cucumber:
// cucumber-js 13's modules, packed at build time from the npm package;
// tools/polyfills/cucumber.js): the classes of the reports ferridriver
// writes itself, and the host of one custom formatter (formatters/custom,
// VM.StartFormatter), which runs a cucumber-js formatter class or
// formatter plugin over the envelopes of a ferridriver run with the
// supportCodeLibrary built from the stream's definitions (with
// cucumber-js's model classes) and the stream, colours and lifecycle of
// the formatter's output. Evaluated once per VM, when first needed;
// returns { api, createHost, streamSupportCodeLibrary }.
(function (native) {
  'use strict';

  const cucumber = native.cucumber;
  const has = (v) => v !== undefined && v !== null;

  // ---- the reports ferridriver writes itself ----
  // json, usage and usage-json are ferridriver's own formats (formatters/
  // json.go, usage.go: one implementation of each report; usage leaves out
  // the built-in steps nothing used). Their classes are cucumber-js's with
  // the method that prints replaced by one that prints ferridriver's
  // report of the run: a subclass may change log or that method, not what
  // cucumber-js's own builders of the report (getFeatureData...) return.
  const reports = new WeakMap();
  function reportClass(Base, name, print) {
    const Report = {
      [Base.name]: class extends Base {
        constructor(options) {
          const report = native.builtin(name);
          if (!report) {
            throw new Error(Base.name + " prints ferridriver's " + name + ' report of a run: construct it in a formatter given to --format, not in step code');
          }
          super(options);
          reports.set(this, report);
        }
      },
    }[Base.name];
    Report.prototype[print] = function () {
      this.log(reports.get(this)());
    };
    return Report;
  }
  let reportClasses = null;
  function reportClassesOf() {
    if (!reportClasses) {
      reportClasses = {
        JsonFormatter: reportClass(cucumber.JsonFormatter, 'json', 'onTestRunFinished'),
        UsageFormatter: reportClass(cucumber.UsageFormatter, 'usage', 'logUsage'),
        UsageJsonFormatter: reportClass(cucumber.UsageJsonFormatter, 'usage-json', 'logUsage'),
      };
      // FormatterBuilder.build('json') & co. build these too.
      const registry = cucumber.formatters;
      const builtIn = registry.getFormatters;
      registry.getFormatters = () => ({
        ...builtIn.call(registry),
        json: reportClasses.JsonFormatter,
        usage: reportClasses.UsageFormatter,
        'usage-json': reportClasses.UsageJsonFormatter,
      });
    }
    return reportClasses;
  }
  const api = {
    get JsonFormatter() { return reportClassesOf().JsonFormatter; },
    get UsageFormatter() { return reportClassesOf().UsageFormatter; },
    get UsageJsonFormatter() { return reportClassesOf().UsageJsonFormatter; },
    get FormatterBuilder() {
      reportClassesOf();
      return cucumber.FormatterBuilder;
    },
  };

  // ---- supportCodeLibrary, from the stream ----
  // Step and hook code runs in the workers' VMs, not in a formatter's: a
  // formatter sees the definitions (ids, locations, names, tags,
  // expressions), not their functions.
  function remoteCode(what) {
    const fn = function () {
      throw new Error(what + " runs in ferridriver's workers; a formatter sees its definition, not its code");
    };
    // usage-json's "code": the stream does not carry the source.
    Object.defineProperty(fn, 'toString', { value: () => '' });
    return fn;
  }

  // The expression of a stepDefinition envelope, as cucumber-js builds it
  // from the definition's pattern (CucumberExpression or
  // RegularExpression, with the stream's parameter types).
  function expressionOf(pattern, registry) {
    const { CucumberExpression, RegularExpression } = cucumber.cucumberExpressions;
    const regexp = pattern.type === 'REGULAR_EXPRESSION';
    try {
      return regexp ? new RegularExpression(new RegExp(pattern.source), registry) : new CucumberExpression(pattern.source, registry);
    } catch (e) {
      // A pattern JavaScript cannot compile, or one naming a parameter
      // type the stream did not define: its source still reports; it
      // matches nothing.
      const expression = Object.create((regexp ? RegularExpression : CucumberExpression).prototype);
      return Object.assign(expression, { source: pattern.source, match: () => null });
    }
  }

  const reference = (m) => ({
    uri: m.sourceReference && m.sourceReference.uri,
    line: m.sourceReference && m.sourceReference.location ? m.sourceReference.location.line : undefined,
  });

  // streamSupportCodeLibrary is cucumber-js's ISupportCodeLibrary for the
  // definitions of envelopes (stepDefinition, hook, parameterType,
  // undefinedParameterType); add() takes later ones.
  function streamSupportCodeLibrary(envelopes) {
    const library = {
      originalCoordinates: { requireModules: [], requirePaths: [], importPaths: [], loaders: [] },
      afterTestCaseHookDefinitions: [],
      afterTestStepHookDefinitions: [],
      afterTestRunHookDefinitions: [],
      beforeTestCaseHookDefinitions: [],
      beforeTestStepHookDefinitions: [],
      beforeTestRunHookDefinitions: [],
      defaultTimeout: 5000,
      stepDefinitions: [],
      undefinedParameterTypes: [],
      parameterTypeRegistry: new cucumber.SourcedParameterTypeRegistry(),
      World: native.World,
      parallelCanAssign: () => true,
    };
    let order = 0;
    const add = (envelope) => {
      if (has(envelope.parameterType)) {
        const p = envelope.parameterType;
        const type = new cucumber.cucumberExpressions.ParameterType(
          p.name, p.regularExpressions, null, (...args) => args[0], p.useForSnippets !== false, !!p.preferForRegularExpressionMatch,
        );
        library.parameterTypeRegistry.defineSourcedParameterType(type, reference(p), order++);
      } else if (has(envelope.undefinedParameterType)) {
        library.undefinedParameterTypes.push(envelope.undefinedParameterType);
      } else if (has(envelope.stepDefinition)) {
        const d = envelope.stepDefinition;
        const expression = expressionOf(d.pattern, library.parameterTypeRegistry);
        library.stepDefinitions.push(new cucumber.StepDefinition({
          ...reference(d), id: d.id, options: {}, order: order++,
          code: remoteCode('a step definition'), unwrappedCode: remoteCode('a step definition'),
          pattern: d.pattern.type === 'REGULAR_EXPRESSION' && expression.regexp ? expression.regexp : d.pattern.source,
          expression,
        }));
      } else if (has(envelope.hook)) {
        const h = envelope.hook;
        const data = {
          ...reference(h), id: h.id, order: order++, code: remoteCode('a hook'), unwrappedCode: remoteCode('a hook'),
          options: { name: h.name, tags: h.tagExpression },
        };
        const kinds = {
          BEFORE_TEST_CASE: [cucumber.TestCaseHookDefinition, library.beforeTestCaseHookDefinitions],
          AFTER_TEST_CASE: [cucumber.TestCaseHookDefinition, library.afterTestCaseHookDefinitions],
          BEFORE_TEST_STEP: [cucumber.TestStepHookDefinition, library.beforeTestStepHookDefinitions],
          AFTER_TEST_STEP: [cucumber.TestStepHookDefinition, library.afterTestStepHookDefinitions],
          BEFORE_TEST_RUN: [cucumber.TestRunHookDefinition, library.beforeTestRunHookDefinitions],
          AFTER_TEST_RUN: [cucumber.TestRunHookDefinition, library.afterTestRunHookDefinitions],
        };
        const kind = kinds[h.type];
        if (kind) kind[1].push(new kind[0](data));
      }
    };
    // Parameter types first: the step definitions' expressions name them.
    for (const e of envelopes) if (has(e.parameterType)) add(e);
    for (const e of envelopes) if (!has(e.parameterType)) add(e);
    Object.defineProperty(library, 'add', { value: add });
    return library;
  }

  // ---- the host ----
  // The envelopes that come before a run's test cases: cucumber-js builds
  // formatters after loading the support code, and formatters read
  // supportCodeLibrary in their constructor, so ferridriver builds one
  // when the first envelope past these arrives (usually testRunStarted),
  // then gives it every envelope from the first, in order.
  const PREAMBLE = ['meta', 'source', 'gherkinDocument', 'pickle', 'stepDefinition', 'hook', 'parameterType', 'undefinedParameterType', 'parseError'];
  const DEFINITIONS = ['stepDefinition', 'hook', 'parameterType', 'undefinedParameterType'];

  // createHost prepares the formatter moduleExports exports. o: {
  // specifier, cwd, env, color, isTTY, formatOptions, directory, toFile,
  // write(chunk) }. Returns { envelope(e), finish() }.
  function createHost(moduleExports, o) {
    const implementation = cucumber.findClassOrPlugin(moduleExports);
    if (!implementation) throw new Error(o.specifier + ' does not export a function/class');
    const { Writable } = native.require('node:stream');
    const EventEmitter = native.require('node:events');
    const stream = new Writable({
      decodeStrings: false,
      write(chunk, encoding, callback) {
        try {
          o.write(chunk);
          callback();
        } catch (e) {
          callback(e);
        }
      },
    });
    stream.isTTY = !!o.isTTY;
    // ferridriver decides colours for the formatter's output as for its
    // own formats (a terminal, NO_COLOR, FORCE_COLOR, --no-color,
    // colorsEnabled; files never): FORCE_COLOR, which cucumber-js sets
    // from colorsEnabled too, carries the decision to what colours in the
    // formatter's VM (cucumber-js's colorFns through util.styleText, and
    // the formatter's own colour libraries).
    o.env.FORCE_COLOR = o.color ? '1' : '0';
    const write = stream.write.bind(stream);
    const endStream = () => new Promise((resolve, reject) => {
      stream.once('error', reject);
      stream.end(resolve);
    });

    const preamble = [];
    let library = null;
    let ready = null; // the formatter's construction: FormatterBuilder.build, or a plugin's formatter()
    let dispatch = null;
    let finish = null;

    function construct() {
      library = streamSupportCodeLibrary(preamble);
      if (typeof implementation === 'function') {
        const eventBroadcaster = new EventEmitter();
        eventBroadcaster.setMaxListeners(0);
        const eventDataCollector = new cucumber.formatterHelpers.EventDataCollector(eventBroadcaster);
        // As cucumber-js's initializeFormatters builds a formatter class.
        ready = api.FormatterBuilder.build(implementation, {
          env: o.env,
          cwd: o.cwd,
          eventBroadcaster,
          eventDataCollector,
          log: write,
          parsedArgvOptions: o.formatOptions,
          stream,
          cleanup: o.toFile ? endStream : async () => {},
          supportCodeLibrary: library,
        }).then((formatter) => {
          dispatch = (envelope) => eventBroadcaster.emit('envelope', envelope);
          finish = () => formatter.finished();
        });
        return;
      }
      const handlers = [];
      const logger = {
        debug() {},
        info: (...args) => console.error(...args),
        warn: (...args) => console.error(...args),
        error: (...args) => console.error(...args),
      };
      // As cucumber-js's plugin manager initialises a formatter plugin.
      ready = Promise.resolve(implementation.formatter({
        on(event, handler) {
          if (event === 'message') handlers.push(handler);
        },
        options: implementation.optionsKey ? (o.formatOptions[implementation.optionsKey] ?? {}) : o.formatOptions,
        logger,
        stream,
        write,
        directory: o.directory,
      })).then((cleanup) => {
        dispatch = (envelope) => {
          for (const h of handlers) h(envelope);
        };
        finish = async () => {
          if (typeof cleanup === 'function') await cleanup();
          if (o.toFile) await endStream();
        };
      });
    }

    // The caller (Formatter.Envelope, Finish) awaits what these return, so
    // an envelope arrives only once the one before it is handled.
    return {
      envelope(envelope) {
        if (ready) {
          if (DEFINITIONS.some((k) => has(envelope[k]))) library.add(envelope);
          dispatch(envelope);
          return undefined;
        }
        if (PREAMBLE.some((k) => has(envelope[k]))) {
          preamble.push(envelope);
          return undefined;
        }
        construct();
        return ready.then(() => {
          for (const e of preamble.splice(0)) dispatch(e);
          dispatch(envelope);
        });
      },
      async finish() {
        if (!ready) {
          construct();
          await ready;
          for (const e of preamble.splice(0)) dispatch(e);
        }
        await finish();
      },
    };
  }

  return { api, createHost, streamSupportCodeLibrary };
});
