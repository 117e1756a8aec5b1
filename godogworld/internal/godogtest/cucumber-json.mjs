// Checks a godog cucumber JSON report (stdin) with the official tools of
// @cucumber/cucumber-json-converter, which publishes the JSON schema of
// each Cucumber implementation's report:
//
//   node cucumber-json.mjs <node_modules dir> < report.json
//
// godog's cucumber formatter follows cucumber-ruby's JSON (its source says
// so), including the `embeddings` of steps that cucumber-ruby writes but
// the published schema leaves out. So the report is validated against the
// cucumber-ruby schema with that one extension (as formatters/ does for
// cucumber-js's schema), with every error; then, without its embeddings,
// it must pass the converter's convert(), which recognises the
// implementation and checks the result against its strict schema. Prints
// {"errors": [...], "converted": <convert's output> | null, "convertError": "..."}.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'

const require = createRequire(join(process.argv[2], 'noop.js'))
const converter = require.resolve('@cucumber/cucumber-json-converter')
const { convert } = require(converter)
const rubySchema = require(join(converter, '..', 'cucumber-ruby', 'CucumberRubySchema.js')).default
const Ajv = require('ajv')

const report = JSON.parse(readFileSync(0, 'utf8'))

const schema = structuredClone(rubySchema)
schema.definitions.RubyStep.properties.embeddings = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, mime_type: { type: 'string' }, data: { type: 'string' } },
    required: ['mime_type', 'data'],
    additionalProperties: false,
  },
}
const validate = new Ajv({ allErrors: true }).compile(schema)
const errors = validate(report) ? [] : validate.errors.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)

const stripped = structuredClone(report)
for (const f of stripped) for (const e of f.elements ?? []) for (const s of e.steps ?? []) delete s.embeddings
let converted = null
let convertError = ''
try {
  converted = convert(stripped)
} catch (e) {
  convertError = String(e.message ?? e)
}
process.stdout.write(JSON.stringify({ errors, converted, convertError }))
