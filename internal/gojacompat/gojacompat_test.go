package gojacompat

import "testing"

func TestRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`const A = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype);`, `const A = globalThis.__ferridriverAsyncIteratorPrototype;`},
		{"const A = Object.getPrototypeOf(Object.getPrototypeOf(async function* () { }).prototype\n);", "const A = globalThis.__ferridriverAsyncIteratorPrototype\n;"},
		{`x = Object.getPrototypeOf( Object.getPrototypeOf(async function *gen() {}).prototype )`, `x = globalThis.__ferridriverAsyncIteratorPrototype`},
		// Other uses of getPrototypeOf stay.
		{`Object.getPrototypeOf(async function () {}).constructor`, `Object.getPrototypeOf(async function () {}).constructor`},
		{`Object.getPrototypeOf(Object.getPrototypeOf(async function* () { yield 1 }).prototype)`, `Object.getPrototypeOf(Object.getPrototypeOf(async function* () { yield 1 }).prototype)`},
	} {
		if got := Rewrite(tc.in); got != tc.want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
