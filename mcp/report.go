package mcp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Report is what loaded: the output of `ferridriver extensions --json` and
// the result of the ferridriver_extensions MCP tool (the same data). It
// shows each tool's declared capabilities in full, so that a reviewer sees
// which commands run through a shell before deploying a server.
type Report struct {
	// Host is the ferridriver.host the files were evaluated under.
	Host string `json:"host"`
	// Count is the number of loaded tools.
	Count int          `json:"count"`
	Files []FileReport `json:"files"`
	// Errors are the files that failed to bundle or load (their tools are
	// not loaded).
	Errors []Problem `json:"errors"`
	// Warnings are tools that ask to be exposed but are not served.
	Warnings []Problem `json:"warnings"`
}

// FileReport is one extension file and the tools it registered.
type FileReport struct {
	Path  string       `json:"path"`
	Tools []ToolReport `json:"tools"`
	// Error is set when the file failed to bundle or load.
	Error string `json:"error,omitempty"`
}

// ToolReport describes one tool.
type ToolReport struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	// ExposeAsTool is the manifest's request; Exposed says whether the MCP
	// server serves it (see Warnings when they differ).
	ExposeAsTool bool `json:"exposeAsTool"`
	Exposed      bool `json:"exposed"`
	// TimeoutMs is the tool's timeoutMs, null when it has none.
	TimeoutMs *int64 `json:"timeoutMs"`
	// Source is where defineTool was called (file:line).
	Source string      `json:"source"`
	Allow  AllowReport `json:"allow"`
	// InputSchema is included on request (--include-schema,
	// include_schema: true); null when the tool declares none.
	InputSchema *json.RawMessage `json:"inputSchema,omitempty"`
}

// AllowReport is a tool's declared capabilities.
type AllowReport struct {
	// Net is allow.net; empty means unrestricted (but for cloud metadata).
	Net []string `json:"net"`
	// Commands is allow.commands with every spec in full.
	Commands map[string]CommandReport `json:"commands"`
	// FS is allow.fs: the folders the tool may read and write (empty:
	// none).
	FS FSReport `json:"fs"`
}

// FSReport is a tool's allow.fs, as declared.
type FSReport struct {
	Read  []string `json:"read"`
	Write []string `json:"write"`
}

// CommandReport is one declared command. Exactly one of Shell and Argv is
// set: Shell is a `sh -c` line (a shell interprets it), Argv runs without
// a shell.
type CommandReport struct {
	Shell string   `json:"shell,omitempty"`
	Argv  []string `json:"argv,omitempty"`
	// TimeoutMs is the effective one-shot timeout (the default applies
	// when the spec declares none); 0 for persistent commands.
	TimeoutMs  int64    `json:"timeoutMs,omitempty"`
	Cwd        string   `json:"cwd,omitempty"`
	Env        []string `json:"env"`
	Output     string   `json:"output,omitempty"`
	Persistent bool     `json:"persistent"`
}

// Problem is an error or warning about a file or a tool.
type Problem struct {
	File    string `json:"file"`
	Tool    string `json:"tool,omitempty"`
	Message string `json:"message"`
}

// Builtins are the names of the server's built-in tools. An extension tool
// of the same name is not exposed (it stays callable with plugins[...]).
var Builtins = []string{ToolExtensions, ToolRunScript}

// Built-in tool names.
const (
	ToolExtensions = "ferridriver_extensions"
	ToolRunScript  = "run_script"
)

// Exposure says whether the MCP server serves def as a tool, and if not,
// why (empty when the tool does not ask to be exposed).
func Exposure(def *jsbridge.ToolDef) (bool, string) {
	if !def.ExposeAsTool {
		return false, ""
	}
	for _, b := range Builtins {
		if def.Name == b {
			return false, fmt.Sprintf("exposeAsTool: the name collides with the built-in tool %q, so the tool is not exposed (plugins[%q] still reaches it)", b, def.Name)
		}
	}
	if msg := toolNameProblem(def.Name); msg != "" {
		return false, "exposeAsTool: " + msg + ", so the tool is not exposed (plugins[...] still reaches it)"
	}
	if def.InputSchema != nil {
		var m map[string]any
		if err := json.Unmarshal(def.InputSchema, &m); err != nil || m["type"] != "object" {
			return false, `exposeAsTool: an MCP tool's inputSchema must be an object schema with "type": "object", so the tool is not exposed`
		}
	}
	return true, ""
}

