package mcp

import (
	"context"
	"errors"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// Checks, recorded as the scenario's Then steps: browser_verify_element_visible,
// browser_verify_text_visible, browser_verify_value. A check retries for
// a few seconds; one that fails is an error and is not recorded.

type verifyElementArgs struct {
	common
	targetArgs
	AccessibleName string `json:"accessibleName"`
}

type verifyTextArgs struct {
	common
	Text string `json:"text"`
}

type verifyValueArgs struct {
	common
	targetArgs
	Type  string  `json:"type"`
	Value *string `json:"value"`
}

func (s *Server) addVerifyTools() {
	s.browserTool(&sdk.Tool{
		Name:  "browser_verify_element_visible",
		Title: "Verify an element is visible",
		Description: "Checks that an element is visible, named by role and accessibleName (or name), ref or selector. Recorded as " +
			"`Then I expect \"<target>\" to be visible`.",
		InputSchema: schema(nil, targetProps, map[string]any{
			"accessibleName": map[string]any{"type": "string", "description": "Accessible name, with role"},
		}),
		Annotations: annRead,
	}, func() any { return &verifyElementArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*verifyElementArgs)
		if in.Name == "" {
			in.Name = in.AccessibleName
		}
		return textResult(ss.VerifyVisible(ctx, in.target()))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_verify_text_visible",
		Title:       "Verify text is visible",
		Description: "Checks that the text is visible on the page. Recorded as `Then I expect the page to contain the text \"<text>\"`.",
		InputSchema: schema([]string{"text"}, map[string]any{
			"text": map[string]any{"type": "string", "description": "Text to find"},
		}),
		Annotations: annRead,
	}, func() any { return &verifyTextArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*verifyTextArgs)
		if in.Text == "" {
			return nil, errors.New("text is required")
		}
		return textResult(ss.VerifyText(ctx, in.Text))
	})

	s.browserTool(&sdk.Tool{
		Name:  "browser_verify_value",
		Title: "Verify a value",
		Description: "Checks an element's value: a field's value (`Then I expect the value of \"<target>\" to equal \"<value>\"`), a checkbox's " +
			"or radio's state with \"true\"/\"false\" (`... to be checked`), or another element's text (`Then I expect the text of ... to equal ...`)." + targetHelp,
		InputSchema: schema([]string{"value"}, targetProps, map[string]any{
			"type":  map[string]any{"type": "string", "description": "Kind of element (informative: textbox, checkbox, radio, combobox, text)"},
			"value": map[string]any{"type": "string", "description": "Expected value"},
		}),
		Annotations: annRead,
	}, func() any { return &verifyValueArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*verifyValueArgs)
		if in.Value == nil {
			return nil, errors.New("value is required")
		}
		return textResult(ss.VerifyValue(ctx, in.target(), *in.Value))
	})
}
