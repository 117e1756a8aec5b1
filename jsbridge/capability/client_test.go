package capability

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// redirectServer serves a few fixed routes on 127.0.0.1 and counts hits.
type redirectServer struct {
	*httptest.Server
	mu    sync.Mutex
	hits  []string
	conns atomic.Int32
}

func newRedirectServer(t *testing.T) *redirectServer {
	rs := &redirectServer{}
	mux := http.NewServeMux()
	redirect := func(path, to string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			target := strings.ReplaceAll(to, "PORT", rs.port())
			http.Redirect(w, r, target, http.StatusFound)
		})
	}
	redirect("/evil", "http://evil.example/steal")
	redirect("/evil-userinfo", "http://127.0.0.1@evil.example/steal")
	redirect("/meta", "http://169.254.169.254/latest/meta-data/")
	redirect("/meta-mapped", "http://[::ffff:169.254.169.254]/")
	redirect("/file", "file:///etc/passwd")
	redirect("/to-localhost", "http://localhost:PORT/final")
	redirect("/a", "/b")
	redirect("/b", "http://localhost:PORT/c")
	redirect("/c", "http://127.0.0.1:PORT/final")
	redirect("/loop", "/loop")
	mux.HandleFunc("/final", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "done") })
	rs.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		rs.hits = append(rs.hits, r.Host+r.URL.Path)
		rs.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	rs.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			rs.conns.Add(1)
		}
	}
	rs.Start()
	t.Cleanup(rs.Close)
	return rs
}

func (rs *redirectServer) port() string {
	_, port, _ := net.SplitHostPort(rs.Listener.Addr().String())
	return port
}

func (rs *redirectServer) paths() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]string(nil), rs.hits...)
}

func get(t *testing.T, c *http.Client, url string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func TestClientRefusesRedirectHops(t *testing.T) {
	rs := newRedirectServer(t)
	restricted, err := NewNetPolicy([]string{"127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	open, _ := NewNetPolicy(nil)
	tests := []struct {
		policy *NetPolicy
		path   string
		err    string
	}{
		{restricted, "/evil", `request host "evil.example" is not in allow.net [127.0.0.1]`},
		{restricted, "/evil-userinfo", `request host "evil.example" is not in allow.net`},
		{restricted, "/to-localhost", `request host "localhost" is not in allow.net [127.0.0.1]`},
		{restricted, "/meta", "cloud metadata endpoint"},
		{open, "/meta", "cloud metadata endpoint"},
		{open, "/meta-mapped", "cloud metadata endpoint"},
		{open, "/file", `scheme "file" is not allowed`},
		{open, "/loop", "stopped after 10 redirects"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			before := len(rs.paths())
			_, err := get(t, tc.policy.Client(), rs.URL+tc.path)
			mustContain(t, err, tc.err)
			if tc.path != "/loop" && !errors.Is(err, ErrNetDenied) {
				t.Errorf("%v is not ErrNetDenied", err)
			}
			hits := rs.paths()[before:]
			if tc.path != "/loop" && len(hits) != 1 {
				t.Errorf("server hits %v: the refused hop must not be followed", hits)
			}
		})
	}
}

func TestClientFollowsAllowedRedirectChain(t *testing.T) {
	rs := newRedirectServer(t)
	p, err := NewNetPolicy([]string{"127.0.0.1", "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	body, err := get(t, p.Client(), rs.URL+"/a")
	if err != nil {
		t.Fatal(err)
	}
	if body != "done" {
		t.Errorf("body %q", body)
	}
	port := rs.port()
	want := []string{"127.0.0.1:" + port + "/a", "127.0.0.1:" + port + "/b", "localhost:" + port + "/c", "127.0.0.1:" + port + "/final"}
	if got := rs.paths(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("hops %v, want %v", got, want)
	}
}

// A denied request never opens a connection.
func TestClientDeniesBeforeConnecting(t *testing.T) {
	rs := newRedirectServer(t)
	p, _ := NewNetPolicy([]string{"example.com"})
	_, err := get(t, p.Client(), rs.URL+"/final")
	mustContain(t, err, `request host "127.0.0.1" is not in allow.net [example.com]`)
	if n := rs.conns.Load(); n != 0 {
		t.Errorf("%d connections opened", n)
	}

	// The RoundTripper alone enforces the policy too, and closes the body.
	body := &closeRecorder{Reader: strings.NewReader("payload")}
	req, _ := http.NewRequest(http.MethodPost, rs.URL+"/final", body)
	if _, err := p.Client().Transport.RoundTrip(req); !errors.Is(err, ErrNetDenied) {
		t.Errorf("RoundTrip: err = %v", err)
	}
	if !body.closed {
		t.Error("RoundTrip did not close the request body")
	}
}

type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

func TestClientSharedAndNilPolicy(t *testing.T) {
	rs := newRedirectServer(t)
	p, _ := NewNetPolicy([]string{"127.0.0.1"})
	if p.Client() != p.Client() {
		t.Error("Client is not shared")
	}
	var nilPolicy *NetPolicy
	if body, err := get(t, nilPolicy.Client(), rs.URL+"/final"); err != nil || body != "done" {
		t.Errorf("nil policy: %q, %v", body, err)
	}
	if _, err := get(t, nilPolicy.Client(), "http://169.254.169.254/"); !errors.Is(err, ErrNetDenied) {
		t.Errorf("nil policy reached metadata: %v", err)
	}
}

// The dial guard re-checks the dialed name against the list.
func TestDialGuardRechecksHost(t *testing.T) {
	rs := newRedirectServer(t)
	p, _ := NewNetPolicy([]string{"127.0.0.1"})
	dial := p.guardedDial(&net.Dialer{})
	if _, err := dial(t.Context(), "tcp", "localhost:"+rs.port()); !errors.Is(err, ErrNetDenied) {
		t.Errorf("dial localhost: err = %v, want ErrNetDenied", err)
	}
	conn, err := dial(t.Context(), "tcp", "127.0.0.1:"+rs.port())
	if err != nil {
		t.Fatalf("dial 127.0.0.1: %v", err)
	}
	conn.Close()
}

// startDNS runs a minimal authoritative DNS server on 127.0.0.1 that answers
// A and AAAA queries from answers and NXDOMAIN otherwise.
func startDNS(t *testing.T, answers map[string][]netip.Addr) *net.Resolver {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if resp := dnsResponse(buf[:n], answers); resp != nil {
				pc.WriteTo(resp, from)
			}
		}
	}()
	addr := pc.LocalAddr().String()
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "udp", addr)
		},
	}
}

