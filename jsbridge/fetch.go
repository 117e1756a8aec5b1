package jsbridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// The one HTTP core behind the global fetch and the handlers' request
// client. Every request is checked against the policy of the tool whose
// frame it runs in (none outside handlers: unrestricted but for cloud
// metadata endpoints), before it is sent, on every redirect hop and at
// dial time (capability.NetPolicy.Client).

// MaxResponseBytes caps a response body read by fetch or request.
const MaxResponseBytes = 64 << 20

// httpResult is what the native core hands back to tools.js.
type httpResult struct {
	status     int
	statusText string
	reason     string // the server's reason phrase (node:http's statusMessage)
	protoMajor int
	protoMinor int
	url        string
	redirected bool
	headers    [][2]string
	body       []byte
	err        *wireError
}

type wireError struct {
	name, message, code string
	cause               error // the Go error, for node:http's error codes
}

// httpNative returns the doRequest function of tools.js. With owner nil it
// serves the global fetch (and node:http) and follows the running frame;
// otherwise it is the request client of owner's handler and works only in
// owner's frame (a client stashed in a global cannot lend the tool's
// cookies or grant to other code). A request with raw set is node:http's:
// no cookie jar, no redirects followed, the body as the server sent it.
func (vm *VM) httpNative(owner *ToolFrame) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		rt := vm.rt
		frame := CurrentFrame(vm)
		what := "fetch"
		if owner != nil {
			what = "request"
			if frame != owner {
				vm.Throw(fmt.Errorf("the request client of tool %q can only be used by that tool's handler", owner.tool.Name))
			}
		}
		if frame != nil {
			if err := frame.revoked(); err != nil {
				vm.Throw(err)
			}
		}
		spec, ok := call.Argument(0).(*goja.Object)
		if !ok {
			panic(rt.NewTypeError(what + ": bad request"))
		}
		str := func(k string) string {
			if v := spec.Get(k); v != nil && !goja.IsUndefined(v) {
				return v.String()
			}
			return ""
		}
		num := func(k string, def float64) float64 {
			if v := spec.Get(k); v != nil && !goja.IsUndefined(v) {
				if f, ok := numberOf(v); ok {
					return f
				}
			}
			return def
		}
		method, rawURL, redirect := str("method"), str("url"), str("redirect")
		raw := spec.Get("raw") != nil && spec.Get("raw").ToBoolean()
		var policy *capability.NetPolicy
		jarKey := ""
		if frame != nil {
			policy, jarKey = frame.Net(), frame.tool.Name
		}
		if err := policy.Check(rawURL); err != nil {
			panic(vm.newError("TypeError", err.Error(), "ERR_NET_DENIED"))
		}
		header := http.Header{}
		if hv, ok := spec.Get("headers").(*goja.Object); ok {
			for _, k := range hv.Keys() {
				pair, ok := hv.Get(k).(*goja.Object)
				if !ok {
					continue
				}
				header.Add(pair.Get("0").String(), pair.Get("1").String())
			}
		}
		var body []byte
		if b := spec.Get("body"); b != nil && !goja.IsUndefined(b) && !goja.IsNull(b) {
			if s, ok := b.Export().(string); ok {
				body = []byte(s)
			} else if bs, ok := bytesOf(rt, b.ToObject(rt)); ok {
				body = append([]byte(nil), bs...)
			} else {
				panic(rt.NewTypeError(what + ": unsupported body"))
			}
		}
		timeout := time.Duration(num("timeoutMs", 0) * float64(time.Millisecond))
		maxRedirects := int(num("maxRedirects", -1))
		st := vm.toolsOf()
		ctx, cancel := st.opContext(frame)
		if timeout > 0 {
			var cancelT context.CancelFunc
			ctx, cancelT = context.WithTimeoutCause(ctx, timeout, fmt.Errorf("request timed out after %d ms", timeout.Milliseconds()))
			prev := cancel
			cancel = func(err error) { cancelT(); prev(err) }
		}
		var client http.Client
		if raw {
			client = *policy.RawClient()
			redirect = "manual"
		} else {
			client = *policy.Client()
			jar := st.jars[jarKey]
			if jar == nil {
				jar, _ = cookiejar.New(nil)
				st.jars[jarKey] = jar
			}
			client.Jar = jar
		}
		base := client.CheckRedirect
		client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			switch {
			case redirect == "manual":
				return http.ErrUseLastResponse
			case redirect == "error":
				return fmt.Errorf("redirect to %s refused (redirect: \"error\")", req.URL)
			case maxRedirects > 0 && len(via) > maxRedirects:
				return fmt.Errorf("stopped after %d redirects (maxRedirects)", maxRedirects)
			}
			return base(req, via)
		}
		promise := vm.loop.Promise(func() (any, error) {
			defer cancel(nil)
			return doHTTP(ctx, &client, method, rawURL, header, body), nil
		}, func(rt *goja.Runtime, v any) (goja.Value, error) {
			return vm.httpResultValue(v.(*httpResult)), nil
		})
		h := rt.NewObject()
		h.Set("promise", promise)
		h.Set("abort", func(goja.FunctionCall) goja.Value {
			cancel(errAborted)
			return goja.Undefined()
		})
		return h
	}
}

