package jsbridge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Cache keeps esbuild's output on disk, so that a run whose step files,
// extensions, packages and options did not change since an earlier run
// skips bundling (the built-in library alone took esbuild tens of
// milliseconds). An entry is found by a key over what the bundle is built
// from (the entries, the directory, the aliases, the library's contents,
// and this very binary), and used only if every file esbuild read is as it
// was: same size and modification time (and same contents when that time
// is too recent to be trusted), with the directories that hold them and
// the package.json/tsconfig.json/jsconfig.json files that can change how
// they resolve and compile unchanged. Anything else is a miss: the bundle
// is built and the entry replaced. Entries are written atomically, so
// concurrent runs may share a cache.
//
// It also keeps what the built-in library registers (LibraryIndex), so
// that a run whose features use none of its steps need not load it.
type Cache struct {
	dir string
}

// OpenCache returns the cache in dir, creating it. The CLI uses
// <ferridriver's cache directory>/bundles.
func OpenCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// cacheFormat changes whenever what an entry holds or means changes.
const cacheFormat = "ferridriver-bundle-cache 1"

// racyWindow is how recent a modification time must be for the file's
// contents to be compared as well: file systems store times at a
// granularity of a few milliseconds, so a file written just before or
// after the bundle may show the time it had then.
const racyWindow = 2 * time.Second

