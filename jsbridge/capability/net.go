package capability

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// NetPolicy is a parsed allow.net: the hosts a tool's HTTP may reach.
//
// An entry is an exact host name ("api.box.com"), a leading-wildcard suffix
// ("*.box.com": box.com itself and any name ending in ".box.com"), or an IP
// literal ("127.0.0.1", "::1" or "[::1]"). Entries and hosts are compared
// lowercased, without one trailing dot, with internationalised labels in
// their punycode ("xn--") form. Ports are ignored.
//
// An empty policy (no entries) is unrestricted; a non-empty one denies any
// other host. Either way cloud metadata endpoints are always denied, and so
// are IPv4 literals in non-canonical spellings ("2130706433", "0x7f.1",
// "0177.0.0.1", "127.1"): resolvers disagree on them and they exist to dodge
// filters. A nil *NetPolicy is the unrestricted policy.
//
// A NetPolicy is immutable and safe for concurrent use.
type NetPolicy struct {
	entries  []string // normalised, in declaration order, for messages
	exact    map[string]bool
	suffixes []string
	ips      map[netip.Addr]bool

	once   sync.Once
	client *http.Client

	rawOnce   sync.Once
	rawClient *http.Client
}

// openPolicy stands in for a nil *NetPolicy.
var openPolicy = &NetPolicy{}

// NetError is a denial by a NetPolicy. errors.Is(err, ErrNetDenied) holds.
type NetError struct {
	// URL is the refused URL, empty for a denial at dial time.
	URL string
	// Host is the refused host as written (or as dialed).
	Host string
	msg  string
}

func (e *NetError) Error() string { return e.msg }

// Unwrap makes errors.Is(err, ErrNetDenied) true.
func (e *NetError) Unwrap() error { return ErrNetDenied }

// ParseNet parses the value of allow.net: nil, or an array of host entries
// (see NetPolicy). A bad entry is an error naming it.
func ParseNet(v any) (*NetPolicy, error) {
	if v == nil {
		return &NetPolicy{}, nil
	}
	entries, ok := stringList(v)
	if !ok {
		return nil, fmt.Errorf("allow.net: must be an array of host names, got %s", typeName(v))
	}
	return NewNetPolicy(entries)
}

// NewNetPolicy validates and normalises entries into a policy. It rejects
// URLs ("http://x"), ports, paths, a bare "*", wildcards anywhere but a
// leading "*." label, wildcards over IP addresses, non-canonical IPv4
// literals, metadata endpoints (they can never be allowed) and invalid
// names.
func NewNetPolicy(entries []string) (*NetPolicy, error) {
	p := &NetPolicy{exact: map[string]bool{}, ips: map[netip.Addr]bool{}}
	seen := map[string]bool{}
	for _, raw := range entries {
		norm, err := p.add(raw)
		if err != nil {
			return nil, fmt.Errorf("allow.net entry %q: %w", raw, err)
		}
		if !seen[norm] {
			seen[norm] = true
			p.entries = append(p.entries, norm)
		}
	}
	return p, nil
}

// add validates one entry, records it and returns its normalised form.
func (p *NetPolicy) add(raw string) (string, error) {
	e := strings.TrimSpace(raw)
	switch {
	case e == "":
		return "", fmt.Errorf("empty entry")
	case e == "*" || e == "*.":
		return "", fmt.Errorf("a bare * is not an entry; leave allow.net empty for unrestricted access")
	case strings.Contains(e, "://") || strings.ContainsAny(e, "/?#@ \t"):
		return "", fmt.Errorf("must be a bare host name (like api.example.com or *.example.com), not a URL")
	}
	if strings.HasPrefix(e, "[") && strings.HasSuffix(e, "]") {
		e = e[1 : len(e)-1]
	}
	wildcard := false
	if strings.HasPrefix(e, "*.") {
		wildcard, e = true, e[2:]
	}
	if strings.Contains(e, "*") {
		return "", fmt.Errorf("* is allowed only as a whole leading label (*.example.com)")
	}
	if strings.Contains(e, ":") {
		if _, err := netip.ParseAddr(e); err != nil {
			return "", fmt.Errorf("neither a host name nor an IPv6 address (ports are not part of an entry)")
		}
	}
	h, err := normalizeHost(e)
	if err != nil {
		return "", err
	}
	if isMetadata(h) {
		return "", fmt.Errorf("cloud metadata endpoints are always denied and cannot be allowed")
	}
	switch {
	case h.isIP && wildcard:
		return "", fmt.Errorf("a wildcard needs a host name suffix, not an IP address")
	case h.isIP:
		p.ips[h.ip] = true
		return h.ip.String(), nil
	case wildcard:
		p.suffixes = append(p.suffixes, h.name)
		return "*." + h.name, nil
	default:
		p.exact[h.name] = true
		return h.name, nil
	}
}

