// The World as the library's steps use it: ferridriver's browser
// properties, writable (a step that switches tabs or recreates the context
// assigns this.page and this.context, which replaces ferridriver's).
import type { Browser, BrowserContext, Page } from '@playwright/test'

/** `this` of a built-in step. */
export interface StepWorld {
  page: Page
  context: BrowserContext
  readonly browser: Browser
  readonly baseURL: string | undefined
  attach(data: string | Uint8Array, mediaTypeOrOptions?: string | { mediaType: string; fileName?: string }): void | Promise<void>
  log(...text: any[]): void
  [key: string]: any
}

/** Per-World state of one part of the library, created on first use. */
export function stateOf<T>(store: WeakMap<object, T>, world: object, init: () => T): T {
  let s = store.get(world)
  if (s === undefined) {
    s = init()
    store.set(world, s)
  }
  return s
}

const newContextHooks: Array<(world: StepWorld) => void | Promise<void>> = []

/**
 * Registers what a part of the library must redo when a step gives the
 * World a new browser context (emulation, loading a storage state):
 * listeners, recordings, frames.
 */
export function onNewContext(fn: (world: StepWorld) => void | Promise<void>): void {
  newContextHooks.push(fn)
}

/** Runs the onNewContext functions for world's new context. */
export async function newContextHappened(world: StepWorld): Promise<void> {
  for (const fn of newContextHooks) await fn(world)
}