// binaryIdentity tells builds of ferridriver apart: the bundle depends on
// esbuild's version and on the plugins compiled into this binary.
var binaryIdentity = sync.OnceValue(func() string {
	id := Version
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			id += fmt.Sprintf("|%s|%d|%d", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return id
})

// bundleKey is the key of a bundle's entry.
func bundleKey(opts BundleOptions, dir string, entries []string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", cacheFormat, binaryIdentity(), dir)
	for _, e := range entries {
		fmt.Fprintf(h, "entry\x00%s\x00", e)
	}
	aliases := make([]string, 0, len(opts.Alias))
	for k := range opts.Alias {
		aliases = append(aliases, k)
	}
	sort.Strings(aliases)
	for _, k := range aliases {
		fmt.Fprintf(h, "alias\x00%s\x00%s\x00", k, opts.Alias[k])
	}
	if opts.Module != "" {
		fmt.Fprintf(h, "module\x00%s\x00", opts.Module)
	}
	if opts.LeftOut != "" {
		fmt.Fprintf(h, "leftout\x00%s\x00", opts.LeftOut)
	}
	if opts.Library != nil {
		if err := opts.Library.hashInto(h); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashInto writes what the library's bundle depends on: its name, entries
// and every file's path and contents, the generated Files (the project's
// page objects and values) included.
func (l *Library) hashInto(h hash.Hash) error {
	fmt.Fprintf(h, "library\x00%s\x00%s\x00", l.Name, strings.Join(l.Entries, "\x00"))
	for _, p := range slices.Sorted(maps.Keys(l.Files)) {
		fmt.Fprintf(h, "generated\x00%s\x00%d\x00%s", p, len(l.Files[p]), l.Files[p])
	}
	return fs.WalkDir(l.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(l.FS, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "file\x00%s\x00%d\x00", p, len(data))
		h.Write(data)
		return nil
	})
}

// LibraryKey identifies a library's contents (for LibraryIndex).
func (l *Library) LibraryKey() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", cacheFormat, binaryIdentity())
	if err := l.hashInto(h); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileState is what a cache entry remembers of a file or directory (for a
// directory, SHA256 is that of its names).
type fileState struct {
	Path    string `json:"path"`
	Missing bool   `json:"missing,omitempty"`
	Dir     bool   `json:"dir,omitempty"`
	Size    int64  `json:"size,omitempty"`
	ModTime int64  `json:"mtime,omitempty"` // Unix nanoseconds
	SHA256  string `json:"sha256,omitempty"`
}

// bundleEntry is the metadata of a cached bundle; its code and source map
// are the files <key>.js and <key>.map.
type bundleEntry struct {
	Format  string      `json:"format"`
	Written int64       `json:"written"` // Unix nanoseconds
	Code    string      `json:"code"`    // SHA-256 of code and map
	Files   []fileState `json:"files"`
}

// configFiles can change how esbuild resolves and compiles the files of
// their directory and of the directories below.
var configFiles = []string{"package.json", "tsconfig.json", "jsconfig.json"}

// watched lists what a bundle built from inputs depends on: the inputs
// (absolute paths), the directories holding them (a new file can change
// what an import resolves to) and the configuration files of those
// directories and their parents (the parents themselves change too often,
// /tmp or a home directory, to be watched).
func watched(inputs []string) []fileState {
	seen := map[string]bool{}
	var out []fileState
	add := func(p string, dir bool) {
		if !seen[p] {
			seen[p] = true
			out = append(out, fileState{Path: p, Dir: dir})
		}
	}
	for _, in := range inputs {
		add(in, false)
	}
	for _, in := range inputs {
		add(filepath.Dir(in), true)
	}
	for _, in := range inputs {
		for d := filepath.Dir(in); ; d = filepath.Dir(d) {
			if seen[filepath.Join(d, configFiles[0])] {
				break
			}
			for _, c := range configFiles {
				add(filepath.Join(d, c), false)
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	return out
}

// stat fills s with the file's current state; contents is set when the
// SHA-256 of a file's contents, or of a directory's list of names, should
// be recorded.
func (s *fileState) stat(contents bool) error {
	fi, err := os.Stat(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		*s = fileState{Path: s.Path, Dir: s.Dir, Missing: true}
		return nil
	}
	if err != nil {
		return err
	}
	s.Missing, s.Size, s.ModTime = false, fi.Size(), fi.ModTime().UnixNano()
	if fi.IsDir() != s.Dir {
		return fmt.Errorf("%s: not a %s any more", s.Path, map[bool]string{true: "directory", false: "file"}[s.Dir])
	}
	if s.Dir {
		s.Size = 0
	}
	if contents {
		sum, err := s.sum()
		if err != nil {
			return err
		}
		s.SHA256 = sum
	}
	return nil
}

// sum is the SHA-256 of a file's contents or of a directory's names.
func (s *fileState) sum() (string, error) {
	if !s.Dir {
		return fileSHA256(s.Path)
	}
	entries, err := os.ReadDir(s.Path)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%s\x00", e.Name())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func fileSHA256(p string) (string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// unchanged reports whether every file is as recorded at written: the same
// size and modification time, a time old enough to be trusted, or else the
// same contents (a directory: the same names). An editor that saves by
// renaming a new file over the old one changes the directory's time and
// the file's, not what a bundle is built from.
func unchanged(files []fileState, written int64) bool {
	racy := written - int64(racyWindow)
	for _, want := range files {
		got := fileState{Path: want.Path, Dir: want.Dir}
		if err := got.stat(false); err != nil {
			return false
		}
		if got.Missing != want.Missing || got.Size != want.Size {
			return false
		}
		if got.Missing || (got.ModTime == want.ModTime && got.ModTime < racy) {
			continue
		}
		if want.SHA256 == "" {
			return false
		}
		if sum, err := got.sum(); err != nil || sum != want.SHA256 {
			return false
		}
	}
	return true
}

func (c *Cache) path(key, ext string) string { return filepath.Join(c.dir, key+ext) }

// loadBundle returns the cached code and source map of key, if its entry
// is valid.
func (c *Cache) loadBundle(key string) (code, smap []byte, ok bool) {
	meta, err := os.ReadFile(c.path(key, ".json"))
	if err != nil {
		return nil, nil, false
	}
	var e bundleEntry
	if json.Unmarshal(meta, &e) != nil || e.Format != cacheFormat || !unchanged(e.Files, e.Written) {
		return nil, nil, false
	}
	code, err1 := os.ReadFile(c.path(key, ".js"))
	smap, err2 := os.ReadFile(c.path(key, ".map"))
	if err1 != nil || err2 != nil || contentSum(code, smap) != e.Code {
		return nil, nil, false
	}
	c.used(key, ".json")
	return code, smap, true
}

// used marks an entry as used now: pruning removes the entries unused for
// a while (projects deleted, temporary directories).
func (c *Cache) used(key, ext string) {
	now := time.Now()
	_ = os.Chtimes(c.path(key, ext), now, now)
}

// Pruning: at most once per pruneEvery, the entries unused for pruneAfter
// are removed.
const (
	pruneEvery = 24 * time.Hour
	pruneAfter = 30 * 24 * time.Hour
)

// prune removes the entries unused for pruneAfter, at most once per
// pruneEvery (a stamp file says when it last did).
func (c *Cache) prune() {
	stamp := filepath.Join(c.dir, ".pruned")
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < pruneEvery {
		return
	}
	_ = writeAtomic(stamp, nil)
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		key, ok := strings.CutSuffix(name, ".json")
		if !ok {
			continue
		}
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < pruneAfter {
			continue
		}
		key = strings.TrimSuffix(key, ".index")
		for _, ext := range []string{".json", ".index.json", ".js", ".map", ".warm"} {
			os.Remove(c.path(key, ext))
		}
	}
}

func contentSum(code, smap []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00", len(code))
	h.Write(code)
	h.Write(smap)
	return hex.EncodeToString(h.Sum(nil))
}

// storeBundle records code and smap under key, with the state of what
// they were built from: inputs (absolute paths) and, in read, the SHA-256
// of the contents esbuild got for those the plugin loaded. start is when
// bundling began: a file changed since, whose contents esbuild may not
// have seen, leaves nothing stored. Errors are ignored: the cache is only
// an optimisation.
func (c *Cache) storeBundle(key string, start time.Time, inputs []string, read map[string]string, code, smap []byte) {
	files := watched(inputs)
	for i := range files {
		f := &files[i]
		sum, loaded := read[f.Path]
		if err := f.stat(!loaded); err != nil {
			return
		}
		if loaded && !f.Missing {
			f.SHA256 = sum
		} else if !f.Missing && f.ModTime >= start.UnixNano() {
			return
		}
	}
	e := bundleEntry{Format: cacheFormat, Written: start.UnixNano(), Code: contentSum(code, smap), Files: files}
	meta, err := json.Marshal(e)
	if err != nil {
		return
	}
	// The metadata last: an entry exists once its files do.
	if writeAtomic(c.path(key, ".js"), code) != nil || writeAtomic(c.path(key, ".map"), smap) != nil {
		return
	}
	_ = writeAtomic(c.path(key, ".json"), meta)
	c.prune()
}

// loadWarm returns the polyfill modules recorded for key (see
// Bundle.Remember).
func (c *Cache) loadWarm(key string) []string {
	data, err := os.ReadFile(c.path(key, ".warm"))
	if err != nil || len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func (c *Cache) storeWarm(key string, names []string) {
	_ = writeAtomic(c.path(key, ".warm"), []byte(strings.Join(names, "\n")+"\n"))
}

// writeAtomic writes data to p through a temporary file renamed over it.
func writeAtomic(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-"+filepath.Base(p)+"-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// inputFiles are the files on disk of an esbuild metafile's inputs, as
// absolute paths (the others are the library's, builtin modules and the
// entry, which the key covers).
func inputFiles(metafile, dir string) ([]string, error) {
	var meta struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(metafile), &meta); err != nil {
		return nil, err
	}
	var out []string
	for p := range meta.Inputs {
		if strings.Contains(p, ":") || strings.HasPrefix(p, "<") {
			continue // a namespace of the plugin, or <stdin>
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		out = append(out, filepath.Clean(p))
	}
	sort.Strings(out)
	return out, nil
}