// toolNameProblem applies MCP's tool name rules: 1 to 128 characters of
// A-Z a-z 0-9 _ - and dot.
func toolNameProblem(name string) string {
	if len(name) > 128 {
		return fmt.Sprintf("the name is longer than 128 characters (MCP's limit)")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Sprintf("the name contains %q, which MCP tool names may not (allowed: A-Z a-z 0-9 _ - .)", string(r))
		}
	}
	return ""
}

// BuildReport describes the tools of reg, grouped by the files of set,
// with the files' load errors.
func BuildReport(host string, set *jsbridge.ExtensionSet, reg *jsbridge.Registry, loadErrs []*jsbridge.FileError, includeSchema bool) *Report {
	r := &Report{Host: host, Files: []FileReport{}, Errors: []Problem{}, Warnings: []Problem{}}
	index := map[string]int{}
	addFile := func(path string) int {
		if i, ok := index[path]; ok {
			return i
		}
		index[path] = len(r.Files)
		r.Files = append(r.Files, FileReport{Path: path, Tools: []ToolReport{}})
		return index[path]
	}
	if set != nil {
		for _, f := range set.Files {
			addFile(f.URI)
		}
	}
	for _, e := range loadErrs {
		i := addFile(e.File)
		r.Files[i].Error = e.Error()
		r.Errors = append(r.Errors, Problem{File: e.File, Message: e.Error()})
	}
	if reg != nil {
		for _, def := range reg.Tools {
			i := addFile(def.File)
			exposed, why := Exposure(def)
			tr := toolReport(def, exposed, includeSchema)
			if why != "" {
				r.Warnings = append(r.Warnings, Problem{File: def.File, Tool: def.Name, Message: why})
			}
			r.Files[i].Tools = append(r.Files[i].Tools, tr)
			r.Count++
		}
	}
	sort.SliceStable(r.Files, func(i, j int) bool { return r.Files[i].Path < r.Files[j].Path })
	return r
}

func toolReport(def *jsbridge.ToolDef, exposed, includeSchema bool) ToolReport {
	tr := ToolReport{
		Name: def.Name, Title: def.Title, Description: def.Description,
		ExposeAsTool: def.ExposeAsTool, Exposed: exposed, Source: def.Source.String(),
		Allow: AllowReport{Net: def.Allow.Net.Entries(), Commands: map[string]CommandReport{},
			FS: FSReport{Read: def.Allow.FS.Read(), Write: def.Allow.FS.Write()}},
	}
	if tr.Allow.Net == nil {
		tr.Allow.Net = []string{}
	}
	if tr.Allow.FS.Read == nil {
		tr.Allow.FS.Read = []string{}
	}
	if tr.Allow.FS.Write == nil {
		tr.Allow.FS.Write = []string{}
	}
	if def.Timeout > 0 {
		ms := def.Timeout.Milliseconds()
		tr.TimeoutMs = &ms
	}
	for _, name := range def.Allow.Commands.Names() {
		spec, _ := def.Allow.Commands.Lookup(name)
		tr.Allow.Commands[name] = commandReport(spec)
	}
	if includeSchema {
		raw := json.RawMessage("null")
		if def.InputSchema != nil {
			raw = def.InputSchema
		}
		tr.InputSchema = &raw
	}
	return tr
}

