package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// MaxResultBytes caps the JSON of one tool result. The official
// TypeScript client refuses a line over 10 MiB and closes the connection;
// a larger result becomes a tool error that says how big it was.
const MaxResultBytes = 4 << 20

// MaxArgumentBytes caps the JSON of one tool call's arguments: a larger
// call is answered with a tool error that says how big it was, before any
// handler sees it (the script VM would hold it twice over).
const MaxArgumentBytes = 4 << 20

// toolResult turns a tool's outcome into an MCP result:
//   - a string becomes one text block;
//   - undefined becomes the text "ok";
//   - an MCP-shaped {content: [...], isError?, structuredContent?} passes
//     through (other keys are ignored; isError is kept);
//   - any other value, null included, becomes its JSON as text, once (no
//     tool declares an outputSchema, so no structuredContent copy);
//   - a failure is isError: true with the message in the first block and
//     the detail (for a thrown error, its stack mapped to the source) in
//     the second.
func toolResult(name string, res json.RawMessage, err error, took time.Duration, limit time.Duration) *sdk.CallToolResult {
	if err != nil {
		msg, detail := describeFailure(name, err, limit)
		detail += fmt.Sprintf("\n\n(tool %s, %d ms)", name, took.Milliseconds())
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}, &sdk.TextContent{Text: strings.TrimLeft(detail, "\n")}}}
	}
	if res == nil {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}
	}
	if len(res) > MaxResultBytes {
		return tooLarge(name, len(res))
	}
	var s string
	if !bytes.Equal(bytes.TrimSpace(res), []byte("null")) && json.Unmarshal(res, &s) == nil {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	if r, perr := passThrough(res); perr != nil {
		return errorResult(fmt.Sprintf("tool %q returned an invalid MCP result: %v", name, perr))
	} else if r != nil {
		return r
	}
	return jsonText(res)
}

// jsonText is a result whose one text block is b, compacted.
func jsonText(b []byte) *sdk.CallToolResult {
	var compact bytes.Buffer
	if json.Compact(&compact, b) != nil {
		compact.Reset()
		compact.Write(b)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: compact.String()}}}
}

// tooLarge is the error result for a value over MaxResultBytes.
func tooLarge(name string, n int) *sdk.CallToolResult {
	return errorResult(fmt.Sprintf("tool %q returned %d bytes of JSON; the limit for one result is %d bytes (%d MiB): return less, or write it to a file and return its path", name, n, MaxResultBytes, MaxResultBytes>>20))
}

// passThrough decodes an MCP-shaped result: an object whose content is an
// array. It returns nil, nil for any other value, and an error when the
// content array holds a block that is not valid (unknown type, a text
// block without text, an image or audio block without data or mimeType).
func passThrough(res json.RawMessage) (*sdk.CallToolResult, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(res, &m) != nil {
		return nil, nil
	}
	c, ok := m["content"]
	if !ok || !bytes.HasPrefix(bytes.TrimSpace(c), []byte("[")) {
		return nil, nil
	}
	var blocks []map[string]any
	if err := json.Unmarshal(c, &blocks); err != nil {
		return nil, fmt.Errorf("content: %v", err)
	}
	for i, b := range blocks {
		if err := checkBlock(b); err != nil {
			return nil, fmt.Errorf("content[%d]: %v", i, err)
		}
	}
	known := map[string]json.RawMessage{"content": c}
	for _, k := range []string{"isError", "structuredContent", "_meta"} {
		if v, ok := m[k]; ok {
			known[k] = v
		}
	}
	b, _ := json.Marshal(known)
	var r sdk.CallToolResult
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// checkBlock reports what a content block lacks.
func checkBlock(b map[string]any) error {
	str := func(k string) bool { v, ok := b[k].(string); return ok && (k == "text" || v != "") }
	switch t, _ := b["type"].(string); t {
	case "text":
		if !str("text") {
			return fmt.Errorf("a text block needs a string \"text\"")
		}
	case "image", "audio":
		if !str("data") || !str("mimeType") {
			return fmt.Errorf("an %s block needs base64 \"data\" and a \"mimeType\"", t)
		}
	case "resource_link":
		if !str("uri") || !str("name") {
			return fmt.Errorf("a resource_link block needs \"uri\" and \"name\"")
		}
	case "resource":
		if _, ok := b["resource"].(map[string]any); !ok {
			return fmt.Errorf("a resource block needs a \"resource\" object")
		}
	default:
		return fmt.Errorf("unknown block type %q (text, image, audio, resource_link, resource)", t)
	}
	return nil
}

// describeFailure splits a failure into its message (first) and detail.
func describeFailure(name string, err error, limit time.Duration) (msg, detail string) {
	var je *jsbridge.JSError
	var ae *jsbridge.ArgsError
	var tte *jsbridge.ToolTimeoutError
	var te *jsbridge.TimeoutError
	var me *MemoryError
	switch {
	case errors.As(err, &ae):
		return ae.Error(), "The handler was not called: fix the arguments to match the tool's inputSchema (see tools/list)."
	case errors.As(err, &je):
		return je.Error(), je.Stack
	case errors.As(err, &tte):
		detail := fmt.Sprintf("The tool declares timeoutMs %d. Its pending work was abandoned and its capabilities revoked (running commands were killed).", tte.Ms)
		if tte.Interrupted {
			detail += " Its JavaScript was still running and was interrupted: the script VM was rebuilt for the next call (globals reset, extensions reloaded; persistent processes keep running)."
		}
		return tte.Error(), detail
	case errors.As(err, &me):
		return fmt.Sprintf("tool %q was stopped: %v", name, me),
			"Its JavaScript was interrupted and the script VM rebuilt for the next call (globals reset, extensions reloaded; persistent processes keep running). Return or hold less data, or write it to a file."
	case errors.As(err, &te):
		return fmt.Sprintf("tool %q did not finish within the server's limit of %s", name, limit),
			"The call outlived the server's --timeout (for extension tools: time without a progress report). Its work was abandoned and the script VM was rebuilt for the next call (persistent processes keep running)."
	}
	return err.Error(), ""
}