func dnsResponse(q []byte, answers map[string][]netip.Addr) []byte {
	if len(q) < 12 {
		return nil
	}
	i := 12
	var labels []string
	for {
		if i >= len(q) {
			return nil
		}
		l := int(q[i])
		i++
		if l == 0 {
			break
		}
		if l&0xc0 != 0 || i+l > len(q) {
			return nil
		}
		labels = append(labels, string(q[i:i+l]))
		i += l
	}
	if i+4 > len(q) {
		return nil
	}
	qtype := binary.BigEndian.Uint16(q[i:])
	question := q[12 : i+4]
	name := strings.ToLower(strings.Join(labels, "."))
	addrs, known := answers[name]
	var rrs [][]byte
	for _, a := range addrs {
		if (qtype == 1 && a.Is4()) || (qtype == 28 && a.Is6()) {
			rr := []byte{0xc0, 0x0c, 0, byte(qtype), 0, 1, 0, 0, 0, 60, 0, byte(len(a.AsSlice()))}
			rrs = append(rrs, append(rr, a.AsSlice()...))
		}
	}
	resp := make([]byte, 12, 512)
	copy(resp, q[:2])
	flags := uint16(0x8580) // response, authoritative, recursion desired+available
	if !known {
		flags |= 3 // NXDOMAIN
	}
	binary.BigEndian.PutUint16(resp[2:], flags)
	binary.BigEndian.PutUint16(resp[4:], 1)
	binary.BigEndian.PutUint16(resp[6:], uint16(len(rrs)))
	resp = append(resp, question...)
	for _, rr := range rrs {
		resp = append(resp, rr...)
	}
	return resp
}

// DNS names that resolve (or rebind) to a metadata IP are refused at dial
// time, whatever the list says; names resolving elsewhere still work.
func TestClientDialRefusesMetadataResolution(t *testing.T) {
	rs := newRedirectServer(t)
	resolver := startDNS(t, map[string][]netip.Addr{
		"ok.test":      {netip.MustParseAddr("127.0.0.1")},
		"rebind.test":  {netip.MustParseAddr("169.254.169.254")},
		"rebind6.test": {netip.MustParseAddr("fd00:ec2::254")},
		"alibaba.test": {netip.MustParseAddr("100.100.100.200")},
	})
	open, _ := NewNetPolicy(nil)
	listed, _ := NewNetPolicy([]string{"*.test"})
	for _, p := range []*NetPolicy{open, listed} {
		c := p.NewClient(ClientOptions{Resolver: resolver})
		if body, err := get(t, c, "http://ok.test:"+rs.port()+"/final"); err != nil || body != "done" {
			t.Fatalf("ok.test via the test resolver: %q, %v", body, err)
		}
		for _, host := range []string{"rebind.test", "rebind6.test", "alibaba.test"} {
			_, err := get(t, c, "http://"+host+":"+rs.port()+"/final")
			if !errors.Is(err, ErrNetDenied) {
				t.Errorf("%s: err = %v, want ErrNetDenied", host, err)
				continue
			}
			mustContain(t, err, "is a cloud metadata endpoint and is always denied")
		}
	}
}
