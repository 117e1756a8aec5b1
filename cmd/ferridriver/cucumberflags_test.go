package main

import (
	"bytes"
	"strings"
	"testing"
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
