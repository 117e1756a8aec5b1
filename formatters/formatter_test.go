package formatters

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/messages"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
		err  string
	}{
		{in: "progress", want: Spec{Name: "progress"}},
		{in: "message:out/run.ndjson", want: Spec{Name: "message", Path: "out/run.ndjson"}},
		{in: `"html":"out.html"`, want: Spec{Name: "html", Path: "out.html"}},
		{in: `"junit"`, want: Spec{Name: "junit"}},
		{in: `junit:C:\reports\x.xml`, want: Spec{Name: "junit", Path: `C:\reports\x.xml`}},
		{in: "", err: "empty"},
		{in: ":x", err: "missing format name"},
		{in: `"html:out`, err: "unterminated"},
	} {
		got, err := ParseSpec(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSpec(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

type failing struct{ n int }

func (f *failing) Handle(*messages.Envelope) error {
	f.n++
	return errors.New("disk full")
}
func (f *failing) Close() error { return nil }

func TestSetKeepsGoingWhenOneFormatterFails(t *testing.T) {
	Register("test-failing", func(Options) (Formatter, error) { return &failing{}, nil })
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	set, err := NewSet([]Spec{{Name: "test-failing"}, {Name: "message", Path: filepath.Join("a", "b", "run.ndjson")}},
		Options{Cwd: dir}, &stdout, &stderr, false)
	if err != nil {
		t.Fatal(err)
	}
	env := &messages.Envelope{TestRunStarted: &messages.TestRunStarted{}}
	set.Handle(env)
	set.Handle(env)
	set.Close()
	if !set.Failed() || strings.Count(stderr.String(), "disk full") != 1 {
		t.Fatalf("want one failure report, got %q", stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "a", "b", "run.ndjson"))
	if err != nil || strings.Count(string(data), "testRunStarted") != 2 {
		t.Fatalf("message report incomplete: %q %v", data, err)
	}
}

func TestSetRejectsTwoStdoutFormats(t *testing.T) {
	_, err := NewSet([]Spec{{Name: "message", Path: "x"}, {Name: "nope"}}, Options{Cwd: t.TempDir()}, &bytes.Buffer{}, nil, false)
	if err == nil || !strings.Contains(err.Error(), `unknown format "nope"`) {
		t.Fatalf("got %v", err)
	}
	Register("test-other", func(Options) (Formatter, error) { return &failing{}, nil })
	_, err = NewSet([]Spec{{Name: "message"}, {Name: "test-other"}}, Options{}, &bytes.Buffer{}, nil, false)
	if err == nil || !strings.Contains(err.Error(), "both write to stdout") {
		t.Fatalf("got %v", err)
	}
	_, err = NewSet([]Spec{{Name: "message", Path: "r.ndjson"}, {Name: "message", Path: "./r.ndjson"}}, Options{Cwd: t.TempDir()}, &bytes.Buffer{}, nil, false)
	if err == nil || !strings.Contains(err.Error(), "both write to ./r.ndjson") {
		t.Fatalf("got %v", err)
	}
}
