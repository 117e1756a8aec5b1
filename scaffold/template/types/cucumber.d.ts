// Types of the `@cucumber/cucumber` module as ferridriver provides it: the
// cucumber-js support-code API (steps, hooks, parameter types, the World).
// Written for ferridriver; no npm package is needed. Regenerate with
// `ferridriver init --force` after an upgrade.

declare module '@cucumber/cucumber' {
  import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test'

  /** A step pattern: a Cucumber Expression or a regular expression. */
  export type DefineStepPattern = string | RegExp

  /**
   * A step function. Arguments are the values matched by the pattern, then
   * the step's doc string (a string) or data table (a DataTable). `this` is
   * the World. Return a Promise (or use async) for asynchronous steps;
   * return 'pending' or 'skipped' to give the step that status.
   */
  export type TestStepFunction<WorldType> = (this: WorldType, ...args: any[]) => any | Promise<any>

  export interface IDefineStepOptions {
    /** Milliseconds before the step fails; -1 or 0: no limit. */
    timeout?: number
    /** Passed to the setDefinitionFunctionWrapper wrapper. */
    wrapperOptions?: any
    /** ferridriver: a one-line description, shown by `ferridriver steps`. */
    description?: string
    /** ferridriver: an example of the step as written in a feature. */
    example?: string | string[]
  }

  export type IDefineStep = (<WorldType = IWorld>(pattern: DefineStepPattern, code: TestStepFunction<WorldType>) => void) &
    (<WorldType = IWorld>(pattern: DefineStepPattern, options: IDefineStepOptions, code: TestStepFunction<WorldType>) => void)

  export const Given: IDefineStep
  export const When: IDefineStep
  export const Then: IDefineStep
  /** A step definition for any keyword. */
  export const defineStep: IDefineStep

  // ---- Hooks ----

  /** The Cucumber Messages the hooks receive, reduced to their common fields. */
  export interface Tag {
    name: string
    astNodeId: string
  }
  export interface PickleStep {
    id: string
    text: string
    type?: 'Unknown' | 'Context' | 'Action' | 'Outcome'
    astNodeIds: string[]
    argument?: {
      docString?: { content: string; mediaType?: string }
      dataTable?: { rows: Array<{ cells: Array<{ value: string }> }> }
    }
  }
  export interface Pickle {
    id: string
    uri: string
    name: string
    language: string
    location?: { line: number; column?: number }
    steps: PickleStep[]
    tags: Tag[]
    astNodeIds: string[]
  }
  export interface GherkinDocument {
    uri?: string
    feature?: {
      name: string
      description: string
      keyword: string
      language: string
      location: { line: number; column?: number }
      tags: Array<{ name: string; id: string; location: { line: number; column?: number } }>
      children: any[]
    }
    comments: Array<{ text: string; location: { line: number; column?: number } }>
  }
  export type TestStepResultStatus = 'UNKNOWN' | 'PASSED' | 'SKIPPED' | 'PENDING' | 'UNDEFINED' | 'AMBIGUOUS' | 'FAILED'
  export interface TestStepResult {
    status: TestStepResultStatus
    duration: { seconds: number; nanos: number }
    message?: string
    exception?: { type: string; message?: string; stackTrace?: string }
  }

  export interface ITestCaseHookParameter {
    gherkinDocument: GherkinDocument
    pickle: Pickle
    /** After hooks: the result of the test case so far. */
    result?: TestStepResult
    /** After hooks: the error of the failed step, if any. */
    error?: any
    /** After hooks: whether a failed test case will be retried. */
    willBeRetried?: boolean
    testCaseStartedId: string
  }

  export interface ITestStepHookParameter {
    gherkinDocument: GherkinDocument
    pickle: Pickle
    pickleStep: PickleStep
    /** AfterStep hooks: the step's result. */
    result: TestStepResult
    error?: any
    testCaseStartedId: string
    testStepId: string
  }

  export interface IDefineTestCaseHookOptions {
    /** Shown in reports. */
    name?: string
    /** Only for test cases matching this tag expression, e.g. '@ui and not @wip'. */
    tags?: string
    timeout?: number
  }
  export interface IDefineTestStepHookOptions {
    tags?: string
    timeout?: number
  }
  export interface IDefineTestRunHookOptions {
    name?: string
    timeout?: number
  }

  export type TestCaseHookFunction<WorldType> = (this: WorldType, arg: ITestCaseHookParameter) => any | Promise<any>
  export type TestStepHookFunction<WorldType> = (this: WorldType, arg: ITestStepHookParameter) => any | Promise<any>
  /** BeforeAll/AfterAll run once per worker, outside of any test case. */
  export type TestRunHookFunction = (this: IRunHookContext) => any | Promise<any>

  export interface IRunHookContext {
    readonly parameters: any
    attach: IAttach
    log: ILog
    link: ILink
  }

