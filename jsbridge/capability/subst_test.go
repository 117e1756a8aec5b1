package capability

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSubstitute(t *testing.T) {
	vars := map[string]any{
		"s":     "hello",
		"q":     "it's",
		"int":   int64(42),
		"i":     7,
		"float": 3.0,
		"frac":  2.5,
		"neg":   -0.0,
		"big":   1e21,
		"tiny":  1.5e-7,
		"t":     true,
		"f":     false,
		"num":   json.Number("3.10"),
		"empty": "",
		"tmpl":  "${s}",
		"nil":   nil,
		"obj":   map[string]any{"a": 1},
		"arr":   []any{1},
		"strs":  []string{"a"},
		"nan":   math.NaN(),
		"inf":   math.Inf(1),
		"nul":   "a\x00b",
		"fn":    func() {},
	}
	tests := []struct {
		tmpl  string
		plain string // argv form (no quoting)
		shell string // shell form
		err   string
	}{
		{tmpl: "echo ${s}", plain: "echo hello", shell: "echo 'hello'"},
		{tmpl: "${s}${s}", plain: "hellohello", shell: "'hello''hello'"},
		{tmpl: "x=${q}", plain: "x=it's", shell: `x='it'\''s'`},
		{tmpl: "${int} ${i} ${float} ${frac} ${neg}", plain: "42 7 3 2.5 0", shell: "'42' '7' '3' '2.5' '0'"},
		{tmpl: "${big} ${tiny}", plain: "1e+21 1.5e-7", shell: "'1e+21' '1.5e-7'"},
		{tmpl: "${t}/${f}", plain: "true/false", shell: "'true'/'false'"},
		{tmpl: "${num}", plain: "3.1", shell: "'3.1'"},
		{tmpl: "[${empty}]", plain: "[]", shell: "['']"},
		{tmpl: "${tmpl}", plain: "${s}", shell: "'${s}'"}, // never rescanned
		{tmpl: "no placeholders $s $ {s}", plain: "no placeholders $s $ {s}", shell: "no placeholders $s $ {s}"},
		{tmpl: "unclosed ${s", plain: "unclosed ${s", shell: "unclosed ${s"},
		{tmpl: "${s} then ${s", plain: "hello then ${s", shell: "'hello' then ${s"},
		{tmpl: "$${s}", plain: "$hello", shell: "$'hello'"}, // $$ is not an escape
		{tmpl: "${missing}", err: "missing value for ${missing}"},
		{tmpl: "${}", err: "missing value for ${}"},
		{tmpl: "${nil}", err: "${nil} must be a string, number or boolean, got null"},
		{tmpl: "${obj}", err: "got object"},
		{tmpl: "${arr}", err: "got array"},
		{tmpl: "${strs}", err: "got array"},
		{tmpl: "${fn}", err: "got function"},
		{tmpl: "${nan}", err: "finite number"},
		{tmpl: "${inf}", err: "finite number"},
		{tmpl: "${nul}", err: "NUL"},
		{tmpl: "ok ${s} ${missing}", err: "missing value"},
	}
	for _, tc := range tests {
		t.Run(tc.tmpl, func(t *testing.T) {
			plain, err := substitute(tc.tmpl, vars, nil)
			shell, err2 := substitute(tc.tmpl, vars, shellQuote)
			if tc.err != "" {
				mustContain(t, err, tc.err)
				mustContain(t, err2, tc.err)
				if !errors.Is(err, ErrSubstitution) {
					t.Errorf("error %v is not ErrSubstitution", err)
				}
				return
			}
			if err != nil || err2 != nil {
				t.Fatalf("unexpected errors: %v, %v", err, err2)
			}
			if plain != tc.plain {
				t.Errorf("argv form: got %q, want %q", plain, tc.plain)
			}
			if shell != tc.shell {
				t.Errorf("shell form: got %q, want %q", shell, tc.shell)
			}
		})
	}
}

