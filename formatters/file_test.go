package formatters

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/messages"
)

// A report that is not read while the run goes appears at its path only
// when whole: a stale report and the temporary files of a killed run are
// removed when the run starts, nothing is at the path meanwhile, and the
// complete report is there after Close, with no temporary file left.
func TestAtomicReportAppearsWhole(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	writeFile(t, filepath.Join(out, "junit.xml"), "a stale report")
	writeFile(t, filepath.Join(out, ".junit.xml.12345.tmp"), "a killed run's")
	set, err := NewSet([]Spec{{Name: "junit", Path: "out/junit.xml"}, {Name: "json", Path: "out/run.json"}}, Options{Cwd: dir}, &bytes.Buffer{}, &bytes.Buffer{}, false)
	if err != nil {
		t.Fatal(err)
	}
	envs := oracles.ReadStream(t, cckStreams(t)[0].path)
	for _, e := range envs[:len(envs)/2] {
		set.Handle(e)
	}
	if names := dirNames(t, out); len(names) != 0 {
		t.Errorf("while the run goes the folder holds %q, want nothing", names)
	}
	for _, e := range envs[len(envs)/2:] {
		set.Handle(e)
	}
	set.Close()
	if set.Failed() {
		t.Fatal("a report failed")
	}
	if got, want := dirNames(t, out), []string{"junit.xml", "run.json"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the folder holds %q, want %q", got, want)
	}
	if got := readFileT(t, filepath.Join(out, "junit.xml")); !strings.HasPrefix(got, "<?xml") || !strings.Contains(got, "</testsuite>") {
		t.Errorf("junit.xml:\n%s", got)
	}
}

// A path that is a symbolic link (as /dev/stdout is) is written through:
// the link stays, its target gets the report.
func TestReportThroughSymlinkIsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.xml")
	writeFile(t, target, "")
	link := filepath.Join(dir, "junit.xml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	set, err := NewSet([]Spec{{Name: "junit", Path: link}, {Name: "message", Path: link + ".ndjson"}}, Options{Cwd: dir}, &bytes.Buffer{}, &bytes.Buffer{}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range oracles.ReadStream(t, cckStreams(t)[0].path) {
		set.Handle(e)
	}
	set.Close()
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
	if got := readFileT(t, target); !strings.Contains(got, "</testsuite>") {
		t.Errorf("the link's target holds:\n%s", got)
	}
}

// Envelopes handed over early (another worker's test case, waiting behind
// the head of the plan) are in the file as soon as they are produced; at
// Close the file is in stream order, byte for byte what a run without
// early envelopes writes.
func TestMessageEarlyEnvelopesAreWrittenThenOrdered(t *testing.T) {
	envs := oracles.ReadStream(t, cckStreams(t)[0].path)
	dir := t.TempDir()
	plain := streamThroughSet(t, dir, "plain.ndjson", envs, nil)

	// The last third comes early, in reverse, before the middle third.
	a, b := len(envs)/3, 2*len(envs)/3
	early := envs[b:]
	path := filepath.Join(dir, "early.ndjson")
	got := streamThroughSet(t, dir, "early.ndjson", envs, func(set *Set, i int) {
		if i != a {
			return
		}
		for j := len(early) - 1; j >= 0; j-- {
			set.Early(early[j])
		}
		// Now in the file: the first third, then the early ones as they came.
		read, err := messages.ReadAll(strings.NewReader(readFileT(t, path)), path)
		if err != nil || len(read) != a+len(early) || read[a].Kind() != early[len(early)-1].Kind() {
			t.Errorf("mid-run the file holds %d envelopes (%v), want %d with the early ones after the first %d", len(read), err, a+len(early), a)
		}
	})
	if got != plain {
		t.Errorf("after Close the stream differs from one written in order")
	}
	if names := dirNames(t, dir); strings.Join(names, " ") != "early.ndjson plain.ndjson" {
		t.Errorf("left in the folder: %q", names)
	}
}

// streamThroughSet writes envs through a Set's message format to name and
// returns the file; during calls hook(set, i) before envelope i.
func streamThroughSet(t *testing.T, dir, name string, envs []*messages.Envelope, during func(*Set, int)) string {
	t.Helper()
	set, err := NewSet([]Spec{{Name: "message", Path: name}}, Options{Cwd: dir}, &bytes.Buffer{}, &bytes.Buffer{}, false)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range envs {
		if during != nil {
			during(set, i)
		}
		set.Handle(e)
	}
	set.Close()
	if set.Failed() {
		t.Fatal("the message format failed")
	}
	return readFileT(t, filepath.Join(dir, name))
}

// On a full disk (a 64 KiB tmpfs) the message stream keeps whole lines and
// reads back without error; a report that cannot be written leaves no file
// (and no temporary file), never a cut or empty one; the error names the
// report's file.
func TestReportsOnAFullDisk(t *testing.T) {
	dir := smallTmpfs(t, "64k")
	var stderr bytes.Buffer
	set, err := NewSet([]Spec{{Name: "message", Path: "run.ndjson"}, {Name: "junit", Path: "junit.xml"}, {Name: "json", Path: "run.json"}},
		Options{Cwd: dir}, &bytes.Buffer{}, &stderr, false)
	if err != nil {
		t.Fatal(err)
	}
	envs := oracles.ReadStream(t, cckStreams(t)[0].path)
	last := envs[len(envs)-1]
	if last.TestRunFinished == nil {
		t.Fatalf("the stream ends with %s", last.Kind())
	}
	for _, e := range envs[:len(envs)-1] {
		set.Handle(e)
	}
	// Attachments of 10 KiB fill the disk.
	for range 20 {
		set.Handle(&messages.Envelope{Attachment: &messages.Attachment{Body: strings.Repeat("x", 10<<10), MediaType: "text/plain", ContentEncoding: messages.AttachmentContentEncodingIdentity}})
	}
	// Whatever room the cut stream left is taken before the reports are
	// written.
	fill(t, filepath.Join(dir, "filler"))
	set.Handle(last)
	set.Close()
	os.Remove(filepath.Join(dir, "filler"))
	if !set.Failed() {
		t.Fatal("no report failed on a full disk")
	}
	stream := readFileT(t, filepath.Join(dir, "run.ndjson"))
	if stream == "" || !strings.HasSuffix(stream, "\n") {
		t.Errorf("the stream (%d bytes) does not end with a whole line", len(stream))
	}
	if _, err := messages.ReadAll(strings.NewReader(stream), "run.ndjson"); err != nil {
		t.Errorf("the stream does not read back: %v", err)
	}
	for _, name := range dirNames(t, dir) {
		if name != "run.ndjson" {
			t.Errorf("left on the full disk: %s (%d bytes)", name, len(readFileT(t, filepath.Join(dir, name))))
		}
	}
	for _, want := range []string{"format message:run.ndjson failed: ", "no space left on device", "format junit:junit.xml failed: ", "the file was not written"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// smallTmpfs mounts a tmpfs of size as a fresh folder (root only: the
// test is skipped elsewhere; CI runs as root).
func smallTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fill writes path until the disk is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 512)
	for {
		if _, err := f.Write(chunk); err != nil {
			return
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFileT(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
