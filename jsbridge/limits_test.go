package jsbridge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/messages"
)

// Steps and hooks that grow the heap past the VM's memory limit (in a
// synchronous loop, across awaits, in a hook) fail with a *MemoryError; a
// step that stays under it passes; no interrupt leaks into the next step,
// and the memory is returned.
func TestMemoryLimitStopsSteps(t *testing.T) {
	const limit = 96 << 20
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": `
		const { Given, Before } = require('@cucumber/cucumber')
		const hog = (keep) => { for (let i = 0; i < 256; i++) keep.push(new Uint8Array(4 << 20)) }
		Given('sync', function () { hog([]) })
		Given('async', async function () { this.keep = []; for (let i = 0; i < 256; i++) { this.keep.push(new Uint8Array(4 << 20)); await new Promise((r) => setTimeout(r, 0)) } })
		Given('small', function () { globalThis.small = new Uint8Array(8 << 20).length })
		Before(function () { hog([]) })
	`}, VMOptions{MemoryLimit: limit})
	reg := vm.Registry()
	for i, name := range []string{"sync", "async", "small", "hook"} {
		world, err := vm.NewWorld()
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		var out Outcome
		if name == "hook" {
			out = vm.RunHook(reg.Hooks[0], world, &HookArg{}, 30*time.Second)
		} else {
			out = vm.RunStep(reg.Steps[i], world, nil, nil, 30*time.Second)
		}
		var me *MemoryError
		switch {
		case name == "small":
			if out.Status != messages.TestStepResultStatusPassed {
				t.Errorf("small: %v %v", out.Status, out.Err)
			}
		case !errors.As(out.Err, &me) || out.Status != messages.TestStepResultStatusFailed:
			t.Errorf("%s: %v %v, want a MemoryError", name, out.Status, out.Err)
		case me.Limit != limit || me.Grown <= limit || !strings.Contains(me.Error(), "over the memory limit of 96 MiB") || !strings.Contains(me.Error(), "[test] memoryLimit"):
			t.Errorf("%s: %+v: %v", name, me, me)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: stopped after %v", name, d)
		}
	}
	if v, err := eval(t, vm, "return 1 + 1"); err != nil || v.ToInteger() != 2 {
		t.Fatalf("after the stops: %v %v", v, err)
	}
}

// Attachments over the VM's attachment limit throw, naming their size, the
// limit and the setting, whatever their form (string, base64 string,
// Buffer, file stream, log); those within it are attached.
func TestAttachmentLimit(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": `
		const { Given } = require('@cucumber/cucumber')
		const fs = require('fs')
		Given('a string of {int} bytes', function (n) { this.attach('x'.repeat(n)) })
		Given('base64 of {int} bytes', function (n) { this.attach('QUFB'.repeat(n / 3), 'base64:application/octet-stream') })
		Given('a buffer of {int} bytes', function (n) { this.attach(Buffer.alloc(n)) })
		Given('the file {word}', async function (name) { await this.attach(fs.createReadStream(name)) })
		Given('a log of {int} bytes', function (n) { this.log('l'.repeat(n)) })
	`}, VMOptions{AttachmentLimit: 1 << 20})
	big := filepath.Join(vm.opts.Dir, "big.bin")
	if err := os.WriteFile(big, make([]byte, 3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	var attached []int
	vm.SetAttachTarget(func(a *messages.Attachment) { attached = append(attached, len(a.Body)) })
	reg := vm.Registry()
	world, err := vm.NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	arg := func(s string) []StepArg { return []StepArg{{Values: []*string{&s}, ParamType: "int"}} }
	for _, tc := range []struct {
		step int
		arg  string
		size string // in the error; "" when it passes
	}{
		{0, "1048576", ""},
		{0, "1048577", "1048577 bytes"},
		{1, "3145728", "3 MiB"},
		{1, "786432", ""},
		{2, "1572864", "1.5 MiB"},
		{2, "1024", ""},
		{4, "2000000", "1.9 MiB"},
	} {
		attached = nil
		out := vm.RunStep(reg.Steps[tc.step], world, arg(tc.arg), nil, 10*time.Second)
		if tc.size == "" {
			if out.Status != messages.TestStepResultStatusPassed || len(attached) != 1 {
				t.Errorf("step %d (%s): %v %v, %d attached", tc.step, tc.arg, out.Status, out.Err, len(attached))
			}
			continue
		}
		limit := "1 MiB"
		if strings.HasSuffix(tc.size, "bytes") {
			limit = "1048576 bytes"
		}
		want := "attach: the attachment is " + tc.size + ", over the attachment limit of " + limit + " ([test] attachmentLimit"
		if out.Status != messages.TestStepResultStatusFailed || out.Err == nil || !strings.Contains(out.Err.Error(), want) || len(attached) != 0 {
			t.Errorf("step %d (%s): %v %v, %d attached; want %q", tc.step, tc.arg, out.Status, out.Err, len(attached), want)
		}
	}
	name := "big.bin"
	out := vm.RunStep(reg.Steps[3], world, []StepArg{{Values: []*string{&name}, ParamType: "word"}}, nil, 10*time.Second)
	if out.Err == nil || !strings.Contains(out.Err.Error(), "the attachment is 3 MiB, over the attachment limit of 1 MiB") {
		t.Errorf("a file stream over the limit: %v %v", out.Status, out.Err)
	}
}
