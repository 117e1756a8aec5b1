package formatters

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/world/install"
)

func init() { Register("html", newHTML) }

// The HTML report is rendered by the official npm package, run by node.
const (
	HTMLFormatterPackage = "@cucumber/html-formatter"
	HTMLFormatterVersion = "24.2.0"
	// EnvHTMLFormatter names a directory holding the package (its
	// package.json), used instead of the one in the cache.
	EnvHTMLFormatter = "FERRIDRIVER_HTML_FORMATTER"
)

// htmlDriver feeds NDJSON from stdin to the package's CucumberHtmlStream
// and writes the page to stdout (the package's own streaming renderer, as
// cucumber-js uses it).
const htmlDriver = `
import { createInterface } from 'node:readline'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { pipeline, Readable } from 'node:stream'
const { CucumberHtmlStream } = await import(pathToFileURL(join(process.argv[1], 'dist', 'src', 'index.js')).href)
async function* envelopes() {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() !== '') yield JSON.parse(line)
  }
}
pipeline(Readable.from(envelopes()), new CucumberHtmlStream(), process.stdout, (err) => {
  if (err) {
    console.error(err.stack || String(err))
    process.exitCode = 1
  }
})
`

// HTMLFormatterDir returns the directory of the installed
// @cucumber/html-formatter package: $FERRIDRIVER_HTML_FORMATTER, else the
// ferridriver cache (where `ferridriver install` puts it). The error says
// how to install it.
func HTMLFormatterDir() (string, error) {
	if dir := os.Getenv(EnvHTMLFormatter); dir != "" {
		if err := checkHTMLFormatter(dir); err != nil {
			return "", fmt.Errorf("%s=%s is not the %s package directory (%v): point it at one, or unset it and run `ferridriver install`",
				EnvHTMLFormatter, dir, HTMLFormatterPackage, err)
		}
		return dir, nil
	}
	cache, err := install.CacheDir("")
	if err != nil {
		return "", err
	}
	candidates := []string{
		filepath.Join(install.PackageDir(cache, HTMLFormatterPackage, HTMLFormatterVersion), "package"),
		filepath.Join(cache, "npm", filepath.FromSlash(HTMLFormatterPackage)+"@"+HTMLFormatterVersion, "package"),
	}
	for _, dir := range candidates {
		if checkHTMLFormatter(dir) == nil {
			return dir, nil
		}
	}
	return "", fmt.Errorf("the html report needs the npm package %s@%s, which is not installed in %s: "+
		"run `ferridriver install`, or `npm install %s@%s` and set %s to its directory",
		HTMLFormatterPackage, HTMLFormatterVersion, candidates[0],
		HTMLFormatterPackage, HTMLFormatterVersion, EnvHTMLFormatter)
}

func checkHTMLFormatter(dir string) error {
	_, err := os.Stat(filepath.Join(dir, "dist", "src", "index.js"))
	return err
}

// htmlFormatter renders the HTML report with the official package: our
// envelopes go to node's stdin as they arrive and the page streams to the
// output. When node or the package is missing the format fails on the
// first envelope with a message naming the fix, and the other formats of
// the run carry on (the Set drops a failing formatter).
type htmlFormatter struct {
	setupErr error
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	w        *messages.Writer
	stderr   *tailBuffer
	copyDone chan error
	closed   bool
}

func newHTML(o Options) (Formatter, error) {
	h := &htmlFormatter{}
	dir, err := HTMLFormatterDir()
	if err != nil {
		h.setupErr = err
		return h, nil
	}
	nodeBin, err := install.FindNode()
	if err != nil {
		h.setupErr = fmt.Errorf("the html report runs %s with Node.js: %w", HTMLFormatterPackage, err)
		return h, nil
	}
	h.cmd = exec.Command(nodeBin.Path, "--input-type=module", "-e", htmlDriver, dir)
	h.stderr = &tailBuffer{max: 16 << 10}
	h.cmd.Stderr = h.stderr
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("html: %w", err)
	}
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("html: %w", err)
	}
	if err := h.cmd.Start(); err != nil {
		h.setupErr = fmt.Errorf("html: start %s: %w", nodeBin.Path, err)
		return h, nil
	}
	h.copyDone = make(chan error, 1)
	go func() {
		_, err := io.Copy(o.Out, stdout)
		if err != nil {
			io.Copy(io.Discard, stdout) // let node finish rather than block
		}
		h.copyDone <- err
	}()
	h.w = messages.NewWriter(h.stdin)
	return h, nil
}

func (h *htmlFormatter) Handle(e *messages.Envelope) error {
	if h.setupErr != nil {
		return h.setupErr
	}
	if err := h.w.Write(e); err != nil {
		return h.failed(err)
	}
	return nil
}

func (h *htmlFormatter) Close() error {
	if h.setupErr != nil || h.closed {
		return h.setupErr
	}
	h.closed = true
	flushErr := h.w.Flush()
	h.stdin.Close()
	copyErr := <-h.copyDone
	waitErr := h.cmd.Wait()
	switch {
	case waitErr != nil:
		return h.failed(waitErr)
	case flushErr != nil:
		return h.failed(flushErr)
	case copyErr != nil:
		return fmt.Errorf("write html report: %w", copyErr)
	}
	return nil
}

// failed describes a node failure with what node printed.
func (h *htmlFormatter) failed(err error) error {
	if !h.closed {
		h.closed = true
		h.stdin.Close()
		<-h.copyDone
		if werr := h.cmd.Wait(); werr != nil {
			err = werr
		}
	}
	msg := strings.TrimSpace(h.stderr.String())
	if msg != "" {
		return fmt.Errorf("html: %s failed: %w: %s", HTMLFormatterPackage, err, msg)
	}
	return fmt.Errorf("html: %s failed: %w", HTMLFormatterPackage, err)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
