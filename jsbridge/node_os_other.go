//go:build !linux

package jsbridge

import (
	"time"

	"golang.org/x/sys/unix"
)

// memInfo returns the total memory in bytes; free memory is not known here.
func memInfo() (total, free uint64) {
	t, _ := unix.SysctlUint64("hw.memsize")
	return t, 0
}

func loadAvg() []float64 { return []float64{0, 0, 0} }

func systemUptime() float64 { return time.Since(startTime).Seconds() }
