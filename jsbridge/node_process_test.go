package jsbridge

import (
	"errors"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/messages"
)

// process.exit fails the step that calls it (ferridriver does not exit),
// even when the step catches the exception, and even from a callback of
// the step; the next step runs normally.
func TestProcessExitFailsTheStep(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": `
		const { Given } = require('@cucumber/cucumber')
		Given('it exits', function () { process.exit(3) })
		Given('it exits and catches', function () { try { process.exit(4) } catch (e) {} })
		Given('it exits later', async function () {
			setTimeout(() => process.exit(), 5)
			await new Promise((r) => setTimeout(r, 2000))
		})
		Given('it passes', function () {})
	`}, VMOptions{})
	world, err := vm.NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	steps := vm.Registry().Steps
	for i, want := range []int64{3, 4, 0} {
		start := time.Now()
		out := vm.RunStep(steps[i], world, nil, nil, 5*time.Second)
		var exit *ExitError
		if out.Status != messages.TestStepResultStatusFailed || !errors.As(out.Err, &exit) || exit.Code != want {
			t.Errorf("step %d: %s %v, want a failure with exit code %d", i, out.Status, out.Err, want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("step %d: failed after %v, not at once", i, d)
		}
	}
	if out := vm.RunStep(steps[3], world, nil, nil, 5*time.Second); out.Status != messages.TestStepResultStatusPassed {
		t.Errorf("the next step: %s %v", out.Status, out.Err)
	}
}

func TestProcessObject(t *testing.T) {
	vm, out := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	for _, tc := range []struct{ src, want string }{
		{`return [process.platform, typeof process.arch, process.argv.length >= 2, process.cwd() === require('path').resolve('.'), typeof process.pid, process.exitCode].join()`, "linux,string,true,true,number,"},
		{`const m = process.memoryUsage(); return (m.heapUsed > 0) + ' ' + (process.memoryUsage.rss() > 0) + ' ' + (process.uptime() >= 0)`, "true true true"},
		{`const order = []; process.nextTick((a) => order.push('tick ' + a), 1); Promise.resolve().then(() => order.push('then')); order.push('sync'); await new Promise((r) => setTimeout(r, 1)); return order.join()`, "sync,tick 1,then"},
		{`return process.on('exit', () => {}) === process && process.listenerCount('exit') === 0 && process.emit('x') === false`, "true"},
		{`process.stdout.write('out '); process.stdout.write(Buffer.from('bytes\n')); return process.stdout.isTTY`, "false"},
		{`try { process.chdir('/') } catch (e) { return e.message }`, "process.chdir is not supported in ferridriver: relative paths resolve against the project directory"},
		{`return process.getBuiltinModule('fs') === require('fs')`, "true"},
	} {
		if got := mustEval(t, vm, tc.src); got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
	if out.String() != "out bytes\n" {
		t.Errorf("stdout: %q", out.String())
	}
}
