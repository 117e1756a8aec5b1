package capability

import (
	"errors"
	"net/netip"
	"reflect"
	"strings"
	"testing"
)

func TestNetEntries(t *testing.T) {
	valid := []struct{ in, want string }{
		{"api.box.com", "api.box.com"},
		{"API.Box.COM.", "api.box.com"},
		{"  api.box.com ", "api.box.com"},
		{"*.box.com", "*.box.com"},
		{"*.Box.com.", "*.box.com"},
		{"bücher.de", "xn--bcher-kva.de"},
		{"BÜCHER.de", "xn--bcher-kva.de"},
		{"bu\u0308cher.de", "xn--bcher-kva.de"}, // decomposed ü, NFC-normalised
		{"xn--bcher-kva.de", "xn--bcher-kva.de"},
		{"*.中文.com", "*.xn--fiq228c.com"},
		{"例え。テスト", "xn--r8jz45g.xn--zckzah"}, // ideographic full stop separates labels
		{"127.0.0.1", "127.0.0.1"},
		{"::1", "::1"},
		{"[::1]", "::1"},
		{"[0:0:0:0:0:0:0:1]", "::1"},
		{"localhost", "localhost"},
		{"my_host.internal", "my_host.internal"},
		{"0x7f.example", "0x7f.example"}, // ends in a name, not a number
	}
	for _, tc := range valid {
		p, err := NewNetPolicy([]string{tc.in})
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := p.Entries(); !reflect.DeepEqual(got, []string{tc.want}) {
			t.Errorf("%q normalised to %q, want %q", tc.in, got, tc.want)
		}
	}
	invalid := []struct{ in, err string }{
		{"", "empty entry"},
		{"   ", "empty entry"},
		{"*", "bare *"},
		{"*.", "bare *"},
		{"http://x", "not a URL"},
		{"https://api.box.com/", "not a URL"},
		{"api.box.com/path", "not a URL"},
		{"user@api.box.com", "not a URL"},
		{"api.box.com?x", "not a URL"},
		{"exa mple.com", "not a URL"},
		{"a.*.com", "leading label"},
		{"*box.com", "leading label"},
		{"*.*.box.com", "leading label"},
		{"box.*", "leading label"},
		{"api.box.com:443", "ports are not part"},
		{"[::1]:443", "ports are not part"},
		{"*.127.0.0.1", "wildcard needs a host name"},
		{"*.::1", "wildcard needs a host name"},
		{"0x7f.1", "non-canonical"},
		{"2130706433", "non-canonical"},
		{"127.000.0.1", "non-canonical"},
		{"127.1", "non-canonical"},
		{"127.0.0.1.", "non-canonical"},
		{"1.2.3.4.5", "not one"},
		{"999.1.1.1", "not one"},
		{"169.254.169.254", "metadata"},
		{"[fd00:ec2::254]", "metadata"},
		{"::ffff:169.254.169.254", "metadata"},
		{"100.100.100.200", "metadata"},
		{"METADATA.google.internal.", "metadata"},
		{"a..b", "empty label"},
		{".box.com", "empty label"},
		{"box.com..", "empty label"},
		{"a$b.com", "invalid character"},
		{"a\u200db.com", "invalid character"}, // zero-width joiner
		{strings.Repeat("a", 64) + ".com", "63"},
		{strings.Repeat("abcdefghi.", 26) + "com", "253"},
	}
	for _, tc := range invalid {
		_, err := NewNetPolicy([]string{"ok.com", tc.in})
		if err == nil {
			t.Errorf("%q: accepted", tc.in)
			continue
		}
		if !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "allow.net entry") {
			t.Errorf("%q: error %q does not contain %q", tc.in, err, tc.err)
		}
	}
}