// Entries returns the normalised entries, in declaration order.
func (p *NetPolicy) Entries() []string {
	if p == nil {
		return nil
	}
	return append([]string(nil), p.entries...)
}

// Unrestricted reports whether the policy allows every host (except
// metadata endpoints and non-canonical IPv4 literals).
func (p *NetPolicy) Unrestricted() bool { return p == nil || len(p.entries) == 0 }

// Check reports whether a request to rawURL is allowed, before any network
// activity: the URL must parse, be absolute, use http or https, and name an
// allowed host (see NetPolicy). The error is a *NetError.
func (p *NetPolicy) Check(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return &NetError{URL: rawURL, msg: fmt.Sprintf("request URL %q cannot be parsed: %v", rawURL, unwrapURLError(err))}
	}
	return p.CheckURL(u)
}

// CheckURL is Check for a parsed URL (net/url lowercases the scheme and
// splits off userinfo, so "https://ok.com@evil.com" is host evil.com).
func (p *NetPolicy) CheckURL(u *url.URL) error {
	s := u.String()
	if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return &NetError{URL: s, msg: fmt.Sprintf("request URL scheme %q is not allowed: only http and https", u.Scheme)}
	}
	if !u.IsAbs() || u.Host == "" {
		return &NetError{URL: s, msg: fmt.Sprintf("request URL %q is not an absolute http or https URL", s)}
	}
	if err := p.checkHost(u.Hostname()); err != nil {
		err.URL = s
		return err
	}
	return nil
}

// checkHost applies the policy to a host (no port, no brackets).
func (p *NetPolicy) checkHost(host string) *NetError {
	if p == nil {
		p = openPolicy
	}
	h, err := normalizeHost(host)
	if err != nil {
		return &NetError{Host: host, msg: fmt.Sprintf("request host %q is not allowed: %v", host, err)}
	}
	if isMetadata(h) {
		return &NetError{Host: host, msg: fmt.Sprintf("request host %q is a cloud metadata endpoint and is always denied", host)}
	}
	if p.Unrestricted() || p.allows(h) {
		return nil
	}
	return &NetError{Host: host, msg: fmt.Sprintf("request host %q is not in allow.net [%s]", h.String(), strings.Join(p.entries, " "))}
}

func (p *NetPolicy) allows(h host) bool {
	if h.isIP {
		return p.ips[h.ip]
	}
	if p.exact[h.name] {
		return true
	}
	for _, s := range p.suffixes {
		// The "." keeps the match on a label boundary: evilbox.com is not
		// under *.box.com.
		if h.name == s || strings.HasSuffix(h.name, "."+s) {
			return true
		}
	}
	return false
}

// host is a normalised host: an ASCII name or an IP address.
type host struct {
	name string
	ip   netip.Addr
	isIP bool
}

func (h host) String() string {
	if h.isIP {
		return h.ip.String()
	}
	return h.name
}

