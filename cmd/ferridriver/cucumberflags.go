package main

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"text/tabwriter"

	gherkin "github.com/cucumber/gherkin/go/v32"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ferridriver/ferridriver/config"
)

// cucumberOnlyFlags are the cucumber-js 8-13 command-line options that
// ferridriver accepts and does not apply (a command line copied from a
// cucumber-js suite's scripts runs), by flag, with the cucumber-js option
// whose note (config.CucumberNote) says why.
var cucumberOnlyFlags = []struct {
	name, short, option string
	takesValue          bool
}{
	{"backtrace", "b", "backtrace", false},
	{"exit", "", "forceExit", false},
	{"force-exit", "", "forceExit", false},
	{"loader", "l", "loader", true},
	{"plugin", "", "plugin", true},
	{"plugin-options", "", "pluginOptions", true},
	{"publish", "", "publish", false},
	{"publish-quiet", "", "publishQuiet", false},
	{"require-module", "", "requireModule", true},
}

// cucumberCLIFlags are bdd's flags that only cucumber-js users pass:
// printing the Gherkin languages and keywords, the version, and the
// options ferridriver ignores.
type cucumberCLIFlags struct {
	i18nLanguages bool
	i18nKeywords  string
	version       bool
	ignored       map[string]*[]string // flag -> values (bool flags: "true")
}

func addCucumberCLIFlags(fl *pflag.FlagSet, f *cucumberCLIFlags) {
	fl.BoolVar(&f.i18nLanguages, "i18n-languages", false, "list the Gherkin languages, then exit")
	fl.StringVar(&f.i18nKeywords, "i18n-keywords", "", "list the Gherkin keywords of a language (ISO 639-1), then exit")
	fl.BoolVarP(&f.version, "version", "v", false, "print the version, then exit")
	f.ignored = map[string]*[]string{}
	for _, o := range cucumberOnlyFlags {
		vals := &[]string{}
		f.ignored[o.name] = vals
		usage := "accepted for cucumber-js compatibility and ignored: " + config.CucumberNote(o.option)
		if o.takesValue {
			fl.StringArrayVarP(vals, o.name, o.short, nil, usage)
		} else {
			fl.BoolP(o.name, o.short, false, usage)
		}
	}
}

// notes returns one line per cucumber-js option given on the command line
// that ferridriver does not apply.
func (f *cucumberCLIFlags) notes(cmd *cobra.Command) []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range cucumberOnlyFlags {
		if !cmd.Flags().Changed(o.name) || seen[o.option] {
			continue
		}
		seen[o.option] = true
		out = append(out, fmt.Sprintf("--%s: %s", o.name, config.CucumberNote(o.option)))
	}
	return out
}

// printed handles the flags that print and exit, as cucumber-js's do;
// done says that one did.
func (f *cucumberCLIFlags) printed(w io.Writer) (done bool, err error) {
	switch {
	case f.version:
		fmt.Fprintln(w, version)
	case f.i18nLanguages:
		printLanguages(w)
	case f.i18nKeywords != "":
		return true, printKeywords(w, f.i18nKeywords)
	default:
		return false, nil
	}
	return true, nil
}

// dialects returns Gherkin's built-in dialects by language code. The
// parser's provider is a map it does not export; reflection reads it.
func dialects() map[string]*gherkin.Dialect {
	out := map[string]*gherkin.Dialect{}
	v := reflect.ValueOf(gherkin.DialectsBuiltin())
	if v.Kind() != reflect.Map {
		return out
	}
	for _, k := range v.MapKeys() {
		if d, ok := v.MapIndex(k).Interface().(*gherkin.Dialect); ok {
			out[k.String()] = d
		}
	}
	return out
}

func printLanguages(w io.Writer) {
	ds := dialects()
	codes := make([]string, 0, len(ds))
	for c := range ds {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintln(tw, "ISO 639-1\t| ENGLISH NAME\t| NATIVE NAME")
	for _, c := range codes {
		fmt.Fprintf(tw, "%s\t| %s\t| %s\n", c, ds[c].Name, ds[c].Native)
	}
	tw.Flush()
}

// gherkinKeywords are the keyword kinds, in cucumber-js's order.
var gherkinKeywords = []string{"feature", "rule", "background", "scenario", "scenarioOutline", "examples", "given", "when", "then", "and", "but"}

func printKeywords(w io.Writer, code string) error {
	d := dialects()[code]
	if d == nil {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("--i18n-keywords: unsupported ISO 639-1: %s (--i18n-languages lists them)", code)}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintln(tw, "ENGLISH KEYWORD\t| NATIVE KEYWORDS")
	for _, k := range gherkinKeywords {
		words := make([]string, len(d.Keywords[k]))
		for i, s := range d.Keywords[k] {
			words[i] = fmt.Sprintf("%q", s)
		}
		name := strings.ToUpper(k[:1]) + k[1:]
		if k == "scenarioOutline" {
			name = "Scenario Outline"
		}
		fmt.Fprintf(tw, "%s\t| %s\n", name, strings.Join(words, ", "))
	}
	return tw.Flush()
}
