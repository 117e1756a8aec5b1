package capability

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// resolve returns the argv to execute for spec with vars substituted:
// ["/bin/sh", "-c", line] for the shell form, the substituted vector for
// the argv form. cwd and env are never substituted: they are trusted
// configuration, not templates.
func (s *Spec) resolve(vars map[string]any) ([]string, error) {
	if !s.IsArgv() {
		line, err := substitute(s.Shell, vars, shellQuote)
		if err != nil {
			return nil, fmt.Errorf("command %q: %w", s.Name, err)
		}
		return []string{"/bin/sh", "-c", line}, nil
	}
	argv := make([]string, len(s.Argv))
	for i, a := range s.Argv {
		v, err := substitute(a, vars, nil)
		if err != nil {
			return nil, fmt.Errorf("command %q: %w", s.Name, err)
		}
		argv[i] = v
	}
	return argv, nil
}

// substitute replaces every ${name} in tmpl with the stringified value of
// vars[name], passed through quote when it is non-nil. Substituted text is
// never rescanned. A "${" without a closing "}" and a lone "$" are literal.
func substitute(tmpl string, vars map[string]any, quote func(string) string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(tmpl, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(tmpl[i+2:], '}')
		if j < 0 {
			break // unclosed: the rest is literal
		}
		key := tmpl[i+2 : i+2+j]
		b.WriteString(tmpl[:i])
		raw, ok := vars[key]
		if !ok {
			return "", newCmdError(ErrSubstitution, "missing value for ${%s}", key)
		}
		val, err := scalarString(raw)
		if err != nil {
			return "", newCmdError(ErrSubstitution, "value for ${%s} %v", key, err)
		}
		if quote != nil {
			val = quote(val)
		}
		b.WriteString(val)
		tmpl = tmpl[i+2+j+1:]
	}
	b.WriteString(tmpl)
	return b.String(), nil
}

// shellQuote wraps s in single quotes; an embedded quote closes the quoted
// run, adds a backslash-escaped quote and reopens it. The shell then sees
// exactly s as one word, whatever it contains.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// scalarString stringifies a string, number or boolean as JavaScript's
// String() would. Anything else (null, object, array, function) is an error:
// a silent "" or "[object Object]" in a command line is a bug or an attack.
func scalarString(v any) (string, error) {
	var s string
	switch x := v.(type) {
	case nil:
		return "", fmt.Errorf("must be a string, number or boolean, got null")
	case string:
		s = x
	case bool:
		s = strconv.FormatBool(x)
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return "", fmt.Errorf("is not a valid number: %q", string(x))
		}
		return jsNumberString(f)
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s = strconv.FormatInt(rv.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			s = strconv.FormatUint(rv.Uint(), 10)
		case reflect.Float32, reflect.Float64:
			return jsNumberString(rv.Float())
		default:
			return "", fmt.Errorf("must be a string, number or boolean, got %s", typeName(v))
		}
	}
	if strings.ContainsRune(s, 0) {
		return "", fmt.Errorf("contains a NUL byte")
	}
	return s, nil
}

func jsNumberString(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("must be a finite number, got %v", f)
	}
	return jsNumber(f), nil
}

// jsNumber formats a finite float64 like ECMAScript Number::toString: the
// shortest round-tripping digits, plain notation for 1e-7 < |f| < 1e21 and
// exponent notation ("1e+21", "1.5e-7") outside it, so that 3.0 becomes "3".
func jsNumber(f float64) string {
	if f == 0 {
		return "0" // also -0, as in JS
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d[.ddd]e±XX
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	k, n := len(digits), exp+1 // f = 0.digits × 10^n
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		es := "+"
		if n-1 < 0 {
			es = "-"
		}
		ex := strconv.Itoa(abs(n - 1))
		if k == 1 {
			out = digits + "e" + es + ex
		} else {
			out = digits[:1] + "." + digits[1:] + "e" + es + ex
		}
	}
	return sign + out
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
