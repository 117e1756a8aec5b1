package jsapi

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/dop251/goja"
)

// urlMatcher is a URL argument of route, waitForURL, waitForRequest...:
// a glob string (resolved against baseURL unless it starts with "*"), a
// RegExp or a predicate function.
type urlMatcher struct {
	r    *Runtime
	glob string         // the pattern resolved against baseURL (strings)
	re   *regexp.Regexp // RegExps that RE2 accepts; globs, once compiled
	js   goja.Callable  // RegExp.test or the predicate (loop only)
	fn   bool           // a predicate: called with a URL object
	all  bool           // undefined / "": matches everything
}

func (r *Runtime) urlMatcher(v goja.Value, baseURL string) *urlMatcher {
	m := &urlMatcher{r: r}
	if isNullish(v) {
		m.all = true
		return m
	}
	if src, flags, ok := regexpOf(v); ok {
		if re, err := regexp.Compile(goFlags(flags) + src); err == nil {
			m.re = re
		}
		test, _ := goja.AssertFunction(v.ToObject(r.rt).Get("test"))
		obj := v
		m.js = func(_ goja.Value, args ...goja.Value) (goja.Value, error) { return test(obj, args...) }
		return m
	}
	if f, ok := goja.AssertFunction(v); ok {
		m.js, m.fn = f, true
		return m
	}
	s := v.String()
	if s == "" {
		m.all = true
		return m
	}
	if !strings.HasPrefix(s, "*") && baseURL != "" {
		if b, err := url.Parse(baseURL); err == nil {
			if u, err := b.Parse(s); err == nil {
				s = u.String()
			}
		}
	}
	m.glob = s // compiled on first use
	return m
}

// goFlags turns JS RegExp flags into an RE2 flag group.
func goFlags(flags string) string {
	var f strings.Builder
	for _, c := range flags {
		switch c {
		case 'i', 'm', 's':
			f.WriteRune(c)
		}
	}
	if f.Len() == 0 {
		return ""
	}
	return "(?" + f.String() + ")"
}

// matches tests u. Loop goroutine only (it may call JS).
func (m *urlMatcher) matches(u string) bool {
	switch {
	case m.all:
		return true
	case m.js != nil:
		arg := m.r.rt.ToValue(u)
		if m.fn {
			if obj, err := m.r.rt.New(m.r.rt.Get("URL"), arg); err == nil {
				arg = obj
			}
		}
		v, err := m.js(goja.Undefined(), arg)
		return err == nil && v.ToBoolean()
	case m.re != nil:
		return m.re.MatchString(u)
	case m.glob != "":
		m.re = globRegexp(m.glob)
		return m.re.MatchString(u)
	}
	return false
}

// globRegexp compiles a URL glob: "**" matches anything, "*" anything but
// "/", "{a,b}" either, "\" escapes; every other character is literal
// (including "?", common in URLs).
func globRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	inGroup := false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case c == '\\' && i+1 < len(glob):
			i++
			b.WriteString(regexp.QuoteMeta(string(glob[i])))
		case c == '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				for i+1 < len(glob) && glob[i+1] == '*' {
					i++
				}
				b.WriteString(".*")
			} else {
				b.WriteString("[^/]*")
			}
		case c == '{':
			inGroup = true
			b.WriteString("(?:")
		case c == '}' && inGroup:
			inGroup = false
			b.WriteString(")")
		case c == ',' && inGroup:
			b.WriteString("|")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile("^" + regexp.QuoteMeta(glob) + "$")
	}
	return re
}
