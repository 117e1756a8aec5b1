package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// Input: browser_click, browser_type, browser_fill_form,
// browser_select_option, browser_hover, browser_drag, browser_press_key,
// browser_file_upload.

type clickArgs struct {
	common
	snapArg
	targetArgs
	DoubleClick bool     `json:"doubleClick"`
	Button      string   `json:"button"`
	Modifiers   []string `json:"modifiers"`
}

type typeArgs struct {
	common
	snapArg
	targetArgs
	Text   *string `json:"text"`
	Submit bool    `json:"submit"`
	Slowly bool    `json:"slowly"`
}

type formField struct {
	targetArgs
	Type  string `json:"type"`
	Value string `json:"value"`
}

type fillFormArgs struct {
	common
	snapArg
	Fields []formField `json:"fields"`
}

type selectArgs struct {
	common
	snapArg
	targetArgs
	Values []string `json:"values"`
}

type hoverArgs struct {
	common
	snapArg
	targetArgs
}

type dragArgs struct {
	common
	snapArg
	StartElement  string `json:"startElement"`
	StartRef      string `json:"startRef"`
	StartSelector string `json:"startSelector"`
	StartTarget   string `json:"startTarget"`
	EndElement    string `json:"endElement"`
	EndRef        string `json:"endRef"`
	EndSelector   string `json:"endSelector"`
	EndTarget     string `json:"endTarget"`
}

type pressArgs struct {
	common
	snapArg
	targetArgs
	Key string `json:"key"`
}

type uploadArgs struct {
	common
	snapArg
	targetArgs
	Paths []string `json:"paths"`
}

func (s *Server) addInputTools() {
	s.browserTool(&sdk.Tool{
		Name:        "browser_click",
		Description: "Clicks an element.",
		InputSchema: schema(nil, targetProps, map[string]any{
			"doubleClick": boolean,
			"button":      enum("left", "right", "middle"),
			"modifiers":   map[string]any{"type": "array", "items": enum("Alt", "Control", "ControlOrMeta", "Meta", "Shift")},
		}),
		Annotations: annAct,
	}, func() any { return &clickArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*clickArgs)
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.Click(ctx, in.target(), browsing.ClickOptions{Double: in.DoubleClick, Button: in.Button, Modifiers: in.Modifiers}, mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_type",
		Description: "Types text into an editable element: filled at once, or key by key with slowly; submit presses Enter after.",
		InputSchema: schema([]string{"text"}, targetProps, map[string]any{"text": str, "submit": boolean, "slowly": boolean}),
		Annotations: annAct,
	}, func() any { return &typeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*typeArgs)
		if in.Text == nil {
			return nil, errors.New("text is required")
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.Type(ctx, in.target(), *in.Text, in.Slowly, in.Submit, mode))
	})

	fieldProps := map[string]any{
		"type":  enum("textbox", "checkbox", "radio", "combobox", "slider"),
		"value": desc("string", `"true"/"false" for a checkbox, an option's text for a combobox`),
	}
	for k, v := range targetProps {
		fieldProps[k] = v
	}
	s.browserTool(&sdk.Tool{
		Name:        "browser_fill_form",
		Description: "Fills several form fields in one call.",
		InputSchema: schema([]string{"fields"}, map[string]any{
			"fields": map[string]any{"type": "array", "items": map[string]any{
				"type": "object", "properties": fieldProps, "required": []string{"value"},
			}},
		}),
		Annotations: annAct,
	}, func() any { return &fillFormArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*fillFormArgs)
		if len(in.Fields) == 0 {
			return nil, errors.New("fields is empty")
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		fields := make([]browsing.Field, len(in.Fields))
		for i, f := range in.Fields {
			fields[i] = browsing.Field{Target: f.target(), Type: f.Type, Value: f.Value}
		}
		return textResult(ss.FillForm(ctx, fields, mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_select_option",
		Description: "Selects options (by value or label) in a dropdown.",
		InputSchema: schema([]string{"values"}, targetProps, map[string]any{"values": strList}),
		Annotations: annAct,
	}, func() any { return &selectArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*selectArgs)
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.SelectOption(ctx, in.target(), in.Values, mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_hover",
		Description: "Moves the mouse over an element.",
		InputSchema: schema(nil, targetProps),
		Annotations: annSafe,
	}, func() any { return &hoverArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*hoverArgs)
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.Hover(ctx, in.target(), mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_drag",
		Description: "Drags the start element onto the end element.",
		InputSchema: schema(nil, map[string]any{
			"startElement": str, "startTarget": str, "endElement": str, "endTarget": str,
		}),
		Annotations: annAct,
	}, func() any { return &dragArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*dragArgs)
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		from := targetArgs{Ref: in.StartRef, Selector: in.StartSelector, Target: in.StartTarget}.target()
		to := targetArgs{Ref: in.EndRef, Selector: in.EndSelector, Target: in.EndTarget}.target()
		return textResult(ss.Drag(ctx, from, to, mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_press_key",
		Description: "Presses a key (Enter, ArrowLeft, a, Control+A) on the focused element or on target.",
		InputSchema: schema([]string{"key"}, targetProps, map[string]any{"key": str}),
		Annotations: annAct,
	}, func() any { return &pressArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*pressArgs)
		if in.Key == "" {
			return nil, errors.New("key is required")
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.PressKey(ctx, in.Key, in.target(), mode))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_file_upload",
		Description: "Answers the open file chooser with paths (none cancels it), or sets the files of the file input target.",
		InputSchema: schema(nil, targetProps, map[string]any{"paths": strList}),
		Annotations: annAct,
	}, func() any { return &uploadArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*uploadArgs)
		paths := make([]string, len(in.Paths))
		for i, p := range in.Paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(s.opts.Dir, p)
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, fmt.Errorf("path %s: %w", p, err)
			}
			paths[i] = abs
		}
		mode, err := in.mode()
		if err != nil {
			return nil, err
		}
		return textResult(ss.Upload(ctx, in.target(), paths, mode))
	})
}