func commandReport(s *capability.Spec) CommandReport {
	c := CommandReport{Shell: s.Shell, Argv: s.Argv, Cwd: s.Cwd, Env: s.Env, Persistent: s.Persistent}
	if c.Env == nil {
		c.Env = []string{}
	}
	if !s.Persistent {
		c.Output = string(s.Output)
		t := s.Timeout
		if t <= 0 {
			t = capability.DefaultTimeout
		}
		c.TimeoutMs = t.Milliseconds()
	}
	return c
}

// Text renders the report for a terminal: each file, its tools and their
// capabilities, with the shell-form commands marked.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d tool(s) loaded for host %q from %d file(s)\n", r.Count, r.Host, len(r.Files))
	for _, f := range r.Files {
		fmt.Fprintf(&b, "\n%s\n", f.Path)
		if f.Error != "" {
			fmt.Fprintf(&b, "  FAILED TO LOAD: %s\n", indent(f.Error, "    "))
		}
		if len(f.Tools) == 0 && f.Error == "" {
			fmt.Fprintf(&b, "  (no tools)\n")
		}
		for _, t := range f.Tools {
			exposed := "not exposed (plugins only)"
			switch {
			case t.Exposed:
				exposed = "exposed as an MCP tool"
			case t.ExposeAsTool:
				exposed = "asks to be exposed, NOT exposed (see warnings)"
			}
			fmt.Fprintf(&b, "  %s  [%s]\n", t.Name, exposed)
			if t.Description != "" {
				fmt.Fprintf(&b, "    %s\n", indent(t.Description, "    "))
			}
			fmt.Fprintf(&b, "    defined at %s\n", t.Source)
			if t.TimeoutMs != nil {
				fmt.Fprintf(&b, "    timeoutMs: %d\n", *t.TimeoutMs)
			} else {
				fmt.Fprintf(&b, "    timeoutMs: none\n")
			}
			if len(t.Allow.Net) == 0 {
				fmt.Fprintf(&b, "    net: unrestricted (cloud metadata always denied)\n")
			} else {
				fmt.Fprintf(&b, "    net: %s\n", strings.Join(t.Allow.Net, ", "))
			}
			if len(t.Allow.FS.Read)+len(t.Allow.FS.Write) == 0 {
				fmt.Fprintf(&b, "    fs: none\n")
			} else {
				fmt.Fprintf(&b, "    fs: read %s; write %s\n", listOrNone(t.Allow.FS.Read), listOrNone(t.Allow.FS.Write))
			}
			if len(t.Allow.Commands) == 0 {
				fmt.Fprintf(&b, "    commands: none\n")
			}
			names := make([]string, 0, len(t.Allow.Commands))
			for n := range t.Allow.Commands {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				c := t.Allow.Commands[n]
				how := ""
				if c.Shell != "" {
					how = "SHELL  sh -c " + quoteJSON(c.Shell)
				} else {
					parts := make([]string, len(c.Argv))
					for i, a := range c.Argv {
						parts[i] = quoteJSON(a)
					}
					how = "argv   [" + strings.Join(parts, ", ") + "]"
				}
				fmt.Fprintf(&b, "    command %s: %s\n", n, how)
				var extra []string
				if c.Persistent {
					extra = append(extra, "persistent")
				} else {
					extra = append(extra, fmt.Sprintf("timeoutMs %d", c.TimeoutMs), "output "+c.Output)
				}
				if c.Cwd != "" {
					extra = append(extra, "cwd "+c.Cwd)
				}
				if len(c.Env) > 0 {
					extra = append(extra, "env "+strings.Join(c.Env, ","))
				}
				fmt.Fprintf(&b, "      %s\n", strings.Join(extra, ", "))
			}
			if t.InputSchema != nil {
				fmt.Fprintf(&b, "    inputSchema: %s\n", string(*t.InputSchema))
			}
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintf(&b, "\nwarnings:\n")
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "  %s (%s): %s\n", w.Tool, w.File, w.Message)
		}
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(&b, "\nerrors:\n")
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "  %s\n", indent(e.Message, "    "))
		}
	}
	return b.String()
}

func indent(s, prefix string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}
