package e2e

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// npmPackagesDir is the pinned project whose step files use the npm
// packages real suites use (e2e/testdata/npm-packages, installed by
// `make npm-packages`).
func npmPackagesDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(oracles.Root(), "e2e", "testdata", "npm-packages")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".installed")); err != nil {
		t.Fatalf("the npm packages test project is not installed (%v): run `make npm-packages` (or `make test`)", err)
	}
	return dir
}

// npmPackagesServer is the local HTTP server the project's HTTP clients
// (axios, node-fetch, form-data) talk to.
func npmPackagesServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	writeJSON := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"hello": "world", "items": []int{1, 2, 3}})
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		writeJSON(w, map[string]any{"method": r.Method, "query": r.URL.RawQuery, "contentType": r.Header.Get("Content-Type"), "body": string(body)})
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		gz := gzip.NewWriter(w)
		gz.Write([]byte(`{"compressed":true}`))
		gz.Close()
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/json", http.StatusFound)
	})
	mux.HandleFunc("/upload", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fields := map[string]string{}
		for k, v := range r.MultipartForm.Value {
			fields[k] = v[0]
		}
		files := map[string]any{}
		for k, v := range r.MultipartForm.File {
			files[k] = map[string]any{"filename": v[0].Filename, "size": v[0].Size, "type": v[0].Header.Get("Content-Type")}
		}
		writeJSON(w, map[string]any{"fields": fields, "files": files})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// npmPackages are the packages the project exercises, each in the
// scenario of its name (but pngjs and pixelmatch, which share one).
var npmPackages = []string{
	"fs-extra", "dotenv", "axios", "chai", "expect", "@faker-js/faker", "lodash", "dayjs", "uuid", "pngjs",
	"pixelmatch", "ajv", "zod", "csv-parse", "jsonpath-plus", "jsonpath", "form-data", "node-fetch", "winston", "yaml",
	"@cucumber/cucumber types",
}

func npmPackageScenario(pkg string) string {
	if pkg == "pngjs" || pkg == "pixelmatch" {
		return "pngjs and pixelmatch"
	}
	return pkg
}

// npmPackagesKnownFailures are the packages whose scenario fails under
// ferridriver, with the reason docs/cucumber-compatibility.md gives. The
// test fails when one of them starts to pass, so that the list and the
// matrix stay true.
var npmPackagesKnownFailures = map[string]string{}

// TestNpmPackagesMatchCucumberJS runs the npm packages project, configured
// only by its cucumber.mjs, under ferridriver and under cucumber-js 13
// (Node 22), compares every scenario's step statuses and attachments, and
// prints how many packages work under ferridriver.
func TestNpmPackagesMatchCucumberJS(t *testing.T) {
	dir := npmPackagesDir(t)
	srv := npmPackagesServer(t)
	out := t.TempDir()
	env := []string{"NPM_PACKAGES_SERVER=" + srv.URL}
	fd := ferridriverWithEnv(t, dir, env, "bdd", "--format", "message:"+filepath.Join(out, "ferri.ndjson"))
	// cucumber-js 13 as the project pins it (its step files import it).
	cj := cucumberJSFrom(t, filepath.Join(dir, "node_modules", "@cucumber", "cucumber"), dir, env, "--format", "message:"+filepath.Join(out, "cucumber.ndjson"))
	read := func(n string) []byte {
		b, err := os.ReadFile(filepath.Join(out, n))
		if err != nil {
			t.Fatalf("%s: %v\nferridriver: %s%s\ncucumber-js: %s%s", n, err, fd.stdout, fd.stderr, cj.stdout, cj.stderr)
		}
		return b
	}
	got, want := scenarioOutcomes(t, read("ferri.ndjson")), scenarioOutcomes(t, read("cucumber.ndjson"))
	if cj.code != 0 {
		t.Errorf("the project fails under cucumber-js itself (exit %d):\n%s%s", cj.code, cj.stdout, cj.stderr)
	}
	for _, pkg := range npmPackages {
		if !allPassed(want[npmPackageScenario(pkg)]) {
			t.Errorf("cucumber-js did not pass the scenario of %s: %q", pkg, want[npmPackageScenario(pkg)])
		}
	}
	names := sortedOutcomeKeys(want)
	working := 0
	var broken []string
	for _, pkg := range npmPackages {
		if allPassed(got[npmPackageScenario(pkg)]) {
			working++
		} else {
			broken = append(broken, pkg)
		}
	}
	for _, name := range names {
		_, known := npmPackagesKnownFailures[name]
		switch {
		case got[name] == want[name] && !known:
			t.Logf("%s: %s", name, got[name])
		case known && got[name] != want[name]:
			t.Logf("%s: fails as documented (%s): %s", name, npmPackagesKnownFailures[name], got[name])
		case known:
			t.Errorf("%s now matches cucumber-js: take it off npmPackagesKnownFailures and update docs/cucumber-compatibility.md", name)
		default:
			t.Errorf("%s:\n  ferridriver %q\n  cucumber-js %q", name, got[name], want[name])
		}
	}
	if g, w := strings.Join(sortedOutcomeKeys(got), ", "), strings.Join(names, ", "); g != w {
		t.Errorf("scenarios: ferridriver %s; cucumber-js %s", g, w)
	}
	sort.Strings(broken)
	fmt.Printf("npm compatibility: %d/%d packages\n", working, len(npmPackages))
	if len(broken) > 0 {
		t.Logf("not working under ferridriver: %s\n%s%s", strings.Join(broken, ", "), fd.stdout, fd.stderr)
	}
}

// allPassed reports whether a scenarioOutcomes value has steps and all of
// them passed.
func allPassed(outcome string) bool {
	statuses := strings.Fields(strings.SplitN(outcome, " | ", 2)[0])
	for _, s := range statuses {
		if s != "PASSED" {
			return false
		}
	}
	return len(statuses) > 0
}
