package pages

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A parameterised element (qavajs' templates) has {name} placeholders in
// its name and in its locator:
//
//	Product ({name}): "getByRole('listitem').filter({ hasText: '{name}' })"
//
// A feature names it with the values in place, "Product (Milk)", and the
// library puts them into the locator's strings, selector and regular
// expressions.

// placeholderRE is a placeholder: {name}, a word in braces.
var placeholderRE = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// templateParams returns the placeholders of an element's name, in order,
// and checks that its locator uses each of them and no other: an error
// says which is missing or unknown.
func templateParams(name, source string) ([]string, error) {
	var params []string
	for _, m := range placeholderRE.FindAllStringSubmatch(name, -1) {
		if slices.Contains(params, m[1]) {
			return nil, fmt.Errorf("%s: the placeholder {%s} appears twice in the name", name, m[1])
		}
		params = append(params, m[1])
	}
	used := map[string]bool{}
	for _, m := range placeholderRE.FindAllStringSubmatch(source, -1) {
		if len(params) > 0 && !slices.Contains(params, m[1]) {
			return nil, fmt.Errorf("%s: the locator uses {%s}, which the name does not have (its placeholders: {%s})", name, m[1], strings.Join(params, "}, {"))
		}
		used[m[1]] = true
	}
	for _, p := range params {
		if !used[p] {
			return nil, fmt.Errorf("%s: the locator does not use the placeholder {%s} of the name (write it where the value goes, e.g. '{%s}')", name, p, p)
		}
	}
	if len(params) > 0 && placeholderRE.ReplaceAllString(name, "") == "" {
		return nil, fmt.Errorf("%s: a parameterised name needs words besides its placeholders", name)
	}
	return params, nil
}
