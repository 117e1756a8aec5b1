// Package capability enforces the default-deny capability manifest that
// extension tools declare as `allow: { commands: {...}, net: [...] }`, and
// the `[scripting] allowEnv` process-environment allow-list.
//
// The package is plain Go with no JavaScript dependency: the goja binding
// layer translates its results and errors into JS values. A typical binding:
//
//	allow, err := capability.ParseAllow(manifest["allow"]) // at registration
//	cmds := session.For(toolName, allow.Commands)           // per handler call
//	out, err := cmds.Run(ctx, "build", vars)                 // commands.run
//	client := allow.Net.Client()                             // request + fetch
//
// # Commands (allow.commands, alias allow.exec)
//
// A command is declared by name; a tool may run only the names it declared.
// A declaration is a string (a `sh -c` line) or an object with the keys
// run, timeoutMs (or timeout_ms), cwd, env, output and persistent; any other
// key is rejected at parse time. See [ParseSpec] for every rule.
//
// ${name} placeholders are substituted strictly (see [Commands.Run]): each
// placeholder needs a string, number or boolean value; shell-form values are
// single-quoted, argv-form values are passed as literal arguments without a
// shell.
//
// A one-shot command runs with a cleared environment (PATH plus the declared
// env names that exist), stdin from /dev/null, in its own session and process
// group. Limits:
//   - timeout: the spec's timeoutMs, or [DefaultTimeout] (120 s) when unset;
//     on timeout the whole process group is SIGKILLed;
//   - output: stdout and stderr are each capped at [MaxOutputBytes] (8 MiB);
//     past the cap the group is SIGKILLed and the call fails;
//   - when the main process exits, anything it left running in its process
//     group is SIGKILLed too (use a persistent command for servers).
//
// Persistent commands (persistent: true) are started, inspected and stopped
// with [Commands.Start], [Commands.Status] and [Commands.Stop]. They belong to
// a [Session], which outlives any single JS VM; [Session.Close] kills them
// all. Each session holds at most [MaxPersistent] (16) live processes, and
// keeps the last [RingBytes] (64 KiB) of each stream. The process table is
// scoped by tool: a tool can only see and stop processes started under its
// own name from its own declarations.
//
// # Net (allow.net)
//
// A [NetPolicy] is a host allow-list (exact hosts, `*.suffix` wildcards that
// also match the apex, IP literals). An empty list is unrestricted; a
// non-empty list denies every other host. Cloud metadata endpoints are always
// denied, also after DNS resolution. [NetPolicy.Client] returns an
// *http.Client that enforces the policy on every request, every redirect hop
// and every dial.
//
// # Environment ([scripting] allowEnv)
//
// [EnvAllowList] returns exactly the listed names that exist in the real
// environment.
//
// The user-facing rules are documented in docs/capabilities.md.
package capability
