package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/config/cucumberjs"
)

// TestI18nListings: --i18n-languages and --i18n-keywords print Gherkin's
// languages and a language's keywords, as cucumber-js's do.
func TestI18nListings(t *testing.T) {
	var b bytes.Buffer
	printLanguages(&b)
	for _, want := range []string{"ISO 639-1", "\nfr ", "French", "français", "\nen "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("--i18n-languages lacks %q", want)
		}
	}
	b.Reset()
	if err := printKeywords(&b, "fr"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Feature ", `"Fonctionnalité"`, "Scenario Outline ", `"Soit "`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("--i18n-keywords fr lacks %q:\n%s", want, b.String())
		}
	}
	if err := printKeywords(&b, "xx"); err == nil || !strings.Contains(err.Error(), "unsupported ISO 639-1: xx") {
		t.Errorf("unknown language: %v", err)
	}
}

// TestBDDAcceptsEveryCucumberJSFlag: every flag a cucumber-js 8-13
// command line may have (config/cucumberjs.Flags) is a flag of bdd.
func TestBDDAcceptsEveryCucumberJSFlag(t *testing.T) {
	bdd, _, err := rootCmd.Find([]string{"bdd"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cucumberjs.Flags() {
		var ok bool
		if name, long := strings.CutPrefix(f, "--"); long {
			ok = bdd.Flags().Lookup(name) != nil
		} else {
			ok = bdd.Flags().ShorthandLookup(strings.TrimPrefix(f, "-")) != nil
		}
		if !ok {
			t.Errorf("bdd has no flag %s", f)
		}
	}
}
