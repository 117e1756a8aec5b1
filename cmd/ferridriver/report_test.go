package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

func runReport(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newReportCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

func TestReportRendersSavedStreams(t *testing.T) {
	cck := oracles.CCKFeatures(t)
	dir := t.TempDir()
	xmlPath := filepath.Join(dir, "out", "junit.xml")
	out, err := runReport(t,
		"--from", filepath.Join(cck, "examples-tables", "examples-tables.ndjson"),
		"--format", "junit:"+xmlPath, "--format", "summary",
		"--format-options", `{"junit":{"suiteName":"saved"}}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "7 scenarios (5 passed, 2 failed)") {
		t.Errorf("summary: %s", out)
	}
	b, err := os.ReadFile(xmlPath)
	if err != nil || !bytes.Contains(b, []byte(`<testsuite name="saved"`)) {
		t.Errorf("junit: %v %.200s", err, b)
	}
}

func TestReportUsageErrors(t *testing.T) {
	stream := filepath.Join(oracles.CCKFeatures(t), "minimal", "minimal.ndjson")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "summary"}, "--from"},
		{[]string{"--from", stream}, "--format"},
		{[]string{"--from", stream, "--format", "nope"}, `unknown format "nope"`},
		{[]string{"--from", filepath.Join(t.TempDir(), "missing.ndjson"), "--format", "summary"}, "no such file"},
		{[]string{"--from", stream, "--format", "summary", "--format-options", "{"}, "--format-options"},
	} {
		_, err := runReport(t, tc.args...)
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Code != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want exit %d mentioning %q", tc.args, err, exitUsage, tc.want)
		}
	}
}

func TestExpandStreams(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"shards/b.ndjson", "shards/a.ndjson", "shards/sub/c.ndjson", "shards/notes.txt", "empty/x.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(p string) string { return filepath.Join(dir, p) }
	for _, tc := range []struct {
		name  string
		specs []string
		want  []string
		err   string
	}{
		{"glob", []string{in("shards/*.ndjson")}, []string{in("shards/a.ndjson"), in("shards/b.ndjson")}, ""},
		{"recursive glob", []string{in("**/c.ndjson")}, []string{in("shards/sub/c.ndjson")}, ""},
		{"directory", []string{in("shards")}, []string{in("shards/a.ndjson"), in("shards/b.ndjson"), in("shards/sub/c.ndjson")}, ""},
		{"files kept in order, once", []string{in("shards/b.ndjson"), in("shards/*.ndjson")}, []string{in("shards/b.ndjson"), in("shards/a.ndjson")}, ""},
		{"missing file passes through", []string{in("nope.ndjson")}, []string{in("nope.ndjson")}, ""},
		{"glob without match", []string{in("shards/*.json")}, nil, "no file matches that pattern"},
		{"directory without streams", []string{in("empty")}, nil, "no *.ndjson stream in that directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := expandStreams(tc.specs)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %v %v, want %v", got, err, tc.want)
			}
		})
	}
}

// A directory or glob after --from, and streams given as arguments (what
// the shell makes of an unquoted glob), are read like --from files.
func TestReportReadsDirectoriesGlobsAndArguments(t *testing.T) {
	src := filepath.Join(oracles.CCKFeatures(t), "examples-tables", "examples-tables.ndjson")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "shards"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shards", "run.ndjson"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--from", filepath.Join(dir, "shards")},
		{"--from", filepath.Join(dir, "shards", "*.ndjson")},
		{filepath.Join(dir, "shards", "run.ndjson")},
	} {
		out, err := runReport(t, append(args, "--format", "summary")...)
		if err != nil || !strings.Contains(out, "7 scenarios (5 passed, 2 failed)") {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
}
