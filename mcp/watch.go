package mcp

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchDebounce is how long the watcher waits after the last change to an
// extension file before it reloads (editors write a file in several steps).
const watchDebounce = 200 * time.Millisecond

// watch reloads the extensions when a file under their directories
// changes, until ctx ends: the same reload as ferridriver_extensions
// {action: "reload"}, so a file that no longer builds keeps its last good
// tools and list_changed is sent only when the served tools changed.
func (s *Server) watch(ctx context.Context) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		fmt.Fprintf(s.opts.Log, "ferridriver mcp: warning: extensions are not watched: %v\n", err)
		return
	}
	defer w.Close()
	for _, root := range watchRoots(s.opts.Dir, s.opts.Extensions) {
		addTree(w, root)
	}
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					addTree(w, ev.Name)
				}
			}
			if isSource(ev.Name) {
				timer = time.After(watchDebounce)
			}
		case <-w.Errors:
		case <-timer:
			timer = nil
			s.reloadAndLog(ctx)
		}
	}
}

func (s *Server) reloadAndLog(ctx context.Context) {
	rep, errs, err := s.reload()
	switch {
	case err != nil:
		fmt.Fprintf(s.opts.Log, "ferridriver mcp: extensions changed; reload failed: %v\n", err)
	default:
		fmt.Fprintf(s.opts.Log, "ferridriver mcp: extensions changed; reloaded (added %v, removed %v, changed %v)\n", rep.Added, rep.Removed, rep.Changed)
		for _, e := range errs {
			fmt.Fprintf(s.opts.Log, "ferridriver mcp: error: %s\n", e.Error())
		}
	}
}

// watchRoots are the directories to watch for the extension patterns: a
// directory itself, a file's directory, a glob's directory before its
// first wildcard.
func watchRoots(dir string, patterns []string) []string {
	seen := map[string]bool{}
	var roots []string
	for _, p := range patterns {
		if i := strings.IndexAny(p, "*?[{"); i >= 0 {
			p = filepath.Dir(p[:i] + "x")
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			p = filepath.Dir(p)
		}
		if !seen[p] {
			seen[p] = true
			roots = append(roots, p)
		}
	}
	return roots
}

// addTree watches root and its subdirectories but node_modules and
// hidden ones.
func addTree(w *fsnotify.Watcher, root string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		w.Add(p)
		return nil
	})
}

func isSource(name string) bool {
	switch filepath.Ext(name) {
	case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json":
		return true
	}
	return false
}
