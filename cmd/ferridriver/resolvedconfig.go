package main

import (
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/world"
)

// The resolved configuration as browser_get_config (--caps config) shows
// it: every section by the keys the configuration file uses, where each
// key not at its default came from (as --print-config says), and the
// secrets hidden.

// resolvedConfig returns cfg's values with the command's settings
// (settings: name -> value, flagged: the names given as flags) over the
// section named section, secrets hidden.
func resolvedConfig(cfg *config.Config, section string, settings map[string]any, flagged map[string]bool) map[string]any {
	printable := *cfg
	printable.Browser = cfg.Browser.Printable()
	values := map[string]any{}
	sources := map[string]string{}
	v := reflect.ValueOf(printable)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("mapstructure")
		if tag == "" || tag == "-" {
			continue
		}
		values[tag] = plain(v.Field(i))
		if m, ok := values[tag].(map[string]any); ok && v.Field(i).Kind() == reflect.Struct {
			for k := range m {
				key := tag + "." + k
				if src := keySource(cfg, key); src != "default" {
					sources[key] = src
				}
			}
		} else if src := keySource(cfg, tag); src != "default" {
			sources[tag] = src
		}
	}
	sec, _ := values[section].(map[string]any)
	if sec == nil {
		sec = map[string]any{}
		values[section] = sec
	}
	for k, val := range settings {
		sec[k] = val
		if flagged[k] {
			sources[section+"."+k] = "flag --" + k
		}
	}
	file := "none"
	if cfg.File != "" {
		file = relTo(cfg.Dir, cfg.File)
	}
	return map[string]any{
		"precedence": "flags > env > " + file + " > defaults",
		"configFile": file,
		"config":     redact(values, ""),
		"sources":    sources,
	}
}

// keySource says where key (section.key) came from, in --print-config's
// words.
func keySource(cfg *config.Config, key string) string {
	if fl := remoteFlagOf(key); fl != "" {
		return "flag --" + fl
	}
	switch cfg.SourceOf(key) {
	case config.SourceEnv:
		return "env FERRIDRIVER_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
	case config.SourceFile:
		return relTo(cfg.Dir, cfg.File)
	case config.SourceCucumber:
		return "cucumber-js configuration"
	}
	return "default"
}

// plain turns a configuration value into JSON values keyed by its
// mapstructure tags (the configuration file's keys).
func plain(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plain(v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			tag := t.Field(i).Tag.Get("mapstructure")
			if tag == "" || tag == "-" || !t.Field(i).IsExported() {
				continue
			}
			m[tag] = plain(v.Field(i))
		}
		return m
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return []any{}
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = plain(v.Index(i))
		}
		return out
	case reflect.Map:
		m := map[string]any{}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			m[k.String()] = plain(v.MapIndex(k))
		}
		return m
	}
	return v.Interface()
}

// secretKey names values that are credentials whatever section holds them
// (worldParameters, headers, an extension's settings...).
var secretKey = regexp.MustCompile(`(?i)(token|secret|passw|credential|api[-_]?key|authorization|cookie|private[-_]?key|session[-_]?id)`)

// secretValue matches values that are credentials whatever their key.
var secretValue = regexp.MustCompile(`(?i)^(bearer|basic|token)\s+\S|^(ghp|gho|github_pat|glpat|xox[abp]|sk)[-_][A-Za-z0-9_-]{8,}|^eyJ[A-Za-z0-9_-]{10,}\.`)

// redact hides the secrets of v: values under a key that names a
// credential (a file path under such a key is kept: "tokenFile" shows
// where the token is, never the token), values that look like one, and
// the user info and secret parameters of URLs.
func redact(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = redact(val, k)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = redact(val, key)
		}
		return out
	case string:
		switch {
		case x == "" || x == world.Hidden:
			return x
		case secretKey.MatchString(key) && !strings.HasSuffix(strings.ToLower(key), "file"):
			return world.Hidden
		case secretValue.MatchString(x):
			return world.Hidden
		}
		if u, err := url.Parse(x); err == nil && u.Scheme != "" && u.Host != "" {
			if r := world.RedactEndpoint(x); strings.Contains(r, world.Hidden) {
				return r
			}
		}
		return x
	}
	return v
}
