package mcp

import (
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// One MCP client, one Session: the stdio client, or one streamable-HTTP
// session (Mcp-Session-Id). A client's Session is made on its first call
// and closed when the client goes away (stdin's end, DELETE, the idle
// timeout, the server's shutdown): its VM, the browser contexts of its
// browser sessions and its persistent processes go with it.

// clientOf returns the Session of the client that sent a request, making
// it on first use.
func (s *Server) clientOf(ss *sdk.ServerSession) (*Session, error) {
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if c := s.clients[ss]; c != nil {
		return c, nil
	}
	s.clientSeq++
	// The key separates the clients' browser sessions; the SDK's session
	// id is empty for stdio and in-memory transports, so a counter makes
	// it unique.
	key := fmt.Sprintf("client-%d", s.clientSeq)
	if ss != nil && ss.ID() != "" {
		key += "-" + ss.ID()
	}
	c := newSession(&s.opts, s.ext, key, s.opts.Browsing)
	s.clients[ss] = c
	if ss != nil {
		go func() {
			_ = ss.Wait()
			s.dropClient(ss)
		}()
	}
	return c, nil
}

// dropClient closes the Session of a client that went away.
func (s *Server) dropClient(ss *sdk.ServerSession) {
	s.clientsMu.Lock()
	c := s.clients[ss]
	delete(s.clients, ss)
	if c != nil {
		s.closing.Add(1)
	}
	s.clientsMu.Unlock()
	if c != nil {
		defer s.closing.Done()
		if err := c.Close(); err != nil {
			fmt.Fprintf(s.opts.Log, "ferridriver mcp: closing a client's session: %v\n", err)
		}
	}
}

// Clients is the number of clients with a Session.
func (s *Server) Clients() int {
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	return len(s.clients)
}

// Close closes every client's Session (VMs, browser contexts, persistent
// processes) and waits for those being closed; the server refuses new
// clients.
func (s *Server) Close() error {
	s.clientsMu.Lock()
	s.closed = true
	list := make([]*Session, 0, len(s.clients))
	for _, c := range s.clients {
		list = append(list, c)
	}
	s.clients = map[*sdk.ServerSession]*Session{}
	s.clientsMu.Unlock()
	var errs []error
	for _, c := range list {
		errs = append(errs, c.Close())
	}
	// Sessions of clients that went away just before are closed too.
	s.closing.Wait()
	return errors.Join(errs...)
}
