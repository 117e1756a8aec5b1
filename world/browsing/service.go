// Package browsing is the browser-session service of agents: named
// sessions, each its own browser context with its tabs, the refs of the
// latest aria snapshot of each tab, the console and network logs, dialogs,
// and the recording of every action as Playwright code and as a built-in
// Gherkin step. The MCP server's browser tools map onto it (mcp/browser_*.go);
// it knows nothing of MCP.
//
// Sessions share one browser (a world.Launcher); calls on one session run
// one at a time, different sessions in parallel.
package browsing

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world"
)

// DefaultSession is the name of the session a call without one uses.
const DefaultSession = "default"

// Service owns the agent sessions of one server.
type Service struct {
	l       *world.Launcher
	baseURL string
	// dir and files are the agents' filesystem grant (SetFileAccess).
	dir   string
	files *capability.FSPolicy

	mu       sync.Mutex
	sessions map[sessionKey]*Session
	closed   bool
	// contexts counts the browser contexts open (sessions' and tracked
	// ones), capped at maxContexts (see SetContextLimit).
	contexts, maxContexts int
	limitHint             string
	// starting is closed when the launch Start began is over; stopStart
	// abandons it (Close).
	starting   chan struct{}
	stopStart  context.CancelFunc
	launchTook time.Duration
}

type sessionKey struct{ client, name string }

// NewService returns a service whose sessions' contexts come from l (the
// caller keeps owning l and closes it after the service).
func NewService(l *world.Launcher) *Service {
	return &Service{l: l, baseURL: l.Config().BaseURL, sessions: map[sessionKey]*Session{}}
}

// ErrClosed is returned by a closed service.
var ErrClosed = errors.New("browsing: the service is closed")

// Session returns client's session name (DefaultSession when ""),
// creating it. client separates the clients of one server (HTTP): two
// clients never share a session.
func (s *Service) Session(client, name string) (*Session, error) {
	if name == "" {
		name = DefaultSession
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	k := sessionKey{client, name}
	if ss := s.sessions[k]; ss != nil {
		return ss, nil
	}
	ss := &Session{svc: s, name: name, client: client, turn: make(chan struct{}, 1)}
	s.sessions[k] = ss
	return ss, nil
}

// Names lists client's sessions.
func (s *Service) Names(client string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k := range s.sessions {
		if k.client == client {
			out = append(out, k.name)
		}
	}
	sort.Strings(out)
	return out
}

// CloseClient closes every session of client (its browser contexts).
func (s *Service) CloseClient(client string) {
	s.mu.Lock()
	var list []*Session
	for k, ss := range s.sessions {
		if k.client == client {
			list = append(list, ss)
			delete(s.sessions, k)
		}
	}
	s.mu.Unlock()
	for _, ss := range list {
		ss.close()
	}
}

// Close closes every session; the service refuses new ones.
func (s *Service) Close() error {
	s.mu.Lock()
	s.closed = true
	if s.stopStart != nil {
		s.stopStart()
	}
	list := make([]*Session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		list = append(list, ss)
	}
	s.sessions = map[sessionKey]*Session{}
	s.mu.Unlock()
	for _, ss := range list {
		ss.close()
	}
	return nil
}

// Session is one agent session: a browser context (created on first use),
// its tabs, logs and recording.
type Session struct {
	svc    *Service
	name   string
	client string
	turn   chan struct{} // held by the call running on this session

	// Held under turn:
	ws    *world.Session
	bctx  playwright.BrowserContext
	tabs  []*tab
	cur   int
	steps []Step
	// pending is an action blocked by a dialog it opened.
	pending *pendingAction
	// pageCh is signalled when the context opens a page.
	pageCh chan struct{}
	// routes are the context's mocks by pattern (storage.go).
	routes map[string]Mock
	// userRec is the recording of the user's actions (user_record.go),
	// set up in the context userRecCtx.
	userRec    *userRecording
	userRecCtx playwright.BrowserContext

	// Written by the browser's event handlers, so under logMu:
	logMu    sync.Mutex
	console  []ConsoleMessage
	network  []*NetworkRequest
	netByReq map[playwright.Request]*NetworkRequest
	dialog   playwright.Dialog
	dialogCh chan struct{}
	// chooser is a file chooser an action opened, waiting for
	// browser_file_upload (modal.go).
	chooser playwright.FileChooser
	// consoleMark and networkMark are where the current tab's last
	// navigation started in console and network.
	consoleMark, networkMark int
	// liveWS is ws, for Explain from any goroutine.
	liveWS *world.Session
	// video is the session's video recording (nil: none), deco the
	// decorations drawn for it (video.go); aim is the element the call's
	// action aims at (the first one it located), for its decorations.
	// Under turn.
	video *video
	deco  decorations
	aim   playwright.Locator
	// ctxClosed is set when the context closed other than by reset
	// (context.close() in a script): the next call opens a fresh one.
	// Under turn (the flag itself is set from Playwright's goroutine).
	ctxClosed *atomic.Bool
}

// popupWait is how long a click waits for a tab it may have opened (a
// target=_blank link's tab appears shortly after the click returns), so
// that the result can say so.
const popupWait = 300 * time.Millisecond

// knownTabWait is how long a click that is known to open a tab (a
// target=_blank link) waits for it: on a loaded machine the tab may take
// seconds to appear.
const knownTabWait = 5 * time.Second

// Name is the session's name.
func (ss *Session) Name() string { return ss.name }

type tab struct {
	page playwright.Page
	refs *refs
	last *tree // the latest snapshot (nil before the first)
	gen  int   // its Playwright generation
	// url and title last reported to the agent.
	url, title string
	// navError is why the last navigation failed, shown with the
	// browser's error page (which headless Chromium leaves empty).
	navError string
}

type pendingAction struct {
	done <-chan error
	step int // index in steps where a dialog step is inserted
}

// ConsoleMessage is one console message of a session's pages.
type ConsoleMessage struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Location string `json:"location,omitempty"`
}

