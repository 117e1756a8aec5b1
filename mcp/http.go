package mcp

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The streamable HTTP transport: one server, many clients, each its own
// MCP session (Mcp-Session-Id) and so its own Session. The handler in
// front of the SDK's checks what a careless or hostile client could
// abuse: the Origin header (a web page's requests), the bearer token,
// the number of sessions, the time a body may take to arrive and its
// size; sessions left idle expire.

// Defaults of HTTPOptions.
const (
	// DefaultSessionIdleTimeout closes a session that sent no request
	// for that long (its VM, browser contexts and processes with it).
	DefaultSessionIdleTimeout = 30 * time.Minute
	// DefaultMaxSessions caps the sessions open at once.
	DefaultMaxSessions = 32
	// DefaultReadTimeout bounds the time a request body may take to
	// arrive, whole.
	DefaultReadTimeout = 30 * time.Second
)

// largeBody is the size past which a request body is read one at a time
// with the other large ones, and the memory it cost is returned to the
// system once its request is done.
const largeBody = 1 << 20

// HTTPOptions configure the HTTP transport (Server.HTTPHandler).
type HTTPOptions struct {
	// Token is the bearer token every request must carry ("" for none).
	Token string
	// Origins are the Origin header values allowed besides loopback ones
	// (http://localhost:3000...), e.g. "https://app.example.com"; "*"
	// allows any. A request without Origin (not from a browser) passes.
	Origins []string
	// SessionIdleTimeout closes a session that sent no request for that
	// long (DefaultSessionIdleTimeout when zero; negative: never).
	SessionIdleTimeout time.Duration
	// MaxSessions caps the sessions open at once (DefaultMaxSessions when
	// zero; negative: none): a new client past it gets an error.
	MaxSessions int
	// ReadTimeout bounds the time a request body may take to arrive
	// (DefaultReadTimeout when zero; negative: none).
	ReadTimeout time.Duration
}

func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.SessionIdleTimeout == 0 {
		o.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.ReadTimeout == 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	return o
}

// HTTPHandler serves the streamable HTTP transport with o's checks and
// limits.
func (s *Server) HTTPHandler(o HTTPOptions) http.Handler {
	o = o.withDefaults()
	so := &sdk.StreamableHTTPOptions{
		// Larger bodies are answered before the SDK (serveLarge).
		MaxRequestBodyBytes: maxMessageBytes + 1,
	}
	if o.SessionIdleTimeout > 0 {
		so.SessionTimeout = o.SessionIdleTimeout
	}
	h := &httpFront{
		srv: s, opts: o,
		next:        sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.server }, so),
		largeBodies: make(chan struct{}, 2),
	}
	for _, origin := range o.Origins {
		h.origins = append(h.origins, strings.TrimRight(strings.ToLower(origin), "/"))
	}
	return h
}

// ServeHTTP serves the HTTP transport on ln until ctx ends, then closes
// every client's session (VMs, browser contexts, persistent processes).
// It watches the extensions when Options.Watch is set.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, o HTTPOptions) error {
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	s.WatchExtensions(wctx)
	hs := &http.Server{
		Handler:           s.HTTPHandler(o),
		ReadHeaderTimeout: 10 * time.Second,
		// A connection kept alive but unused is closed after a while.
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
		// Ending the MCP sessions ends their open streams, so that the
		// shutdown does not wait for them.
		for ss := range s.server.Sessions() {
			_ = ss.Close()
		}
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = hs.Shutdown(sctx)
		cancel()
	}
	cerr := s.Close()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return cerr
}

// httpFront is the handler in front of the SDK's.
type httpFront struct {
	srv     *Server
	opts    HTTPOptions
	next    http.Handler
	origins []string

	// newSessions counts requests that may open a session and are being
	// served (see admit).
	mu          sync.Mutex
	newSessions int

	// largeBodies lets two large bodies be read at a time.
	largeBodies chan struct{}
	// release coalesces returning memory after large bodies.
	releaseMu    sync.Mutex
	releaseTimer *time.Timer
}

