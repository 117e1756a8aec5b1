package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// The page: browser_snapshot, browser_take_screenshot, browser_evaluate,
// browser_console_messages, browser_network_requests, browser_wait_for,
// browser_resize, browser_emulate_media, browser_handle_dialog,
// browser_tabs, browser_close.

type snapshotArgs struct {
	common
	targetArgs
	Depth int `json:"depth"`
}

type screenshotArgs struct {
	common
	targetArgs
	Type     string `json:"type"`
	FullPage bool   `json:"fullPage"`
}

type evaluateArgs struct {
	common
	targetArgs
	Function string `json:"function"`
}

type logArgs struct {
	common
	Level  string `json:"level"`
	Static bool   `json:"static"`
}

type waitArgs struct {
	common
	snapArg
	Time     float64 `json:"time"`
	Text     string  `json:"text"`
	TextGone string  `json:"textGone"`
}

type resizeArgs struct {
	common
	snapArg
	Width  int `json:"width"`
	Height int `json:"height"`
}

type mediaArgs struct {
	common
	Media         string `json:"media"`
	ColorScheme   string `json:"colorScheme"`
	ReducedMotion string `json:"reducedMotion"`
}

type dialogArgs struct {
	common
	snapArg
	Accept     *bool   `json:"accept"`
	PromptText *string `json:"promptText"`
}

type tabsArgs struct {
	common
	snapArg
	Action string `json:"action"`
	Index  *int   `json:"index"`
	URL    string `json:"url"`
}

type closeArgs struct {
	common
}

