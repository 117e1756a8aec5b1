package capability

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Limits and defaults of the commands capability.
const (
	// DefaultTimeout applies to a one-shot command whose spec has no
	// timeoutMs. It matches the reference implementation (120 000 ms): a
	// command must never hang a tool call forever.
	DefaultTimeout = 120 * time.Second
	// MaxOutputBytes caps each of stdout and stderr of a one-shot command.
	MaxOutputBytes = 8 * 1024 * 1024
	// RingBytes is how much of each stream a persistent process keeps.
	RingBytes = 64 * 1024
	// MaxPersistent is the number of live persistent processes per session.
	MaxPersistent = 16
)

// OutputMode says how a one-shot command's stdout becomes the JS value.
type OutputMode string

// The output modes a spec may declare.
const (
	// OutputText: stdout trimmed of surrounding white space; empty is nil.
	OutputText OutputMode = "text"
	// OutputJSON: stdout parsed as JSON; empty is nil, invalid is an error.
	OutputJSON OutputMode = "json"
	// OutputLines: the non-empty trimmed lines of stdout, as []string.
	OutputLines OutputMode = "lines"
)

// Spec is one declared command. Exactly one of Shell and Argv is set.
// A Spec is immutable after parsing; treat its slices as read-only.
type Spec struct {
	// Name is the key under allow.commands.
	Name string
	// Shell is the `sh -c` line of the shell form.
	Shell string
	// Argv is the argument vector of the argv form, run without a shell.
	Argv []string
	// Timeout is timeoutMs; zero means DefaultTimeout. Never set for
	// persistent specs.
	Timeout time.Duration
	// Cwd is the working directory (relative to the server's); empty
	// inherits the server's.
	Cwd string
	// Env lists environment variable names passed through from the server.
	Env []string
	// Output is the output mode of a one-shot command.
	Output OutputMode
	// Persistent marks a long-running process managed by start/status/stop.
	Persistent bool
}

// IsArgv reports whether the spec runs an argv vector directly (no shell).
func (s *Spec) IsArgv() bool { return s.Argv != nil }

// CommandSet is a tool's parsed allow.commands: the only commands it may run.
// The zero value and nil are valid empty sets.
type CommandSet struct {
	specs map[string]*Spec
}

// Allow is a parsed `allow` manifest.
type Allow struct {
	// Commands is allow.commands (or its alias allow.exec); never nil.
	Commands *CommandSet
	// Net is allow.net; never nil (unrestricted when absent or empty).
	Net *NetPolicy
	// FS is allow.fs; never nil (no access when absent).
	FS *FSPolicy
}

// ParseAllow parses a tool's `allow` value as decoded from JSON or exported
// from goja (nil, or a map with the keys commands/exec, net and fs).
// Unknown keys are rejected: a typo such as `comands` must not silently
// grant nothing.
func ParseAllow(v any) (*Allow, error) {
	a := &Allow{Commands: &CommandSet{}, Net: &NetPolicy{}, FS: &FSPolicy{grant: ManifestGrant}}
	if v == nil {
		return a, nil
	}
	m, ok := asMap(v)
	if !ok {
		return nil, fmt.Errorf("allow: must be an object, got %s", typeName(v))
	}
	_, hasCommands := m["commands"]
	_, hasExec := m["exec"]
	if hasCommands && hasExec {
		return nil, fmt.Errorf("allow: commands and exec are aliases; declare only one")
	}
	for _, k := range sortedKeys(m) {
		var err error
		switch k {
		case "commands", "exec":
			a.Commands, err = ParseCommands(m[k])
		case "net":
			a.Net, err = ParseNet(m[k])
		case "fs":
			a.FS, err = ParseFS(m[k])
		default:
			return nil, fmt.Errorf("allow: unknown key %q (known: commands, exec, fs, net)", k)
		}
		if err != nil {
			return nil, err
		}
	}
	return a, nil
}

// ParseCommands parses the value of allow.commands: nil (no commands) or a
// map from command name to spec (see ParseSpec).
func ParseCommands(v any) (*CommandSet, error) {
	set := &CommandSet{specs: map[string]*Spec{}}
	if v == nil {
		return set, nil
	}
	m, ok := asMap(v)
	if !ok {
		return nil, fmt.Errorf("allow.commands: must be an object mapping names to commands, got %s", typeName(v))
	}
	for _, name := range sortedKeys(m) {
		spec, err := ParseSpec(name, m[name])
		if err != nil {
			return nil, err
		}
		set.specs[name] = spec
	}
	return set, nil
}

