package formatters

import (
	"encoding/json"
	"fmt"
	"os"
)

// MergeFormatOptions parses each --format-options value (a JSON object) and
// deep-merges them in order, as cucumber-js does: a later value wins for the
// same key, nested objects are merged key by key.
//
// Keys understood by the formats (see docs/reports.md): theme,
// colorsEnabled, includeAttachments (or printAttachments), snippetInterface
// and snippetSyntax (used by the runner when it makes suggestions),
// pretty.{includeFeatureLine,includeRuleLine,useStatusIcon},
// junit.{suiteName,testClassName}, rerun.separator. Unknown keys are kept:
// custom formats may read them.
func MergeFormatOptions(jsonValues []string) (map[string]any, error) {
	merged := map[string]any{}
	for i, v := range jsonValues {
		var m map[string]any
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			return nil, fmt.Errorf("--format-options #%d %s: not a JSON object: %w", i+1, v, err)
		}
		if m == nil {
			return nil, fmt.Errorf("--format-options #%d %s: not a JSON object", i+1, v)
		}
		deepMerge(merged, m)
	}
	return merged, nil
}

func deepMerge(dst, src map[string]any) {
	for k, v := range src {
		if sv, ok := v.(map[string]any); ok {
			if dv, ok := dst[k].(map[string]any); ok {
				deepMerge(dv, sv)
				continue
			}
			cp := map[string]any{}
			deepMerge(cp, sv)
			dst[k] = cp
			continue
		}
		dst[k] = v
	}
}

// ResolveColor decides whether a terminal format writes ANSI colours:
// the colorsEnabled format option or --no-color (noColorFlag) win, then
// NO_COLOR and FORCE_COLOR from the environment, else only on a TTY.
func ResolveColor(isTTY, noColorFlag bool, formatOptions map[string]any) bool {
	if noColorFlag {
		return false
	}
	if v, ok := formatOptions["colorsEnabled"].(bool); ok {
		return v
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	if v, ok := os.LookupEnv("FORCE_COLOR"); ok {
		return v != "0" && v != "false"
	}
	return isTTY
}

// lookup returns the value at a dotted path of nested objects.
func lookup(m map[string]any, path ...string) (any, bool) {
	var cur any = m
	for _, p := range path {
		o, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = o[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// optBool reads a boolean option; def when absent, an error when of
// another type.
func optBool(m map[string]any, def bool, path ...string) (bool, error) {
	v, ok := lookup(m, path...)
	if !ok || v == nil {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return def, fmt.Errorf("format option %s: want true or false, got %v", dotted(path), v)
	}
	return b, nil
}

// optString reads a string option; def when absent or empty.
func optString(m map[string]any, def string, path ...string) (string, error) {
	v, ok := lookup(m, path...)
	if !ok || v == nil {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return def, fmt.Errorf("format option %s: want a string, got %v", dotted(path), v)
	}
	if s == "" {
		return def, nil
	}
	return s, nil
}

func dotted(path []string) string {
	out := ""
	for i, p := range path {
		if i > 0 {
			out += "."
		}
		out += p
	}
	return out
}

// terminalOptions are the options shared by pretty, progress, progress-bar
// and summary (cucumber-js's resolveTerminalOptions).
type terminalOptions struct {
	theme              *Theme
	includeAttachments bool
	style              styler
}

func resolveTerminalOptions(o Options) (terminalOptions, error) {
	t := terminalOptions{style: styler{on: o.Color}}
	theme, err := themeFromOption(o.FormatOptions["theme"])
	if err != nil {
		return t, fmt.Errorf("format option %w", err)
	}
	t.theme = theme
	include, err := optBool(o.FormatOptions, true, "printAttachments")
	if err != nil {
		return t, err
	}
	if t.includeAttachments, err = optBool(o.FormatOptions, include, "includeAttachments"); err != nil {
		return t, err
	}
	return t, nil
}
