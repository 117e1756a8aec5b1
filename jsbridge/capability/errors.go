package capability

import "errors"

// Sentinel errors, matched with errors.Is. The errors returned by this
// package wrap them and carry the command name or host in their message.
var (
	// ErrNotDeclared: the command name is not in the tool's allow.commands.
	ErrNotDeclared = errors.New("not in this tool's allow.commands")
	// ErrKindMismatch: run on a persistent spec, or start/status/stop on a
	// one-shot spec.
	ErrKindMismatch = errors.New("command kind mismatch")
	// ErrSubstitution: a ${name} placeholder is missing or has a value of
	// the wrong type.
	ErrSubstitution = errors.New("invalid command variables")
	// ErrTimeout: a one-shot command ran past its timeout and its process
	// group was killed.
	ErrTimeout = errors.New("command timed out")
	// ErrOutputLimit: stdout or stderr exceeded MaxOutputBytes and the
	// process group was killed.
	ErrOutputLimit = errors.New("command output limit exceeded")
	// ErrCommandFailed: the command exited non-zero or died from a signal.
	ErrCommandFailed = errors.New("command failed")
	// ErrTooManyProcesses: the session already holds MaxPersistent live
	// persistent processes.
	ErrTooManyProcesses = errors.New("too many persistent processes")
	// ErrNotStarted: status/stop named a persistent process that this tool
	// has not started in this session (or that was stopped).
	ErrNotStarted = errors.New("persistent process not started")
	// ErrSessionClosed: the session was closed; no process can be started.
	ErrSessionClosed = errors.New("session closed")
	// ErrNetDenied: a URL or host was refused by a NetPolicy.
	ErrNetDenied = errors.New("network access denied")
	// ErrFSDenied: a path was refused by a FSPolicy.
	ErrFSDenied = errors.New("filesystem access denied")
)
