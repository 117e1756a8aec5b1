package jsbridge

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// The sandbox is defined by resource, not by API: one check per resource,
// which every API reaching it asks.
//
// Files: every API that reads or writes a file for JavaScript asks
// CheckPath: node:fs, attachments
// read from a stream's file, and the browser API's paths (world/jsapi:
// route.fulfill, setInputFiles, screenshots, storage state, traces,
// downloads, file:// navigation). Which folders it grants depends on who
// runs, never on the API:
//
//   - a tool handler (and the callbacks it registered): its allow.fs;
//   - first-party code in the bdd host: every path, as under Node;
//   - first-party code in the mcp and script hosts: the host's grant
//     (SetScriptFiles: [mcp] allowRead/allowWrite for MCP clients,
//     [scripting.allow.fs] for `ferridriver run`), nothing without one.
//
// Network: the requests JavaScript issues (fetch, node:http, a handler's
// request client, and the browser API's page.request, context.request,
// route.fetch, route.continue({url})) are checked against RequestPolicy:
// the running tool's allow.net, or for first-party code every host but
// the cloud metadata endpoints, which no one reaches.

// Default grants of the hosts, named in their denials when the host set
// none.
var (
	mcpFilesGrant    = capability.FSGrant{Read: "[mcp] allowRead (--allow-read)", Write: "[mcp] allowWrite (--allow-write)"}
	scriptFilesGrant = capability.FSGrant{Read: "[scripting.allow.fs] read", Write: "[scripting.allow.fs] write"}
)

// SetScriptFiles grants first-party code of the mcp and script hosts
// (scripts, run_script) the folders of p. Tool handlers never inherit
// it: their own allow.fs applies. In the bdd host first-party code has
// every path whatever is set. Loop goroutine only.
func SetScriptFiles(vm *VM, p *capability.FSPolicy) {
	vm.toolsOf().scriptFiles = p
}

// FilePolicy returns the filesystem grant of the code running now and
// whose it is (`tool "x"`, or "" for first-party code). Loop goroutine
// only.
func (vm *VM) FilePolicy() (*capability.FSPolicy, string) {
	if f := CurrentFrame(vm); f != nil {
		return f.tool.Allow.FS, fmt.Sprintf("tool %q", f.tool.Name)
	}
	if vm.opts.Host == HostBDD {
		return capability.UnrestrictedFS(), ""
	}
	if p := vm.toolsOf().scriptFiles; p != nil {
		return p, ""
	}
	if vm.opts.Host == HostMCP {
		return (*capability.FSPolicy)(nil).WithGrant(mcpFilesGrant), ""
	}
	return (*capability.FSPolicy)(nil).WithGrant(scriptFilesGrant), ""
}

// CheckPath decides whether the code running now may read or write path
// (relative paths are relative to the project directory) and returns the
// path to use: absolute, with its symlinks resolved when a policy
// restricts it (see capability.FSPolicy.Check). A denial names the tool
// and the setting to grant. Loop goroutine only.
func (vm *VM) CheckPath(path string, access capability.FSAccess) (string, error) {
	p, owner := vm.FilePolicy()
	if f := CurrentFrame(vm); f != nil {
		if err := f.revoked(); err != nil {
			return "", err
		}
	}
	resolved, err := p.Check(vm.dir, path, access)
	if err != nil && owner != "" {
		return "", fmt.Errorf("%s: %w", owner, err)
	}
	return resolved, err
}

// AccessDenied is the JavaScript error of a denial by a capability check
// (files or network) in api: an Error with code ERR_ACCESS_DENIED, as
// Node's permission model throws, whose permission says which resource
// was refused (FileSystemRead, FileSystemWrite or Network) and resource
// what. Loop goroutine only.
func (vm *VM) AccessDenied(api string, err error) goja.Value {
	msg := err.Error()
	if api != "" {
		msg = api + ": " + msg
	}
	v := vm.newError("Error", msg, "ERR_ACCESS_DENIED")
	if o, ok := v.(*goja.Object); ok {
		var fe *capability.FSError
		var ne *capability.NetError
		switch {
		case errors.As(err, &fe):
			perm := "FileSystemRead"
			if fe.Access&capability.FSWrite != 0 {
				perm = "FileSystemWrite"
			}
			o.Set("permission", perm)
			o.Set("resource", fe.Resolved)
		case errors.As(err, &ne):
			o.Set("permission", "Network")
			o.Set("resource", ne.URL)
		}
	}
	return v
}

// RequestPolicy returns the policy that binds the requests the code
// running now issues: the running tool's allow.net, or nil (every host but
// the cloud metadata endpoints) for first-party code; and whose it is
// (`tool "x"`, or ""). Loop goroutine only.
func (vm *VM) RequestPolicy() (*capability.NetPolicy, string) {
	if f := CurrentFrame(vm); f != nil {
		return f.Net(), fmt.Sprintf("tool %q", f.tool.Name)
	}
	return nil, ""
}
