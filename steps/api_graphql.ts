// API testing: GraphQL. A query (or a mutation) is POSTed as JSON,
// {"query", "variables"}, and its response is JSON: the response steps
// check it (`the response field "data.user.name"`), and the steps below
// check GraphQL's errors, which come with a 200 status.
import { Given, When, Then, type DataTable } from '@cucumber/cucumber'
import { interpolateString } from './memory'
import { check, type Validation } from './validation'
import { apiState, exchangeOf, failure, located, send, StepError, theResponse } from './api_client'
import { jsonBody } from './api_request'
import { showJSON } from './api_match'

const variables = new WeakMap<object, string>()

Given(
  'the GraphQL variables are:',
  {
    description: 'The variables of the next GraphQL query: a JSON doc string ($name works inside) or name | value rows (paths and JSON values as in "the request JSON is:").',
    example: ['Given the GraphQL variables are:\n  """json\n  { "id": 1 }\n  """', 'Given the GraphQL variables are:\n  | sku      | F-3 |\n  | quantity | 2   |'],
  },
  located(function (arg: DataTable | string) {
    variables.set(this, jsonBody(this, arg, 'the GraphQL variables are:'))
  }),
)

When(
  'I send the GraphQL query to {string}:',
  {
    description: 'POSTs the doc string, a GraphQL query or mutation, with the variables set before, as {"query", "variables"}; the response is checked like any JSON response.',
    example: 'When I send the GraphQL query to "/graphql":\n  """graphql\n  query ($id: Int!) { user(id: $id) { name roles } }\n  """',
  },
  located(async function (url: string, query: string) {
    if (typeof query !== 'string') throw new StepError('"I send the GraphQL query to ...:" takes the query as a doc string under the step')
    const vars = variables.get(this)
    variables.delete(this)
    const body: Record<string, unknown> = { query: interpolateString(this, query) }
    if (vars !== undefined) body.variables = JSON.parse(vars)
    const st = apiState(this)
    st.next.body = { kind: 'json', text: JSON.stringify(body) }
    await send(this, 'POST', interpolateString(this, url))
  }),
)

interface GraphQLError {
  message?: unknown
  path?: unknown[]
  locations?: Array<{ line: number; column: number }>
}

/** The errors of the last GraphQL response ([] when it has none), or a failure when it is not one. */
function graphQLErrors(world: object): GraphQLError[] {
  const ex = exchangeOf(world, theResponse)
  if (!ex.json.ok) throw failure(world, [`Expected a GraphQL response (JSON with "data" or "errors"), but ${ex.json.error}`], ex)
  const doc: any = ex.json.value
  if (doc === null || typeof doc !== 'object' || (!('data' in doc) && !('errors' in doc))) {
    throw failure(world, [`Expected a GraphQL response (JSON with "data" or "errors"), received ${showJSON(doc, 200)}`], ex)
  }
  return Array.isArray(doc.errors) ? doc.errors : []
}

/** One error as a failure lists it: its message, path and place in the query. */
function describe(e: GraphQLError): string {
  const at = e.locations?.length ? ` (line ${e.locations[0].line}, column ${e.locations[0].column} of the query)` : ''
  const path = Array.isArray(e.path) && e.path.length ? ` at ${e.path.join('.')}` : ''
  return `${typeof e.message === 'string' ? e.message : showJSON(e.message)}${path}${at}`
}

Then(
  'I expect the GraphQL response to have no errors',
  { description: 'Checks that the last GraphQL response has no "errors" (a GraphQL error comes with a 200 status); the failure lists them with their path.', example: 'Then I expect the GraphQL response to have no errors' },
  located(function () {
    const errors = graphQLErrors(this)
    if (errors.length) throw failure(this, [`Expected the GraphQL response to have no errors, but it has ${errors.length}:`, ...errors.map((e) => '  ' + describe(e))])
  }),
)

Then(
  'I expect the GraphQL error messages {validation} {value}',
  {
    description: 'Checks the list of the messages of the last GraphQL response\'s errors: "to contain" one, "to have length" N...',
    example: ['Then I expect the GraphQL error messages to contain "no user 42"', 'Then I expect the GraphQL error messages to have length 1', 'Then I expect the GraphQL error messages not to contain "internal"'],
  },
  located(function (v: Validation, expected: unknown) {
    const messages = graphQLErrors(this).map((e) => (typeof e.message === 'string' ? e.message : showJSON(e.message)))
    const want = typeof expected === 'string' ? interpolateString(this, expected) : expected
    const msg = check('the GraphQL error messages', messages, v, want)
    if (msg) throw failure(this, [msg])
  }),
)
