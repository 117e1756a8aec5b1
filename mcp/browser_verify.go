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
		Name:        "browser_verify_element_visible",
		Description: "Checks that an element (role and accessibleName, or target) is visible.",
		InputSchema: schema(nil, targetProps, map[string]any{"role": str, "accessibleName": str}),
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
		Description: "Checks that the text is visible on the page.",
		InputSchema: schema([]string{"text"}, map[string]any{"text": str}),
		Annotations: annRead,
	}, func() any { return &verifyTextArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*verifyTextArgs)
		if in.Text == "" {
			return nil, errors.New("text is required")
		}
		return textResult(ss.VerifyText(ctx, in.Text))
	})

	s.browserTool(&sdk.Tool{
		Name:        "browser_verify_value",
		Description: "Checks a field's value, a checkbox's state (\"true\"/\"false\") or an element's text.",
		InputSchema: schema([]string{"value"}, targetProps, map[string]any{"type": str, "value": str}),
		Annotations: annRead,
	}, func() any { return &verifyValueArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*verifyValueArgs)
		if in.Value == nil {
			return nil, errors.New("value is required")
		}
		return textResult(ss.VerifyValue(ctx, in.target(), *in.Value))
	})
}