func TestNetCheckRestricted(t *testing.T) {
	p, err := ParseNet([]any{"api.example.com", "*.box.com", "127.0.0.1", "::1", "bücher.de", "*.中文.com", "localhost", "api.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Entries()) != 7 {
		t.Errorf("duplicates kept: %v", p.Entries())
	}
	allowed := []string{
		"https://api.example.com/x?y=1",
		"HTTPS://API.EXAMPLE.COM./x",
		"http://api.example.com:8443/",
		"https://user:pass@api.example.com/",
		"https://api.example.com#@evil.com",
		"https://box.com", // the apex of *.box.com
		"https://BOX.com.",
		"https://files.box.com/a",
		"https://a.b.c.box.com",
		"http://127.0.0.1:8080/",
		"http://[::1]:80/",
		"http://[0:0:0:0:0:0:0:1]/",
		"https://bücher.de/",
		"https://BÜCHER.DE/",
		"https://xn--bcher-kva.de/",
		"https://中文.com/",
		"https://www.中文.com/",
		"https://www.xn--fiq228c.com/",
		"http://localhost:3000",
		"http://LOCALHOST./",
		"https://files。box。com/", // ideographic full stops are dots
	}
	for _, u := range allowed {
		if err := p.Check(u); err != nil {
			t.Errorf("%s: denied: %v", u, err)
		}
	}
	denied := []struct{ url, err string }{
		{"https://evil.com/", `request host "evil.com" is not in allow.net [api.example.com *.box.com 127.0.0.1 ::1 xn--bcher-kva.de *.xn--fiq228c.com localhost]`},
		{"https://EVIL.com./", `request host "evil.com" is not in allow.net`},
		{"https://evilbox.com/", "not in allow.net"},
		{"https://box.com.evil.com/", "not in allow.net"},
		{"https://api.example.com.evil.com/", "not in allow.net"},
		{"https://example.com/", "not in allow.net"},
		{"https://www.api.example.com/", "not in allow.net"},
		{"https://api.example.com@evil.com/", `"evil.com" is not in allow.net`},
		{"https://api.example.com:443@evil.com/", `"evil.com" is not in allow.net`},
		{"http://api.example.com%2f@evil.com/", `"evil.com" is not in allow.net`},
		{`https://api.example.com\@evil.com/`, "cannot be parsed"},
		{"https://xn--bcher-kva.de.evil.com/", "not in allow.net"},
		{"https://bucher.de/", "not in allow.net"},
		{"http://127.0.0.2/", `"127.0.0.2" is not in allow.net`},
		{"http://[::ffff:127.0.0.1]/", `"::ffff:127.0.0.1" is not in allow.net`},
		{"http://[::2]/", "not in allow.net"},
		{"http://[fe80::1%25eth0]/", "not in allow.net"},
		{"http://2130706433/", "non-canonical spelling (always denied; write it as 127.0.0.1)"},
		{"http://0x7f.1/", "non-canonical"},
		{"http://0x7f000001/", "non-canonical"},
		{"http://0177.0.0.1/", "non-canonical"},
		{"http://127.1/", "non-canonical"},
		{"http://127.0.0.1./", "non-canonical"},
		{"http://0x7f.0.0.0x1/", "non-canonical"},
		{"http://1.2.3.4.5/", "not one"},
		{"http://*.box.com/", "invalid character"},
		{"ftp://api.example.com/", `scheme "ftp" is not allowed`},
		{"ws://api.example.com/", `scheme "ws" is not allowed`},
		{"file:///etc/passwd", `scheme "file" is not allowed`},
		{"javascript:alert(1)", `scheme "javascript" is not allowed`},
		{"data:text/plain,hi", `scheme "data" is not allowed`},
		{"/relative/path", "not an absolute"},
		{"//api.example.com/x", "not an absolute"},
		{"api.example.com", "not an absolute"},
		{"http:api.example.com", "not an absolute"},
		{"", "not an absolute"},
		{"http://", "not an absolute"},
		{"http://[::1", "cannot be parsed"},
		{"https://a b.com/", "cannot be parsed"},
		{"http://%zz/", "cannot be parsed"},
	}
	for _, tc := range denied {
		err := p.Check(tc.url)
		if err == nil {
			t.Errorf("%s: allowed", tc.url)
			continue
		}
		if !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %q does not contain %q", tc.url, err, tc.err)
		}
		var ne *NetError
		if !errors.Is(err, ErrNetDenied) || !errors.As(err, &ne) {
			t.Errorf("%s: %T is not a *NetError / ErrNetDenied", tc.url, err)
		}
	}
}

