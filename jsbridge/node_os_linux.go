package jsbridge

import "golang.org/x/sys/unix"

func sysinfo() *unix.Sysinfo_t {
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) != nil {
		return nil
	}
	return &si
}

// memInfo returns the total and free memory in bytes.
func memInfo() (total, free uint64) {
	si := sysinfo()
	if si == nil {
		return 0, 0
	}
	return uint64(si.Totalram) * uint64(si.Unit), uint64(si.Freeram) * uint64(si.Unit)
}

func loadAvg() []float64 {
	si := sysinfo()
	if si == nil {
		return []float64{0, 0, 0}
	}
	const scale = 1 << 16
	return []float64{float64(si.Loads[0]) / scale, float64(si.Loads[1]) / scale, float64(si.Loads[2]) / scale}
}

func systemUptime() float64 {
	si := sysinfo()
	if si == nil {
		return 0
	}
	return float64(si.Uptime)
}
