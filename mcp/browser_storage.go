package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// @playwright/mcp's network group (--caps network: mocked routes, the
// offline state) and storage group (--caps storage: cookies, local and
// session storage, the storage state).

type routeArgs struct {
	common
	Pattern       string   `json:"pattern"`
	Status        float64  `json:"status"`
	Body          string   `json:"body"`
	ContentType   string   `json:"contentType"`
	Headers       []string `json:"headers"`
	RemoveHeaders string   `json:"removeHeaders"`
}

type netStateArgs struct {
	common
	State string `json:"state"`
}

type cookieArgs struct {
	common
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires"`
	HTTPOnly bool    `json:"httpOnly"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"sameSite"`
}

type storageArgs struct {
	common
	Key      string `json:"key"`
	Value    string `json:"value"`
	Filename string `json:"filename"`
}

// done is the answer of a tool that only acts.
func done(err error) (*sdk.CallToolResult, error) {
	if err != nil {
		return nil, err
	}
	return textOnly("Done."), nil
}

func (s *Server) addStorageTools() {
	annWrite := &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)}
	s.browserTool(&sdk.Tool{
		Name: "browser_route", Description: "Answers requests matching pattern (a glob) with status, body, contentType, or passes them with headers added and removeHeaders (comma-separated) removed.",
		InputSchema: schema([]string{"pattern"}, map[string]any{"pattern": str, "status": number, "body": str, "contentType": str, "headers": strList, "removeHeaders": str}),
		Annotations: annWrite,
	}, func() any { return &routeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*routeArgs)
		var remove []string
		for _, h := range strings.Split(in.RemoveHeaders, ",") {
			if h = strings.TrimSpace(h); h != "" {
				remove = append(remove, h)
			}
		}
		return done(ss.Route(ctx, browsing.Mock{Pattern: in.Pattern, Status: int(in.Status), Body: in.Body, ContentType: in.ContentType, Headers: in.Headers, RemoveHeaders: remove}))
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_route_list", Description: "Lists the mocked routes.",
		InputSchema: schema(nil), Annotations: annRead,
	}, func() any { return &closeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		var b strings.Builder
		for _, m := range ss.Routes() {
			fmt.Fprintf(&b, "%s", m.Pattern)
			if m.Status != 0 {
				fmt.Fprintf(&b, " status %d", m.Status)
			}
			if m.ContentType != "" {
				fmt.Fprintf(&b, " %s", m.ContentType)
			}
			if m.Body != "" {
				fmt.Fprintf(&b, " body %d bytes", len(m.Body))
			}
			b.WriteByte('\n')
		}
		if b.Len() == 0 {
			return textOnly("No routes."), nil
		}
		return textOnly(strings.TrimRight(b.String(), "\n")), nil
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_unroute", Description: "Removes the route of pattern, or all routes.",
		InputSchema: schema(nil, map[string]any{"pattern": str}), Annotations: annWrite,
	}, func() any { return &routeArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		return done(ss.Unroute(ctx, a.(*routeArgs).Pattern))
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_network_state_set", Description: "Sets the browser offline or online.",
		InputSchema: schema([]string{"state"}, map[string]any{"state": enum("online", "offline")}), Annotations: annWrite,
	}, func() any { return &netStateArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*netStateArgs)
		if in.State != "online" && in.State != "offline" {
			return nil, fmt.Errorf("state %q: want online or offline", in.State)
		}
		return done(ss.SetOffline(ctx, in.State == "offline"))
	})

	s.browserTool(&sdk.Tool{
		Name: "browser_cookie_list", Description: "Lists the cookies, of domain and path when given.",
		InputSchema: schema(nil, map[string]any{"domain": str, "path": str}), Annotations: annRead,
	}, func() any { return &cookieArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*cookieArgs)
		out, err := ss.Cookies(ctx, "", in.Domain, in.Path)
		return textOnly(out), err
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_cookie_get", Description: "The cookie name.",
		InputSchema: schema([]string{"name"}, map[string]any{"name": str}), Annotations: annRead,
	}, func() any { return &cookieArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		out, err := ss.Cookies(ctx, a.(*cookieArgs).Name, "", "")
		return textOnly(out), err
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_cookie_set", Description: "Sets a cookie (default: the current page's domain).",
		InputSchema: schema([]string{"name", "value"}, map[string]any{"name": str, "value": str, "domain": str, "path": str,
			"expires": number, "httpOnly": boolean, "secure": boolean, "sameSite": enum("Strict", "Lax", "None")}),
		Annotations: annWrite,
	}, func() any { return &cookieArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*cookieArgs)
		return done(ss.SetCookie(ctx, browsing.Cookie{Name: in.Name, Value: in.Value, Domain: in.Domain, Path: in.Path,
			Expires: in.Expires, HTTPOnly: in.HTTPOnly, Secure: in.Secure, SameSite: in.SameSite}))
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_cookie_delete", Description: "Deletes the cookie name.",
		InputSchema: schema([]string{"name"}, map[string]any{"name": str}), Annotations: annWrite,
	}, func() any { return &cookieArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		return done(ss.ClearCookies(ctx, a.(*cookieArgs).Name))
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_cookie_clear", Description: "Deletes every cookie.",
		InputSchema: schema(nil), Annotations: annWrite,
	}, func() any { return &cookieArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		return done(ss.ClearCookies(ctx, ""))
	})

	for _, area := range []string{"local", "session"} {
		area := area
		for _, op := range []struct{ op, desc string }{
			{"list", "Lists the %sStorage items of the page's origin."},
			{"get", "The %sStorage item key."},
			{"set", "Sets the %sStorage item key to value."},
			{"delete", "Deletes the %sStorage item key."},
			{"clear", "Deletes every %sStorage item of the page's origin."},
		} {
			op := op
			props, required := map[string]any{}, []string(nil)
			switch op.op {
			case "get", "delete":
				props["key"], required = str, []string{"key"}
			case "set":
				props["key"], props["value"], required = str, str, []string{"key", "value"}
			}
			ann := annWrite
			if op.op == "list" || op.op == "get" {
				ann = annRead
			}
			s.browserTool(&sdk.Tool{
				Name: "browser_" + area + "storage_" + op.op, Description: fmt.Sprintf(op.desc, area),
				InputSchema: schema(required, props), Annotations: ann,
			}, func() any { return &storageArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
				in := a.(*storageArgs)
				out, err := ss.WebStorage(ctx, area, op.op, in.Key, in.Value)
				return textOnly(out), err
			})
		}
	}

	s.browserTool(&sdk.Tool{
		Name: "browser_storage_state", Description: "Saves the cookies and local storage to filename (in the project; default storage-state-<time>.json).",
		InputSchema: schema(nil, map[string]any{"filename": str}), Annotations: annRead,
	}, func() any { return &storageArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*storageArgs)
		name := in.Filename
		if name == "" {
			name = fmt.Sprintf("storage-state-%s.json", time.Now().UTC().Format("2006-01-02T15-04-05Z"))
		}
		b, err := ss.StorageState(ctx)
		if err != nil {
			return nil, err
		}
		return s.saveOutput(name, b)
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_set_storage_state", Description: "Clears the cookies and local storage, then restores them from filename (in the project).",
		InputSchema: schema([]string{"filename"}, map[string]any{"filename": str}), Annotations: annWrite,
	}, func() any { return &storageArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		data, err := s.readCodeFile(a.(*storageArgs).Filename)
		if err != nil {
			return nil, err
		}
		return done(ss.SetStorageState(ctx, []byte(data)))
	})
}

