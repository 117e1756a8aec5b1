// Types of the `ferridriver` module and of the globals ferridriver defines
// in step files, extensions and scripts. Regenerate with
// `ferridriver init --force` after an upgrade.

declare module 'ferridriver' {
  import type { BrowserContext, Page } from '@playwright/test'

  /** Playwright's expect, also importable from '@playwright/test'. */
  export { expect } from '@playwright/test'

  /** The program running this code: 'bdd' (tests), 'mcp' (MCP server) or 'script'. */
  export const host: 'bdd' | 'mcp' | 'script'
  /** The ferridriver version. */
  export const version: string

  /** The Gherkin step running now (undefined outside a step, e.g. in hooks). */
  export function currentStep(): CurrentStep | undefined
  export interface CurrentStep {
    /** The feature file, relative to the project directory (slash-separated). */
    uri: string
    /** The step's line in that file. */
    line: number
    /** The keyword as written, e.g. "Given ". */
    keyword: string
    /** The step's text after the keyword. */
    text: string
  }

  /** What a tool handler receives. */
  export interface ToolContext<Args = any> {
    /** The caller's arguments (validated against inputSchema, if any). */
    args: Args
    /** The caller's page (a step's World page, or the MCP session's). */
    page: Page | undefined
    context: BrowserContext | undefined
    /** HTTP client, restricted to allow.net when that is set. */
    request: any
    /** Runs a command declared in the tool's allow.commands. */
    commands: { run(name: string, vars?: Record<string, string>): Promise<any> }
    /** Aborted when the call is cancelled or times out. */
    signal?: AbortSignal
  }

  export interface ToolManifest<Args = any, Result = any> {
    /** Unique name, e.g. "vendor.area.action". */
    name: string
    description?: string
    /** JSON Schema of args; calls that do not match are rejected. */
    inputSchema?: object
    /** Also serve it as an MCP tool (default false: plugins only). */
    exposeAsTool?: boolean
    /** Per-call timeout in milliseconds. */
    timeoutMs?: number
    /** Capabilities: net, commands, env (see docs/capabilities.md). */
    allow?: object
    handler?: (ctx: ToolContext<Args>) => Result | Promise<Result>
  }

  /** Registers a tool, callable as plugins[name](args) and, with exposeAsTool, over MCP. */
  export function defineTool<Args = any, Result = any>(manifest: ToolManifest<Args, Result>, handler?: (ctx: ToolContext<Args>) => Result | Promise<Result>): void
  /** The registered tools, by name. */
  export const plugins: Record<string, (args?: any) => Promise<any>>

  /**
   * Runs the step definition that matches text (a step as written in a
   * feature, without its keyword) with the current World, as the runner
   * would: `await runStep('I open "/login"')`. argument is the step's doc
   * string, or its data table (a DataTable or rows). Rejects when no
   * definition or several match, or when the step fails.
   */
  export function runStep(text: string, argument?: string | string[][] | import('@cucumber/cucumber').DataTable): Promise<void>
  /** Milliseconds before the running step or hook times out (Infinity when it has no timeout). */
  export function stepTimeLeft(): number
  /**
   * A clock in milliseconds, as Date.now(), that stops while the running
   * step waits for the browser to start: deadlines of code that polls on
   * its own, measured with it, are not spent on start-up.
   */
  export function stepClock(): number
  /**
   * The message of a failed browser call as ferridriver's steps show it:
   * Playwright's message, "Target:" (and "Action:") as the user wrote
   * them, and the last lines of Playwright's call log that say why.
   */
  export function explainFailure(message: string, target?: string, action?: string): string

  /**
   * The flows name stands for (docs/steps-guide.md, "Reusable flows"): a
   * scenario tagged @flow, by its name, or the scenarios of a feature file
   * (relative to fromURI, by default the running feature, or else to the
   * project). Run a flow's steps with runStep(step.text, step.argument).
   */
  export function flow(name: string, fromURI?: string): Flow[]
  export interface Flow {
    name: string
    /** The feature file, relative to the project. */
    uri: string
    line: number
    steps: Array<{ keyword: string; text: string; line: number; argument?: string | string[][] }>
  }
  /**
   * Runs fn once per run: the first call of key (in any worker) calls fn;
   * every other call waits for its result, copied through JSON, or fails
   * with its error.
   */
  export function runOnce<T>(key: string, fn: () => T | Promise<T>): Promise<T>
}

