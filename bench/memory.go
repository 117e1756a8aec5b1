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
//
// The CPU columns come from the same samples: a process's stat file gives
// its own CPU time and that of the children it has waited for, so a
// subtree's CPU is its processes' own times plus what they reaped. The
// browser's share is the CPU of the subtrees whose first process runs
// Chromium, the command's own share its process's own time, and the rest
// (the driver, cucumber-js's worker processes) what is left of the whole
// tree's; each is the latest sample's, so the last interval's work is
// left out. (The times wait4 reports for the command miss processes that
// outlive their parents, as Chromium's do when the driver exits.)

// memPeak is the peak PSS of a run's process tree (KiB), in all and by
// part; RSS is the command's own peak resident set (from its rusage).
type memPeak struct {
	Tree, Own, Browser, Rest int64
	RSS                      int64
	Samples                  int
	CPU                      cpuTime
}

// cpuTime is the CPU time (user + system) of a run's process tree, in all
// and by part.
type cpuTime struct {
	Total, Own, Browser, Rest time.Duration
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
	procs := descendants(s.root)
	for i := range procs {
		procs[i].browser = procs[i].pid != s.root && s.isBrowser(procs[i].pid)
	}
	s.sampleCPU(procs)
	for _, p := range procs {
		pid := p.pid
		pss, ok := processPSS(pid)
		if !ok {
			continue
		}
		n++
		tree += pss
		switch {
		case pid == s.root:
			own += pss
		case p.browser:
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

// sampleCPU records the CPU split as of this sample (see the top of the
// file): the command's own time, and the whole time of each subtree whose
// first process is a browser's.
func (s *sampler) sampleCPU(procs []proc) {
	total := map[int]time.Duration{} // pid: own time + reaped children's
	var own time.Duration
	for _, p := range procs {
		self, reaped, ok := processCPU(p.pid)
		if !ok {
			continue
		}
		total[p.pid] = self + reaped
		if p.pid == s.root {
			own = self
		}
	}
	// procs lists parents before children: add each subtree's total into
	// its parent's, from the leaves up.
	for i := len(procs) - 1; i > 0; i-- {
		total[procs[i].parent] += total[procs[i].pid]
	}
	var browser time.Duration
	isBrowser := map[int]bool{}
	for _, p := range procs { // parents first
		isBrowser[p.pid] = p.browser
		if p.browser && !isBrowser[p.parent] {
			browser += total[p.pid]
		}
	}
	c := &s.peak.CPU
	// The maxima: a process that leaves the tree unreaped takes its time
	// with it.
	c.Total, c.Own, c.Browser = max(c.Total, total[s.root]), max(c.Own, own), max(c.Browser, browser)
	c.Rest = max(0, c.Total-c.Own-c.Browser)
}

// proc is a process of the sampled tree; browser says whether it runs
// Chromium (set by sample).
type proc struct {
	pid, parent int
	browser     bool
}

// descendants lists root and every process below it, parents first, from
// each thread's children file (no scan of all of /proc).
func descendants(root int) []proc {
	out := []proc{{pid: root}}
	for i := 0; i < len(out); i++ {
		parent := strconv.Itoa(out[i].pid)
		tasks, err := os.ReadDir("/proc/" + parent + "/task")
		if err != nil {
			continue
		}
		for _, t := range tasks {
			data, err := os.ReadFile("/proc/" + parent + "/task/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(data)) {
				if pid, err := strconv.Atoi(f); err == nil {
					out = append(out, proc{pid: pid, parent: out[i].pid})
				}
			}
		}
	}
	return out
}

// clockTick is the unit of the times in /proc/<pid>/stat (USER_HZ, 100
// on Linux).
const clockTick = 10 * time.Millisecond

// processCPU reads a process's own CPU time (user + system) and that of
// the children it has waited for.
func processCPU(pid int) (self, reaped time.Duration, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// The command name, in parentheses, may hold spaces: fields count
	// from the last ')'. utime, stime, cutime, cstime are fields 14-17.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 15 {
		return 0, 0, false
	}
	var t [4]int64
	for k := range t {
		if t[k], err = strconv.ParseInt(f[11+k], 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return time.Duration(t[0]+t[1]) * clockTick, time.Duration(t[2]+t[3]) * clockTick, true
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
