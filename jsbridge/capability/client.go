package capability

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// maxRedirects matches net/http's default limit, which a custom
// CheckRedirect replaces.
const maxRedirects = 10

// ClientOptions tunes NewClient. The zero value is the production setup.
type ClientOptions struct {
	// Resolver resolves host names at dial time; nil means
	// net.DefaultResolver. Tests use it to point names at chosen IPs.
	Resolver *net.Resolver
	// Raw leaves bodies as the server sent them: no Accept-Encoding is
	// added and nothing is decompressed (Node's http module).
	Raw bool
}

// Client returns the policy's shared *http.Client (built once; connections
// are pooled per policy). It enforces the policy three times:
//   - before every request (its RoundTripper checks the URL), so a request
//     built by any caller is covered;
//   - on every redirect hop (CheckRedirect), at most 10 hops;
//   - at dial time: the name net/http actually dials (after its own IDNA
//     conversion) is checked again, and the resolved IP of every connection
//     attempt is refused when it is a cloud metadata address, which defeats
//     DNS names pointing (or rebinding) to a metadata IP.
//
// The client ignores HTTP(S)_PROXY: a proxy would dial on our behalf and
// bypass the dial-time check. Callers may set Timeout or Jar on a copy, but
// must keep Transport and CheckRedirect.
func (p *NetPolicy) Client() *http.Client {
	if p == nil {
		p = openPolicy
	}
	p.once.Do(func() { p.client = p.NewClient(ClientOptions{}) })
	return p.client
}

// RawClient is Client with ClientOptions.Raw: the client of node:http.
func (p *NetPolicy) RawClient() *http.Client {
	if p == nil {
		p = openPolicy
	}
	p.rawOnce.Do(func() { p.rawClient = p.NewClient(ClientOptions{Raw: true}) })
	return p.rawClient
}

// NewClient builds a new, unshared client for the policy (see Client).
func (p *NetPolicy) NewClient(o ClientOptions) *http.Client {
	if p == nil {
		p = openPolicy
	}
	dialer := &net.Dialer{
		Timeout:   30 * time.Second,
		KeepAlive: 30 * time.Second,
		Resolver:  o.Resolver,
		Control:   denyMetadataControl,
	}
	base := &http.Transport{
		Proxy:                 nil,
		DialContext:           p.guardedDial(dialer),
		ForceAttemptHTTP2:     true, // a custom DialContext turns HTTP/2 off otherwise
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: 1 * time.Second,
		DisableCompression:    o.Raw,
	}
	return &http.Client{
		Transport: &guardTransport{policy: p, base: base},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			return p.CheckURL(req.URL)
		},
	}
}

// guardTransport checks each request's URL before handing it on.
type guardTransport struct {
	policy *NetPolicy
	base   *http.Transport
}

// RoundTrip implements http.RoundTripper.
func (t *guardTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.policy.CheckURL(req.URL); err != nil {
		if req.Body != nil {
			req.Body.Close() // the RoundTripper contract, even on error
		}
		return nil, err
	}
	return t.base.RoundTrip(req)
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the pool.
func (t *guardTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }

// guardedDial re-checks the host net/http is about to dial: the URL check
// saw the host as written, this sees it after net/http's IDNA conversion,
// so a normalisation difference can only deny, never allow.
func (p *NetPolicy) guardedDial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, fmt.Errorf("dial %s: %w", addr, err)
		}
		if nerr := p.checkHost(host); nerr != nil {
			return nil, nerr
		}
		return d.DialContext(ctx, network, addr)
	}
}

// denyMetadataControl runs before every connect(2), with the resolved
// address: the last point where a name can turn into a metadata IP.
func denyMetadataControl(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return &NetError{Host: address, msg: fmt.Sprintf("dial %s: cannot parse the resolved address: %v", address, err)}
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return &NetError{Host: host, msg: fmt.Sprintf("dial %s: the resolved address is not an IP address", address)}
	}
	if isMetadataIP(ip) {
		return &NetError{Host: host, msg: fmt.Sprintf("resolved address %s is a cloud metadata endpoint and is always denied", ip)}
	}
	return nil
}
