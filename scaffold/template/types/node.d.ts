// The Node.js globals that ferridriver provides and the examples use,
// without @types/node. If you install @types/node (npm i -D @types/node),
// delete this file: those declarations are complete.

/** process.env holds exactly the variables listed in [scripting] allowEnv. */
declare var process: {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly platform: string
  cwd(): string
}

/** node:fs reads files; relative paths are relative to the project directory. */
declare module 'node:fs' {
  export function readFileSync(path: string): Uint8Array & { toString(encoding?: string): string }
  export function readFileSync(path: string, encoding: 'utf8' | 'utf-8' | { encoding: 'utf8' | 'utf-8' }): string
  export function existsSync(path: string): boolean
}

declare module 'node:crypto' {
  /** A random RFC 4122 version 4 UUID. */
  export function randomUUID(): string
  export function randomBytes(size: number): Uint8Array
  export function createHash(algorithm: string): { update(data: string | Uint8Array): any; digest(encoding?: 'hex' | 'base64'): string }
}