/** XML for step code: a document's tree and XPath, evaluated in Go. */
declare module 'ferridriver/xml' {
  export interface XMLElement {
    name: string
    /** In document order. */
    attributes: Record<string, string>
    /** The element's own text, trimmed. */
    text: string
    children: XMLElement[]
    line: number
  }
  /** The root element of a document; throws "not valid XML: ... (line N)". */
  export function parse(xml: string): XMLElement
  /** An XPath's nodes (kind, name, text, xml), or the value of count(), string(), boolean()... */
  export function xpath(xml: string, expression: string): { isNodeSet: boolean; nodes: Array<{ kind: string; name: string; text: string; xml?: string }> | null; value: unknown }
}

/** The built-in step library's API (docs/steps-guide.md), for the project's own steps. */
declare module 'ferridriver/steps' {
  import type { FrameLocator, Locator, Page } from '@playwright/test'

  /** Stores value as $name in the World's memory. */
  export function remember(world: object, name: string, value: unknown): void
  /** The value of $name: the memory, then the Examples row, [steps.values], the environment, computed values. */
  export function recall(world: object, name: string): unknown
  /** Replaces $name and ${name} in text ($$ is a $); a text that is one reference keeps the value's type. */
  export function interpolate(world: object, text: string): any
  export function interpolateString(world: object, text: string): string
  export function interpolateRows(world: object, rows: string[][]): string[][]
  /** The World's memory. */
  export function memoryOf(world: object): Map<string, unknown>
  export interface ValueSource {
    name: string
    get(name: string, world: object): unknown
  }
  /** Adds a place $name is looked up in, after the others. */
  export function addValueSource(source: ValueSource): void

  /** A parsed {validation}: "not to contain" is { negate: true, op: 'contain' }. */
  export interface Validation {
    negate: boolean
    op: 'equal' | 'contain' | 'match' | 'start with' | 'end with' | 'be greater than' | 'be less than' | 'be at least' | 'be at most' | 'have length'
    text: string
  }
  export function parseValidation(text: string): Validation
  /** null when actual passes the validation, else the failure message. */
  export function check(subject: string, actual: unknown, v: Validation, expected: unknown): string | null
  /** Throws an AssertionError when actual does not pass the validation. */
  export function verify(subject: string, actual: unknown, v: Validation, expected: unknown): void
  /** Reads the value again until it passes the validation or the assertion timeout passes. */
  export function eventually(world: object, subject: string, read: () => Promise<unknown>, v: Validation, expected: unknown, options?: { locator?: string }): Promise<void>
  /** Runs fn with the World's web-first assertions retrying for ms. */
  export function withAssertionTimeout<T>(world: object, ms: number, fn: () => Promise<T>): Promise<T>
  export function assertionTimeout(world: object): number
  export class AssertionError extends Error {}

  /** An element a step names: a page-object name or a selector, and which match (0-based, -1: the last). */
  export class Target {
    constructor(text: string, nth?: number)
    readonly text: string
    readonly nth?: number
  }
  export type Root = Page | FrameLocator
  /** The locator of a page-object name or a selector, in the frame switched to or the page. */
  export function locate(world: object, target: Target | string): Locator
  export function locateFrame(world: object, target: Target | string): FrameLocator
  /** Where the World's locators start: the frame switched to, or the page. */
  export function rootOf(world: object): Root
  /**
   * Adds a page of named locators: selector strings or functions of the page
   * (or frame). A name with {placeholders} ("Row ({text})") is
   * parameterised: a string gets the values in place, a function gets them.
   */
  export function definePage(name: string, elements: Record<string, string | ((root: Root, values: Record<string, string>) => Locator | FrameLocator)>): void
  /** A path relative to the running feature file's directory, made absolute. */
  export function fixturePath(world: object, path: string): string
  /** "features/x.feature:12": the running step's line. */
  export function stepLocation(world: object): string
  /** Wraps a step function so its failures name the feature's line, as the built-in steps'. */
  export function step<A extends any[]>(fn: (this: any, ...args: A) => unknown): (this: any, ...args: A) => Promise<void>
}

declare const ferridriver: {
  readonly host: 'bdd' | 'mcp' | 'script'
  readonly version: string
  readonly defineTool: typeof import('ferridriver').defineTool
  readonly plugins: typeof import('ferridriver').plugins
}
declare const defineTool: typeof import('ferridriver').defineTool
declare const plugins: typeof import('ferridriver').plugins
