package xmldoc

import (
	"encoding/json"
	"strings"
	"testing"
)

const doc = `<?xml version="1.0"?>
<users total="2" xmlns:x="urn:x">
  <user id="1" active="true"><name>Ada</name><x:tag>math</x:tag></user>
  <user id="2" active="false"><name> Grace </name>text<![CDATA[ more]]></user>
</users>`

func TestParse(t *testing.T) {
	e, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(e)
	got := string(b)
	for _, want := range []string{
		`"name":"users","attributes":{"total":"2"}`, // namespace declarations are not attributes
		`"name":"user","attributes":{"id":"1","active":"true"}`,
		`"name":"x:tag","attributes":{},"text":"math"`,
		`"name":"user","attributes":{"id":"2","active":"false"},"text":"text more"`, // own text only, CDATA included
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the tree lacks %s:\n%s", want, got)
		}
	}
	if v, ok := e.Children[1].Attributes.Get("active"); !ok || v != "false" {
		t.Errorf("Get(active) = %q %v", v, ok)
	}
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct {
		expr, want string
	}{
		{"/users/user/name", `{"nodes":[{"kind":"element","name":"name","text":"Ada","xml":"<name>Ada</name>"},{"kind":"element","name":"name","text":"Grace","xml":"<name> Grace </name>"}],"value":null,"isNodeSet":true}`},
		{"/users/user/@id", `{"nodes":[{"kind":"attribute","name":"id","text":"1"},{"kind":"attribute","name":"id","text":"2"}],"value":null,"isNodeSet":true}`},
		{"count(//user)", `{"nodes":null,"value":2,"isNodeSet":false}`},
		{"string(/users/@total)", `{"nodes":null,"value":"2","isNodeSet":false}`},
		{"boolean(//user[@active='maybe'])", `{"nodes":null,"value":false,"isNodeSet":false}`},
		{"//user[@id='2']/text()", `{"nodes":[{"kind":"text","name":"","text":"text"},{"kind":"text","name":"","text":"more"}],"value":null,"isNodeSet":true}`},
		{"/nothing", `{"nodes":[],"value":null,"isNodeSet":true}`},
	} {
		r, err := Query(doc, tc.expr)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(r)
		if b := strings.TrimSpace(buf.String()); b != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.expr, b, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ src, expr, want string }{
		{"<a><b></a>", "/a", "not valid XML: "},
		{"just text", "/a", "not valid XML: "},
		{"<a/>", "/a[", `the XPath "/a[" is not valid: `},
	} {
		_, err := Query(tc.src, tc.expr)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q %q: %v, want %q...", tc.src, tc.expr, err, tc.want)
		}
	}
	if _, err := Parse("<a><b></a>"); err == nil || !strings.Contains(err.Error(), "(line 1)") {
		t.Errorf("a syntax error names its line: %v", err)
	}
}
