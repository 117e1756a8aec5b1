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

// toolResult turns a tool's outcome into an MCP result:
//   - a string becomes one text block;
//   - undefined becomes the text "ok";
//   - an MCP-shaped {content: [...], isError?, structuredContent?} passes
//     through unchanged;
//   - any other value becomes its JSON as text and, when it is an object,
//     structuredContent too;
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
	var s string
	if json.Unmarshal(res, &s) == nil {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	if r := passThrough(res); r != nil {
		return r
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, res, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(res)
	}
	out := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: pretty.String()}}}
	if bytes.HasPrefix(bytes.TrimSpace(res), []byte("{")) {
		out.StructuredContent = res
	}
	return out
}

// passThrough decodes an MCP-shaped result: an object whose keys are
// among content (an array, required), isError, structuredContent, _meta.
func passThrough(res json.RawMessage) *sdk.CallToolResult {
	var m map[string]json.RawMessage
	if json.Unmarshal(res, &m) != nil {
		return nil
	}
	c, ok := m["content"]
	if !ok || !bytes.HasPrefix(bytes.TrimSpace(c), []byte("[")) {
		return nil
	}
	for k := range m {
		switch k {
		case "content", "isError", "structuredContent", "_meta":
		default:
			return nil
		}
	}
	var r sdk.CallToolResult
	if err := json.Unmarshal(res, &r); err != nil {
		return nil
	}
	return &r
}

// describeFailure splits a failure into its message (first) and detail.
func describeFailure(name string, err error, limit time.Duration) (msg, detail string) {
	var je *jsbridge.JSError
	var ae *jsbridge.ArgsError
	var tte *jsbridge.ToolTimeoutError
	var te *jsbridge.TimeoutError
	switch {
	case errors.As(err, &ae):
		return ae.Error(), "The handler was not called: fix the arguments to match the tool's inputSchema (see tools/list)."
	case errors.As(err, &je):
		return je.Error(), je.Stack
	case errors.As(err, &tte):
		return tte.Error(), fmt.Sprintf("The tool declares timeoutMs %d. Its pending work was abandoned and its capabilities revoked (running commands were killed).", tte.Ms)
	case errors.As(err, &te):
		return fmt.Sprintf("tool %q did not finish within the server's limit of %s", name, limit),
			"The call outlived the server's --timeout. Its work was abandoned and the script VM was rebuilt for the next call (persistent processes keep running)."
	}
	return err.Error(), ""
}
