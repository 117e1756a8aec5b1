// Reusable flows (Karate's `call read('login.feature')` and `callonce`): a
// step runs the steps of another scenario in the caller's World, so what
// the flow remembers ($token...) is the caller's to use.
//
//   When I call "Log in through the API" with:      a scenario tagged @flow, by name
//     | user     | demo   |
//     | password | secret |
//   When I call "flows/login.feature"               every scenario of a feature file
//   Given I call "Log in through the API" once      once per run: later calls get its memory
//
// A scenario tagged @flow (or every scenario of a feature tagged @flow)
// is not a test case of its own. The arguments are remembered before the
// flow runs ($user, $password). The runner finds flows (runner/flows.go).
import { When, DataTable } from '@cucumber/cucumber'
import { flow, runOnce, runStep } from 'ferridriver'
import { step } from './step'
import { interpolate, interpolateString, memoryOf, remember } from './values'
import { stateOf, type StepWorld } from './world'

/** How deep flows may call flows. */
const maxDepth = 8

/** The flows running in a World, innermost last: their names and files. */
const depths = new WeakMap<object, Array<{ name: string; uri: string }>>()

/** The arguments of a call: name | value rows, each value interpolated (a lone $name keeps its type). */
function argumentsOf(world: object, table: DataTable | undefined): Array<[string, unknown]> {
  if (!table) return []
  return table.raw().map((r, i) => {
    if (r.length !== 2) throw new Error(`the arguments of a flow are name | value rows; row ${i + 1} has ${r.length} cells`)
    return [interpolateString(world, r[0]), interpolate(world, r[1])]
  })
}

/** Runs the steps of the flows name stands for, in world; a failure says which flow step failed. */
async function call(world: StepWorld, name: string, args: Array<[string, unknown]>): Promise<void> {
  const stack = stateOf(depths, world, () => [])
  if (stack.length >= maxDepth) throw new Error(`flows call flows more than ${maxDepth} deep: ${[...stack.map((f) => f.name), name].map((n) => JSON.stringify(n)).join(' → ')}`)
  for (const [k, v] of args) remember(world, k, v)
  // A flow's own calls are relative to its file.
  const flows = stack.length ? flow(name, stack[stack.length - 1].uri) : flow(name)
  const depth = stack.length
  try {
    for (const f of flows) {
      stack.push({ name: f.name, uri: f.uri })
      for (const s of f.steps) {
        try {
          await (s.argument === undefined ? runStep(s.text) : runStep(s.text, s.argument))
        } catch (e: any) {
          const inner = e instanceof Error ? e : new Error(String(e))
          const err = new Error(`the flow ${JSON.stringify(f.name)} (${f.uri}:${f.line}) failed at ${f.uri}:${s.line}: ${s.keyword}${s.text}\n${inner.message}`)
          err.name = inner.name
          throw err
        }
      }
      stack.pop()
    }
  } finally {
    stack.length = depth
  }
}

/** What remembering a value through JSON keeps (functions, Locators... are dropped). */
function jsonable(v: unknown): boolean {
  try {
    return JSON.stringify(v) !== undefined
  } catch {
    return false
  }
}

/**
 * Runs the flow once per run (for every worker): the first call runs it,
 * later calls put the values it remembered into their own memory.
 */
async function callOnce(world: StepWorld, name: string, args: Array<[string, unknown]>): Promise<void> {
  const key = JSON.stringify([name, args])
  const set: Record<string, unknown> = await runOnce(key, async () => {
    const before = new Map(memoryOf(world))
    await call(world, name, args)
    const out: Record<string, unknown> = {}
    for (const [k, v] of memoryOf(world)) {
      if ((!before.has(k) || before.get(k) !== v) && jsonable(v)) out[k] = v
    }
    return out
  })
  for (const [k, v] of Object.entries(set)) remember(world, k, v)
}

const described = 'a scenario tagged @flow, by its name, or a feature file, by its path'

When(
  'I call {text}',
  {
    timeout: -1,
    description: `Runs the steps of a flow (${described}) in this scenario: what it remembers is this scenario's. The steps keep their own bounds (assertions 5 s, Playwright's actions); the step has no timeout of its own.`,
    example: ['When I call "Log in in the browser"', 'When I call "flows/login.feature"'],
  },
  step(async function (name: string) {
    await call(this, name, [])
  }),
)

When(
  'I call {text} with:',
  {
    timeout: -1,
    description: `Runs the steps of a flow (${described}) with arguments, name | value rows remembered first ($name in the flow).`,
    example: 'When I call "Log in in the browser" with:\n  | user     | demo   |\n  | password | secret |',
  },
  step(async function (name: string, table: DataTable) {
    await call(this, name, argumentsOf(this, table))
  }),
)

When(
  'I call {text} once',
  {
    timeout: -1,
    description: "Runs a flow once per run (Karate's callonce): the first call runs it, every later call (in any scenario and worker) gets the values it remembered.",
    example: 'Given I call "Log in through the API" once',
  },
  step(async function (name: string) {
    await callOnce(this, name, [])
  }),
)

When(
  'I call {text} once with:',
  {
    timeout: -1,
    description: 'Runs a flow with arguments (name | value rows) once per run for those arguments; later calls get the values it remembered.',
    example: 'Given I call "Log in through the API" once with:\n  | user     | demo   |\n  | password | secret |',
  },
  step(async function (name: string, table: DataTable) {
    await callOnce(this, name, argumentsOf(this, table))
  }),
)
