// Schema checks the formatter tests run with node:
//
//   node validate.mjs <node_modules dir> xsd <schema.xsd> <file.xml>...
//     validates each file with libxml2 (xmllint-wasm) and prints a JSON
//     object {file: [error, ...]} (an empty list means valid).
//   node validate.mjs <node_modules dir> cucumber-js-json-schema
//     prints the JSON schema of cucumber-js's JSON report, as published in
//     @cucumber/cucumber-json-converter (same as cucumber-json-schema's
//     schemas/cucumber-js.json).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const [nodeModules, mode, ...rest] = process.argv.slice(2)

if (mode === 'xsd') {
  const require = createRequire(join(nodeModules, 'noop.js'))
  const { validateXML } = require('xmllint-wasm')
  const [schemaPath, ...files] = rest
  const schema = { fileName: 'schema.xsd', contents: readFileSync(schemaPath, 'utf8') }
  // One libxml2 instance validates every file; errors name their file.
  const results = {}
  const xml = files.map((file, i) => {
    results[file] = []
    return { fileName: `report${i}.xml`, contents: readFileSync(file, 'utf8') }
  })
  const res = await validateXML({ xml, schema: [schema] })
  for (const e of res.errors) {
    const m = /^report(\d+)\.xml/.exec(e.loc?.fileName ?? e.message)
    const key = m ? files[Number(m[1])] : '(unattributed)'
    results[key] = [...(results[key] ?? []), e.message]
  }
  process.stdout.write(JSON.stringify(results))
} else if (mode === 'cucumber-js-json-schema') {
  const entry = join(nodeModules, '@cucumber', 'cucumber-json-converter', 'dist', 'esm', 'src', 'cucumber-js', '7', 'CucumberJsSchema.js')
  const { default: schema } = await import(pathToFileURL(entry).href)
  process.stdout.write(JSON.stringify(schema))
} else {
  throw new Error('unknown mode ' + mode)
}
