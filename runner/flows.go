package runner

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ferridriver/ferridriver/internal/slashpath"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// Reusable flows (the built-in steps `I call "..."`, Karate's call): a
// scenario tagged @flow (or every scenario of a feature tagged @flow) is
// not a test case of its own; a step calls it by its name, or calls a
// feature file by its path, and runs its steps in the caller's World.

// flowTag marks a scenario, or a feature's scenarios, as flows.
const flowTag = "@flow"

// isFlow says whether a pickle with these tags is a flow.
func isFlow(tags []string) bool { return slices.Contains(tags, flowTag) }

// flowFinder finds the flows a step calls: the @flow scenarios of the
// run's features and, when a name is not among them, of the project's
// feature files (flowPaths: [test] features, so a run of one file finds
// the project's flows), and feature files by path. Shared by the workers.
type flowFinder struct {
	dir, language string
	flowPaths     []string

	mu     sync.Mutex
	byName map[string][]flowRef
	// seen are the files whose @flow scenarios are in byName, by URI.
	seen map[string]bool
	// scanned is set once flowPaths were searched.
	scanned bool
	// files are feature files parsed when a step called them by path.
	files map[string]*feature
}

// flowRef is a flow: a pickle of a feature.
type flowRef struct {
	f *feature
	p *messages.Pickle
}

func newFlowFinder(dir, language string, flowPaths []string) *flowFinder {
	return &flowFinder{dir: dir, language: language, flowPaths: flowPaths, byName: map[string][]flowRef{}, seen: map[string]bool{}, files: map[string]*feature{}}
}

// addFeature indexes the @flow pickles of f. Call with mu held, or before
// the workers start.
func (ff *flowFinder) addFeature(f *feature) {
	if ff.seen[f.uri] {
		return
	}
	ff.seen[f.uri] = true
	for _, p := range f.pickles {
		if isFlow(pickleTags(p)) {
			ff.byName[p.Name] = append(ff.byName[p.Name], flowRef{f, p})
		}
	}
}

// find is the run's jsbridge.FlowSource.
func (ff *flowFinder) find(name, fromURI string) ([]jsbridge.Flow, error) {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	if isFeatureFile(name) {
		return ff.byPath(name, fromURI)
	}
	refs := ff.byName[name]
	if len(refs) == 0 && !ff.scanned {
		ff.scanned = true
		if err := ff.scan(); err != nil {
			return nil, err
		}
		refs = ff.byName[name]
	}
	switch len(refs) {
	case 0:
		known := make([]string, 0, len(ff.byName))
		for n := range ff.byName {
			known = append(known, fmt.Sprintf("%q", n))
		}
		sort.Strings(known)
		list := "there are none"
		if len(known) > 0 {
			list = "there are " + strings.Join(known, ", ")
		}
		return nil, fmt.Errorf("no flow is named %q: a flow is a scenario tagged @flow (%s); a feature file is called by its path, e.g. \"flows/login.feature\"", name, list)
	case 1:
		return []jsbridge.Flow{flowOf(refs[0].f, refs[0].p)}, nil
	}
	where := make([]string, len(refs))
	for i, r := range refs {
		where[i] = fmt.Sprintf("%s:%d", r.f.uri, r.p.Location.Line)
	}
	return nil, fmt.Errorf("several flows are named %q (%s): give them different names", name, strings.Join(where, ", "))
}

// scan indexes the @flow scenarios of the project's feature files.
func (ff *flowFinder) scan() error {
	files, err := discoverFeatures(ff.dir, ff.flowPaths)
	if err != nil {
		return fmt.Errorf("looking for flows in %s: %w", strings.Join(ff.flowPaths, ", "), err)
	}
	for _, file := range files {
		uri := slashpath.Rel(ff.dir, file.path)
		if ff.seen[uri] {
			continue
		}
		f, err := parseFeature(file.path, uri, ff.language)
		if err != nil {
			return fmt.Errorf("looking for flows: %w", err)
		}
		ff.addFeature(f)
	}
	return nil
}

// byPath returns the scenarios of a feature file, relative to the calling
// feature's directory or else to the project.
func (ff *flowFinder) byPath(name, fromURI string) ([]jsbridge.Flow, error) {
	var tried []string
	candidates := []string{path.Join(path.Dir(fromURI), name), path.Clean(name)}
	if path.IsAbs(name) || filepath.IsAbs(name) {
		candidates = []string{name}
	}
	for _, uri := range candidates {
		if slices.Contains(tried, uri) {
			continue
		}
		tried = append(tried, uri)
		f, ok := ff.files[uri]
		if !ok {
			abs := uri
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(ff.dir, filepath.FromSlash(uri))
			}
			if _, err := os.Stat(abs); err != nil {
				if errors.Is(err, os.ErrNotExist) {
					continue
				}
				return nil, err
			}
			var err error
			if f, err = parseFeature(abs, uri, ff.language); err != nil {
				return nil, err
			}
			ff.files[uri] = f
		}
		if len(f.pickles) == 0 {
			return nil, fmt.Errorf("the feature file %s has no scenario to call", uri)
		}
		out := make([]jsbridge.Flow, len(f.pickles))
		for i, p := range f.pickles {
			out[i] = flowOf(f, p)
		}
		return out, nil
	}
	return nil, fmt.Errorf("there is no feature file %q (looked for %s: a path is relative to the calling feature's directory, or to the project)", name, strings.Join(tried, " and "))
}

// flowOf is a pickle as a flow: its steps with their keywords, lines and
// arguments.
func flowOf(f *feature, p *messages.Pickle) jsbridge.Flow {
	fl := jsbridge.Flow{Name: p.Name, URI: f.uri}
	if p.Location != nil {
		fl.Line = int(p.Location.Line)
	}
	for _, ps := range p.Steps {
		st := jsbridge.FlowStep{Text: ps.Text}
		if cs := f.currentStep(ps); cs != nil {
			st.Keyword, st.Line = cs.Keyword, cs.Line
		}
		if a := ps.Argument; a != nil {
			switch {
			case a.DocString != nil:
				st.DocString = &a.DocString.Content
			case a.DataTable != nil:
				rows := make([][]string, len(a.DataTable.Rows))
				for i, r := range a.DataTable.Rows {
					for _, c := range r.Cells {
						rows[i] = append(rows[i], c.Value)
					}
				}
				st.DataTable = rows
			}
		}
		fl.Steps = append(fl.Steps, st)
	}
	return fl
}
