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
}

declare const ferridriver: {
  readonly host: 'bdd' | 'mcp' | 'script'
  readonly version: string
  readonly defineTool: typeof import('ferridriver').defineTool
  readonly plugins: typeof import('ferridriver').plugins
}
declare const defineTool: typeof import('ferridriver').defineTool
declare const plugins: typeof import('ferridriver').plugins
