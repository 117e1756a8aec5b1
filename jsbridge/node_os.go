package jsbridge

import (
	"net"
	"net/netip"
	"os"
	"os/user"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"golang.org/x/sys/unix"
)

// node:os, node:constants, node:net (address checks only) and the clock
// of node:perf_hooks.

var startTime = time.Now()

func (vm *VM) osModule() *goja.Object {
	rt := vm.rt
	o := rt.NewObject()
	var uts unix.Utsname
	_ = unix.Uname(&uts)
	field := func(b []byte) string { return strings.TrimRight(string(b), "\x00") }
	o.Set("EOL", "\n")
	o.Set("devNull", os.DevNull)
	o.Set("platform", func() string { return runtime.GOOS })
	o.Set("type", func() string { return field(uts.Sysname[:]) })
	o.Set("release", func() string { return field(uts.Release[:]) })
	o.Set("version", func() string { return field(uts.Version[:]) })
	o.Set("machine", func() string { return field(uts.Machine[:]) })
	o.Set("arch", func() string { return nodeArch() })
	o.Set("endianness", func() string { return "LE" })
	o.Set("tmpdir", func() string { return strings.TrimSuffix(os.TempDir(), "/") })
	o.Set("homedir", func() string { h, _ := os.UserHomeDir(); return h })
	o.Set("hostname", func() string { h, _ := os.Hostname(); return h })
	o.Set("availableParallelism", func() int { return runtime.NumCPU() })
	o.Set("cpus", func() []map[string]any {
		out := make([]map[string]any, runtime.NumCPU())
		for i := range out {
			out[i] = map[string]any{"model": runtime.GOARCH, "speed": 0, "times": map[string]any{"user": 0, "nice": 0, "sys": 0, "idle": 0, "irq": 0}}
		}
		return out
	})
	o.Set("totalmem", func() float64 { t, _ := memInfo(); return float64(t) })
	o.Set("freemem", func() float64 { _, f := memInfo(); return float64(f) })
	o.Set("loadavg", func() []float64 { return loadAvg() })
	o.Set("uptime", func() float64 { return systemUptime() })
	o.Set("userInfo", func() map[string]any {
		u, err := user.Current()
		if err != nil {
			return map[string]any{"uid": os.Getuid(), "gid": os.Getgid(), "username": "", "homedir": "", "shell": nil}
		}
		return map[string]any{"uid": os.Getuid(), "gid": os.Getgid(), "username": u.Username, "homedir": u.HomeDir, "shell": os.Getenv("SHELL")}
	})
	o.Set("networkInterfaces", func() map[string]any {
		out := map[string]any{}
		ifs, _ := net.Interfaces()
		for _, ifc := range ifs {
			addrs, _ := ifc.Addrs()
			var list []any
			for _, a := range addrs {
				ipn, ok := a.(*net.IPNet)
				if !ok {
					continue
				}
				family := "IPv4"
				if ipn.IP.To4() == nil {
					family = "IPv6"
				}
				ones, _ := ipn.Mask.Size()
				list = append(list, map[string]any{"address": ipn.IP.String(), "netmask": net.IP(ipn.Mask).String(), "family": family, "mac": ifc.HardwareAddr.String(), "internal": ifc.Flags&net.FlagLoopback != 0, "cidr": ipn.String(), "prefixLength": ones})
			}
			if len(list) > 0 {
				out[ifc.Name] = list
			}
		}
		return out
	})
	o.Set("getPriority", func() int { return 0 })
	o.Set("setPriority", func() {})
	consts := rt.NewObject()
	consts.Set("signals", signalConstants(rt))
	consts.Set("errno", errnoConstants(rt))
	consts.Set("priority", map[string]any{"PRIORITY_LOW": 19, "PRIORITY_BELOW_NORMAL": 10, "PRIORITY_NORMAL": 0, "PRIORITY_ABOVE_NORMAL": -7, "PRIORITY_HIGH": -14, "PRIORITY_HIGHEST": -20})
	o.Set("constants", consts)
	return o
}

// nodeArch is process.arch: Node's names for Go's architectures.
func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	}
	return runtime.GOARCH
}

func signalConstants(rt *goja.Runtime) *goja.Object {
	o := rt.NewObject()
	for s := syscall.Signal(1); s < 32; s++ {
		if name := unix.SignalName(s); name != "" {
			o.Set(name, int(s))
		}
	}
	return o
}

func errnoConstants(rt *goja.Runtime) *goja.Object {
	o := rt.NewObject()
	for e := syscall.Errno(1); e < 256; e++ {
		if name := unix.ErrnoName(e); name != "" {
			o.Set(name, int(e))
		}
	}
	return o
}

// constantsModule is Node's deprecated `constants` module: the errno,
// signal and fs constants in one object (graceful-fs reads it).
func (vm *VM) constantsModule() *goja.Object {
	rt := vm.rt
	o := rt.NewObject()
	for _, src := range []*goja.Object{errnoConstants(rt), signalConstants(rt), vm.fsConstants()} {
		copyProps(rt, o, src)
	}
	return o
}

// netModule has node:net's address checks; sockets are not available.
func (vm *VM) netModule() *goja.Object {
	rt := vm.rt
	o := rt.NewObject()
	version := func(s string) int {
		// ParseAddr rejects IPv4 parts with leading zeros, as Node does.
		a, err := netip.ParseAddr(s)
		switch {
		case err != nil:
			return 0
		case a.Is4():
			return 4
		}
		return 6
	}
	o.Set("isIP", func(s string) int { return version(s) })
	o.Set("isIPv4", func(s string) bool { return version(s) == 4 })
	o.Set("isIPv6", func(s string) bool { return version(s) == 6 })
	unavailable := func(name string) func(goja.FunctionCall) goja.Value {
		return func(goja.FunctionCall) goja.Value {
			panic(vm.newError("Error", "net."+name+" is not available in ferridriver (no raw sockets; use fetch or node:http)", "ERR_FEATURE_UNAVAILABLE_ON_PLATFORM"))
		}
	}
	for _, n := range []string{"connect", "createConnection", "createServer", "Socket", "Server"} {
		o.Set(n, unavailable(n))
	}
	return o
}

// clockBinding gives perf_hooks its clock: milliseconds since the process
// started, and the Unix time of that start.
func (vm *VM) clockBinding() goja.Value {
	b := vm.rt.NewObject()
	b.Set("now", func() float64 { return float64(time.Since(startTime).Nanoseconds()) / 1e6 })
	b.Set("timeOrigin", float64(startTime.UnixNano())/1e6)
	return b
}
