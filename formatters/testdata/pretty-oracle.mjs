// Drives @cucumber/pretty-formatter (what cucumber-js 13 uses for its
// pretty, progress and summary formats, with the options cucumber-js
// passes) on NDJSON streams.
//
// usage: node pretty-oracle.mjs <node_modules dir> <format> <out dir> <options JSON> <stream.ndjson>...
// writes <out dir>/<stream base name>.txt for each stream. Colours follow
// the usual Node rules (FORCE_COLOR=1 turns them on for a file).
import { createWriteStream, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const [nodeModules, format, outDir, optionsJSON, ...streams] = process.argv.slice(2)
const entry = join(nodeModules, '@cucumber', 'pretty-formatter', 'dist', 'index.js')
const { PrettyPrinter, ProgressPrinter, SummaryPrinter } = await import(pathToFileURL(entry).href)
const formatOptions = JSON.parse(optionsJSON || '{}')

// cucumber-js's resolveTerminalOptions
const terminal = {}
const includeAttachments = formatOptions.includeAttachments ?? formatOptions.printAttachments
if (includeAttachments !== undefined) terminal.includeAttachments = includeAttachments
if (formatOptions.theme !== undefined) terminal.theme = formatOptions.theme

for (const streamPath of streams) {
  const out = createWriteStream(join(outDir, basename(streamPath, '.ndjson') + '.txt'))
  let printer
  switch (format) {
    case 'pretty':
      printer = new PrettyPrinter({ stream: out, options: { ...terminal, ...formatOptions.pretty, summarise: true } })
      break
    case 'progress':
      printer = new ProgressPrinter({ stream: out, options: { ...terminal, summarise: true } })
      break
    case 'summary':
      printer = new SummaryPrinter({ stream: out, options: terminal })
      break
    default:
      throw new Error('unknown format ' + format)
  }
  for (const line of readFileSync(streamPath, 'utf8').split('\n')) {
    if (line.trim() !== '') printer.update(JSON.parse(line))
  }
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())))
}
