package jsbridge

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/messages"
)

// A step's clock stops while the step waits for what is not its work
// (PauseStepClock): a wait longer than the step's timeout, in a native
// call on the loop or in a goroutine the step awaits, does not time it out,
// and its duration leaves the wait out (Outcome.Paused). Without the
// pause the same steps time out.
func TestPausedStepClock(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": `
		const { Given } = require('@cucumber/cucumber')
		Given('it waits on the loop', function () { __waitOnLoop() })
		Given('it waits off the loop', async function () { await __waitOffLoop() })
	`}, VMOptions{})
	const wait, timeout = 400 * time.Millisecond, 150 * time.Millisecond
	pause := true
	pausing := func() func() {
		if pause {
			return vm.PauseStepClock()
		}
		return func() {}
	}
	vm.Runtime().Set("__waitOnLoop", func() {
		defer pausing()()
		time.Sleep(wait)
	})
	vm.Runtime().Set("__waitOffLoop", func() goja.Value {
		return vm.Loop().Promise(func() (any, error) {
			defer pausing()()
			time.Sleep(wait)
			return nil, nil
		}, nil)
	})
	world, err := vm.NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	for i, def := range vm.Registry().Steps {
		pause = true
		out := vm.RunStep(def, world, nil, nil, timeout)
		if out.Status != messages.TestStepResultStatusPassed {
			t.Errorf("%s, paused: %v %v", def.Pattern, out.Status, out.Err)
		}
		if out.Paused < wait || out.Paused > 3*wait {
			t.Errorf("%s: paused %v, want about %v", def.Pattern, out.Paused, wait)
		}
		pause = false
		out = vm.RunStep(def, world, nil, nil, timeout)
		var te *TimeoutError
		if !errors.As(out.Err, &te) {
			t.Errorf("%s, not paused: %v %v, want a timeout", def.Pattern, out.Status, out.Err)
		}
		if out.Paused != 0 {
			t.Errorf("%s, not paused: Paused %v", def.Pattern, out.Paused)
		}
		if vm.Interrupted() {
			// The on-the-loop case leaves the VM interrupted; the rest
			// needs a fresh one.
			if i == 0 {
				break
			}
		}
	}
	// Outside a step it does nothing.
	vm.PauseStepClock()()
}

// A step's timeout error says where the timeout was set: the VM's default
// (a [test] timeout), setDefaultTimeout, or the definition's own.
func TestTimeoutSetting(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		opts       VMOptions
		want       string
	}{
		{"default", ``, VMOptions{}, "the default step timeout"},
		{"configured", ``, VMOptions{DefaultTimeout: 20 * time.Millisecond, DefaultTimeoutSource: "[test] timeout in ferridriver.toml"}, "[test] timeout in ferridriver.toml"},
		{"setDefaultTimeout", "setDefaultTimeout(20)\n", VMOptions{DefaultTimeout: time.Minute, DefaultTimeoutSource: "[test] timeout"}, "setDefaultTimeout at entry.js:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": "const { Given, setDefaultTimeout } = require('@cucumber/cucumber')\n" + tc.code +
				"Given('it is slow', () => new Promise(() => {}))\nGiven('it is slow with its own', { timeout: 20 }, () => new Promise(() => {}))\n"}, tc.opts)
			reg := vm.Registry()
			world, err := vm.NewWorld()
			if err != nil {
				t.Fatal(err)
			}
			timeout := reg.TimeoutFor(0)
			if tc.name == "default" {
				if timeout != DefaultStepTimeout {
					t.Fatalf("default timeout %v", timeout)
				}
				timeout = 20 * time.Millisecond // keep the test quick; the source stays the default's
			}
			out := vm.RunStep(reg.Steps[0], world, nil, nil, timeout)
			var te *TimeoutError
			if !errors.As(out.Err, &te) || !strings.Contains(te.Setting, tc.want) {
				t.Fatalf("%v: setting %q, want %q", out.Err, te.Setting, tc.want)
			}
			out = vm.RunStep(reg.Steps[1], world, nil, nil, reg.TimeoutFor(reg.Steps[1].Timeout))
			own := fmt.Sprintf("the { timeout } of the definition at entry.js:%d", 3+strings.Count(tc.code, "\n"))
			if !errors.As(out.Err, &te) || !strings.Contains(te.Setting, own) {
				t.Fatalf("%v: setting %q", out.Err, te.Setting)
			}
		})
	}
}

// A step that timed out while awaiting a promise that rejects later does
// not fail the next step with that rejection: the timed-out step's promise
// was given up on (cucumber-js races it with the timeout, which handles it).
func TestLateRejectionOfATimedOutStep(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": "const { Given } = require('@cucumber/cucumber')\n" +
		"Given('it fails too late', async () => { await new Promise((_, reject) => setTimeout(() => reject(new Error('too late')), 50)) })\n" +
		"Given('it waits', () => new Promise((r) => setTimeout(r, 150)))\n"}, VMOptions{})
	reg := vm.Registry()
	world, err := vm.NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	out := vm.RunStep(reg.Steps[0], world, nil, nil, 10*time.Millisecond)
	var te *TimeoutError
	if !errors.As(out.Err, &te) {
		t.Fatalf("first step: %v, want a timeout", out.Err)
	}
	if out = vm.RunStep(reg.Steps[1], world, nil, nil, 5*time.Second); out.Err != nil {
		t.Fatalf("the next step failed with the earlier step's rejection: %v", out.Err)
	}
	if got := vm.UnhandledRejections(); len(got) != 0 {
		t.Fatalf("unhandled: %v", got)
	}
}
