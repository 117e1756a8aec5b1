package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// @playwright/mcp's devtools recording of the user: what the user does by
// hand in the session's browser, returned as Playwright code and as steps.

type noArgs struct {
	common
}

func (s *Server) addUserRecordingTools() {
	s.browserTool(&sdk.Tool{
		Name:        "browser_start_recording",
		Description: "Records what the user does by hand in the browser; browser_stop_recording returns it.",
		InputSchema: schema(nil), Annotations: annRead,
	}, func() any { return &noArgs{} }, func(ctx context.Context, ss *browsing.Session, _ any) (*sdk.CallToolResult, error) {
		res, err := ss.StartRecording(ctx)
		if err != nil {
			return nil, err
		}
		return textOnly(res.Output), nil
	})
	s.browserTool(&sdk.Tool{
		Name:        "browser_stop_recording",
		Description: "Stops the recording: the user's actions as Playwright code and as steps (added to session_export).",
		InputSchema: schema(nil), Annotations: annRead,
	}, func() any { return &noArgs{} }, func(ctx context.Context, ss *browsing.Session, _ any) (*sdk.CallToolResult, error) {
		res, err := ss.StopRecording(ctx)
		if err != nil {
			return nil, err
		}
		return textOnly(res.Output), nil
	})
}