// ParseSpec parses one command declaration. A string is a `sh -c` line. An
// object has:
//   - run (required): a non-empty string (`sh -c` line) or a non-empty array
//     of strings (argv, run directly; the first element is looked up in PATH);
//   - timeoutMs or timeout_ms: a positive integer (one-shot specs only);
//   - cwd: a non-empty directory path;
//   - env: an array of environment variable names;
//   - output: "text" (default), "json" or "lines" (one-shot specs only);
//   - persistent: a boolean.
//
// Any other key is an error naming the key. Errors name the command.
func ParseSpec(name string, v any) (*Spec, error) {
	if name == "" {
		return nil, fmt.Errorf("allow.commands: a command name must not be empty")
	}
	fail := func(format string, args ...any) (*Spec, error) {
		return nil, fmt.Errorf("allow.commands %q: %s", name, fmt.Sprintf(format, args...))
	}
	s := &Spec{Name: name, Output: OutputText}
	if line, ok := v.(string); ok {
		if strings.TrimSpace(line) == "" {
			return fail("the command line must not be empty")
		}
		if strings.ContainsRune(line, 0) {
			return fail("the command line contains a NUL byte")
		}
		s.Shell = line
		return s, nil
	}
	m, ok := asMap(v)
	if !ok {
		return fail("must be a string (a sh -c line) or an object with run, got %s", typeName(v))
	}
	if _, a := m["timeoutMs"]; a {
		if _, b := m["timeout_ms"]; b {
			return fail("timeoutMs and timeout_ms are aliases; declare only one")
		}
	}
	if _, ok := m["run"]; !ok {
		return fail("missing required key run")
	}
	for _, k := range sortedKeys(m) {
		val := m[k]
		switch k {
		case "run":
			if line, ok := val.(string); ok {
				if strings.TrimSpace(line) == "" {
					return fail("run must not be empty")
				}
				if strings.ContainsRune(line, 0) {
					return fail("run contains a NUL byte")
				}
				s.Shell = line
				continue
			}
			argv, ok := stringList(val)
			if !ok {
				return fail("run must be a string (sh -c line) or an array of strings (argv), got %s", typeName(val))
			}
			if len(argv) == 0 {
				return fail("run must not be an empty array")
			}
			if argv[0] == "" {
				return fail("run[0] (the program) must not be empty")
			}
			for i, a := range argv {
				if strings.ContainsRune(a, 0) {
					return fail("run[%d] contains a NUL byte", i)
				}
			}
			s.Argv = argv
		case "timeoutMs", "timeout_ms":
			ms, ok := toFloat(val)
			if !ok || ms <= 0 || ms != math.Trunc(ms) || ms > float64(math.MaxInt64/int64(time.Millisecond)) {
				return fail("%s must be a positive integer number of milliseconds, got %v", k, val)
			}
			s.Timeout = time.Duration(ms) * time.Millisecond
		case "cwd":
			dir, ok := val.(string)
			if !ok || dir == "" || strings.ContainsRune(dir, 0) {
				return fail("cwd must be a non-empty string, got %s", typeName(val))
			}
			s.Cwd = dir
		case "env":
			names, ok := stringList(val)
			if !ok {
				return fail("env must be an array of environment variable names, got %s", typeName(val))
			}
			for _, n := range names {
				if n == "" || strings.ContainsAny(n, "=\x00") {
					return fail("env entry %q is not a valid environment variable name", n)
				}
			}
			s.Env = names
		case "output":
			o, _ := val.(string)
			switch OutputMode(o) {
			case OutputText, OutputJSON, OutputLines:
				s.Output = OutputMode(o)
			default:
				return fail("output must be \"text\", \"json\" or \"lines\", got %v", val)
			}
		case "persistent":
			b, ok := val.(bool)
			if !ok {
				return fail("persistent must be a boolean, got %s", typeName(val))
			}
			s.Persistent = b
		default:
			return fail("unknown key %q (known: run, timeoutMs, timeout_ms, cwd, env, output, persistent)", k)
		}
	}
	if s.Persistent {
		// Both would be silently meaningless for a long-running process.
		if s.Timeout != 0 {
			return fail("timeoutMs does not apply to a persistent command (it runs until stopped)")
		}
		if _, ok := m["output"]; ok {
			return fail("output does not apply to a persistent command (use commands.status)")
		}
	}
	return s, nil
}

// Names returns the declared command names, sorted.
func (c *CommandSet) Names() []string {
	if c == nil {
		return nil
	}
	names := make([]string, 0, len(c.specs))
	for n := range c.specs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the spec declared under name.
func (c *CommandSet) Lookup(name string) (*Spec, bool) {
	if c == nil {
		return nil, false
	}
	s, ok := c.specs[name]
	return s, ok
}

// lookup returns the spec or an ErrNotDeclared error that lists what the
// tool did declare, so an author sees the typo at once.
func (c *CommandSet) lookup(name string) (*Spec, error) {
	if s, ok := c.Lookup(name); ok {
		return s, nil
	}
	declared := "none declared"
	if names := c.Names(); len(names) > 0 {
		declared = "declared: " + strings.Join(names, ", ")
	}
	return nil, fmt.Errorf("command %q is %w (%s)", name, ErrNotDeclared, declared)
}

// asMap accepts the object shapes produced by encoding/json, goja's Export
// and TOML/YAML decoders.
func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[string]string:
		out := make(map[string]any, len(m))
		for k, s := range m {
			out[k] = s
		}
		return out, true
	}
	return nil, false
}

// stringList accepts []string or a []any (or other slice) of strings.
func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return append([]string{}, l...), true
	case nil:
		return nil, false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]string, rv.Len())
	for i := range out {
		s, ok := rv.Index(i).Interface().(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// toFloat converts the numeric types decoders produce (float64 from JSON,
// int64 from goja and TOML, json.Number).
func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	}
	return 0, false
}

// typeName names a decoded value's type in JS terms for error messages.
func typeName(v any) string {
	if v == nil {
		return "null"
	}
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Uintptr, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Func:
		return "function"
	}
	return fmt.Sprintf("%T", v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
