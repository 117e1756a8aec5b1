package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
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
	Depth    float64 `json:"depth"`
	Boxes    bool    `json:"boxes"`
	Filename string  `json:"filename"`
}

type screenshotArgs struct {
	common
	targetArgs
	Type     string `json:"type"`
	FullPage bool   `json:"fullPage"`
	Scale    string `json:"scale"`
	Filename string `json:"filename"`
}

type evaluateArgs struct {
	common
	targetArgs
	Function string `json:"function"`
	Filename string `json:"filename"`
}

type consoleArgs struct {
	common
	Level    string `json:"level"`
	All      bool   `json:"all"`
	Filename string `json:"filename"`
}

type networkArgs struct {
	common
	Static   bool   `json:"static"`
	Filter   string `json:"filter"`
	All      bool   `json:"all"`
	Filename string `json:"filename"`
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
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// mediaValue is a media feature argument: absent, a value, or null
// (clears the override, as Playwright's "no-override").
type mediaValue string

func (m *mediaValue) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*m = "no-override"
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*m = mediaValue(s)
	return nil
}

type mediaArgs struct {
	common
	Media         mediaValue `json:"media"`
	ColorScheme   mediaValue `json:"colorScheme"`
	ReducedMotion mediaValue `json:"reducedMotion"`
	ForcedColors  mediaValue `json:"forcedColors"`
	Contrast      mediaValue `json:"contrast"`
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
	Action string   `json:"action"`
	Index  *float64 `json:"index"`
	URL    string   `json:"url"`
}

type closeArgs struct {
	common
}

// nullable is a media feature's schema: its values or null.
func nullable(values ...string) map[string]any {
	all := make([]any, 0, len(values)+1)
	for _, v := range values {
		all = append(all, v)
	}
	return map[string]any{"enum": append(all, nil)}
}