func TestJSNumber(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {3, "3"}, {-3, "-3"}, {3.5, "3.5"}, {0.1, "0.1"},
		{1.0 / 3, "0.3333333333333333"}, {100, "100"}, {123456789012, "123456789012"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"}, {1.5e300, "1.5e+300"},
		{0.000001, "0.000001"}, {1e-7, "1e-7"}, {1.23e-18, "1.23e-18"},
		{9007199254740992, "9007199254740992"}, {5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"}, {-2.25, "-2.25"},
	}
	for _, tc := range tests {
		if got := jsNumber(tc.f); got != tc.want {
			t.Errorf("jsNumber(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// injectionValues are hostile values: each must reach the program as one
// literal argument, in both forms, with no side effect. MARK is replaced by
// a marker file path that must never be created.
var injectionValues = []string{
	"; touch MARK",
	"$(touch MARK)",
	"`touch MARK`",
	"' ; touch MARK ; '",
	`" ; touch MARK ; "`,
	`'\''; touch MARK; echo '`,
	"a\ntouch MARK\nb",
	"&& touch MARK",
	"|| touch MARK",
	"| touch MARK",
	"> MARK",
	"$(touch MARK)'$(touch MARK)'",
	"${HOME} $HOME $((1+1)) ${s}",
	"* ? [a-z]",
	`\`, `'`, `''`, `"`, `\'`,
	"",
	"-n",
	"%s %d %n \\n",
	"héllo ✓ 中文",
	"  spaced  ",
	"--version",
}

func TestSubstitutionIsInertInProcesses(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "pwned")
	cmds := oneTool(t, map[string]any{
		"shell":       "printf '[%s]' ${v}",
		"shellConcat": "printf '[%s]' pre${v}post",
		"argv":        map[string]any{"run": []any{"printf", "[%s]", "${v}"}},
		"argvConcat":  map[string]any{"run": []any{"printf", "[%s]", "pre${v}post"}},
	})
	for _, raw := range injectionValues {
		v := strings.ReplaceAll(raw, "MARK", mark)
		for _, form := range []struct{ name, pre, post string }{
			{"shell", "", ""}, {"argv", "", ""},
			{"shellConcat", "pre", "post"}, {"argvConcat", "pre", "post"},
		} {
			t.Run(form.name+"/"+raw, func(t *testing.T) {
				out, err := cmds.Run(t.Context(), form.name, map[string]any{"v": v})
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				want := "[" + form.pre + v + form.post + "]"
				if out != want {
					t.Errorf("output %q, want %q", out, want)
				}
				if _, err := os.Stat(mark); err == nil {
					os.Remove(mark)
					t.Fatalf("value %q was executed: %s exists", v, mark)
				}
			})
		}
	}
}

func TestSubstitutionErrorsNameTheCommand(t *testing.T) {
	cmds := oneTool(t, map[string]any{
		"shell": "echo ${a} ${b}",
		"argv":  map[string]any{"run": []any{"echo", "${a}"}},
	})
	for _, name := range []string{"shell", "argv"} {
		for _, vars := range []map[string]any{nil, {"b": 1}, {"a": nil, "b": 1}, {"a": map[string]any{}, "b": 1}, {"a": []any{}, "b": 1}} {
			_, err := cmds.Run(t.Context(), name, vars)
			if !errors.Is(err, ErrSubstitution) {
				t.Errorf("%s %v: err = %v, want ErrSubstitution", name, vars, err)
			}
			mustContain(t, err, `command "`+name+`"`, "${a}")
		}
	}
}

// cwd and env are configuration, not templates: ${...} in them stays.
func TestCwdAndEnvAreNotSubstituted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "${v}")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmds := oneTool(t, map[string]any{"pwd": map[string]any{"run": []any{"pwd"}, "cwd": dir}})
	out, err := cmds.Run(t.Context(), "pwd", map[string]any{"v": "other"})
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(dir); out != want && out != dir {
		t.Errorf("pwd = %q, want %q", out, dir)
	}
}
