package capability

import "strings"

// EnvAllowList implements `[scripting] allowEnv`: it returns exactly the
// names in names that are set in environ (os.Environ's "KEY=value" form),
// with their values. Names absent from environ stay absent (never invented,
// not even as ""); an empty list gives an empty, non-nil map. When environ
// holds a name twice the first wins, as with os.Getenv.
func EnvAllowList(names []string, environ []string) map[string]string {
	out := make(map[string]string, len(names))
	if len(names) == 0 {
		return out
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		if n != "" && !strings.ContainsAny(n, "=\x00") {
			want[n] = true
		}
	}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !want[k] {
			continue
		}
		if _, seen := out[k]; !seen {
			out[k] = v
		}
	}
	return out
}
