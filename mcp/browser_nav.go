package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// Navigation: browser_navigate, browser_navigate_back,
// browser_navigate_forward.

type navigateArgs struct {
	common
	snapArg
	URL string `json:"url"`
}

type historyArgs struct {
	common
	snapArg
}

func (s *Server) addNavTools() {
	s.browserTool(&sdk.Tool{
		Name:        "browser_navigate",
		Description: "Opens a URL (relative: to baseURL) in the current tab.",
		InputSchema: schema([]string{"url"}, map[string]any{"url": str}),
		Annotations: annNavigate,
	}, func() any { return &navigateArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*navigateArgs)
		if in.URL == "" {
			return errorResult("browser_navigate: url is required"), nil
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		defer heartbeat(ctx, "navigating to "+in.URL)()
		return textResult(ss.Navigate(ctx, in.URL, mode))
	})
	for _, h := range []struct{ name, which, desc string }{
		{"browser_navigate_back", "back", "Goes back in the tab's history."},
		{"browser_navigate_forward", "forward", "Goes forward in the tab's history."},
		{"browser_reload", "reload", "Reloads the page."},
	} {
		which := h.which
		s.browserTool(&sdk.Tool{Name: h.name, Description: h.desc,
			InputSchema: schema(nil), Annotations: annNavigate,
		}, func() any { return &historyArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
			mode, err := a.(*historyArgs).mode()
			if err != nil {
				return nil, err
			}
			return textResult(ss.History(ctx, which, mode))
		})
	}
}