type traceArgs struct {
	common
	Filename string `json:"filename"`
}

type highlightArgs struct {
	common
	targetArgs
	Style string `json:"style"`
}

// addDevtoolsTools adds the part of @playwright/mcp's devtools group
// that ferridriver has (tracing, highlights) and its config group.
func (s *Server) addDevtoolsTools() {
	s.browserTool(&sdk.Tool{
		Name: "browser_start_tracing", Description: "Starts a Playwright trace of the session (screenshots, DOM snapshots).",
		InputSchema: schema(nil), Annotations: annRead,
	}, func() any { return &traceArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		return done(ss.StartTracing(ctx))
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_stop_tracing", Description: "Stops the trace and saves it to filename (in the project; default trace-<time>.zip).",
		InputSchema: schema(nil, map[string]any{"filename": str}), Annotations: annRead,
	}, func() any { return &traceArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		name := a.(*traceArgs).Filename
		if name == "" {
			name = fmt.Sprintf("trace-%s.zip", time.Now().UTC().Format("2006-01-02T15-04-05Z"))
		}
		path, err := s.outputPath(name)
		if err != nil {
			return nil, err
		}
		if err := ss.StopTracing(ctx, path); err != nil {
			return nil, err
		}
		return textOnly("Saved to " + name + " (npx playwright show-trace " + name + ")"), nil
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_highlight", Description: "Draws an overlay around an element (style: extra CSS).",
		InputSchema: schema(nil, targetProps, map[string]any{"style": str}), Annotations: annRead,
	}, func() any { return &highlightArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*highlightArgs)
		return done(ss.Highlight(ctx, in.target(), in.Style, true))
	})
	s.browserTool(&sdk.Tool{
		Name: "browser_hide_highlight", Description: "Removes the overlay of an element, or all.",
		InputSchema: schema(nil, targetProps), Annotations: annRead,
	}, func() any { return &highlightArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*highlightArgs)
		return done(ss.Highlight(ctx, in.target(), "", false))
	})
}
