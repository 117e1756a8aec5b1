// Package oracles locates the official Cucumber tools that ferridriver's
// tests use as oracles (npm packages installed under tools/oracles by
// `make oracles`) and wraps the ones used from Go.
package oracles

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ferridriver/ferridriver/messages"
)

// Root returns the repository root (the directory holding go.mod).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// NodeModules returns tools/oracles/node_modules, failing the test with the
// command to run when the oracles are not installed.
func NodeModules(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(Root(), "tools", "oracles", "node_modules")
	if _, err := os.Stat(filepath.Join(dir, "@cucumber", "compatibility-kit")); err != nil {
		t.Fatalf("the Cucumber oracles are not installed (%v): run `make oracles` (or `make test`)", err)
	}
	return dir
}

// Cucumber11NodeModules returns tools/oracles/cucumber11/node_modules:
// cucumber-js 11, the oracle of options that cucumber-js 12 dropped
// (--publish-quiet), failing the test when it is not installed.
func Cucumber11NodeModules(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(Root(), "tools", "oracles", "cucumber11", "node_modules")
	if _, err := os.Stat(filepath.Join(dir, "@cucumber", "cucumber", "bin", "cucumber.js")); err != nil {
		t.Fatalf("cucumber-js 11 is not installed (%v): run `make oracles` (or `make test`)", err)
	}
	return dir
}

// CCKFeatures returns the directory holding the CCK samples.
func CCKFeatures(t testing.TB) string {
	return filepath.Join(NodeModules(t), "@cucumber", "compatibility-kit", "features")
}

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// MessageSchema returns the compiled official JSON schema of one envelope.
func MessageSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(NodeModules(t), "@cucumber", "messages", "messages.schema.json")
	schemaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		f, err := os.Open(path)
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		if err := c.AddResource("https://cucumber.io/schema/Envelope.schema.json", doc); err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = c.Compile("https://cucumber.io/schema/Envelope.schema.json")
	})
	if schemaErr != nil {
		t.Fatalf("compile %s: %v", path, schemaErr)
	}
	return schema
}

// ValidateEnvelopeJSON validates one NDJSON line against the message schema.
func ValidateEnvelopeJSON(t testing.TB, line []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return MessageSchema(t).Validate(inst)
}

// ReadStream reads the NDJSON message stream at path.
func ReadStream(t testing.TB, path string) []*messages.Envelope {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	envs, err := messages.ReadAll(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return envs
}

// CCKStream reads the message stream the kit expects for sample.
func CCKStream(t testing.TB, sample string) []*messages.Envelope {
	t.Helper()
	return ReadStream(t, filepath.Join(CCKFeatures(t), sample, sample+".ndjson"))
}