func TestNetCheckUnrestricted(t *testing.T) {
	empty, err := ParseNet([]any{})
	if err != nil {
		t.Fatal(err)
	}
	absent, _ := ParseNet(nil)
	var nilPolicy *NetPolicy
	for _, p := range []*NetPolicy{empty, absent, nilPolicy} {
		if !p.Unrestricted() {
			t.Fatal("not unrestricted")
		}
		for _, u := range []string{"https://evil.com/", "http://127.0.0.1:1/", "http://[::1]/", "http://10.0.0.1/", "https://bücher.de"} {
			if err := p.Check(u); err != nil {
				t.Errorf("%s: %v", u, err)
			}
		}
		for _, u := range []string{"ftp://x.com/", "/rel", "http://2130706433/", "http://169.254.169.254/"} {
			if err := p.Check(u); err == nil {
				t.Errorf("%s: allowed", u)
			}
		}
	}
}

// Metadata endpoints are denied with any list, in every spelling.
func TestNetMetadataAlwaysDenied(t *testing.T) {
	open, _ := NewNetPolicy(nil)
	restricted, _ := NewNetPolicy([]string{"*.internal", "*.google.internal", "example.com"})
	urls := []string{
		"http://169.254.169.254/latest/meta-data/",
		"http://169.254.169.254:80/",
		"http://169.254.170.2/v2/credentials",
		"http://[fd00:ec2::254]/latest/meta-data/",
		"http://[FD00:EC2:0:0:0:0:0:254]/",
		"http://100.100.100.200/latest/meta-data/",
		"http://metadata.google.internal/computeMetadata/v1/",
		"http://METADATA.Google.Internal./",
		"http://[::ffff:169.254.169.254]/",
		"http://[::ffff:a9fe:a9fe]/",
		"http://[::ffff:100.100.100.200]/",
		"http://[64:ff9b::a9fe:a9fe]/",
		"http://[::169.254.169.254]/",
		"http://0xa9fea9fe/",
		"http://2852039166/",
		"http://0251.0376.0251.0376/",
		"http://169.254.43518/",
	}
	for _, p := range []*NetPolicy{open, restricted} {
		for _, u := range urls {
			if err := p.Check(u); err == nil {
				t.Errorf("%s allowed (policy %v)", u, p.Entries())
			}
		}
	}
	if err := open.Check("http://169.254.169.254/"); !strings.Contains(err.Error(), "cloud metadata endpoint and is always denied") {
		t.Errorf("message: %v", err)
	}
	if err := open.Check("http://0xa9fea9fe/"); !strings.Contains(err.Error(), "169.254.169.254") {
		t.Errorf("a non-canonical spelling should name the decoded address: %v", err)
	}
	for _, s := range []string{"169.254.169.254", "::ffff:169.254.169.254", "64:ff9b::169.254.169.254", "fd00:ec2::254", "100.100.100.200"} {
		if !isMetadataIP(netip.MustParseAddr(s)) {
			t.Errorf("isMetadataIP(%s) = false", s)
		}
	}
	for _, s := range []string{"127.0.0.1", "10.0.0.1", "::1", "169.254.169.253", "::ffff:127.0.0.1"} {
		if isMetadataIP(netip.MustParseAddr(s)) {
			t.Errorf("isMetadataIP(%s) = true", s)
		}
	}
}