func (h *httpFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin, ok := r.Header["Origin"]; ok && !h.originAllowed(strings.Join(origin, ",")) {
		// The MCP specification: an invalid Origin MUST get 403.
		writeRPCError(w, http.StatusForbidden, nil, fmt.Sprintf("Origin %q is not allowed: loopback origins are, and those given with --http-origins ([mcp] httpOrigins)", strings.Join(origin, ",")))
		return
	}
	if h.opts.Token != "" && !bearerOK(r.Header.Get("Authorization"), h.opts.Token) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="ferridriver mcp"`)
		http.Error(w, "401 unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
		return
	}
	hasBody := r.Body != nil && r.Body != http.NoBody
	if hasBody {
		if r.ContentLength > largeBody {
			select {
			case h.largeBodies <- struct{}{}:
				defer func() { <-h.largeBodies }()
			case <-r.Context().Done():
				return
			}
		}
		body := &timedBody{ReadCloser: r.Body}
		if h.opts.ReadTimeout > 0 {
			body.rc = http.NewResponseController(w)
			if body.rc.SetReadDeadline(time.Now().Add(h.opts.ReadTimeout)) != nil {
				body.rc = nil
			}
		}
		r.Body = body
		defer func() {
			// A body cut by the deadline keeps it: what is left of it is
			// not waited for, and the connection is closed.
			if body.n > largeBody {
				h.releaseSoon()
			}
		}()
	}
	if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
		release, ok := h.admit(w, r)
		if !ok {
			return
		}
		// Once the answer starts, the session it opened (if any) is
		// counted among the server's: the request no longer is.
		aw := &answerWriter{ResponseWriter: w, onAnswer: release}
		defer aw.answered()
		w = aw
	}
	if hasBody && r.Method == http.MethodPost {
		if id := r.Header.Get("Mcp-Session-Id"); id != "" && !h.sessionExists(id) {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		if h.serveLarge(w, r) {
			return
		}
	}
	h.next.ServeHTTP(w, r)
}

// sessionExists reports whether id is an open MCP session.
func (h *httpFront) sessionExists(id string) bool {
	for ss := range h.srv.server.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// admit counts a request that may open a session (a POST without
// Mcp-Session-Id: an initialize) against MaxSessions, or answers it with
// a JSON-RPC error that says the server is full.
func (h *httpFront) admit(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	if h.opts.MaxSessions < 0 {
		return func() {}, true
	}
	h.mu.Lock()
	// Sessions that never initialized (a probe such as SEP-2575's
	// server/discover, answered and closed) are not counted.
	open := 0
	for ss := range h.srv.server.Sessions() {
		if ss.InitializeParams() != nil {
			open++
		}
	}
	if open+h.newSessions >= h.opts.MaxSessions {
		h.mu.Unlock()
		var id *json.RawMessage
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		if b, err := io.ReadAll(io.LimitReader(r.Body, 64<<10)); err == nil && json.Unmarshal(b, &req) == nil && len(req.ID) > 0 {
			id = &req.ID
		}
		msg := fmt.Sprintf("the server has %d MCP sessions open, its limit (--max-sessions, [mcp] maxSessions): "+
			"try again once a client has disconnected (DELETE) or an idle session expired", h.opts.MaxSessions)
		if h.opts.SessionIdleTimeout > 0 {
			msg += fmt.Sprintf(" (after %s without requests)", h.opts.SessionIdleTimeout)
		}
		// 200 with a JSON-RPC error: every client SDK shows its message
		// (the Go SDK drops the body of a 503).
		writeRPCError(w, http.StatusOK, id, msg)
		return nil, false
	}
	h.newSessions++
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		h.newSessions--
		h.mu.Unlock()
	}, true
}

// answerWriter calls onAnswer (once) when the answer starts, or when the
// handler ends without one.
type answerWriter struct {
	http.ResponseWriter
	onAnswer func()
	done     bool
}

func (a *answerWriter) answered() {
	if !a.done {
		a.done = true
		a.onAnswer()
	}
}

func (a *answerWriter) WriteHeader(code int) {
	a.ResponseWriter.WriteHeader(code)
	a.answered()
}

func (a *answerWriter) Write(b []byte) (int, error) {
	n, err := a.ResponseWriter.Write(b)
	a.answered()
	return n, err
}

// Flush lets streamed answers through.
func (a *answerWriter) Flush() {
	if f, ok := a.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the connection's writer.
func (a *answerWriter) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// releaseSoon returns the memory of large bodies to the system shortly
// after the last one's request is done (the collector alone keeps the
// heap they grew for a long time).
func (h *httpFront) releaseSoon() {
	h.releaseMu.Lock()
	defer h.releaseMu.Unlock()
	if h.releaseTimer != nil {
		h.releaseTimer.Reset(100 * time.Millisecond)
		return
	}
	h.releaseTimer = time.AfterFunc(100*time.Millisecond, func() {
		h.releaseMu.Lock()
		h.releaseTimer = nil
		h.releaseMu.Unlock()
		releaseMemory()
	})
}

// originAllowed reports whether a browser page at origin may use the
// server: a loopback origin (http://localhost:3000, http://127.0.0.1,
// http://[::1]:8080) or one of Origins. "null" (a sandboxed or file page)
// and others may not.
func (h *httpFront) originAllowed(origin string) bool {
	o := strings.TrimRight(strings.ToLower(strings.TrimSpace(origin)), "/")
	for _, a := range h.origins {
		if a == "*" || a == o {
			return true
		}
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" || u.User != nil {
		return false
	}
	return IsLoopback(u.Hostname())
}

// IsLoopback reports whether host (a name or an address) is the local
// machine's loopback: localhost, 127.0.0.0/8, ::1.
func IsLoopback(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// bearerOK reports whether an Authorization header carries token: the
// scheme is case-insensitive (RFC 7235), the token compared in constant
// time.
func bearerOK(header, token string) bool {
	scheme, cred, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(cred)), []byte(token)) == 1
}

// writeRPCError answers with a JSON-RPC error (id nil: null, for a
// request whose id is unknown).
func writeRPCError(w http.ResponseWriter, status int, id *json.RawMessage, msg string) {
	resp := map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32000, "message": msg}}
	if id != nil {
		resp["id"] = *id
	}
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(resp)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// timedBody is a request body read under a deadline for the whole body;
// the deadline is lifted once it is read whole (a response may then
// stream for as long as its call runs). n counts the bytes read.
type timedBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	n    int64
	done bool
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	if err == io.EOF {
		b.clearDeadline()
	}
	return n, err
}

func (b *timedBody) clearDeadline() {
	if b.rc != nil && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
}