// NetworkRequest is one request made by a session's pages.
type NetworkRequest struct {
	Method       string `json:"method"`
	URL          string `json:"url"`
	ResourceType string `json:"resourceType"`
	Status       int    `json:"status,omitempty"`
	Failure      string `json:"failure,omitempty"`
	// req is the request, for its headers and bodies (RequestDetails).
	req playwright.Request
}

const maxLog = 1000

// defaultActionTimeout (ms) applies when [browser] actionTimeout is unset.
const defaultActionTimeout = 10000

// Do runs fn with the session to itself: calls on one session run one at
// a time. ctx ends the wait for the turn.
func (ss *Session) Do(ctx context.Context, fn func() error) error {
	select {
	case ss.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-ss.turn }()
	ss.aim = nil
	// The video follows the tab the call left current.
	defer ss.followVideo()
	return fn()
}

// close ends the session's context (waiting for a running call).
func (ss *Session) close() {
	ss.turn <- struct{}{}
	defer func() { <-ss.turn }()
	ss.stopVideo()
	ss.reset()
}

// reset drops the context and everything tied to it (not the recording).
func (ss *Session) reset() {
	if ss.ws != nil {
		ws := ss.ws
		go func() { _, _ = ws.Close(false) }()
		ss.svc.releaseContext()
	}
	ss.ws, ss.bctx, ss.tabs, ss.cur, ss.pending, ss.routes = nil, nil, nil, 0, nil, nil
	ss.pageCh = nil
	ss.logMu.Lock()
	ss.dialog, ss.liveWS, ss.chooser = nil, nil, nil
	ss.logMu.Unlock()
}

// ensure creates the context and first page when needed, replaces them
// after a browser crash, and takes in the pages opened since the last
// call. Under turn.
func (ss *Session) ensure(ctx context.Context) (*tab, error) {
	if ss.ws != nil && (ss.ws.Crashed() || ss.ctxClosed.Load()) {
		ss.reset()
	}
	if ss.ws == nil {
		if err := ss.svc.reserveContext(); err != nil {
			return nil, err
		}
		ws := ss.svc.l.NewSession(0, "mcp-"+ss.name)
		page, err := ws.Page(ctx)
		if err != nil {
			_, _ = ws.Close(false)
			ss.svc.releaseContext()
			return nil, ws.Explain(err)
		}
		bctx, err := ws.Context(ctx)
		if err != nil {
			_, _ = ws.Close(false)
			ss.svc.releaseContext()
			return nil, err
		}
		ss.ws, ss.bctx = ws, bctx
		closed := &atomic.Bool{}
		ss.ctxClosed = closed
		bctx.OnClose(func(playwright.BrowserContext) { closed.Store(true) })
		if ss.svc.l.Config().ActionTimeout == nil {
			// An agent is better served by a clear error soon than by
			// Playwright's 30 s wait on a wrong element.
			bctx.SetDefaultTimeout(defaultActionTimeout)
		}
		ss.logMu.Lock()
		ss.netByReq = map[playwright.Request]*NetworkRequest{}
		ss.dialogCh = make(chan struct{}, 16)
		ss.liveWS = ws
		ss.logMu.Unlock()
		pageCh := make(chan struct{}, 1)
		ss.pageCh = pageCh
		bctx.OnPage(func(p playwright.Page) {
			select {
			case pageCh <- struct{}{}:
			default:
			}
		})
		ss.watch(page)
		ss.tabs = []*tab{{page: page, refs: newRefs()}}
		ss.cur = 0
	}
	ss.syncTabs()
	if len(ss.tabs) == 0 {
		p, err := ss.bctx.NewPage()
		if err != nil {
			return nil, ss.ws.Explain(err)
		}
		ss.syncTabs()
		if len(ss.tabs) == 0 {
			ss.tabs = []*tab{{page: p, refs: newRefs()}}
		}
		ss.cur = len(ss.tabs) - 1
	}
	return ss.tabs[ss.cur], nil
}

