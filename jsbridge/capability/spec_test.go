package capability

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		name string
		json string // the spec value, as JSON
		want Spec   // Name is filled in
		err  string // substring; empty means success
	}{
		{name: "shorthand", json: `"make -j4"`, want: Spec{Shell: "make -j4", Output: OutputText}},
		{name: "run string", json: `{"run":"ls ${dir}"}`, want: Spec{Shell: "ls ${dir}", Output: OutputText}},
		{name: "argv", json: `{"run":["git","log","-n","${n}"]}`, want: Spec{Argv: []string{"git", "log", "-n", "${n}"}, Output: OutputText}},
		{name: "all keys", json: `{"run":["x"],"timeoutMs":1500,"cwd":"sub","env":["HOME","TZ"],"output":"json"}`,
			want: Spec{Argv: []string{"x"}, Timeout: 1500 * time.Millisecond, Cwd: "sub", Env: []string{"HOME", "TZ"}, Output: OutputJSON}},
		{name: "timeout_ms alias", json: `{"run":"x","timeout_ms":20}`, want: Spec{Shell: "x", Timeout: 20 * time.Millisecond, Output: OutputText}},
		{name: "lines", json: `{"run":"x","output":"lines"}`, want: Spec{Shell: "x", Output: OutputLines}},
		{name: "persistent", json: `{"run":"npm run dev","persistent":true,"env":["PORT"]}`, want: Spec{Shell: "npm run dev", Env: []string{"PORT"}, Output: OutputText, Persistent: true}},
		{name: "persistent false", json: `{"run":"x","persistent":false}`, want: Spec{Shell: "x", Output: OutputText}},

		{name: "unknown key", json: `{"run":"x","argv":["y"]}`, err: `unknown key "argv"`},
		{name: "unknown key typo", json: `{"run":"x","timeout":5}`, err: `unknown key "timeout"`},
		{name: "missing run", json: `{"cwd":"/"}`, err: "missing required key run"},
		{name: "empty argv", json: `{"run":[]}`, err: "must not be an empty array"},
		{name: "empty program", json: `{"run":[""]}`, err: "run[0]"},
		{name: "argv not strings", json: `{"run":["ls",1]}`, err: "array of strings"},
		{name: "run number", json: `{"run":5}`, err: "got number"},
		{name: "run empty", json: `{"run":"  "}`, err: "must not be empty"},
		{name: "shorthand empty", json: `""`, err: "must not be empty"},
		{name: "null", json: `null`, err: "got null"},
		{name: "array spec", json: `["ls"]`, err: "got array"},
		{name: "both timeouts", json: `{"run":"x","timeoutMs":1,"timeout_ms":2}`, err: "aliases"},
		{name: "timeout zero", json: `{"run":"x","timeoutMs":0}`, err: "positive integer"},
		{name: "timeout negative", json: `{"run":"x","timeoutMs":-5}`, err: "positive integer"},
		{name: "timeout fraction", json: `{"run":"x","timeoutMs":1.5}`, err: "positive integer"},
		{name: "timeout string", json: `{"run":"x","timeoutMs":"100"}`, err: "positive integer"},
		{name: "cwd empty", json: `{"run":"x","cwd":""}`, err: "cwd must be a non-empty string"},
		{name: "env string", json: `{"run":"x","env":"HOME"}`, err: "env must be an array"},
		{name: "env bad name", json: `{"run":"x","env":["A=B"]}`, err: `"A=B" is not a valid`},
		{name: "output bad", json: `{"run":"x","output":"yaml"}`, err: "output must be"},
		{name: "persistent not bool", json: `{"run":"x","persistent":"yes"}`, err: "persistent must be a boolean"},
		{name: "persistent timeout", json: `{"run":"x","persistent":true,"timeoutMs":5}`, err: "timeoutMs does not apply"},
		{name: "persistent output", json: `{"run":"x","persistent":true,"output":"text"}`, err: "output does not apply"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tc.json), &v); err != nil {
				t.Fatal(err)
			}
			got, err := ParseSpec("build", v)
			if tc.err != "" {
				mustContain(t, err, tc.err, `"build"`)
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			tc.want.Name = "build"
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("got %+v, want %+v", *got, tc.want)
			}
		})
	}
}