func TestParseLooseIPv4(t *testing.T) {
	tests := map[string]string{
		"2130706433":      "127.0.0.1",
		"0x7f.1":          "127.0.0.1",
		"0x7f000001":      "127.0.0.1",
		"0177.0.0.1":      "127.0.0.1",
		"127.1":           "127.0.0.1",
		"127.0.1":         "127.0.0.1",
		"0x7F.0X0.0.01":   "127.0.0.1",
		"169.254.43518":   "169.254.169.254",
		"4294967295":      "255.255.255.255",
		"4294967296":      "",
		"256.1":           "",
		"1.2.3.256":       "",
		"08.1.1.1":        "",
		"1.2.3.4.5":       "",
		"":                "",
		"0x":              "0.0.0.0",
		"1.2.65536":       "",
		"1.2.65535":       "1.2.255.255",
		"1.16777215":      "1.255.255.255",
		"1.0xffffffffff1": "",
	}
	for in, want := range tests {
		a, ok := parseLooseIPv4(in)
		got := ""
		if ok {
			got = a.String()
		}
		if got != want {
			t.Errorf("parseLooseIPv4(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPunycode(t *testing.T) {
	tests := map[string]string{
		"bücher":            "bcher-kva",
		"münchen":           "mnchen-3ya",
		"ü":                 "tda",
		"中文":                "fiq228c",
		"例え":                "r8jz45g",
		"テスト":               "zckzah",
		"3年B組金八先生":          "3B-ww4c5e180e575a65lsy2b", // RFC 3492 7.1 (L)
		"パフィーdeルンバ":         "de-jg4avhby1noc0d",        // RFC 3492 7.1 (N)
		"ليهمابتكلموشعربي؟": "egbpdaj6bu4bxfgehfvwxn",   // RFC 3492 7.1 (A)
	}
	for in, want := range tests {
		got, err := punycodeEncode(in)
		if err != nil || got != want {
			t.Errorf("punycodeEncode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestCheckNavigation(t *testing.T) {
	cases := []struct {
		url    string
		denied bool
	}{
		{"http://169.254.169.254/latest/meta-data/", true},
		{"https://169.254.170.2/v2/credentials", true},
		{"http://100.100.100.200/", true},
		{"http://[fd00:ec2::254]/", true},
		{"http://metadata.google.internal/computeMetadata/v1/", true},
		{"http://METADATA.google.internal./", true},
		{"http://[::ffff:169.254.169.254]/", true},
		{"http://[::ffff:a9fe:a9fe]/", true},
		{"http://[64:ff9b::a9fe:a9fe]/", true},
		{"http://0xa9fea9fe/", true},
		{"http://2852039166/", true},
		{"http://169.254.169.254./", true},
		{"view-source:http://169.254.169.254/", true},
		{"http://127.0.0.1:8080/", false},
		{"http://2130706433/", false}, // loopback, however spelt: navigation is not gated
		{"https://example.com/", false},
		{"file:///etc/passwd", false}, // a path: the filesystem check decides
		{"/relative", false},
		{"about:blank", false},
		{"data:text/html,hi", false},
	}
	for _, c := range cases {
		err := CheckNavigation(c.url)
		if c.denied != (err != nil) {
			t.Errorf("CheckNavigation(%q) = %v; denied want %v", c.url, err, c.denied)
		}
		if err != nil && (!errors.Is(err, ErrNetDenied) || !strings.Contains(err.Error(), "cloud metadata endpoint")) {
			t.Errorf("CheckNavigation(%q) error %q", c.url, err)
		}
	}
}

func TestMetadataHostForms(t *testing.T) {
	forms := strings.Join(MetadataHostForms(), " ")
	for _, want := range []string{"169.254.169.254", "::ffff:a9fe:a9fe", "::a9fe:a9fe", "64:ff9b::a9fe:a9fe", "fd00:ec2::254", "metadata.google.internal", "::ffff:6464:64c8", "::ffff:a9fe:aa02"} {
		if !strings.Contains(" "+forms+" ", " "+want+" ") {
			t.Errorf("MetadataHostForms() = %s; missing %s", forms, want)
		}
	}
}
