// JSON written in features (doc strings, tables, fixture files): parsed
// with errors that say where, since JSON.parse does not.

/** Where and why text is not JSON, or null when it is. */
export function jsonSyntaxError(text: string): { line: number; column: number; problem: string } | null {
  let i = 0
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++
  }
  const fail = (problem: string): never => {
    throw { at: i, problem }
  }
  const describe = () => (i >= text.length ? 'the end of the text' : JSON.stringify(text[i]))
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text[i] !== '"') fail(text[i] === "'" ? 'a key is written in double quotes, not single ones' : `expected a key in double quotes, found ${describe()}`)
        str()
        ws()
        if (text[i] !== ':') fail(`expected ":" after the key, found ${describe()}`)
        i++
        value()
        ws()
        if (text[i] === ',') {
          i++
          ws()
          if (text[i] === '}') fail('a trailing comma before "}"')
          continue
        }
        if (text[i] === '}') {
          i++
          return
        }
        fail(`expected "," or "}", found ${describe()}`)
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (;;) {
        value()
        ws()
        if (text[i] === ',') {
          i++
          ws()
          if (text[i] === ']') fail('a trailing comma before "]"')
          continue
        }
        if (text[i] === ']') {
          i++
          return
        }
        fail(`expected "," or "]", found ${describe()}`)
      }
    }
    if (c === '"') return str()
    const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i))
    if (m) {
      i += m[0].length
      return
    }
    if (c === "'") fail('a string is written in double quotes, not single ones')
    if (c === '$' || c === '#') fail(`a memory reference or marker is written as a string: "${/^[$#][^\s,}\]]*/.exec(text.slice(i))?.[0]}"`)
    fail(`expected a value (a string in double quotes, a number, true, false, null, an object or an array), found ${describe()}`)
  }
  const str = (): void => {
    const start = i
    i++
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++
      else if (text[i] === '\n') fail('a string does not end on its line')
      i++
    }
    if (i >= text.length) {
      i = start
      fail('a string is not closed')
    }
    i++
  }
  try {
    value()
    ws()
    if (i < text.length) fail(`unexpected ${describe()} after the JSON value`)
    return null
  } catch (e: any) {
    if (typeof e?.at !== 'number') throw e
    const before = text.slice(0, e.at).split('\n')
    return { line: before.length, column: before[before.length - 1].length + 1, problem: e.problem }
  }
}

/** Parses JSON text; an error names what it is (e.g. "the step's JSON") and where it is wrong. */
export function parseJSON(text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch (e: any) {
    const at = jsonSyntaxError(text)
    throw new Error(`${what} is not valid JSON: ${at ? `${at.problem} (line ${at.line}, column ${at.column})` : e?.message}`)
  }
}
