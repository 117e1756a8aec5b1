//go:build !linux

package world

import "time"

// Without /proc there is no portable way to list a browser's processes;
// Close relies on Playwright closing the browser and the driver.

type procInfo struct{}

func (l *Launcher) tracked() map[int]procInfo            { return nil }
func (l *Launcher) killTracked(wait time.Duration) error { return nil }

// ProcessIDs lists the live processes of this Launcher's browsers (Linux
// only; empty here).
func (l *Launcher) ProcessIDs() []int { return nil }

// BrowserPIDs lists the main process of each browser (Linux only; empty
// here).
func (l *Launcher) BrowserPIDs() []int { return nil }

func driverChildren() map[int]bool { return nil }

func processGone(pid int) bool { return false }
