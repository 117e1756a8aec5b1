package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameBytes is the longest line the stdio transport reads. A longer
// request is answered with an invalid-request error and skipped.
const MaxFrameBytes = 32 << 20

// StdioTransport is MCP's newline-delimited JSON-RPC over a reader and a
// writer (stdin and stdout), hardened against careless clients: a line
// that is not JSON gets a -32700 parse error, one that is JSON but not a
// JSON-RPC 2.0 message (a batch, a bare value, a wrong "jsonrpc", an id
// that is neither a string nor a number, a request without a method) gets
// -32600 invalid request, each with the request's id when it has a usable
// one and null otherwise, and the connection carries on. The SDK's own
// stdio transport closes the session on the first such line.
type StdioTransport struct {
	In  io.ReadCloser
	Out io.Writer
}

// Connect implements sdk.Transport.
func (t *StdioTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &lineConn{out: t.Out, in: t.In, lines: make(chan lineOrErr), closed: make(chan struct{})}
	go c.readLoop(bufio.NewReaderSize(t.In, 64<<10))
	return c, nil
}

type lineOrErr struct {
	line []byte
	err  error
}

type lineConn struct {
	in     io.Closer
	out    io.Writer
	writeM sync.Mutex
	lines  chan lineOrErr
	closed chan struct{}
	once   sync.Once
	// initialized is set once an initialize request went through; Read
	// goroutine only.
	initialized bool
}

// readLoop sends each line of r (without its newline) to c.lines; a line
// over MaxFrameBytes is sent as a nil line, its bytes skipped.
func (c *lineConn) readLoop(r *bufio.Reader) {
	for {
		var line []byte
		tooLong := false
		for {
			part, isPrefix, err := r.ReadLine()
			if err != nil {
				if len(line) > 0 || tooLong {
					break // the last line had no newline: serve it, then the error
				}
				c.send(lineOrErr{err: err})
				return
			}
			if !tooLong {
				if len(line)+len(part) > MaxFrameBytes {
					tooLong, line = true, nil
				} else {
					line = append(line, part...)
				}
			}
			if !isPrefix {
				break
			}
		}
		if tooLong {
			line = nil
		} else if line == nil {
			line = []byte{}
		}
		if !c.send(lineOrErr{line: line}) {
			return
		}
	}
}

func (c *lineConn) send(v lineOrErr) bool {
	select {
	case c.lines <- v:
		return true
	case <-c.closed:
		return false
	}
}

// Read implements sdk.Connection: the next valid message, answering the
// invalid ones itself.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var v lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case v = <-c.lines:
		}
		if v.err != nil {
			return nil, v.err
		}
		if v.line == nil {
			c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid request: the message is longer than %d bytes", MaxFrameBytes))
			continue
		}
		line := bytes.TrimSpace(v.line)
		if len(line) == 0 {
			continue
		}
		msg, id, code, why := decodeFrame(line)
		if req, ok := msg.(*jsonrpc.Request); ok && !c.initialized {
			switch {
			case req.Method == "initialize":
				c.initialized = true
			case req.Method == "ping":
			case req.IsCall():
				c.reject(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid request: %q before initialize (send initialize first)", req.Method))
				continue
			default:
				continue // a notification before initialize: nothing to do
			}
		}
		if msg != nil {
			return msg, nil
		}
		if code != 0 {
			c.reject(id, code, why)
		}
	}
}

// decodeFrame checks one line. It returns the message, or the error to
// answer (code 0: none, e.g. a malformed response from the client, which
// has nobody to answer).
func decodeFrame(line []byte) (msg jsonrpc.Message, id json.RawMessage, code int64, why string) {
	if !json.Valid(line) {
		return nil, nil, jsonrpc.CodeParseError, "Parse error: the line is not valid JSON"
	}
	if line[0] != '{' {
		if line[0] == '[' {
			return nil, nil, jsonrpc.CodeInvalidRequest, "Invalid request: batches are not supported"
		}
		return nil, nil, jsonrpc.CodeInvalidRequest, "Invalid request: a message must be a JSON object"
	}
	var f struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, nil, jsonrpc.CodeInvalidRequest, "Invalid request: " + err.Error()
	}
	if usableID(f.ID) {
		id = f.ID
	}
	defer func() {
		if msg != nil {
			id = f.ID // the caller may answer a valid message itself
		}
	}()
	switch {
	case f.JSONRPC == nil || *f.JSONRPC != "2.0":
		return nil, id, jsonrpc.CodeInvalidRequest, `Invalid request: "jsonrpc" must be "2.0"`
	case f.ID != nil && !usableID(f.ID):
		return nil, nil, jsonrpc.CodeInvalidRequest, `Invalid request: "id" must be a string or a number`
	case f.Method == nil && (f.Result != nil || f.Error != nil):
		if f.ID == nil {
			return nil, nil, 0, ""
		}
	case f.Method == nil:
		return nil, id, jsonrpc.CodeInvalidRequest, `Invalid request: "method" is missing`
	case f.Method[0] != '"':
		return nil, id, jsonrpc.CodeInvalidRequest, `Invalid request: "method" must be a string`
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		if f.Method == nil {
			return nil, nil, 0, "" // a malformed response: nothing to answer
		}
		return nil, id, jsonrpc.CodeInvalidRequest, "Invalid request: " + err.Error()
	}
	return m, nil, 0, ""
}

// usableID reports whether raw is a JSON-RPC id: a string or a number.
func usableID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// reject writes an error response with id (null when nil).
func (c *lineConn) reject(id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	c.writeLine(b)
}

// Write implements sdk.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(b)
}

func (c *lineConn) writeLine(b []byte) error {
	c.writeM.Lock()
	defer c.writeM.Unlock()
	select {
	case <-c.closed:
		return errors.New("connection closed")
	default:
	}
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Close implements sdk.Connection.
func (c *lineConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		c.in.Close()
	})
	return nil
}

// SessionID implements sdk.Connection.
func (c *lineConn) SessionID() string { return "" }