func (s *Server) addPageTools() {
	s.browserTool(&sdk.Tool{
		Name:  "browser_snapshot",
		Title: "Page snapshot",
		Description: "Returns the accessibility (aria) snapshot of the current tab, with a ref [ref=eN] on every element that tools can act on; " +
			"better than a screenshot for acting. Refs stay the same while the page changes. Scope it to one element with ref and " +
			"limit it with depth to save tokens.",
		InputSchema: schema(nil, map[string]any{
			"ref":    map[string]any{"type": "string", "description": "Only the subtree of this element (ref from an earlier snapshot)"},
			"target": map[string]any{"type": "string", "description": "Same as ref (the spelling of newer @playwright/mcp versions)"},
			"depth":  map[string]any{"type": "integer", "minimum": 1, "description": "Levels of the tree to show (deeper ones are elided as …)"},
		}),
		Annotations: annRead,
	}, func() any { return &snapshotArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*snapshotArgs)
		tg := in.target()
		if tg.Selector != "" || tg.Role != "" {
			return errorResult("browser_snapshot: scope it with the ref of an element from an earlier snapshot (e12), not a selector"), nil
		}
		return textResult(ss.Snapshot(ctx, tg.Ref, in.Depth))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_take_screenshot",
		Title:       "Take a screenshot",
		Description: "Returns a screenshot (image) of the viewport, the full page, or one element (ref/selector). Use browser_snapshot to act on the page.",
		InputSchema: schema(nil, targetProps, map[string]any{
			"type":     map[string]any{"type": "string", "enum": []string{"png", "jpeg"}, "description": "Image format (default png)"},
			"fullPage": map[string]any{"type": "boolean", "description": "The whole scrollable page instead of the viewport"},
		}),
		Annotations: annRead,
	}, func() any { return &screenshotArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*screenshotArgs)
		return textResult(ss.Screenshot(ctx, in.target(), in.Type == "jpeg", in.FullPage))
	})

	s.browserTool(&sdk.Tool{
		Name:  "browser_evaluate",
		Title: "Evaluate JavaScript",
		Description: "Runs a JavaScript function in the page, `() => document.title`, or on an element, `(element) => element.value` " +
			"with ref/selector, and returns its JSON value. Not recorded.",
		InputSchema: schema([]string{"function"}, targetProps, map[string]any{
			"function": map[string]any{"type": "string", "description": "() => { ... } or (element) => { ... }"},
		}),
		Annotations: annAct,
	}, func() any { return &evaluateArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*evaluateArgs)
		if in.Function == "" {
			return nil, errors.New("function is required")
		}
		return textResult(ss.Evaluate(ctx, in.Function, in.target()))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_console_messages",
		Title:       "Console messages",
		Description: "Returns the console messages and uncaught errors of the session's pages, oldest first.",
		InputSchema: schema(nil, map[string]any{
			"level": map[string]any{"type": "string", "enum": []string{"error", "warning", "info", "debug"}, "description": "Least severe level to include (default info)"},
		}),
		Annotations: annRead,
	}, func() any { return &logArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*logArgs)
		rank := map[string]int{"error": 0, "warning": 1, "info": 2, "log": 2, "debug": 3}
		max := 2
		if in.Level != "" {
			r, ok := rank[in.Level]
			if !ok {
				return nil, fmt.Errorf("unknown level %q", in.Level)
			}
			max = r
		}
		var b strings.Builder
		for _, m := range ss.Console() {
			r, ok := rank[m.Type]
			if !ok {
				r = 2
			}
			if r > max {
				continue
			}
			fmt.Fprintf(&b, "[%s] %s", m.Type, m.Text)
			if m.Location != "" {
				fmt.Fprintf(&b, " @ %s", m.Location)
			}
			b.WriteByte('\n')
		}
		if b.Len() == 0 {
			b.WriteString("No console messages.")
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.TrimRight(b.String(), "\n")}}}, nil
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_network_requests",
		Title:       "Network requests",
		Description: "Lists the requests the session's pages made: method, URL, status (or failure). Static resources (images, fonts, scripts, styles) are left out unless static is true.",
		InputSchema: schema(nil, map[string]any{
			"static": map[string]any{"type": "boolean", "description": "Include successful static resources"},
		}),
		Annotations: annRead,
	}, func() any { return &logArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*logArgs)
		if in.Level != "" {
			return nil, errors.New("level applies to browser_console_messages")
		}
		var b strings.Builder
		for _, r := range ss.Network() {
			static := map[string]bool{"image": true, "font": true, "script": true, "stylesheet": true, "media": true}[r.ResourceType]
			if static && !in.Static && r.Failure == "" && r.Status < 400 {
				continue
			}
			status := fmt.Sprint(r.Status)
			if r.Failure != "" {
				status = "failed: " + r.Failure
			} else if r.Status == 0 {
				status = "pending"
			}
			fmt.Fprintf(&b, "[%s] %s => %s\n", r.Method, r.URL, status)
		}
		if b.Len() == 0 {
			b.WriteString("No requests.")
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.TrimRight(b.String(), "\n")}}}, nil
	})

	s.browserTool(&sdk.Tool{
		Name:  "browser_wait_for",
		Title: "Wait for",
		Description: "Waits for text to appear (`When I wait for the text \"...\"`), for text to disappear, or for a time in seconds " +
			"(`When I wait <ms> milliseconds`). With a progressToken, progress is reported every second while it waits.",
		InputSchema: schema(nil, withSnapshot(map[string]any{
			"time":     map[string]any{"type": "number", "minimum": 0, "description": "Seconds to wait"},
			"text":     map[string]any{"type": "string", "description": "Text to wait for"},
			"textGone": map[string]any{"type": "string", "description": "Text to wait to disappear"},
		})),
		Annotations: annSafe,
	}, func() any { return &waitArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*waitArgs)
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		what := fmt.Sprintf("waiting %g s", in.Time)
		switch {
		case in.Text != "":
			what = fmt.Sprintf("waiting for the text %q", in.Text)
		case in.TextGone != "":
			what = fmt.Sprintf("waiting for the text %q to disappear", in.TextGone)
		}
		defer heartbeat(ctx, what)()
		return textResult(ss.WaitFor(ctx, in.Text, in.TextGone, in.Time, mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_resize",
		Title:       "Resize the viewport",
		Description: "Sets the page's viewport size. Recorded as `When I set the viewport to <width> by <height>`.",
		InputSchema: schema([]string{"width", "height"}, withSnapshot(map[string]any{
			"width":  map[string]any{"type": "integer", "minimum": 1, "description": "Width in CSS pixels"},
			"height": map[string]any{"type": "integer", "minimum": 1, "description": "Height in CSS pixels"},
		})),
		Annotations: annSafe,
	}, func() any { return &resizeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*resizeArgs)
		if in.Width < 1 || in.Height < 1 {
			return nil, errors.New("width and height must be at least 1")
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.Resize(ctx, in.Width, in.Height, mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_emulate_media",
		Title:       "Emulate media",
		Description: "Emulates the CSS media type (screen, print), prefers-color-scheme (light, dark) and prefers-reduced-motion. Recorded as the built-in steps I emulate the media type and I emulate the color scheme (reduced motion is not recorded).",
		InputSchema: schema(nil, map[string]any{
			"media":         map[string]any{"type": "string", "enum": []string{"screen", "print", "no-override"}},
			"colorScheme":   map[string]any{"type": "string", "enum": []string{"light", "dark", "no-preference", "no-override"}},
			"reducedMotion": map[string]any{"type": "string", "enum": []string{"reduce", "no-preference", "no-override"}},
		}),
		Annotations: annSafe,
	}, func() any { return &mediaArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*mediaArgs)
		return textResult(ss.EmulateMedia(ctx, in.Media, in.ColorScheme, in.ReducedMotion))
	})

	s.browserTool(&sdk.Tool{
		Name:  "browser_handle_dialog",
		Title: "Handle a dialog",
		Description: "Accepts or dismisses the alert/confirm/prompt an action opened (promptText answers a prompt). Recorded before that action " +
			"as `When I accept the next dialog`, `When I dismiss the next dialog` or `When I accept the next prompt with \"...\"`.",
		InputSchema: schema([]string{"accept"}, withSnapshot(map[string]any{
			"accept":     map[string]any{"type": "boolean", "description": "Accept (true) or dismiss (false)"},
			"promptText": map[string]any{"type": "string", "description": "Answer to a prompt"},
		})),
		Annotations: annAct,
	}, func() any { return &dialogArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*dialogArgs)
		if in.Accept == nil {
			return nil, errors.New("accept is required")
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.HandleDialog(ctx, *in.Accept, in.PromptText, mode))
	})

	s.browserTool(&sdk.Tool{
		Name:  "browser_tabs",
		Title: "Manage tabs",
		Description: "Lists the session's tabs, opens a new one (with url), selects one or closes one (index, 0-based; close without index closes the current). " +
			"Selecting is recorded as `When I switch to tab <n>` (1-based), closing the current one as `When I close the current tab`.",
		InputSchema: schema([]string{"action"}, withSnapshot(map[string]any{
			"action": map[string]any{"type": "string", "enum": []string{"list", "new", "select", "close"}},
			"index":  map[string]any{"type": "integer", "minimum": 0, "description": "Tab index for select and close"},
			"url":    map[string]any{"type": "string", "description": "URL to open in the new tab"},
		})),
		Annotations: annSafe,
	}, func() any { return &tabsArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*tabsArgs)
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		res, tabs, err := ss.Tabs(ctx, in.Action, in.Index, in.URL, mode)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, t := range tabs {
			cur := " "
			if t.Current {
				cur = "*"
			}
			fmt.Fprintf(&b, "%s[%d] %s (%s)\n", cur, t.Index, t.URL, t.Title)
		}
		res.Output = strings.TrimSpace(res.Output + "\nTabs:\n" + b.String())
		return textResult(res, nil)
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_close",
		Title:       "Close the session's browser",
		Description: "Closes the session's browser context and all its tabs (cookies and storage go too); the next call starts a fresh one. The recording is kept.",
		InputSchema: schema(nil),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
	}, func() any { return &closeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		return textResult(ss.Close(), nil)
	})
}
