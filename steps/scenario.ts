// What the library knows of the running scenario: the feature file and the
// step (for fixture paths and failure locations) and the Examples row of a
// Scenario Outline (whose values `$column` gives). A BeforeStep hook keeps
// the hook argument per World; it runs in every step but converts nothing:
// the pickle and the Gherkin document are only read when needed.
import { BeforeStep } from '@cucumber/cucumber'
import type { ITestStepHookParameter } from '@cucumber/cucumber'

const current = new WeakMap<object, ITestStepHookParameter>()

BeforeStep(function (this: object, arg: ITestStepHookParameter) {
  current.set(this, arg)
})

const features = new WeakMap<object, { uri: string; lines: Map<string, number>; rows: Map<string, Record<string, string>> }>()

/** The feature file of the World's scenario, relative to the project ("" outside of a step). */
function featureURI(world: object): string {
  const arg = current.get(world)
  return arg ? arg.pickle.uri : ''
}

// Indexes a Gherkin document's steps (id -> line) and Examples rows
// (id -> {column: value}), once per document and World.
function indexOf(world: object, arg: ITestStepHookParameter) {
  const uri = arg.pickle.uri
  const known = features.get(world)
  if (known && known.uri === uri) return known
  const lines = new Map<string, number>()
  const rows = new Map<string, Record<string, string>>()
  const visit = (children: any[] | undefined) => {
    for (const c of children ?? []) {
      const node = c.scenario ?? c.background
      if (c.rule) visit(c.rule.children)
      if (!node) continue
      for (const s of node.steps ?? []) lines.set(s.id, s.location.line)
      for (const ex of node.examples ?? []) {
        const head = (ex.tableHeader?.cells ?? []).map((cell: any) => cell.value)
        for (const row of ex.tableBody ?? []) {
          const values: Record<string, string> = {}
          row.cells.forEach((cell: any, i: number) => (values[head[i]] = cell.value))
          rows.set(row.id, values)
        }
      }
    }
  }
  visit(arg.gherkinDocument.feature?.children as any[])
  const idx = { uri, lines, rows }
  features.set(world, idx)
  return idx
}

/** "features/login.feature:12", the running step's place in its feature ("" when unknown). */
export function stepLocation(world: object): string {
  const arg = current.get(world)
  if (!arg) return ''
  const line = indexOf(world, arg).lines.get(arg.pickleStep.astNodeIds[0])
  return line ? `${arg.pickle.uri}:${line}` : arg.pickle.uri
}

/** The Examples row of the running Scenario Outline, by column name (undefined for a plain scenario). */
export function examplesRow(world: object): Record<string, string> | undefined {
  const arg = current.get(world)
  if (!arg || arg.pickle.astNodeIds.length < 2) return undefined
  return indexOf(world, arg).rows.get(arg.pickle.astNodeIds[arg.pickle.astNodeIds.length - 1])
}

/**
 * The absolute path of a fixture file named in a step: relative paths are
 * relative to the directory of the running feature file.
 */
export function fixturePath(world: object, path: string): string {
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) return path
  const uri = featureURI(world)
  const dir = uri.includes('/') ? uri.slice(0, uri.lastIndexOf('/')) : ''
  const parts = [process.cwd(), dir, path].filter((p) => p !== '')
  return normalize(parts.join('/'))
}

function normalize(p: string): string {
  const out: string[] = []
  for (const seg of p.split('/')) {
    if (seg === '.' || (seg === '' && out.length > 0)) continue
    if (seg === '..' && out.length > 1) out.pop()
    else out.push(seg)
  }
  return out.join('/')
}

const internalErrors = [TypeError, ReferenceError, RangeError, SyntaxError]

/**
 * Makes an error of a built-in step point at the step's line in the
 * feature instead of the library's source (a library bug, such as a
 * TypeError, keeps its stack as well).
 */
export function relocate(world: object, e: unknown): unknown {
  if (!(e instanceof Error)) return e
  const where = stepLocation(world)
  if (!where || (e.stack ?? '').includes(`at ${where}`)) return e
  const internal = internalErrors.some((c) => e instanceof c)
  e.stack = internal ? `${e.stack}\n    at ${where}` : `${e.name}: ${e.message}\n    at ${where}`
  return e
}
