// Parses Markdown with Gherkin documents with the official JavaScript
// Gherkin parser (the one cucumber-js uses) and prints, per document, its
// GherkinDocument and pickles as JSON. argv[2] is the oracles'
// node_modules; stdin is a JSON array of {data, language} documents.
import { pathToFileURL } from 'node:url'
import { readFileSync } from 'node:fs'
import path from 'node:path'

const nm = process.argv[2]
const g = await import(pathToFileURL(path.join(nm, '@cucumber', 'gherkin', 'dist', 'index.js')).href)
const docs = JSON.parse(readFileSync(0, 'utf8'))
const out = []
for (const { data, language } of docs) {
  let n = 0
  const newId = () => String(n++)
  const builder = new g.AstBuilder(newId)
  const parser = new g.Parser(builder, new g.GherkinInMarkdownTokenMatcher(language))
  try {
    const doc = parser.parse(data)
    const pickles = g.compile(doc, 'x.feature.md', newId)
    out.push({ doc, pickles })
  } catch (e) {
    out.push({ error: String(e.message) })
  }
}
process.stdout.write(JSON.stringify(out))
