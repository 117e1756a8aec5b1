package formatters

// Helpers that reproduce JavaScript's formatting rules. The official Cucumber
// formatters are written in JavaScript; to produce the same bytes for the
// same stream we format numbers, measure strings and serialise JSON the way
// V8 does.

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsNumber formats f as JavaScript's Number.prototype.toString does.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// Shortest round-trip digits, as ECMAScript requires.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	ev := strconv.Itoa(int(math.Abs(float64(n - 1))))
	if k == 1 {
		return sign + digits + "e" + es + ev
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + es + ev
}

// jsToFixed formats f as JavaScript's Number.prototype.toFixed(digits):
// the exact binary value rounded half away from zero (Go's formatting
// rounds exact ties to even).
func jsToFixed(f float64, digits int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) >= 1e21 {
		return jsNumber(f)
	}
	neg := f < 0
	if neg {
		f = -f
	}
	exact := new(big.Float).SetFloat64(f).Text('f', 1100)
	intPart, frac, _ := strings.Cut(exact, ".")
	frac += strings.Repeat("0", digits+1)
	keep := intPart + frac[:digits]
	n := new(big.Int)
	n.SetString(keep, 10)
	if frac[digits] >= '5' {
		n.Add(n, big.NewInt(1))
	}
	s := n.String()
	if digits > 0 {
		if len(s) <= digits {
			s = strings.Repeat("0", digits-len(s)+1) + s
		}
		s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	}
	if neg && strings.Trim(s, "0.") != "" {
		s = "-" + s
	}
	return s
}

// jsLen returns the length of s in UTF-16 code units, as String.length.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// jsSlice returns s[start:end] counted in UTF-16 code units, clamped as
// String.prototype.slice does. end < 0 means to the end.
func jsSlice(s string, start, end int) string {
	u := utf16.Encode([]rune(s))
	if end < 0 || end > len(u) {
		end = len(u)
	}
	if start < 0 {
		start = 0
	}
	if start >= end {
		return ""
	}
	return string(utf16.Decode(u[start:end]))
}

// jsPadEnd pads s with spaces to width UTF-16 code units.
func jsPadEnd(s string, width int) string {
	if n := jsLen(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// jsTrim trims what String.prototype.trim trims (ECMAScript white space and
// line terminators).
func jsTrim(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// jsonStringify serialises v like JSON.stringify(v, null, indent) when the
// Go value's field order matches the JavaScript object's key order: no HTML
// escaping, U+2028/U+2029 kept raw, no trailing newline.
func jsonStringify(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return unescapeLineSeparators(out), nil
}

// unescapeLineSeparators turns the \u2028 and \u2029 escapes Go's encoder
// always writes back into the raw characters JSON.stringify writes, leaving
// an escaped backslash followed by "u2028" alone.
func unescapeLineSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	var out bytes.Buffer
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			if b[i+1] == 'u' && i+5 < len(b) && string(b[i+2:i+5]) == "202" && (b[i+5] == '8' || b[i+5] == '9') {
				if b[i+5] == '8' {
					out.WriteRune('\u2028')
				} else {
					out.WriteRune('\u2029')
				}
				i += 5
				continue
			}
			out.WriteByte(b[i])
			out.WriteByte(b[i+1])
			i++
			continue
		}
		out.WriteByte(b[i])
	}
	return out.Bytes()
}

// luxonDuration formats milliseconds as luxon's Duration.toFormat("m'm' s.SSS's'")
// does in the official summary: whole minutes, whole seconds, truncated
// milliseconds.
func luxonDuration(ms float64) string {
	if ms < 0 || math.IsNaN(ms) {
		ms = 0
	}
	minutes := math.Trunc(ms / 60000)
	rest := ms - float64(minutes*60000)
	seconds := math.Trunc(rest / 1000)
	millis := math.Trunc(rest - float64(seconds*1000))
	if millis >= 1000 { // float noise at a boundary
		millis = 999
	}
	return strconv.FormatFloat(minutes, 'f', 0, 64) + "m " +
		strconv.FormatFloat(seconds, 'f', 0, 64) + "." +
		leftPad(strconv.FormatFloat(millis, 'f', 0, 64), 3) + "s"
}

func leftPad(s string, n int) string {
	if len(s) < n {
		return strings.Repeat("0", n-len(s)) + s
	}
	return s
}

// validUTF8 replaces invalid UTF-8 so text written to reports stays valid.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
