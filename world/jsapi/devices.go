package jsapi

import (
	"context"
	"fmt"

	"github.com/dop251/goja"
)

// devicesW is the `devices` export of @playwright/test, playwright and
// playwright-core: Playwright's device descriptors by name
// (devices['iPhone 13'] = { userAgent, screen, viewport,
// deviceScaleFactor, isMobile, hasTouch, defaultBrowserType }), read from
// the driver package ferridriver runs (no copy of the table), on first
// use, once per VM.
type devicesW struct {
	r   *Runtime
	all *goja.Object
}

// devices returns the VM's devices object.
func (r *Runtime) devices() goja.Value {
	if r.devicesObj == nil {
		r.devicesObj = r.rt.NewDynamicObject(&devicesW{r: r})
	}
	return r.devicesObj
}

// load parses the descriptors the first time they are needed; a failure
// (no driver) throws, naming the cause.
func (d *devicesW) load() *goja.Object {
	if d.all != nil {
		return d.all
	}
	r := d.r
	host, err := r.getHost()
	if err == nil {
		var raw []byte
		if raw, err = host.DeviceDescriptors(context.Background()); err == nil {
			if o, ok := r.vm.FromJSON(string(raw)).(*goja.Object); ok {
				d.all = o
				return o
			}
			err = fmt.Errorf("not an object")
		}
	}
	panic(r.newError("Error", "devices: Playwright's device descriptors could not be read: "+err.Error(), r.rt.CaptureCallStack(0, nil)))
}

func (d *devicesW) Get(k string) goja.Value { return d.load().Get(k) }

func (d *devicesW) Set(k string, v goja.Value) bool { return d.load().Set(k, v) == nil }

func (d *devicesW) Has(k string) bool {
	o := d.load()
	for _, key := range o.Keys() {
		if key == k {
			return true
		}
	}
	return false
}

func (d *devicesW) Delete(k string) bool { return d.load().Delete(k) == nil }

func (d *devicesW) Keys() []string { return d.load().Keys() }
