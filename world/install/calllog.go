package install

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

//go:embed calllog/cli.js
var callLogEntry string

// WithCallLog returns the directory to run the driver from
// (playwright-go's RunOptions.DriverDirectory) so that the error of a
// failed call carries Playwright's call log in its message, under
// "Call log:", as Playwright's own client words it: an entry of ferridriver's
// (calllog/cli.js), written once beside the driver, that runs the driver's
// cli.js. playwright-go drops the log the driver sends next to the error;
// without it a timeout says neither what was waited for nor why
// ("element is not visible"). When the entry cannot be written (a
// read-only cache), the driver's own directory is returned with the error.
func (d *Driver) WithCallLog() (string, error) {
	real, err := json.Marshal(filepath.Join(d.Dir, "package"))
	if err != nil {
		return d.Dir, err
	}
	src := strings.Replace(callLogEntry, "__REAL__", string(real), 1)
	dir := filepath.Join(d.Dir, "ferridriver-calllog")
	cli := filepath.Join(dir, "package", "cli.js")
	if got, err := os.ReadFile(cli); err == nil && string(got) == src {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(cli), 0o755); err != nil {
		return d.Dir, fmt.Errorf("the driver's call-log entry: %w", err)
	}
	// Written aside and renamed: a driver starting in another process
	// never reads half a file.
	tmp, err := os.CreateTemp(filepath.Dir(cli), "cli-*.js")
	if err != nil {
		return d.Dir, fmt.Errorf("the driver's call-log entry: %w", err)
	}
	_, werr := tmp.WriteString(src)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), cli)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return d.Dir, fmt.Errorf("the driver's call-log entry: %w", werr)
	}
	return dir, nil
}
