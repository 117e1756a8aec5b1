package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// browser_annotate (@playwright/mcp's devtools group): the user draws
// boxes with notes on the page itself; the agent gets the annotated
// screenshot, the snapshot and each box with its note and elements.

// defaultAnnotateWait is how long browser_annotate waits for Done.
const defaultAnnotateWait = 5 * time.Minute

type annotateArgs struct {
	common
	Timeout float64 `json:"timeout"`
}

func (s *Server) addAnnotateTool() {
	s.browserTool(&sdk.Tool{
		Name:        "browser_annotate",
		Description: "Lets the user draw boxes with notes on the page, until Done (timeout: seconds, default 300); returns the annotated screenshot, the snapshot and the boxes.",
		InputSchema: schema(nil, map[string]any{"timeout": number}), Annotations: annRead,
	}, func() any { return &annotateArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		wait := defaultAnnotateWait
		if t := a.(*annotateArgs).Timeout; t > 0 {
			wait = time.Duration(t * float64(time.Second))
		}
		stop := heartbeat(ctx, "waiting for the user's annotations (Done on the page)")
		res, err := ss.Annotate(ctx, wait)
		stop()
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d annotation(s) on %s:\n", len(res.Annotations), res.URL)
		for i, an := range res.Annotations {
			fmt.Fprintf(&b, "%d. box x=%.0f y=%.0f w=%.0f h=%.0f: %q\n", i+1, an.X, an.Y, an.Width, an.Height, an.Note)
			for _, el := range an.Elements {
				fmt.Fprintf(&b, "   %s\n", el)
			}
		}
		fmt.Fprintf(&b, "### Snapshot\n%s", res.Snapshot)
		return &sdk.CallToolResult{Content: []sdk.Content{
			&sdk.TextContent{Text: b.String()},
			&sdk.ImageContent{Data: res.Image, MIMEType: "image/png"},
		}}, nil
	})
}
