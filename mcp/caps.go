package mcp

import (
	"fmt"
	"sort"
	"strings"
)

// Tool groups (--caps). Every tool list an agent gets costs tokens on
// each turn, so the groups a project does not use can be left out, and
// @playwright/mcp's optional groups are added by the names it gives them.

// capGroups maps each group to its tools; tools in no group are core.
var capGroups = map[string][]string{
	// On by default.
	"testing": {"browser_verify_element_visible", "browser_verify_text_visible", "browser_verify_value",
		"browser_verify_list_visible", "browser_generate_locator"},
	"bdd":    {"run_bdd", "session_export"},
	"script": {ToolRunScript, ToolRunCode},
	// Off by default (@playwright/mcp's --caps names).
	"vision": {"browser_mouse_move_xy", "browser_mouse_click_xy", "browser_mouse_drag_xy",
		"browser_mouse_down", "browser_mouse_up", "browser_mouse_wheel"},
	"pdf":     {"browser_pdf_save"},
	"network": {"browser_route", "browser_route_list", "browser_unroute", "browser_network_state_set"},
	"storage": {"browser_cookie_list", "browser_cookie_get", "browser_cookie_set", "browser_cookie_delete", "browser_cookie_clear",
		"browser_localstorage_list", "browser_localstorage_get", "browser_localstorage_set", "browser_localstorage_delete", "browser_localstorage_clear",
		"browser_sessionstorage_list", "browser_sessionstorage_get", "browser_sessionstorage_set", "browser_sessionstorage_delete", "browser_sessionstorage_clear",
		"browser_storage_state", "browser_set_storage_state"},
	// @playwright/mcp's devtools and config groups.
	"devtools": {"browser_start_tracing", "browser_stop_tracing", "browser_highlight", "browser_hide_highlight",
		"browser_start_video", "browser_stop_video", "browser_video_chapter", "browser_video_show_actions", "browser_video_hide_actions",
		"browser_start_recording", "browser_stop_recording", "browser_resume", "browser_annotate"},
	"config": {"browser_get_config"},
}

// defaultCaps are the groups on without --caps.
var defaultCaps = []string{"testing", "bdd", "script"}

// ResolveCaps turns --caps items into the set of groups on: "name" adds a
// group, "-name" leaves one out; "core" (always on) and @playwright/mcp's
// "tabs" and "install" are accepted and change nothing.
func ResolveCaps(items []string) (map[string]bool, error) {
	on := map[string]bool{}
	for _, g := range defaultCaps {
		on[g] = true
	}
	for _, item := range items {
		for _, name := range strings.Split(item, ",") {
			name = strings.TrimSpace(strings.ToLower(name))
			off := strings.HasPrefix(name, "-")
			name = strings.TrimPrefix(name, "-")
			switch {
			case name == "", name == "core", name == "tabs", name == "install":
				continue
			case name == "verify":
				name = "testing"
			case capGroups[name] == nil:
				return nil, fmt.Errorf("--caps %q: unknown group (groups: %s; -name leaves one out)", name, capNames())
			}
			on[name] = !off
		}
	}
	return on, nil
}

func capNames() string {
	var names []string
	for g := range capGroups {
		names = append(names, g)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// offered reports whether the tool name is served with the server's
// groups.
func (s *Server) offered(name string) bool {
	for g, tools := range capGroups {
		for _, t := range tools {
			if t == name {
				return s.caps[g]
			}
		}
	}
	return true
}
