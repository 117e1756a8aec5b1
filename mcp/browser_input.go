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

const targetHelp = " Name the element by ref (from the latest snapshot), selector, or role and name."

func (s *Server) addInputTools() {
	s.browserTool(&sdk.Tool{
		Name:  "browser_click",
		Title: "Click",
		Description: "Clicks an element." + targetHelp + " The result shows the Playwright line, the recorded step " +
			"(`When I click \"<target>\"`, double/right click variants) and what changed in the page.",
		InputSchema: schema(nil, withSnapshot(targetProps), map[string]any{
			"doubleClick": map[string]any{"type": "boolean", "description": "Double click instead of a single click"},
			"button":      map[string]any{"type": "string", "enum": []string{"left", "right", "middle"}, "description": "Mouse button (default left)"},
			"modifiers":   map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"Alt", "Control", "ControlOrMeta", "Meta", "Shift"}}, "description": "Modifier keys held during the click"},
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
		Name:  "browser_type",
		Title: "Type text",
		Description: "Types text into an editable element: filled at once (recorded as `When I fill \"<target>\" with \"<text>\"`), " +
			"or key by key with slowly (`When I type ... into ...`); submit presses Enter after." + targetHelp,
		InputSchema: schema([]string{"text"}, withSnapshot(targetProps), map[string]any{
			"text":   map[string]any{"type": "string", "description": "Text to enter"},
			"submit": map[string]any{"type": "boolean", "description": "Press Enter after"},
			"slowly": map[string]any{"type": "boolean", "description": "Type one key at a time (fires key handlers); default fills at once"},
		}),
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
		"type":  map[string]any{"type": "string", "enum": []string{"textbox", "checkbox", "radio", "combobox", "slider"}, "description": "Kind of field (default textbox)"},
		"value": map[string]any{"type": "string", "description": "Value: text, \"true\"/\"false\" for checkbox and radio, the option for combobox"},
	}
	for k, v := range targetProps {
		fieldProps[k] = v
	}
	s.browserTool(&sdk.Tool{
		Name:        "browser_fill_form",
		Title:       "Fill form",
		Description: "Fills several form fields in one call (textboxes, checkboxes, radios, selects). Each field is recorded as its own step (fill, check/uncheck, select).",
		InputSchema: schema([]string{"fields"}, withSnapshot(map[string]any{
			"fields": map[string]any{"type": "array", "description": "Fields to fill, in order", "items": map[string]any{
				"type": "object", "properties": fieldProps, "required": []string{"value"}, "additionalProperties": false,
			}},
		})),
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
		Title:       "Select option",
		Description: "Selects options (by value or label) in a <select>. Recorded as `When I select \"<value>\" in \"<target>\"`." + targetHelp,
		InputSchema: schema([]string{"values"}, withSnapshot(targetProps), map[string]any{
			"values": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Values or labels to select"},
		}),
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
		Title:       "Hover",
		Description: "Moves the mouse over an element. Recorded as `When I hover \"<target>\"`." + targetHelp,
		InputSchema: schema(nil, withSnapshot(targetProps)),
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
		Title:       "Drag and drop",
		Description: "Drags one element onto another. Recorded as `When I drag \"<from>\" to \"<to>\"`. Name each by ref or selector.",
		InputSchema: schema(nil, withSnapshot(map[string]any{
			"startElement":  map[string]any{"type": "string", "description": "Description of the source element"},
			"startRef":      map[string]any{"type": "string", "description": "Ref of the source element"},
			"startSelector": map[string]any{"type": "string", "description": "Selector of the source element, instead of startRef"},
			"endElement":    map[string]any{"type": "string", "description": "Description of the target element"},
			"endRef":        map[string]any{"type": "string", "description": "Ref of the target element"},
			"endSelector":   map[string]any{"type": "string", "description": "Selector of the target element, instead of endRef"},
			"startTarget":   map[string]any{"type": "string", "description": "A ref or a selector of the source element; same as startRef or startSelector"},
			"endTarget":     map[string]any{"type": "string", "description": "A ref or a selector of the target element; same as endRef or endSelector"},
		})),
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
		Name:  "browser_press_key",
		Title: "Press a key",
		Description: "Presses a key (ArrowLeft, Enter, a, Control+A...) on the focused element, or on the element named by ref/selector. " +
			"Recorded as `When I press \"<key>\"` (or `... on \"<target>\"`).",
		InputSchema: schema([]string{"key"}, withSnapshot(targetProps), map[string]any{
			"key": map[string]any{"type": "string", "description": "Key name or character, e.g. Enter, ArrowLeft, a, Control+A"},
		}),
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
		Name:  "browser_file_upload",
		Title: "Upload files",
		Description: "Sets the files of a file input (<input type=file>) named by ref or selector. Paths are absolute or relative to the project directory. " +
			"Recorded as `When I upload \"<file>\" to \"<target>\"` (the path relative to the exported feature).",
		InputSchema: schema([]string{"paths"}, withSnapshot(targetProps), map[string]any{
			"paths": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Files to upload"},
		}),
		Annotations: annAct,
	}, func() any { return &uploadArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*uploadArgs)
		if len(in.Paths) == 0 {
			return nil, errors.New("paths is empty")
		}
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
