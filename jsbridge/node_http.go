package jsbridge

import (
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"syscall"

	"github.com/dop251/goja"
	"golang.org/x/sys/unix"
)

// node:http and node:https, client side: node/http.js builds Node's
// ClientRequest and IncomingMessage over the HTTP core that also serves
// fetch (fetch.go), called in its raw mode. Every request therefore passes
// the same capability checks: the running tool's allow.net (in any host),
// cloud metadata endpoints always denied. The response body is read whole
// (at most MaxResponseBytes) before the response is emitted.

type httpModulesKey struct{}

// httpModule returns node:http (protocol "http:") or node:https; both come
// from one evaluation of node/http.js, so https.Agent extends http.Agent as
// in Node.
func (vm *VM) httpModule(protocol string) (goja.Value, error) {
	type pair struct {
		exports *goja.Object
		err     error
	}
	p := vm.Local(httpModulesKey{}, func() any {
		rt := vm.rt
		b := rt.NewObject()
		b.Set("request", vm.httpNative(nil))
		codes := rt.NewObject()
		for code := 100; code < 600; code++ {
			if t := http.StatusText(code); t != "" {
				codes.Set(strconv.Itoa(code), t)
			}
		}
		b.Set("STATUS_CODES", codes)
		v, err := vm.nodeScript("http.js", b)
		if err != nil {
			return &pair{err: err}
		}
		return &pair{exports: v.ToObject(rt)}
	}).(*pair)
	if p.err != nil {
		return nil, p.err
	}
	if protocol == "https:" {
		return p.exports.Get("https"), nil
	}
	return p.exports.Get("http"), nil
}

// nodeNetError describes a failed connection as Node does: code, errno,
// syscall, address, port and the message Node would give
// ("connect ECONNREFUSED 127.0.0.1:8080").
func (vm *VM) nodeNetError(err error) *goja.Object {
	o := vm.rt.NewObject()
	var dns *net.DNSError
	var op *net.OpError
	var en syscall.Errno
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &dns):
		code := "EAI_AGAIN"
		if dns.IsNotFound {
			code = "ENOTFOUND"
		}
		o.Set("code", code)
		o.Set("syscall", "getaddrinfo")
		o.Set("hostname", dns.Name)
		o.Set("message", "getaddrinfo "+code+" "+dns.Name)
	case errors.As(err, &en):
		code := unix.ErrnoName(en)
		sc := "read"
		addr := ""
		if errors.As(err, &op) {
			if op.Op == "dial" {
				sc = "connect"
			} else if op.Op == "write" {
				sc = "write"
			}
			if op.Addr != nil {
				addr = op.Addr.String()
			}
		}
		o.Set("code", code)
		o.Set("errno", -int(en))
		o.Set("syscall", sc)
		msg := sc + " " + code
		if host, port, err := net.SplitHostPort(addr); err == nil {
			o.Set("address", host)
			if n, err := strconv.Atoi(port); err == nil {
				o.Set("port", n)
			}
			msg += " " + addr
		}
		o.Set("message", msg)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		o.Set("code", "ECONNRESET")
		o.Set("message", "socket hang up")
	case errors.As(err, &unknownCA):
		o.Set("code", "UNABLE_TO_VERIFY_LEAF_SIGNATURE")
		o.Set("message", "unable to verify the first certificate ("+err.Error()+")")
	case errors.As(err, &hostErr):
		o.Set("code", "ERR_TLS_CERT_ALTNAME_INVALID")
		o.Set("message", hostErr.Error())
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		o.Set("code", "CERT_HAS_EXPIRED")
		o.Set("message", "certificate has expired")
	default:
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			o.Set("code", "ETIMEDOUT")
			o.Set("message", "connect ETIMEDOUT")
			break
		}
		return nil
	}
	return o
}
