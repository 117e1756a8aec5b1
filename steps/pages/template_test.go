package pages

import (
	"slices"
	"strings"
	"testing"
)

// A name with {placeholders} makes a parameterised element: its locator
// must use each placeholder, and no other; other elements are unchanged.
func TestParameterisedElements(t *testing.T) {
	p, err := Parse("pages/shop.yaml", []byte(`Product ({name}): "getByRole('listitem').filter({ hasText: '{name}' })"
Cell ({row}, {column}): "#grid tr:nth-child({row}) td:nth-child({column})"
Line ({text}): "getByText(/^{text}$/)"
Plain: "#plain"
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"Product ({name})": {"name"}, "Cell ({row}, {column})": {"row", "column"}, "Line ({text})": {"text"}, "Plain": nil}
	for _, e := range p.Elements {
		if !slices.Equal(e.Params, want[e.Name]) {
			t.Errorf("%s: params %q, want %q", e.Name, e.Params, want[e.Name])
		}
	}
	for _, tc := range []struct{ src, want string }{
		{`Product ({name}): "getByRole('listitem')"`, `pages/x.yaml:1:1: Product ({name}): the locator does not use the placeholder {name} of the name`},
		{`Product ({name}): "li:has-text('{nme}')"`, `pages/x.yaml:1:1: Product ({name}): the locator uses {nme}, which the name does not have (its placeholders: {name})`},
		{`Cell ({x}, {x}): "td:nth-child({x})"`, `pages/x.yaml:1:1: Cell ({x}, {x}): the placeholder {x} appears twice in the name`},
		{`"{name}": "li:has-text('{name}')"`, `pages/x.yaml:1:1: {name}: a parameterised name needs words besides its placeholders`},
	} {
		_, err := Parse("pages/x.yaml", []byte(tc.src+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
}
