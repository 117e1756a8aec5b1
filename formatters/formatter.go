// Package formatters turns the one stream of Cucumber Messages envelopes of a
// run into the reports users and CI read. Every format is a Formatter: a
// consumer of envelopes that never reaches back into the runner, so a saved
// NDJSON stream renders exactly like a live run (`ferridriver report`).
package formatters

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/ferridriver/ferridriver/messages"
)

// Formatter consumes the envelope stream of one run.
//
// Handle is called once per envelope, in stream order, from a single
// goroutine. Close is called exactly once after the last envelope; a run that
// was interrupted still ends with a testRunFinished envelope (success=false)
// before Close, so every formatter can complete its output.
type Formatter interface {
	Handle(env *messages.Envelope) error
	Close() error
}

// Options configure one formatter instance.
type Options struct {
	// Out is where the formatter writes. The Set owns opening and closing it.
	Out io.Writer
	// Path is the output file, or "" for stdout.
	Path string
	// Color enables ANSI colours (decided by the caller from the TTY,
	// NO_COLOR, --no-color and the colorsEnabled format option).
	Color bool
	// TTY reports whether Out is an interactive terminal.
	TTY bool
	// FormatOptions is the merged --format-options JSON object.
	FormatOptions map[string]any
	// Seed is the seed of --order random, or "" for a non-random order.
	Seed string
	// Cwd is the directory paths in reports are relative to.
	Cwd string
	// Custom builds the formatter of a format name that is not registered:
	// a cucumber-js custom formatter (a module path or an npm package, see
	// formatters/custom). Nil: such a name is an error.
	Custom func(spec Spec, o Options) (Formatter, error)
}

// Factory builds a formatter.
type Factory func(Options) (Formatter, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]Factory{}
)

// Register makes a format available by name. Each format registers itself
// from its own file.
func Register(name string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("formatters: duplicate format " + name)
	}
	registry[name] = f
}

// New builds the registered format name, writing to o.Out.
func New(name string, o Options) (Formatter, error) {
	registryMu.RLock()
	factory, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown format %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return factory(o)
}

// Names returns the registered format names, sorted.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Spec is one --format value: a format name and an optional output path.
type Spec struct {
	Name string
	Path string // "" means stdout
}

func (s Spec) String() string {
	if s.Path == "" {
		return s.Name
	}
	return s.Name + ":" + s.Path
}

// ParseSpec parses "name", "name:path" or the cucumber-js quoted form
// `"name":"path"`. A Windows drive letter in the path is kept whole.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Spec{}, errors.New("empty --format value")
	}
	if strings.HasPrefix(s, `"`) {
		end := strings.Index(s[1:], `"`)
		if end < 0 {
			return Spec{}, fmt.Errorf("--format %s: unterminated quote", s)
		}
		name, rest := s[1:1+end], s[2+end:]
		if rest == "" {
			return Spec{Name: name}, nil
		}
		if !strings.HasPrefix(rest, ":") {
			return Spec{}, fmt.Errorf("--format %s: expected ':' after the quoted name", s)
		}
		return Spec{Name: name, Path: strings.Trim(rest[1:], `"`)}, nil
	}
	name, path, found := strings.Cut(s, ":")
	if !found {
		return Spec{Name: s}, nil
	}
	if name == "" {
		return Spec{}, fmt.Errorf("--format %s: missing format name", s)
	}
	return Spec{Name: name, Path: path}, nil
}

// Set fans the stream out to several formatters. A formatter that fails is
// reported once on Errors and dropped; the others keep going, so one
// unwritable report never costs the rest.
type Set struct {
	members []member
	errOut  io.Writer
	failed  bool
}

type member struct {
	spec   Spec
	f      Formatter
	closer *reportFile // the output file, nil for stdout
	dead   bool
}

