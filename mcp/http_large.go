package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Oversized messages over HTTP. A tools/call whose arguments are over
// MaxArgumentBytes is refused with a tool error whatever its size (up to
// MaxFrameBytes, the stdio line limit), as over stdio. Decoding such a
// body in the SDK took seconds and several times its size in memory (8
// bodies of 30 MiB: 1.9 GB), so a body over maxMessageBytes never
// reaches it: its id, method and tool name are read, its large values
// only measured, and it is answered here.

// maxMessageBytes is the largest body handed to the SDK: any call with
// arguments within MaxArgumentBytes fits.
const maxMessageBytes = MaxArgumentBytes + 64<<10

// serveLarge reads r's body up to maxMessageBytes; when it is no longer,
// the SDK gets it (as read) and serveLarge returns false; otherwise it
// answers the request itself and returns true.
func (h *httpFront) serveLarge(w http.ResponseWriter, r *http.Request) bool {
	head, err := io.ReadAll(io.LimitReader(r.Body, maxMessageBytes+1))
	if err != nil {
		http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
		return true
	}
	if len(head) <= maxMessageBytes {
		r.Body = io.NopCloser(bytes.NewReader(head))
		return false
	}
	// The rest is read into the same buffer, up to MaxFrameBytes; the
	// buffer goes with the request (releaseSoon returns the memory).
	buf := bytes.NewBuffer(head)
	if r.ContentLength > 0 && r.ContentLength <= MaxFrameBytes {
		buf.Grow(int(r.ContentLength) - len(head) + 1)
	}
	head = nil
	if _, err := buf.ReadFrom(io.LimitReader(r.Body, MaxFrameBytes+1-int64(buf.Len()))); err != nil {
		http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
		return true
	}
	var msg oversized
	if buf.Len() > MaxFrameBytes {
		writeRPCError(w, http.StatusRequestEntityTooLarge, nil, fmt.Sprintf("the request body is over %d bytes (%d MiB)", MaxFrameBytes, MaxFrameBytes>>20))
		return true
	}
	size := buf.Len()
	if err := json.Unmarshal(buf.Bytes(), &msg); err != nil {
		writeRPCError(w, http.StatusBadRequest, nil, "the request body is not one JSON-RPC message: "+err.Error())
		return true
	}
	switch {
	case msg.Method == "tools/call" && msg.ID != nil:
		// The same tool error as argumentCapMiddleware's.
		writeRPCResult(w, msg.ID, errorResult(argumentsTooLarge(msg.Params.Name, int(msg.Params.Arguments))))
	case msg.ID == nil:
		// A notification or a response: nothing to answer.
		w.WriteHeader(http.StatusAccepted)
	default:
		writeRPCError(w, http.StatusOK, &msg.ID, fmt.Sprintf("a %s request of %d bytes: the limit for one message is %d bytes", msg.Method, size, maxMessageBytes))
	}
	return true
}

// oversized is what is kept of an oversized message: its large values
// are only measured (rawSize), never copied.
type oversized struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string  `json:"name"`
		Arguments rawSize `json:"arguments"`
	} `json:"params"`
}

// rawSize is the size of a JSON value, which is dropped.
type rawSize int

func (s *rawSize) UnmarshalJSON(b []byte) error {
	*s = rawSize(len(b))
	return nil
}

// argumentsTooLarge is the tool error of a call whose arguments are n
// bytes.
func argumentsTooLarge(tool string, n int) string {
	return fmt.Sprintf("the arguments of %s are %d bytes of JSON; the limit for one call is %d bytes (%d MiB): pass a file path or a URL instead", tool, n, MaxArgumentBytes, MaxArgumentBytes>>20)
}

// writeRPCResult answers with a JSON-RPC result.
func writeRPCResult(w http.ResponseWriter, id json.RawMessage, result any) {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}
