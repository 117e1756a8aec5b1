package config

import (
	"os"
	"slices"
	"strings"
)

// SourceOf says where the value of a dotted key ("browser.headless",
// "extensions", "test.parallel") came from: SourceEnv, SourceFile or
// SourceDefault, and for a [test] key SourceCucumber too (see Sources).
// Flags are the CLI's to report.
func (c *Config) SourceOf(key string) string {
	if t, ok := strings.CutPrefix(key, "test."); ok {
		if s := c.Sources[t]; s != "" {
			return s
		}
	}
	if slices.Contains(envKeys, strings.ToLower(key)) {
		if _, ok := os.LookupEnv("FERRIDRIVER_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))); ok {
			return SourceEnv
		}
	}
	var node any = rawFile(c)
	for _, part := range strings.Split(key, ".") {
		m, ok := node.(map[string]any)
		if !ok {
			return SourceDefault
		}
		if node, ok = m[part]; !ok {
			return SourceDefault
		}
	}
	return SourceFile
}