  type TestCaseHook = (<WorldType = IWorld>(code: TestCaseHookFunction<WorldType>) => void) &
    (<WorldType = IWorld>(tags: string, code: TestCaseHookFunction<WorldType>) => void) &
    (<WorldType = IWorld>(options: IDefineTestCaseHookOptions, code: TestCaseHookFunction<WorldType>) => void)
  type TestStepHook = (<WorldType = IWorld>(code: TestStepHookFunction<WorldType>) => void) &
    (<WorldType = IWorld>(tags: string, code: TestStepHookFunction<WorldType>) => void) &
    (<WorldType = IWorld>(options: IDefineTestStepHookOptions, code: TestStepHookFunction<WorldType>) => void)
  type TestRunHook = ((code: TestRunHookFunction) => void) & ((options: IDefineTestRunHookOptions, code: TestRunHookFunction) => void)

  /** Runs before each test case (its World is `this`). */
  export const Before: TestCaseHook
  /** Runs after each test case, even a failed one. */
  export const After: TestCaseHook
  export const BeforeStep: TestStepHook
  export const AfterStep: TestStepHook
  export const BeforeAll: TestRunHook
  export const AfterAll: TestRunHook

  // ---- Configuration of the support code ----

  export interface IParameterTypeDefinition<T> {
    /** Used in expressions as {name}. */
    name: string
    regexp: readonly RegExp[] | readonly string[] | RegExp | string
    /** Converts the captured groups; `this` is the World. */
    transformer?: (...match: string[]) => T | Promise<T>
    useForSnippets?: boolean
    preferForRegexpMatch?: boolean
  }
  export function defineParameterType<T = any>(options: IParameterTypeDefinition<T>): void

  /** Makes every test case's World an instance of this class. */
  export function setWorldConstructor(constructor: new (options: IWorldOptions) => any): void
  /** Default step and hook timeout in milliseconds (cucumber-js: 5000); -1: none. */
  export function setDefaultTimeout(milliseconds: number): void
  export function setDefinitionFunctionWrapper(wrapper: (fn: Function, options?: any) => Function): void
  /** Accepted for compatibility; ferridriver assigns test cases to workers itself. */
  export function setParallelCanAssign(fn: (pickle: Pickle, runningPickles: Pickle[]) => boolean): void

  // ---- The World ----

  export type IAttach = (
    data: string | Uint8Array | ArrayBuffer | NodeJS_ReadableLike,
    mediaTypeOrOptions?: string | { mediaType: string; fileName?: string },
  ) => void | Promise<void>
  export type ILog = (...text: any[]) => void
  export type ILink = (...urls: string[]) => void

  /** A readable stream (e.g. fs.createReadStream) given to attach. */
  export interface NodeJS_ReadableLike {
    on(event: 'data' | 'end' | 'error', listener: (...args: any[]) => void): any
  }

  export interface IWorldOptions<ParametersType = any> {
    attach: IAttach
    log: ILog
    link: ILink
    parameters: ParametersType
  }

  export interface IWorld<ParametersType = any> {
    /** Adds an attachment (text, image, JSON...) to the current step. */
    readonly attach: IAttach
    /** Adds a log line to the current step. */
    readonly log: ILog
    /** Adds links to the current step. */
    readonly link: ILink
    /** [test] worldParameters, merged with --world-parameters. */
    readonly parameters: ParametersType
    /** This test case's page, created on first use in a fresh context. */
    readonly page: Page
    /** This test case's browser context (cookies, storage, permissions). */
    readonly context: BrowserContext
    /** The browser shared by the workers. */
    readonly browser: Browser
    /** HTTP requests that resolve relative URLs against baseURL. */
    readonly request: APIRequestContext
    /** [browser] baseURL, if set. */
    readonly baseURL: string | undefined
    [key: string]: any
  }

  /** The default World. Extend it and pass the class to setWorldConstructor. */
  export class World<ParametersType = any> implements IWorld<ParametersType> {
    constructor(options: IWorldOptions<ParametersType>)
    readonly attach: IAttach
    readonly log: ILog
    readonly link: ILink
    readonly parameters: ParametersType
    readonly page: Page
    readonly context: BrowserContext
    readonly browser: Browser
    readonly request: APIRequestContext
    readonly baseURL: string | undefined
  }

  /** The World of the running test case, for arrow-function steps. */
  export const world: IWorld
  /** Same as world, for code written against cucumber-js's context. */
  export const context: IWorld

  // ---- Data tables and statuses ----

  /** A step's data table. */
  export class DataTable {
    constructor(sourceTable: string[][] | { rows: Array<{ cells: Array<{ value: string }> }> })
    /** Rows as objects keyed by the first row. */
    hashes(): Array<Record<string, string>>
    /** All cells, row by row. */
    raw(): string[][]
    /** All rows but the first. */
    rows(): string[][]
    /** A two-column table as an object: first column -> second column. */
    rowsHash(): Record<string, string>
    transpose(): DataTable
  }

  export const Status: {
    readonly UNKNOWN: 'UNKNOWN'
    readonly PASSED: 'PASSED'
    readonly SKIPPED: 'SKIPPED'
    readonly PENDING: 'PENDING'
    readonly UNDEFINED: 'UNDEFINED'
    readonly AMBIGUOUS: 'AMBIGUOUS'
    readonly FAILED: 'FAILED'
  }

  /** Thrown by a step to mark it pending. */
  export class PendingException extends Error {
    constructor(message?: string)
  }
  /** Thrown by a step to mark it (and the rest of the test case) skipped. */
  export class SkippedException extends Error {
    constructor(message?: string)
  }
}
