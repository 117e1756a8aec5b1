package capability

import (
	"errors"
	"strings"
)

// Punycode (RFC 3492) encoding of one host label, written from the RFC's
// algorithm description. Only encoding is needed: entries and URL hosts are
// both brought to the ASCII "xn--" form and compared there, and the dialer
// re-checks the ASCII name net/http actually dials.
const (
	pcBase        = 36
	pcTMin        = 1
	pcTMax        = 26
	pcSkew        = 38
	pcDamp        = 700
	pcInitialBias = 72
	pcInitialN    = 128
)

var errPunycodeOverflow = errors.New("punycode: label too long")

// punycodeEncode encodes label (without the "xn--" prefix).
func punycodeEncode(label string) (string, error) {
	input := []rune(label)
	var out strings.Builder
	for _, r := range input {
		if r < 0x80 {
			out.WriteRune(r)
		}
	}
	b := out.Len()
	h := b
	if b > 0 {
		out.WriteByte('-')
	}
	n, delta, bias := rune(pcInitialN), 0, pcInitialBias
	for h < len(input) {
		m := rune(0x7fffffff)
		for _, r := range input {
			if r >= n && r < m {
				m = r
			}
		}
		// Labels are at most 63 bytes, so these products stay tiny; the
		// check guards against pathological input anyway.
		if int(m-n) > (1<<30)/(h+1) {
			return "", errPunycodeOverflow
		}
		delta += int(m-n) * (h + 1)
		n = m
		for _, r := range input {
			if r < n {
				delta++
			}
			if r != n {
				continue
			}
			q := delta
			for k := pcBase; ; k += pcBase {
				t := k - bias
				if t < pcTMin {
					t = pcTMin
				} else if t > pcTMax {
					t = pcTMax
				}
				if q < t {
					break
				}
				out.WriteByte(punycodeDigit(t + (q-t)%(pcBase-t)))
				q = (q - t) / (pcBase - t)
			}
			out.WriteByte(punycodeDigit(q))
			bias = punycodeAdapt(delta, h+1, h == b)
			delta = 0
			h++
		}
		delta++
		n++
	}
	return out.String(), nil
}

func punycodeAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= pcDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((pcBase-pcTMin)*pcTMax)/2 {
		delta /= pcBase - pcTMin
		k += pcBase
	}
	return k + (pcBase-pcTMin+1)*delta/(delta+pcSkew)
}

func punycodeDigit(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}
