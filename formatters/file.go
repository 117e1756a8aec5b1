package formatters

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// reportFile is the output file of one format. A report is never left cut
// in the middle, nor empty when the run had something to say (issue 25):
//
//   - a format read while the run goes (the message stream, progress) is
//     written in place; when a write fails (a full disk) the file is cut
//     back to its last whole line, so what it holds stays readable;
//   - any other report is written to a temporary file in the same folder
//     and renamed over the path once complete; when it cannot be written
//     the temporary file is removed and nothing is left at the path.
//
// In both cases a report left by an earlier run is removed when the run
// starts, so the path never shows a stale report as this run's. A path
// that is not a regular file (a symbolic link such as /dev/stdout, a
// device, a named pipe) is written through as it is: never removed, nor
// replaced.
type reportFile struct {
	path string // as opened
	f    *os.File
	// atomic: written to tmp, created at the first write, and renamed to
	// path at Close.
	atomic bool
	tmp    string
	// size is what was written; whole is the size up to the end of the
	// last whole line written (in-place files).
	size, whole int64
	inPlace     bool // a regular file written in place: cut back on errors
	failed      bool
	err         error // why it failed, when the file did
}

// inPlaceFormats are the formats read while the run goes: their files are
// written in place (see reportFile).
var inPlaceFormats = map[string]bool{"message": true, "pretty": true, "progress": true, "progress-bar": true}

// openReport opens path for a report; inPlace says whether the format is
// read while it is written (see reportFile).
func openReport(path string, inPlace bool) (*reportFile, error) {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		// A symbolic link (/dev/stdout, /dev/fd/3), a device or a pipe:
		// written through as it is, as os.Create opens it; never
		// removed, nor replaced.
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		return &reportFile{path: path, f: f}, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if inPlace {
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		return &reportFile{path: path, f: f, inPlace: true}, nil
	}
	// Temporary files a killed run left are removed; one is created and
	// removed, so that an unwritable folder is known before the run.
	stale, _ := filepath.Glob(filepath.Join(filepath.Dir(path), tempPattern(path)))
	for _, name := range stale {
		os.Remove(name)
	}
	probe, err := createTemp(path)
	if err != nil {
		return nil, err
	}
	probe.Close()
	os.Remove(probe.Name())
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return &reportFile{path: path, atomic: true}, nil
}

// Write writes p; on an error, a file written in place is cut back to its
// last whole line.
func (r *reportFile) Write(p []byte) (int, error) {
	if r.failed {
		if r.err == nil {
			r.err = errors.New("the report failed")
		}
		return 0, r.err
	}
	if r.f == nil {
		if err := r.create(); err != nil {
			return 0, err
		}
	}
	n, err := r.f.Write(p)
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
		r.whole = r.size + int64(i) + 1
	}
	r.size += int64(n)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == r.tmp {
			// The report's name, not the temporary file's.
			pe.Path = r.path
		}
		r.err = err
		r.fail()
	}
	return n, err
}

// create creates an atomic report's temporary file.
func (r *reportFile) create() error {
	f, err := createTemp(r.path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = &fs.PathError{Op: "create", Path: r.path, Err: pe.Err}
		}
		r.err = err
		r.fail()
		return err
	}
	r.f, r.tmp = f, f.Name()
	return nil
}

// ReadAt reads what was written (the message format rewrites its file in
// stream order from it).
func (r *reportFile) ReadAt(p []byte, off int64) (int, error) { return r.f.ReadAt(p, off) }

// canRewrite says whether Rewrite works: a regular file written in place.
func (r *reportFile) canRewrite() bool { return r.inPlace }

// Rewrite replaces the content of a file written in place with what write
// produces (reading the old content through ReadAt), through a temporary
// file renamed over it: a run killed meanwhile leaves the old content
// whole.
func (r *reportFile) Rewrite(write func(w io.Writer) error) error {
	if !r.inPlace || r.failed {
		return errors.New("the report cannot be rewritten")
	}
	tmp, err := createTemp(r.path)
	if err != nil {
		return err
	}
	err = write(tmp)
	if err == nil {
		err = os.Rename(tmp.Name(), r.path)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	r.f.Close()
	r.f = tmp
	if r.size, err = tmp.Seek(0, io.SeekCurrent); err != nil {
		return err
	}
	r.whole = r.size
	return nil
}

// fail marks the report as not written: an in-place file is cut back to
// its last whole line; an atomic report's temporary file is removed at
// Close. It returns what was left at the path, for the error message.
func (r *reportFile) fail() string {
	if !r.failed {
		r.failed = true
		if r.inPlace && r.whole < r.size {
			if err := r.f.Truncate(r.whole); err == nil {
				r.size = r.whole
			}
		}
	}
	switch {
	case r.inPlace:
		return "; the file keeps what was written up to its last whole line"
	case r.atomic:
		return "; the file was not written"
	}
	return ""
}

// discard drops a report that was never used: its file is removed.
func (r *reportFile) discard() {
	r.failed = true
	if r.inPlace {
		os.Remove(r.path)
	}
}

// Close completes the report: an atomic one is renamed to its path, unless
// it failed (then it is removed).
func (r *reportFile) Close() error {
	if r.atomic && r.f == nil && !r.failed {
		// Nothing was written: the report is an empty file.
		if err := r.create(); err != nil {
			return fmt.Errorf("write %s: %w", r.path, err)
		}
	}
	var err error
	if r.f != nil {
		err = r.f.Close()
	}
	if !r.atomic || r.tmp == "" {
		return err
	}
	if err == nil && !r.failed {
		err = os.Rename(r.tmp, r.path)
	}
	if err != nil || r.failed {
		os.Remove(r.tmp)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", r.path, err)
	}
	return nil
}

// createTemp creates a new temporary file beside path (".name.NNN.tmp"),
// with the permissions os.Create gives (0666 less the umask).
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%d.tmp", base, rand.Uint32()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
}

// tempPattern is the glob of path's temporary files.
func tempPattern(path string) string {
	return "." + globEscape(filepath.Base(path)) + ".*.tmp"
}

// globEscape escapes the glob metacharacters of a file name.
func globEscape(name string) string {
	var b strings.Builder
	for _, c := range name {
		if strings.ContainsRune(`*?[\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}
