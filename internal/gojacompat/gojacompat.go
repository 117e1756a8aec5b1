// Package gojacompat rewrites JavaScript idioms that goja, ferridriver's
// JavaScript engine, cannot run, into equivalents it can. It serves the
// bundler (step files and their packages) and the build of the Node
// polyfills (tools/polyfills/gen.go).
package gojacompat

import (
	"regexp"
	"strings"
)

// AsyncIteratorPrototype is the global that the VM's prelude defines as
// %AsyncIteratorPrototype%: an object whose [Symbol.asyncIterator]()
// returns this.
const AsyncIteratorPrototype = "__ferridriverAsyncIteratorPrototype"

// asyncIteratorProtoRE matches the usual way to reach
// %AsyncIteratorPrototype%: through an async generator function, which
// goja lacks (esbuild lowers it to a plain function, whose prototype chain
// then has no such object and the expression throws).
var asyncIteratorProtoRE = regexp.MustCompile(`Object\.getPrototypeOf\(\s*Object\.getPrototypeOf\(\s*async\s+function\s*\*\s*[\w$]*\s*\(\s*\)\s*\{\s*\}\s*\)\.prototype\s*\)`)

// Rewrite returns src with the idioms rewritten. A replacement keeps the
// line breaks of what it replaces, so line numbers (and the source maps
// built on them) do not move.
func Rewrite(src string) string {
	return asyncIteratorProtoRE.ReplaceAllStringFunc(src, func(m string) string {
		return "globalThis." + AsyncIteratorPrototype + strings.Repeat("\n", strings.Count(m, "\n"))
	})
}
