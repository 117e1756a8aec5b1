// Drives the official @cucumber/junit-xml-formatter plugin on NDJSON
// streams the way cucumber-js does: one 'message' event per envelope; what
// the plugin writes is the report.
//
// usage: node junit-oracle.mjs <node_modules dir> <out dir> <options JSON> <stream.ndjson>...
// writes <out dir>/<stream base name>.xml for each stream.
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const [nodeModules, outDir, optionsJSON, ...streams] = process.argv.slice(2)
const entry = join(nodeModules, '@cucumber', 'junit-xml-formatter', 'dist', 'index.js')
const { default: plugin } = await import(pathToFileURL(entry).href)

for (const streamPath of streams) {
  let handler = () => {}
  let output = ''
  plugin.formatter({
    options: JSON.parse(optionsJSON || '{}'),
    on: (type, h) => {
      if (type === 'message') handler = h
    },
    write: (s) => {
      output += s
    },
  })
  for (const line of readFileSync(streamPath, 'utf8').split('\n')) {
    if (line.trim() !== '') handler(JSON.parse(line))
  }
  writeFileSync(join(outDir, basename(streamPath, '.ndjson') + '.xml'), output)
}