func (s *Server) addPageTools() {
	s.browserTool(&sdk.Tool{
		Name:        "browser_snapshot",
		Description: "Accessibility snapshot of the current tab with element refs; target scopes it, depth limits it.",
		InputSchema: schema(nil, map[string]any{
			"target": desc("string", "ref of an element: only its subtree"),
			"depth":  number, "boxes": desc("boolean", "add [box=x,y,width,height] to each element"), "filename": filenameProp,
		}),
		Annotations: annRead,
	}, func() any { return &snapshotArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*snapshotArgs)
		tg := in.target()
		if tg.Selector != "" || tg.Role != "" {
			return errorResult("browser_snapshot: scope it with the ref of an element from an earlier snapshot (e12), not a selector"), nil
		}
		res, err := ss.SnapshotBoxes(ctx, tg.Ref, int(in.Depth), in.Boxes)
		if err != nil || in.Filename == "" {
			return textResult(res, err)
		}
		return s.saveOutput(in.Filename, []byte(res.Snapshot))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_take_screenshot",
		Description: "Screenshot of the viewport, full page or element; for actions use browser_snapshot.",
		InputSchema: schema(nil, targetProps, map[string]any{
			"type": enum("png", "jpeg", "webp"), "fullPage": boolean, "scale": enum("css", "device"),
			"filename": desc("string", "also save it to this file (in the project)"),
		}),
		Annotations: annRead,
	}, func() any { return &screenshotArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*screenshotArgs)
		typ := in.Type
		if typ == "" && in.Filename != "" {
			switch strings.ToLower(filepath.Ext(in.Filename)) {
			case ".jpg", ".jpeg":
				typ = "jpeg"
			case ".webp":
				typ = "webp"
			}
		}
		res, err := ss.Screenshot(ctx, in.target(), browsing.ScreenshotOptions{Type: typ, FullPage: in.FullPage, Scale: in.Scale})
		if err != nil || in.Filename == "" {
			return textResult(res, err)
		}
		saved, err := s.saveOutput(in.Filename, res.Image)
		if err != nil {
			return nil, err
		}
		res.Output = saved.Content[0].(*sdk.TextContent).Text
		return textResult(res, nil)
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_evaluate",
		Description: "Runs `() => ...` in the page, or `(element) => ...` on target, and returns its JSON value. Not recorded.",
		InputSchema: schema([]string{"function"}, targetProps, map[string]any{"function": str, "filename": filenameProp}),
		Annotations: annAct,
	}, func() any { return &evaluateArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*evaluateArgs)
		if in.Function == "" {
			return nil, errors.New("function is required")
		}
		res, err := ss.Evaluate(ctx, in.Function, in.target())
		if err != nil || in.Filename == "" {
			return textResult(res, err)
		}
		return s.saveOutput(in.Filename, []byte(res.Output))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_console_messages",
		Description: "Console messages at level or more severe (default info) and uncaught errors since the page loaded (all: since the session began).",
		InputSchema: schema(nil, map[string]any{
			"level": enum("error", "warning", "info", "debug"), "all": boolean, "filename": filenameProp,
		}),
		Annotations: annRead,
	}, func() any { return &consoleArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*consoleArgs)
		rank := map[string]int{"error": 0, "warning": 1, "info": 2, "log": 2, "debug": 3}
		max := 2
		if in.Level != "" {
			r, ok := rank[in.Level]
			if !ok {
				return nil, fmt.Errorf("unknown level %q (error, warning, info or debug)", in.Level)
			}
			max = r
		}
		var b strings.Builder
		for _, m := range ss.ConsoleSince(in.All) {
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
		if in.Filename != "" {
			return s.saveOutput(in.Filename, []byte(b.String()))
		}
		if b.Len() == 0 {
			b.WriteString("No console messages.")
		}
		return textOnly(strings.TrimRight(b.String(), "\n")), nil
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_network_requests",
		Description: "Numbered requests since the page loaded (all: since the session began; static: with static resources).",
		InputSchema: schema(nil, map[string]any{
			"static": boolean, "filter": desc("string", "regexp the URL must match"), "all": boolean, "filename": filenameProp,
		}),
		Annotations: annRead,
	}, func() any { return &networkArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*networkArgs)
		var filter *regexp.Regexp
		if in.Filter != "" {
			var err error
			if filter, err = regexp.Compile(in.Filter); err != nil {
				return nil, fmt.Errorf("filter: %w", err)
			}
		}
		var b strings.Builder
		first, reqs := ss.NetworkSince(in.All)
		for i, r := range reqs {
			static := map[string]bool{"image": true, "font": true, "script": true, "stylesheet": true, "media": true}[r.ResourceType]
			if static && !in.Static && r.Failure == "" && r.Status < 400 {
				continue
			}
			if filter != nil && !filter.MatchString(r.URL) {
				continue
			}
			status := fmt.Sprint(r.Status)
			if r.Failure != "" {
				status = "failed: " + r.Failure
			} else if r.Status == 0 {
				status = "pending"
			}
			fmt.Fprintf(&b, "%d. [%s] %s => %s\n", first+i, r.Method, r.URL, status)
		}
		if in.Filename != "" {
			return s.saveOutput(in.Filename, []byte(b.String()))
		}
		if b.Len() == 0 {
			b.WriteString("No requests.")
		}
		return textOnly(strings.TrimRight(b.String(), "\n")), nil
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_wait_for",
		Description: "Waits for text to appear, text to disappear, or time seconds.",
		InputSchema: schema(nil, map[string]any{"time": number, "text": str, "textGone": str}),
		Annotations: annSafe,
	}, func() any { return &waitArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*waitArgs)
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		if in.Time < 0 {
			return nil, errors.New("time must not be negative")
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
		Description: "Sets the viewport size in CSS pixels.",
		InputSchema: schema([]string{"width", "height"}, map[string]any{"width": number, "height": number}),
		Annotations: annSafe,
	}, func() any { return &resizeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*resizeArgs)
		w, h := int(math.Round(in.Width)), int(math.Round(in.Height))
		if w < 1 || h < 1 {
			return nil, errors.New("width and height must be at least 1")
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.Resize(ctx, w, h, mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_emulate_media",
		Description: "Emulates CSS media type and features; omitted: unchanged, null: cleared.",
		InputSchema: schema(nil, map[string]any{
			"media":         nullable("screen", "print"),
			"colorScheme":   nullable("light", "dark", "no-preference"),
			"reducedMotion": nullable("reduce", "no-preference"),
			"forcedColors":  nullable("active", "none"),
			"contrast":      nullable("more", "no-preference"),
		}),
		Annotations: annSafe,
	}, func() any { return &mediaArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*mediaArgs)
		return textResult(ss.EmulateMedia(ctx, browsing.Media{Media: string(in.Media), ColorScheme: string(in.ColorScheme),
			ReducedMotion: string(in.ReducedMotion), ForcedColors: string(in.ForcedColors), Contrast: string(in.Contrast)}))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_handle_dialog",
		Description: "Accepts or dismisses the open alert, confirm or prompt (promptText answers a prompt).",
		InputSchema: schema([]string{"accept"}, map[string]any{"accept": boolean, "promptText": str}),
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
		Name:        "browser_tabs",
		Description: "Lists, opens (url), selects or closes (index, 0-based; default the current) tabs.",
		InputSchema: schema([]string{"action"}, map[string]any{
			"action": enum("list", "new", "select", "close"), "index": number, "url": str,
		}),
		Annotations: annSafe,
	}, func() any { return &tabsArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*tabsArgs)
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		var index *int
		if in.Index != nil {
			index = ptr(int(*in.Index))
		}
		res, tabs, err := ss.Tabs(ctx, in.Action, index, in.URL, mode)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, t := range tabs {
			cur := " "
			if t.Current {
				// The current tab's line says what a Page line would.
				cur, res.URL, res.Title = "*", "", ""
			}
			fmt.Fprintf(&b, "%s[%d] %s (%s)\n", cur, t.Index, t.URL, t.Title)
		}
		res.Output = strings.TrimSpace(res.Output + "\nTabs:\n" + b.String())
		return textResult(res, nil)
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_close",
		Description: "Closes the session's tabs; the next call opens fresh ones. The recording is kept.",
		InputSchema: schema(nil),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
	}, func() any { return &closeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		return textResult(ss.Close(), nil)
	})
}
