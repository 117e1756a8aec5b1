package jsbridge

import (
	"errors"
	"testing"
	"time"
)

// Step checks see every step's and hook's error and may replace it;
// StepDeadline is the running step's deadline, zero between steps.
func TestStepChecksAndDeadline(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": `
		const { Given, Before } = require('@cucumber/cucumber')
		Before(function () {})
		Given('it passes', function () { globalThis.left = __deadlineLeft() })
		Given('it fails', function () { throw new Error('own failure') })
	`}, VMOptions{})
	var seen []string
	vm.AddStepCheck(func(err error) error {
		if err != nil {
			seen = append(seen, err.Error())
			return err
		}
		seen = append(seen, "ok")
		return errors.New("replaced by the check")
	})
	if !vm.StepDeadline().IsZero() {
		t.Fatal("a deadline outside any step")
	}
	reg := vm.Registry()
	world, err := vm.NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	// The deadline is readable from native code the step calls.
	vm.Runtime().Set("__deadlineLeft", func() float64 { return time.Until(vm.StepDeadline()).Seconds() })
	out := vm.RunStep(reg.Steps[0], world, nil, nil, 3*time.Second)
	if out.Err == nil || out.Err.Error() != "replaced by the check" {
		t.Fatalf("passing step: %+v", out)
	}
	if left := vm.Runtime().Get("left").ToFloat(); left <= 2 || left > 3 {
		t.Errorf("time left in the step: %v s", left)
	}
	out = vm.RunStep(reg.Steps[1], world, nil, nil, 0)
	if out.Err == nil || !errors.As(out.Err, new(*JSError)) {
		t.Fatalf("failing step: %+v", out)
	}
	if h := vm.RunHook(reg.Hooks[0], world, &HookArg{}, 0); h.Err == nil {
		t.Fatal("the check did not run for the hook")
	}
	if len(seen) != 3 || seen[0] != "ok" || seen[2] != "ok" {
		t.Errorf("checks saw %q", seen)
	}
	if !vm.StepDeadline().IsZero() {
		t.Error("the deadline outlived the step")
	}
}