// NewSet opens every spec (creating parent directories of output paths)
// and builds its formatter. Only one spec may write to stdout. Errors
// building a formatter (unknown name, bad options, unwritable path) are
// returned before any envelope flows, so a run never starts half-reported.
func NewSet(specs []Spec, base Options, stdout, errOut io.Writer, isTTY bool) (*Set, error) {
	// What can be checked without opening anything is, first, so that a
	// bad --format leaves no file behind.
	stdoutOwner := ""
	paths := map[string]string{}
	abs := make([]string, len(specs))
	for i, sp := range specs {
		registryMu.RLock()
		_, ok := registry[sp.Name]
		registryMu.RUnlock()
		if !ok && base.Custom != nil {
			ok = true // a custom formatter, built below
		}
		if !ok {
			return nil, fmt.Errorf("unknown format %q (known: %s)", sp.Name, strings.Join(Names(), ", "))
		}
		if sp.Path == "" {
			if stdoutOwner != "" {
				return nil, fmt.Errorf("formats %q and %q both write to stdout; give one a path (name:path)", stdoutOwner, sp.Name)
			}
			stdoutOwner = sp.Name
			continue
		}
		path := sp.Path
		if !filepath.IsAbs(path) && base.Cwd != "" {
			path = filepath.Join(base.Cwd, path)
		}
		if other, dup := paths[path]; dup {
			return nil, fmt.Errorf("formats %q and %q both write to %s", other, sp.Name, sp.Path)
		}
		paths[path] = sp.Name
		abs[i] = path
	}
	set := &Set{errOut: errOut}
	for i, sp := range specs {
		registryMu.RLock()
		factory := registry[sp.Name]
		registryMu.RUnlock()
		if factory == nil {
			sp := sp
			factory = func(o Options) (Formatter, error) { return base.Custom(sp, o) }
		}
		opts := base
		opts.Path = sp.Path
		var closer *reportFile
		if sp.Path == "" {
			opts.Out, opts.TTY = stdout, isTTY
		} else {
			if err := os.MkdirAll(filepath.Dir(abs[i]), 0o755); err != nil {
				set.abandon()
				return nil, fmt.Errorf("--format %s: %w", sp, err)
			}
			f, err := openReport(abs[i], inPlaceFormats[sp.Name])
			if err != nil {
				set.abandon()
				return nil, fmt.Errorf("--format %s: %w", sp, err)
			}
			opts.Out, opts.TTY, opts.Color = f, false, false
			closer = f
		}
		fm, err := factory(opts)
		if err != nil {
			if closer != nil {
				closer.discard()
				closer.Close()
			}
			set.abandon()
			return nil, fmt.Errorf("--format %s: %w", sp, err)
		}
		set.members = append(set.members, member{spec: sp, f: fm, closer: closer})
	}
	return set, nil
}

// Handle passes env to every live formatter.
func (s *Set) Handle(env *messages.Envelope) {
	for i := range s.members {
		m := &s.members[i]
		if m.dead {
			continue
		}
		if err := m.f.Handle(env); err != nil {
			s.fail(m, err)
		}
	}
}

// earlyWriter is a Formatter that takes the envelopes of a test case
// waiting behind the head of the plan when they are produced (the message
// stream, written through to its file).
type earlyWriter interface {
	Early(env *messages.Envelope) error
}

// Early passes an envelope of a test case that waits behind the head of
// the plan (another worker's), as soon as it is produced, to the formats
// that write it then; Handle passes it again when the test case reaches
// the head, in stream order (see runner.EarlySink).
func (s *Set) Early(env *messages.Envelope) {
	for i := range s.members {
		m := &s.members[i]
		if e, ok := m.f.(earlyWriter); ok && !m.dead {
			if err := e.Early(env); err != nil {
				s.fail(m, err)
			}
		}
	}
}

// Close completes every formatter and closes its output.
func (s *Set) Close() {
	for i := range s.members {
		m := &s.members[i]
		if !m.dead {
			if err := m.f.Close(); err != nil {
				s.fail(m, err)
			}
		}
		if m.closer != nil {
			if err := m.closer.Close(); err != nil && !m.dead {
				s.fail(m, err)
			}
		}
	}
}

// abandon closes a Set that will not be used (NewSet failed): the files
// it opened are removed.
func (s *Set) abandon() {
	for i := range s.members {
		if f := s.members[i].closer; f != nil {
			f.discard()
		}
	}
	s.Close()
}

// Failed reports whether any formatter failed.
func (s *Set) Failed() bool { return s.failed }

func (s *Set) fail(m *member, err error) {
	note := ""
	if f := m.closer; f != nil {
		note = f.fail()
	}
	m.dead = true
	s.failed = true
	if s.errOut != nil {
		fmt.Fprintf(s.errOut, "ferridriver: format %s failed: %v%s (other reports are still written)\n", m.spec, err, note)
	}
}
