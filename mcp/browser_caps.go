package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// Tools of @playwright/mcp's optional groups (--caps): vision (the mouse
// at coordinates), pdf, and testing's browser_verify_list_visible and
// browser_generate_locator.

type mouseArgs struct {
	common
	snapArg
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	StartX     float64 `json:"startX"`
	StartY     float64 `json:"startY"`
	EndX       float64 `json:"endX"`
	EndY       float64 `json:"endY"`
	Button     string  `json:"button"`
	ClickCount float64 `json:"clickCount"`
	Delay      float64 `json:"delay"`
	DeltaX     float64 `json:"deltaX"`
	DeltaY     float64 `json:"deltaY"`
}

type pdfArgs struct {
	common
	Filename string `json:"filename"`
}

type verifyListArgs struct {
	common
	targetArgs
	Items []string `json:"items"`
}

type locatorArgs struct {
	common
	targetArgs
}

func (s *Server) addVisionTools() {
	xy := map[string]any{"x": number, "y": number}
	button := enum("left", "right", "middle")
	for _, m := range []struct {
		name, kind, desc string
		required         []string
		props            map[string]any
	}{
		{"browser_mouse_move_xy", "move", "Moves the mouse to x, y (CSS pixels).", []string{"x", "y"}, xy},
		{"browser_mouse_click_xy", "click", "Clicks at x, y (CSS pixels).", []string{"x", "y"},
			map[string]any{"x": number, "y": number, "button": button, "clickCount": number, "delay": number}},
		{"browser_mouse_drag_xy", "drag", "Drags with the left button from startX, startY to endX, endY.", []string{"startX", "startY", "endX", "endY"},
			map[string]any{"startX": number, "startY": number, "endX": number, "endY": number}},
		{"browser_mouse_down", "down", "Presses a mouse button.", nil, map[string]any{"button": button}},
		{"browser_mouse_up", "up", "Releases a mouse button.", nil, map[string]any{"button": button}},
		{"browser_mouse_wheel", "wheel", "Scrolls the mouse wheel by deltaX, deltaY.", []string{"deltaX", "deltaY"},
			map[string]any{"deltaX": number, "deltaY": number}},
	} {
		kind := m.kind
		s.browserTool(&sdk.Tool{Name: m.name, Description: m.desc,
			InputSchema: schema(m.required, m.props), Annotations: annAct,
		}, func() any { return &mouseArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
			in := a.(*mouseArgs)
			mode, err := in.mode()
			if err != nil {
				return nil, err
			}
			ma := browsing.MouseAction{Kind: kind, X: in.X, Y: in.Y, Button: in.Button, ClickCount: int(in.ClickCount),
				Delay: in.Delay, DeltaX: in.DeltaX, DeltaY: in.DeltaY}
			if kind == "drag" {
				ma.X, ma.Y, ma.EndX, ma.EndY = in.StartX, in.StartY, in.EndX, in.EndY
			}
			return textResult(ss.Mouse(ctx, ma, mode))
		})
	}

	s.browserTool(&sdk.Tool{
		Name:        "browser_pdf_save",
		Description: "Saves the page as PDF to filename (in the project; default page-<time>.pdf).",
		InputSchema: schema(nil, map[string]any{"filename": str}),
		Annotations: annRead,
	}, func() any { return &pdfArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*pdfArgs)
		name := in.Filename
		if name == "" {
			name = fmt.Sprintf("page-%s.pdf", time.Now().UTC().Format("2006-01-02T15-04-05Z"))
		}
		b, err := ss.PDF(ctx)
		if err != nil {
			return nil, err
		}
		return s.saveOutput(name, b)
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_verify_list_visible",
		Description: "Checks that the list target shows each of items.",
		InputSchema: schema([]string{"items"}, targetProps, map[string]any{"items": strList}),
		Annotations: annRead,
	}, func() any { return &verifyListArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*verifyListArgs)
		if len(in.Items) == 0 {
			return nil, errors.New("items is empty")
		}
		return textResult(ss.VerifyList(ctx, in.target(), in.Items))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_generate_locator",
		Description: "The Playwright locator of an element, for tests.",
		InputSchema: schema(nil, targetProps),
		Annotations: annRead,
	}, func() any { return &locatorArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*locatorArgs)
		code, sel, err := ss.Locator(ctx, in.target())
		if err != nil {
			return nil, err
		}
		return textOnly(fmt.Sprintf("%s\nselector (steps): %s", code, sel)), nil
	})
}