var errAborted = errors.New("This operation was aborted")

// doHTTP performs one request and reads the whole response (at most
// MaxResponseBytes). Failures come back in the result, named as the
// fetch standard and Node name them.
func doHTTP(ctx context.Context, client *http.Client, method, rawURL string, header http.Header, body []byte) *httpResult {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, rd)
	if err != nil {
		return &httpResult{err: &wireError{name: "TypeError", message: fmt.Sprintf("%s %s: %v", method, rawURL, err)}}
	}
	req.Header = header
	resp, err := client.Do(req)
	if err != nil {
		return &httpResult{err: httpError(ctx, method, rawURL, err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return &httpResult{err: httpError(ctx, method, rawURL, err)}
	}
	if len(data) > MaxResponseBytes {
		return &httpResult{err: &wireError{name: "Error", message: fmt.Sprintf("%s %s: the response body exceeds %d bytes", method, rawURL, MaxResponseBytes), code: "ERR_RESPONSE_TOO_LARGE"}}
	}
	r := &httpResult{
		status:     resp.StatusCode,
		statusText: http.StatusText(resp.StatusCode),
		reason:     strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode))),
		protoMajor: resp.ProtoMajor,
		protoMinor: resp.ProtoMinor,
		url:        resp.Request.URL.String(),
		redirected: resp.Request.URL.String() != req.URL.String(),
		body:       data,
	}
	for _, k := range sortedKeys(resp.Header) {
		for _, v := range resp.Header[k] {
			r.headers = append(r.headers, [2]string{strings.ToLower(k), v})
		}
	}
	return r
}

// httpError describes a failed request: a denial by the policy (also on a
// redirect hop or at dial time), an abort, a timeout or a network error.
func httpError(ctx context.Context, method, rawURL string, err error) *wireError {
	var ne *capability.NetError
	if errors.As(err, &ne) {
		msg := ne.Error()
		if ne.URL != "" && ne.URL != rawURL {
			msg = fmt.Sprintf("redirect to %s denied: %s", ne.URL, msg)
		}
		return &wireError{name: "TypeError", message: fmt.Sprintf("%s (%s %s)", msg, method, rawURL), code: "ERR_NET_DENIED"}
	}
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		switch {
		case errors.Is(cause, errAborted):
			return &wireError{name: "AbortError", message: errAborted.Error(), code: "ABORT_ERR"}
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return &wireError{name: "TimeoutError", message: fmt.Sprintf("%s %s: %v", method, rawURL, cause), code: "ERR_TIMEOUT"}
		default:
			return &wireError{name: "Error", message: fmt.Sprintf("%s %s: %v", method, rawURL, cause), code: "ERR_CANCELLED"}
		}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &wireError{name: "TypeError", message: fmt.Sprintf("%s %s failed: %v", method, rawURL, err), code: "ERR_NETWORK", cause: err}
}

func (vm *VM) httpResultValue(r *httpResult) goja.Value {
	rt := vm.rt
	o := rt.NewObject()
	if r.err != nil {
		e := rt.NewObject()
		e.Set("name", r.err.name)
		e.Set("message", r.err.message)
		if r.err.code != "" {
			e.Set("code", r.err.code)
		}
		if r.err.cause != nil {
			if ne := vm.nodeNetError(r.err.cause); ne != nil {
				e.Set("node", ne)
			}
		}
		o.Set("error", e)
		return o
	}
	o.Set("status", r.status)
	o.Set("statusText", r.statusText)
	o.Set("url", r.url)
	o.Set("redirected", r.redirected)
	o.Set("reason", r.reason)
	o.Set("httpVersion", fmt.Sprintf("%d.%d", r.protoMajor, r.protoMinor))
	pairs := make([]any, len(r.headers))
	for i, h := range r.headers {
		pairs[i] = rt.NewArray(h[0], h[1])
	}
	o.Set("headers", rt.NewArray(pairs...))
	o.Set("body", rt.NewArrayBuffer(r.body))
	return o
}

// requestClient returns the handler's request client, bound to its frame.
func (vm *VM) requestClient(f *ToolFrame) goja.Value {
	return vm.glueCall("makeRequest", vm.rt.ToValue(vm.httpNative(f)))
}
