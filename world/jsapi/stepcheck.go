package jsapi

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// stepCheck fails a step at its end with the expect.soft failures and the
// errors of event and route handlers collected while it ran. One failure
// is reported as it is; several are numbered in one message. A step that
// failed on its own keeps its error, with the others appended.
func (r *Runtime) stepCheck(err error) error {
	if len(r.soft) == 0 && len(r.uncaught) == 0 {
		return err
	}
	soft, uncaught := r.soft, r.uncaught
	r.soft, r.uncaught = nil, nil
	var je *jsbridge.JSError
	if err != nil && !errors.As(err, &je) {
		return err // a timeout or an interrupt says more than the rest
	}
	var collected []*jsbridge.JSError
	for _, v := range append(soft, uncaught...) {
		collected = append(collected, r.vm.ErrorOf(v))
	}
	if len(collected) == 0 {
		return err
	}
	what := "soft assertion failures"
	if len(soft) == 0 {
		what = "errors in event handlers"
	} else if len(uncaught) > 0 {
		what = "failures"
	}
	if je != nil && je.Type != "PendingException" && je.Type != "SkippedException" {
		var b strings.Builder
		b.WriteString(je.Message)
		fmt.Fprintf(&b, "\n\nand %d more %s:", len(collected), what)
		for i, c := range collected {
			fmt.Fprintf(&b, "\n\n%d) %s", i+1, c.Message)
		}
		return &jsbridge.JSError{Type: je.Type, Message: b.String(), Stack: je.Type + ": " + b.String() + framesPart(je.Stack), Value: je.Value}
	}
	first := collected[0]
	if len(collected) == 1 {
		return first
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s:", len(collected), what)
	for i, c := range collected {
		fmt.Fprintf(&b, "\n\n%d) %s", i+1, c.Message)
	}
	return &jsbridge.JSError{Type: first.Type, Message: b.String(), Stack: first.Type + ": " + b.String() + framesPart(first.Stack), Value: first.Value}
}

// framesPart returns the "\n    at ..." lines of a Node-style stack.
func framesPart(stack string) string {
	if i := strings.Index(stack, "\n    at "); i >= 0 {
		return stack[i:]
	}
	return ""
}