// syncTabs adds the pages opened since the last call (popups, target
// _blank links, pages scripts opened) and drops closed ones, keeping the
// current tab when it is still open.
func (ss *Session) syncTabs() {
	for _, p := range ss.bctx.Pages() {
		known := false
		for _, t := range ss.tabs {
			if t.page == p {
				known = true
			}
		}
		if !known {
			ss.watch(p)
			ss.tabs = append(ss.tabs, &tab{page: p, refs: newRefs()})
		}
	}
	var cur *tab
	if ss.cur < len(ss.tabs) {
		cur = ss.tabs[ss.cur]
	}
	open := ss.tabs[:0]
	for _, t := range ss.tabs {
		if !t.page.IsClosed() {
			open = append(open, t)
		}
	}
	ss.tabs = open
	ss.cur = 0
	for i, t := range ss.tabs {
		if t == cur {
			ss.cur = i
		}
	}
	if cur != nil && cur.page.IsClosed() && len(ss.tabs) > 0 {
		ss.cur = len(ss.tabs) - 1
	}
}

// watch records p's console messages, requests and dialogs.
func (ss *Session) watch(p playwright.Page) {
	p.OnConsole(func(m playwright.ConsoleMessage) {
		loc := ""
		if l := m.Location(); l != nil && l.URL != "" {
			loc = fmt.Sprintf("%s:%d", l.URL, l.LineNumber)
		}
		ss.logMu.Lock()
		if len(ss.console) < maxLog {
			ss.console = append(ss.console, ConsoleMessage{Type: m.Type(), Text: m.Text(), Location: loc})
		}
		ss.logMu.Unlock()
	})
	p.OnPageError(func(err error) {
		ss.logMu.Lock()
		if len(ss.console) < maxLog {
			ss.console = append(ss.console, ConsoleMessage{Type: "error", Text: "uncaught: " + err.Error()})
		}
		ss.logMu.Unlock()
	})
	p.OnRequest(func(r playwright.Request) {
		ss.logMu.Lock()
		if r.IsNavigationRequest() && r.Frame() == p.MainFrame() {
			// A new document: "since the last navigation" starts here.
			ss.consoleMark, ss.networkMark = len(ss.console), len(ss.network)
		}
		if len(ss.network) < maxLog {
			nr := &NetworkRequest{Method: r.Method(), URL: r.URL(), ResourceType: r.ResourceType(), req: r}
			ss.network = append(ss.network, nr)
			ss.netByReq[r] = nr
		}
		ss.logMu.Unlock()
	})
	p.OnResponse(func(r playwright.Response) {
		ss.logMu.Lock()
		if nr := ss.netByReq[r.Request()]; nr != nil {
			nr.Status = r.Status()
			delete(ss.netByReq, r.Request())
		}
		ss.logMu.Unlock()
	})
	p.OnRequestFailed(func(r playwright.Request) {
		ss.logMu.Lock()
		if nr := ss.netByReq[r]; nr != nil {
			if f := r.Failure(); f != nil {
				nr.Failure = f.Error()
			} else {
				nr.Failure = "failed"
			}
			delete(ss.netByReq, r)
		}
		ss.logMu.Unlock()
	})
	ss.watchModal(p)
	// A listener keeps dialogs open until the agent handles them
	// (browser_handle_dialog); without one Playwright dismisses them.
	p.OnDialog(func(d playwright.Dialog) {
		ss.logMu.Lock()
		ss.dialog = d
		ch := ss.dialogCh
		ss.logMu.Unlock()
		select {
		case ch <- struct{}{}:
		default:
		}
	})
}

// openDialog is the dialog waiting for the agent, or nil.
func (ss *Session) openDialog() playwright.Dialog {
	ss.logMu.Lock()
	defer ss.logMu.Unlock()
	return ss.dialog
}

// Steps returns a copy of the session's recording.
func (ss *Session) Steps() []Step {
	return append([]Step(nil), ss.steps...)
}

// Console returns the console messages so far.
func (ss *Session) Console() []ConsoleMessage {
	ss.logMu.Lock()
	defer ss.logMu.Unlock()
	return append([]ConsoleMessage(nil), ss.console...)
}

// Network returns the requests so far.
func (ss *Session) Network() []NetworkRequest {
	ss.logMu.Lock()
	defer ss.logMu.Unlock()
	out := make([]NetworkRequest, len(ss.network))
	for i, n := range ss.network {
		out[i] = *n
	}
	return out
}

// Launcher is the browser the service's sessions run on.
func (s *Service) Launcher() *world.Launcher { return s.l }

// Live returns a world session on this session's current tab, for test
// cases run on the live page (run_bdd). Under turn.
func (ss *Session) Live(ctx context.Context) (*world.Session, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	return ss.ws.Shared(t.page)
}

// PageState is the current tab's URL and title (when changed) and
// snapshot, as an action's result carries them. Under turn.
// A dialog left open (by code that ran on the page) is reported as the
// result's Modal, without a snapshot.
func (ss *Session) PageState(ctx context.Context, mode SnapMode) (*Result, error) {
	if d := ss.openDialog(); d != nil {
		return &Result{Modal: fmt.Sprintf("%s dialog is open: %q; handle it with browser_handle_dialog", article(d.Type()), d.Message())}, nil
	}
	if _, err := ss.current(ctx); err != nil {
		return nil, err
	}
	res := &Result{}
	return res, ss.finish(ctx, res, mode)
}
