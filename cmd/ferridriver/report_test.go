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
