// Drives cucumber-js's own class-based formatters (json, rerun, usage,
// usage-json) on an NDJSON stream, outside of a cucumber-js run. The support
// code library those formatters read is rebuilt from the stream's
// stepDefinition messages (id, uri, line, pattern), which is all they use.
//
// usage: node legacy-oracle.cjs <node_modules dir> <format> <out dir> <formatOptions JSON> <stream.ndjson>...
// writes <out dir>/<stream base name>.out for each stream.
const { readFileSync, writeFileSync } = require('node:fs')
const { basename, join } = require('node:path')
const { EventEmitter } = require('node:events')

const [nodeModules, format, outDir, optionsJSON, ...streams] = process.argv.slice(2)
const lib = join(nodeModules, '@cucumber', 'cucumber', 'lib', 'formatter')
const files = {
  json: 'json_formatter',
  rerun: 'rerun_formatter',
  usage: 'usage_formatter',
  'usage-json': 'usage_json_formatter',
}
const Formatter = require(join(lib, files[format])).default
const EventDataCollector = require(join(lib, 'helpers', 'event_data_collector')).default

class CucumberExpression {
  constructor(source) { this.source = source }
}
class RegularExpression {
  constructor(source) { this.source = source }
}

for (const streamPath of streams) {
  let output = ''
  const envelopes = readFileSync(streamPath, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
  const stepDefinitions = envelopes
    .filter((e) => e.stepDefinition)
    .map(({ stepDefinition: sd }) => ({
      id: sd.id,
      uri: sd.sourceReference.uri,
      line: sd.sourceReference.location?.line,
      expression:
        sd.pattern.type === 'REGULAR_EXPRESSION'
          ? new RegularExpression(sd.pattern.source)
          : new CucumberExpression(sd.pattern.source),
      unwrappedCode: '',
    }))

  const eventBroadcaster = new EventEmitter()
  const eventDataCollector = new EventDataCollector(eventBroadcaster)
  new Formatter({
    cwd: process.cwd(),
    eventBroadcaster,
    eventDataCollector,
    log: (s) => {
      output += s
    },
    parsedArgvOptions: JSON.parse(optionsJSON || '{}'),
    stream: process.stdout,
    cleanup: async () => {},
    supportCodeLibrary: { stepDefinitions },
  })
  for (const envelope of envelopes) eventBroadcaster.emit('envelope', envelope)
  writeFileSync(join(outDir, basename(streamPath, '.ndjson') + '.out'), output)
}
