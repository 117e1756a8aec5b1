package capability

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// stderrInError bounds how much stderr an exit error quotes: enough to see
// the failure, not 8 MiB in an MCP error result.
const stderrInError = 4096

// Commands is one tool's view of the commands capability: its own declared
// set plus the session's process table, scoped to the tool. It is what the
// JS `commands` object binds to. Safe for concurrent use.
type Commands struct {
	session *Session
	tool    string
	set     *CommandSet
}

// Run runs the one-shot command declared under name to completion and
// returns its shaped stdout: a string or nil (output "text"), any decoded
// JSON value or nil ("json"), or a []string ("lines").
//
// Each ${key} in the template is replaced by vars[key], which must exist
// and be a string, number or boolean (numbers are formatted as JavaScript
// does: 3, not 3.0; NaN and Infinity are refused). Shell-form values are
// single-quoted; argv-form values become literal argument text. Extra vars
// are ignored.
//
// Run fails, naming the command, when the name is not declared, the spec is
// persistent, a placeholder is missing or ill-typed, the process cannot be
// started, it exits non-zero or from a signal (the message quotes the
// trimmed tail of stderr), it outlives its timeout, stdout or stderr passes
// MaxOutputBytes, ctx is cancelled (the last three kill the process group),
// or "json" output does not parse.
func (c *Commands) Run(ctx context.Context, name string, vars map[string]any) (any, error) {
	spec, err := c.set.lookup(name)
	if err != nil {
		return nil, err
	}
	if spec.Persistent {
		return nil, newCmdError(ErrKindMismatch,
			"command %q is declared persistent: use commands.start, commands.status and commands.stop", name)
	}
	argv, err := spec.resolve(vars)
	if err != nil {
		return nil, err
	}
	stdout, err := runOnce(ctx, spec, argv)
	if err != nil {
		return nil, err
	}
	return shapeOutput(spec, stdout)
}

// runOnce executes argv under spec's limits and returns the raw stdout.
func runOnce(ctx context.Context, spec *Spec, argv []string) ([]byte, error) {
	name := spec.Name
	out, errw := newCapWriter(MaxOutputBytes), newCapWriter(MaxOutputBytes)
	ch, err := startChild(argv, spec.Cwd, childEnv(spec.Env), out, errw)
	if err != nil {
		return nil, fmt.Errorf("command %q: cannot start: %w", name, err)
	}
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()

	var cause error
	kill := true
	select {
	case <-ch.exited:
		kill = false
	case <-timer.C:
		cause = newCmdError(ErrTimeout, "command %q timed out after %dms (process group killed)",
			name, timeout.Milliseconds())
	case <-out.over: // reported below, once the output is final
	case <-errw.over:
	case <-ctx.Done():
		cause = fmt.Errorf("command %q cancelled (process group killed): %w", name, ctx.Err())
	}
	if kill {
		ch.kill()
	}
	<-ch.done // the readers are finished: the writers may be read now
	if cause != nil {
		return nil, cause
	}
	// Checked after done too: output can pass the cap just before exit.
	for _, s := range []struct {
		w    *capWriter
		name string
	}{{out, "stdout"}, {errw, "stderr"}} {
		if s.w.overflow {
			return nil, newCmdError(ErrOutputLimit, "command %q: %s exceeded %d bytes (process group killed)",
				name, s.name, MaxOutputBytes)
		}
	}
	if desc, ok := ch.exitDescription(); !ok {
		msg := fmt.Sprintf("command %q failed: %s", name, desc)
		if tail := stderrTail(errw.buf); tail != "" {
			msg += ": " + tail
		}
		return nil, newCmdError(ErrCommandFailed, "%s", msg)
	}
	return out.buf, nil
}

// stderrTail is the trimmed stderr, cut to its last stderrInError bytes.
func stderrTail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > stderrInError {
		s = "…" + strings.TrimSpace(s[len(s)-stderrInError:])
	}
	return s
}

// shapeOutput turns stdout into the value the spec's output mode promises.
func shapeOutput(spec *Spec, stdout []byte) (any, error) {
	text := strings.TrimSpace(string(stdout))
	switch spec.Output {
	case OutputJSON:
		if text == "" {
			return nil, nil
		}
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, fmt.Errorf("command %q: output is not valid JSON: %w", spec.Name, err)
		}
		return v, nil
	case OutputLines:
		lines := []string{}
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		return lines, nil
	default:
		if text == "" {
			return nil, nil
		}
		return text, nil
	}
}