// goja exports integers as int64 and arrays as []any; Go callers may pass
// []string. All must parse the same.
func TestParseSpecGoShapes(t *testing.T) {
	s, err := ParseSpec("x", map[string]any{"run": []string{"echo", "hi"}, "timeoutMs": int64(250), "env": []any{"A"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Timeout != 250*time.Millisecond || !reflect.DeepEqual(s.Argv, []string{"echo", "hi"}) || !reflect.DeepEqual(s.Env, []string{"A"}) {
		t.Errorf("got %+v", s)
	}
	if !s.IsArgv() {
		t.Error("IsArgv false for argv spec")
	}
}

func TestParseCommandsAndAllow(t *testing.T) {
	set, err := ParseCommands(map[string]any{"b": "echo b", "a": map[string]any{"run": []any{"true"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Names(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Names = %v", got)
	}
	if _, ok := set.Lookup("a"); !ok {
		t.Error("Lookup(a) failed")
	}
	if _, ok := set.Lookup("zz"); ok {
		t.Error("Lookup(zz) succeeded")
	}
	empty, err := ParseCommands(nil)
	if err != nil || len(empty.Names()) != 0 {
		t.Errorf("ParseCommands(nil) = %v, %v", empty.Names(), err)
	}
	if _, err := ParseCommands([]any{"x"}); err == nil {
		t.Error("ParseCommands(array) succeeded")
	}
	_, err = ParseCommands(map[string]any{"deploy": map[string]any{"run": "x", "shell": true}})
	mustContain(t, err, `"deploy"`, `unknown key "shell"`)

	tests := []struct {
		name     string
		json     string
		commands []string
		net      []string
		err      string
	}{
		{name: "absent", json: `null`},
		{name: "empty", json: `{}`},
		{name: "commands", json: `{"commands":{"ls":"ls"},"net":["API.example.com."]}`, commands: []string{"ls"}, net: []string{"api.example.com"}},
		{name: "exec alias", json: `{"exec":{"ls":{"run":["ls"]}}}`, commands: []string{"ls"}},
		{name: "both aliases", json: `{"commands":{},"exec":{}}`, err: "aliases"},
		{name: "unknown key", json: `{"fss":["/tmp"]}`, err: `unknown key "fss" (known: commands, exec, fs, net)`},
		{name: "fs not an object", json: `{"fs":["/tmp"]}`, err: `allow.fs: must be an object with read and write folder lists, got array`},
		{name: "not object", json: `[]`, err: "must be an object"},
		{name: "bad net", json: `{"net":"example.com"}`, err: "must be an array"},
		{name: "bad net entry", json: `{"net":["http://x"]}`, err: `"http://x"`},
		{name: "bad command", json: `{"commands":{"x":{"run":[]}}}`, err: `"x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tc.json), &v); err != nil {
				t.Fatal(err)
			}
			a, err := ParseAllow(v)
			if tc.err != "" {
				mustContain(t, err, tc.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := a.Commands.Names(); len(got)+len(tc.commands) > 0 && !reflect.DeepEqual(got, tc.commands) {
				t.Errorf("commands = %v, want %v", got, tc.commands)
			}
			if got := a.Net.Entries(); len(got)+len(tc.net) > 0 && !reflect.DeepEqual(got, tc.net) {
				t.Errorf("net = %v, want %v", got, tc.net)
			}
			if a.Net.Unrestricted() != (len(tc.net) == 0) {
				t.Errorf("Unrestricted = %v", a.Net.Unrestricted())
			}
		})
	}
}

func TestUndeclaredCommandNamesIt(t *testing.T) {
	cmds := oneTool(t, map[string]any{"ls": "ls", "build": "make"})
	_, err := cmds.Run(t.Context(), "deploy", nil)
	if !errors.Is(err, ErrNotDeclared) {
		t.Fatalf("err = %v, want ErrNotDeclared", err)
	}
	mustContain(t, err, `"deploy"`, "allow.commands", "build, ls")
	_, err = NewSession().For("x", nil).Run(t.Context(), "a", nil)
	mustContain(t, err, `"a"`, "none declared")
}