// normalizeHost validates a host (as in a URL after net/url decoding, no
// port, no brackets) and brings it to canonical form: an IP address, or a
// lowercase ASCII name without a trailing dot whose non-ASCII labels are
// punycode-encoded.
func normalizeHost(s string) (host, error) {
	if s == "" {
		return host{}, fmt.Errorf("empty host")
	}
	if strings.Contains(s, ":") {
		a, err := netip.ParseAddr(s)
		if err != nil || !a.Is6() {
			return host{}, fmt.Errorf("invalid IPv6 address %q", s)
		}
		return host{ip: a.WithZone(""), isIP: true}, nil
	}
	if !utf8.ValidString(s) {
		return host{}, fmt.Errorf("host is not valid UTF-8")
	}
	// UTS #46 treats these as label separators, and so does the IDNA
	// conversion net/http applies before dialing.
	s = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(s)
	s = norm.NFC.String(strings.ToLower(s))
	trimmed := strings.TrimSuffix(s, ".")
	if trimmed == "" {
		return host{}, fmt.Errorf("empty host")
	}
	labels := strings.Split(trimmed, ".")
	if endsInNumber(labels[len(labels)-1]) {
		// An IPv4 literal: only the canonical dotted quad is accepted,
		// without a trailing dot (which turns it into a DNS name).
		if a, err := netip.ParseAddr(s); err == nil && a.Is4() && a.String() == s {
			return host{ip: a, isIP: true}, nil
		}
		if a, ok := parseLooseIPv4(trimmed); ok {
			return host{}, fmt.Errorf("IPv4 address %s in a non-canonical spelling (always denied; write it as %s)", a, a)
		}
		return host{}, fmt.Errorf("looks like an IPv4 address but is not one")
	}
	for i, l := range labels {
		if l == "" {
			return host{}, fmt.Errorf("empty label in host name")
		}
		if !isASCII(l) {
			for _, r := range l {
				if (r < utf8.RuneSelf && !isNameByte(byte(r))) || (r >= utf8.RuneSelf && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)) {
					return host{}, fmt.Errorf("invalid character %q in host name", r)
				}
			}
			enc, err := punycodeEncode(l)
			if err != nil {
				return host{}, err
			}
			l = "xn--" + enc
			labels[i] = l
		}
		if len(l) > 63 {
			return host{}, fmt.Errorf("label longer than 63 bytes")
		}
		for j := 0; j < len(l); j++ {
			if !isNameByte(l[j]) {
				return host{}, fmt.Errorf("invalid character %q in host name", l[j])
			}
		}
	}
	name := strings.Join(labels, ".")
	if len(name) > 253 {
		return host{}, fmt.Errorf("host name longer than 253 bytes")
	}
	return host{name: name}, nil
}

// isNameByte accepts letters, digits, '-' and '_' (seen in real DNS names).
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// endsInNumber is the WHATWG URL test for an IPv4-looking host: a last
// label of decimal digits, or of "0x" and hex digits.
func endsInNumber(label string) bool {
	if label == "" {
		return false
	}
	digits := label
	hex := false
	if strings.HasPrefix(label, "0x") || strings.HasPrefix(label, "0X") {
		digits, hex = label[2:], true
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		ok := c >= '0' && c <= '9' || hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		if !ok {
			return false
		}
	}
	return true
}

