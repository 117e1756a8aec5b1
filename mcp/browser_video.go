package mcp

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// @playwright/mcp's devtools video tools: a video of the session's tabs
// (world/screencast through world/browsing), chapter cards, and action
// callouts.

type videoSize struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

type startVideoArgs struct {
	common
	Filename string     `json:"filename"`
	Size     *videoSize `json:"size"`
	FPS      float64    `json:"fps"`
	Cursor   bool       `json:"cursor"`
}

type chapterArgs struct {
	common
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Duration    float64 `json:"duration"`
}

type actionStyle struct {
	Point     string `json:"point"`
	Highlight string `json:"highlight"`
	Title     string `json:"title"`
}

type showActionsArgs struct {
	common
	Duration float64      `json:"duration"`
	Position string       `json:"position"`
	Cursor   string       `json:"cursor"`
	Style    *actionStyle `json:"style"`
}

// whole is a number argument that must be a whole number in [lo, hi].
func whole(name string, v, lo, hi float64) (int, error) {
	if v != math.Trunc(v) || v < lo || v > hi {
		return 0, fmt.Errorf("%s %v: want a whole number from %v to %v", name, v, lo, hi)
	}
	return int(v), nil
}

func (s *Server) addVideoTools() {
	s.browserTool(&sdk.Tool{
		Name: "browser_start_video", Title: "Start video",
		Description: "Records the current tab, following tab switches, to a WebM video: filename in the project (default video-<time>.webm), size (default: the viewport fitted to 800x800), fps (default 25), cursor (a pointer moving to each action; actions paced by 800 ms).",
		InputSchema: schema(nil, map[string]any{"filename": str, "size": map[string]any{"type": "object", "required": []string{"width", "height"},
			"properties": map[string]any{"width": number, "height": number}}, "fps": number, "cursor": boolean}),
		Annotations: annRead,
	}, func() any { return &startVideoArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*startVideoArgs)
		o := browsing.VideoOptions{Cursor: in.Cursor}
		var err error
		if in.Size != nil {
			if o.Width, err = whole("size.width", in.Size.Width, 2, 4096); err != nil {
				return nil, err
			}
			if o.Height, err = whole("size.height", in.Size.Height, 2, 4096); err != nil {
				return nil, err
			}
		}
		if in.FPS != 0 {
			if o.FPS, err = whole("fps", in.FPS, 1, 60); err != nil {
				return nil, err
			}
		}
		name := in.Filename
		if name == "" {
			name = fmt.Sprintf("video-%s.webm", time.Now().UTC().Format("2006-01-02T15-04-05Z"))
		}
		if o.Path, err = s.outputPath(name); err != nil {
			return nil, err
		}
		if err := ss.StartVideo(ctx, o); err != nil {
			return nil, err
		}
		w, h := ss.VideoSize()
		return textOnly(fmt.Sprintf("Recording %s (%dx%d) until browser_stop_video.", name, w, h)), nil
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_stop_video", Title: "Stop video", Description: "Stops the video and saves it.",
		InputSchema: schema(nil), Annotations: annRead,
	}, func() any { return &closeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		w, h := ss.VideoSize()
		res, err := ss.StopVideo()
		if err != nil {
			return nil, err
		}
		name := res.Path
		if root, err := filepath.EvalSymlinks(s.opts.Dir); err == nil {
			if rel, err := filepath.Rel(root, res.Path); err == nil && filepath.IsLocal(rel) {
				name = rel
			}
		}
		return textOnly(fmt.Sprintf("Saved to %s (%.1f s, %dx%d)", filepath.ToSlash(name), res.Duration.Seconds(), w, h)), nil
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_video_chapter", Title: "Video chapter",
		Description: fmt.Sprintf("Shows a full-screen chapter card (title, description) over the blurred page for duration ms (default %d).", browsing.DefaultChapter.Milliseconds()),
		InputSchema: schema([]string{"title"}, map[string]any{"title": str, "description": str, "duration": number}), Annotations: annRead,
	}, func() any { return &chapterArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*chapterArgs)
		ms, err := whole("duration", in.Duration, 0, 60000)
		if err != nil {
			return nil, err
		}
		return done(ss.VideoChapter(ctx, in.Title, in.Description, time.Duration(ms)*time.Millisecond))
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_video_show_actions", Title: "Show action overlays",
		Description: "From now on each action first shows, for duration ms (default 500), a callout naming it at position (default top-right), a pointer moving to it (cursor), and when style gives their CSS a marker at the action point and a box over the element.",
		InputSchema: schema(nil, map[string]any{"duration": number,
			"position": enum("top-left", "top", "top-right", "bottom-left", "bottom", "bottom-right"),
			"cursor":   enum("none", "pointer"),
			"style":    map[string]any{"type": "object", "properties": map[string]any{"point": str, "highlight": str, "title": str}}}),
		Annotations: annRead,
	}, func() any { return &showActionsArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*showActionsArgs)
		ms, err := whole("duration", in.Duration, 0, 60000)
		if err != nil {
			return nil, err
		}
		o := browsing.ActionsOptions{Duration: time.Duration(ms) * time.Millisecond, Position: in.Position}
		switch in.Cursor {
		case "", "pointer":
			o.Pointer = true
		case "none":
		default:
			return nil, fmt.Errorf("cursor %q: want pointer or none", in.Cursor)
		}
		if st := in.Style; st != nil {
			o.PointStyle, o.HighlightStyle, o.TitleStyle = st.Point, st.Highlight, st.Title
		}
		return done(ss.ShowActions(o))
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_video_hide_actions", Title: "Hide action overlays", Description: "Stops showing actions.",
		InputSchema: schema(nil), Annotations: annRead,
	}, func() any { return &closeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		ss.HideActions()
		return done(nil)
	})
}
