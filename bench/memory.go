package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The memory columns: while a command runs, its process tree is sampled
// from /proc (Linux): every process's proportional set size (PSS, from
// smaps_rollup: memory shared between processes, such as Chromium's, is
// divided among them, so the sum is what the tree costs the machine) and
// the peak of each sum is kept. The tree is split into the browser
// (Chromium's processes), the command's own process, and the rest (the
// Playwright driver for ferridriver and the floor; cucumber-js's worker
// processes). Where /proc is missing, the columns say so.

// memPeak is the peak PSS of a run's process tree (KiB), in all and by
// part; RSS is the command's own peak resident set (from its rusage).
type memPeak struct {
	Tree, Own, Browser, Rest int64
	RSS                      int64
	Samples                  int
}

// sampler follows one process tree until stopped.
type sampler struct {
	root     int
	interval time.Duration
	stop     chan struct{}
	done     chan struct{}
	peak     memPeak
	browser  map[int]bool // by pid: runs a Chromium executable
}

func startSampler(root int, interval time.Duration) *sampler {
	s := &sampler{root: root, interval: interval, stop: make(chan struct{}), done: make(chan struct{}), browser: map[int]bool{}}
	go func() {
		defer close(s.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// finish stops sampling (the process has exited) and returns the peaks.
func (s *sampler) finish() memPeak {
	close(s.stop)
	<-s.done
	return s.peak
}

func (s *sampler) sample() {
	var tree, own, browser, rest int64
	n := 0
	for _, pid := range descendants(s.root) {
		pss, ok := processPSS(pid)
		if !ok {
			continue
		}
		n++
		tree += pss
		switch {
		case pid == s.root:
			own += pss
		case s.isBrowser(pid):
			browser += pss
		default:
			rest += pss
		}
	}
	if n == 0 {
		return
	}
	p := &s.peak
	p.Samples++
	p.Tree, p.Own, p.Browser, p.Rest = max(p.Tree, tree), max(p.Own, own), max(p.Browser, browser), max(p.Rest, rest)
}

// descendants lists root and every process below it, from each thread's
// children file (no scan of all of /proc).
func descendants(root int) []int {
	out := []int{root}
	for i := 0; i < len(out); i++ {
		tasks, err := os.ReadDir("/proc/" + strconv.Itoa(out[i]) + "/task")
		if err != nil {
			continue
		}
		for _, t := range tasks {
			data, err := os.ReadFile("/proc/" + strconv.Itoa(out[i]) + "/task/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(data)) {
				if pid, err := strconv.Atoi(f); err == nil {
					out = append(out, pid)
				}
			}
		}
	}
	return out
}

// processPSS reads a process's PSS (KiB).
func processPSS(pid int) (int64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb, err == nil
			}
		}
	}
	return 0, false
}

// isBrowser says whether a process runs a Chromium executable.
func (s *sampler) isBrowser(pid int) bool {
	if v, ok := s.browser[pid]; ok {
		return v
	}
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	is := err == nil && strings.Contains(strings.ToLower(filepath.Base(exe)), "chrom")
	if is {
		// Only a browser is remembered: a process forked to become one
		// shows its parent's executable until it execs.
		s.browser[pid] = true
	}
	return is
}

// memoryAvailable says whether /proc has what the sampler reads.
func memoryAvailable() bool {
	_, err := os.Stat("/proc/self/smaps_rollup")
	return err == nil
}

// mib formats KiB as MiB.
func mib(kb int64) string {
	return strconv.FormatFloat(float64(kb)/1024, 'f', 0, 64) + " MiB"
}