// parseLooseIPv4 decodes the inet_aton spellings (1 to 4 parts, each
// decimal, 0-prefixed octal or 0x-prefixed hex, the last part filling the
// remaining bytes). It only serves error messages and the metadata check:
// such hosts are denied either way.
func parseLooseIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	vals := make([]uint64, len(parts))
	for i, part := range parts {
		base, digits := 10, part
		switch {
		case strings.HasPrefix(part, "0x") || strings.HasPrefix(part, "0X"):
			base, digits = 16, part[2:]
			if digits == "" {
				digits = "0"
			}
		case len(part) > 1 && part[0] == '0':
			base, digits = 8, part[1:]
		}
		v, err := strconv.ParseUint(digits, base, 32)
		if err != nil || part == "" {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	var n uint64
	for i, v := range vals[:len(vals)-1] {
		if v > 255 {
			return netip.Addr{}, false
		}
		n |= v << (24 - 8*i)
	}
	last := vals[len(vals)-1]
	if last >= 1<<(8*(5-len(vals))) {
		return netip.Addr{}, false
	}
	n |= last
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}

// Cloud metadata endpoints. They hand out instance credentials, so no
// policy can reach them, whatever the list says.
var (
	metadataNames = map[string]bool{
		"metadata.google.internal": true, // GCP
	}
	metadataIPs = map[netip.Addr]bool{
		netip.MustParseAddr("169.254.169.254"): true, // AWS, GCP, Azure, OpenStack, …
		netip.MustParseAddr("169.254.170.2"):   true, // AWS ECS task credentials
		netip.MustParseAddr("100.100.100.200"): true, // Alibaba Cloud
		netip.MustParseAddr("fd00:ec2::254"):   true, // AWS IPv6 IMDS
	}
	nat64Prefix = netip.MustParsePrefix("64:ff9b::/96")
)

func isMetadata(h host) bool {
	if h.isIP {
		return isMetadataIP(h.ip)
	}
	return metadataNames[h.name]
}

// isMetadataIP also sees through IPv4-mapped (::ffff:a.b.c.d),
// IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) embeddings.
func isMetadataIP(a netip.Addr) bool {
	a = a.WithZone("").Unmap()
	if metadataIPs[a] {
		return true
	}
	if a.Is6() {
		b := a.As16()
		compat := [12]byte{}
		if nat64Prefix.Contains(a) || [12]byte(b[:12]) == compat {
			return metadataIPs[netip.AddrFrom4([4]byte(b[12:]))]
		}
	}
	return false
}

// unwrapURLError drops net/url's repetition of the URL in its errors.
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// CheckNavigation refuses a browser navigation to a cloud metadata
// endpoint. Navigation is otherwise not gated (allow.net binds HTTP
// clients, not the browser), so any other URL passes: relative ones, and
// those of other schemes (file: URLs are paths, and go through the
// filesystem check instead). view-source: URLs are checked by the URL
// they wrap. The error is a *NetError.
func CheckNavigation(rawURL string) error {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return nil // the browser refuses it itself
	}
	if strings.EqualFold(u.Scheme, "view-source") {
		return CheckNavigation(u.Opaque)
	}
	if u.Host == "" {
		return nil
	}
	hostname := u.Hostname()
	h, err := normalizeHost(hostname)
	if err != nil {
		// Browsers accept the inet_aton spellings (0xa9fe.0xa9fe): see
		// what they decode to.
		if a, ok := parseLooseIPv4(strings.TrimSuffix(strings.ToLower(hostname), ".")); ok {
			h = host{ip: a, isIP: true}
		} else {
			return nil
		}
	}
	if isMetadata(h) {
		return &NetError{URL: u.String(), Host: hostname, msg: fmt.Sprintf("navigation to %q is refused: %q is a cloud metadata endpoint and is always denied", u.String(), hostname)}
	}
	return nil
}

// MetadataHostForms lists every host spelling of the cloud metadata
// endpoints as a browser's URL parser writes it: the names, the IPv4
// addresses, and their IPv4-mapped, IPv4-compatible and NAT64 IPv6 forms
// in canonical hex ("::ffff:a9fe:a9fe"). A browser launched by
// ferridriver is told never to resolve them.
func MetadataHostForms() []string {
	var out []string
	for n := range metadataNames {
		out = append(out, n)
	}
	for a := range metadataIPs {
		out = append(out, a.String())
		if !a.Is4() {
			continue
		}
		v4 := a.As4()
		hex := fmt.Sprintf("%x:%x", uint16(v4[0])<<8|uint16(v4[1]), uint16(v4[2])<<8|uint16(v4[3]))
		out = append(out, "::ffff:"+hex, "::"+hex, "64:ff9b::"+hex)
	}
	sort.Strings(out)
	return out
}
