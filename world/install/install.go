package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Options configure installing and checking.
type Options struct {
	// CacheDir overrides the cache directory (see CacheDir).
	CacheDir string
	// Browser, ExecutablePath and Channel select the browser (see BrowserQuery).
	Browser        string
	ExecutablePath string
	Channel        string
	// Remote is the remote browser's endpoint ([browser] connect or
	// connectOverCDP), as it may be printed: when set, no local browser is
	// needed and none is looked for.
	Remote string
	// WorkDir is the project directory whose .npmrc is read ("" = cwd).
	WorkDir string
	// Npm overrides the npm configuration read from the environment.
	Npm *NpmConfig
	// Logf, if set, receives progress lines (downloads).
	Logf func(format string, args ...any)
}

func (o Options) fetcher() (*Fetcher, error) {
	npm := o.Npm
	if npm == nil {
		var err error
		if npm, err = LoadNpmConfig(o.WorkDir); err != nil {
			return nil, err
		}
	}
	return &Fetcher{Npm: npm, Logf: o.Logf}, nil
}

// Driver is an installed Playwright driver.
type Driver struct {
	// Dir is the playwright-go RunOptions.DriverDirectory (Dir/package/cli.js).
	Dir     string
	CLI     string
	Version string
	// Fetched is true when this call downloaded it.
	Fetched bool
}

// FindDriver returns the driver installed in cacheDir ("" = default cache
// dir) without touching the network, or an error saying how to install it.
func FindDriver(cacheDir string) (*Driver, error) {
	dir, err := CacheDir(cacheDir)
	if err != nil {
		return nil, err
	}
	d := DriverDir(dir)
	pkg := filepath.Join(d, "package")
	if v := installedVersion(pkg, DriverPackage); v != DriverVersion {
		return nil, fmt.Errorf("the Playwright driver (%s@%s) is not installed in %s: run `ferridriver install`", DriverPackage, DriverVersion, d)
	}
	cli := filepath.Join(pkg, "cli.js")
	if _, err := os.Stat(cli); err != nil {
		return nil, fmt.Errorf("the Playwright driver in %s is incomplete (%v): delete it and run `ferridriver install`", d, err)
	}
	return &Driver{Dir: d, CLI: cli, Version: DriverVersion}, nil
}

// EnsureDriver returns the installed driver, downloading playwright-core
// from the npm registry first if it is missing.
func EnsureDriver(ctx context.Context, opts Options) (*Driver, error) {
	if d, err := FindDriver(opts.CacheDir); err == nil {
		return d, nil
	}
	cache, err := CacheDir(opts.CacheDir)
	if err != nil {
		return nil, err
	}
	f, err := opts.fetcher()
	if err != nil {
		return nil, err
	}
	if _, _, err := f.Fetch(ctx, DriverPackage, DriverVersion, DriverDir(cache)); err != nil {
		return nil, fmt.Errorf("install the Playwright driver: %w", err)
	}
	d, err := FindDriver(cache)
	if err != nil {
		return nil, err
	}
	d.Fetched = true
	return d, nil
}

// FetchPackage makes npm package name@version available in the cache
// (PackageDir), downloading and verifying it if needed, and returns the
// directory holding its package.json. Reused for other npm-distributed
// tools such as @cucumber/html-formatter.
func FetchPackage(ctx context.Context, opts Options, name, version string) (string, error) {
	cache, err := CacheDir(opts.CacheDir)
	if err != nil {
		return "", err
	}
	f, err := opts.fetcher()
	if err != nil {
		return "", err
	}
	dir, _, err := f.Fetch(ctx, name, version, PackageDir(cache, name, version))
	return dir, err
}

// Report says what was found and what is missing.
type Report struct {
	CacheDir string
	Registry string // the registry used or that would be used, with its source

	Driver    *Driver
	DriverErr error
	Node      *Node
	NodeErr   error
	Browser   *Browser
	// BrowserErr is a *MissingBrowserError when no browser was found.
	BrowserErr error
	// HeadlessShell is the Chromium headless shell that headless runs use
	// instead of Browser, if one is installed (nil otherwise, and when a
	// browser was chosen by path or channel).
	HeadlessShell *Browser
	// Remote is Options.Remote: the browser is remote, none was looked for.
	Remote string
	// FFmpeg is the ffmpeg video recording uses (optional: nil with
	// FFmpegErr when missing; never looked for with a remote browser,
	// whose server records the videos).
	FFmpeg    *FFmpeg
	FFmpegErr error
}

// Run installs the driver if it is missing and checks for node and a
// browser, looking up their versions. It never returns nil; Report.Err
// tells whether everything required is present.
func Run(ctx context.Context, opts Options) *Report {
	r := &Report{}
	if dir, err := CacheDir(opts.CacheDir); err == nil {
		r.CacheDir = dir
		opts.CacheDir = dir
	} else {
		r.DriverErr = err
	}
	if opts.Npm == nil {
		if npm, err := LoadNpmConfig(opts.WorkDir); err == nil {
			opts.Npm = npm
		} else if r.DriverErr == nil {
			r.DriverErr = err
		}
	}
	if opts.Npm != nil {
		r.Registry = opts.Npm.RegistryFor(DriverPackage) + " (" + opts.Npm.RegistrySource + ")"
	}
	if r.DriverErr == nil {
		r.Driver, r.DriverErr = EnsureDriver(ctx, opts)
	}
	r.Node, r.NodeErr = FindNode()
	if r.NodeErr == nil {
		r.NodeErr = r.Node.LookupVersion(ctx)
	}
	if opts.Remote != "" {
		r.Remote = opts.Remote
		return r
	}
	if r.Driver != nil {
		if r.FFmpeg, r.FFmpegErr = EnsureFFmpeg(r.Driver); r.FFmpegErr == nil {
			if err := r.FFmpeg.LookupVersion(ctx); err != nil {
				r.FFmpeg, r.FFmpegErr = nil, err
			}
		}
	}
	q := BrowserQuery{Browser: opts.Browser, ExecutablePath: opts.ExecutablePath, Channel: opts.Channel}
	r.Browser, r.BrowserErr = FindBrowser(q)
	q.Headless = true
	if shell, err := FindBrowser(q); err == nil && shell.HeadlessShell {
		r.HeadlessShell = shell
	}
	for _, b := range []*Browser{r.Browser, r.HeadlessShell} {
		if b != nil && b.Path != "" {
			if err := b.LookupVersion(ctx); err != nil {
				b.Version = "unknown (" + err.Error() + ")"
			}
		}
	}
	return r
}

// Err joins the errors of everything required that is missing, or nil.
func (r *Report) Err() error {
	return errors.Join(r.DriverErr, r.NodeErr, r.BrowserErr)
}

// WriteTo prints the report, one line per part, e.g.
//
//	driver   ok       playwright-core 1.52.0 in /root/.cache/ferridriver/driver/...
//	browser  MISSING  no chromium browser found (...). Fix: apt-get install -y chromium ...
func (r *Report) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	line := func(what string, err error, ok string) {
		if err != nil {
			fmt.Fprintf(&b, "%-8s MISSING  %v\n", what, err)
			return
		}
		fmt.Fprintf(&b, "%-8s ok       %s\n", what, ok)
	}
	if r.Driver != nil {
		how := "already installed"
		if r.Driver.Fetched {
			how = "downloaded from " + r.Registry
		}
		line("driver", nil, fmt.Sprintf("%s %s at %s (%s)", DriverPackage, r.Driver.Version, r.Driver.Dir, how))
	} else {
		line("driver", r.DriverErr, "")
	}
	if r.Node != nil && r.NodeErr == nil {
		line("node", nil, fmt.Sprintf("%s %s (%s)", r.Node.Path, r.Node.Version, r.Node.Source))
	} else {
		line("node", r.NodeErr, "")
	}
	describe := func(br *Browser) string {
		where := br.Path
		if where == "" {
			where = "located by Playwright"
		}
		desc := fmt.Sprintf("%s %s (%s", br.Name, where, br.Source)
		if br.Channel != "" {
			desc += " " + br.Channel
		}
		desc += ")"
		if br.Version != "" {
			desc += ": " + br.Version
		}
		return desc
	}
	if r.Remote != "" {
		line("browser", nil, "remote, "+r.Remote+" ([browser] connect/connectOverCDP): no local browser needed")
	} else if r.Browser != nil {
		line("browser", nil, describe(r.Browser))
	} else {
		line("browser", r.BrowserErr, "")
	}
	if r.HeadlessShell != nil && (r.Browser == nil || r.HeadlessShell.Path != r.Browser.Path) {
		line("headless", nil, describe(r.HeadlessShell)+", used for headless runs")
	}
	switch {
	case r.FFmpeg != nil:
		line("ffmpeg", nil, r.FFmpeg.describe()+", for video recording")
	case r.FFmpegErr != nil:
		// Optional: only video recording needs it.
		fmt.Fprintf(&b, "%-8s none     %v\n", "ffmpeg", r.FFmpegErr)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// DeviceDescriptors returns the device descriptors that ship with the
// driver (lib/server/deviceDescriptorsSource.json in playwright-core: what
// Playwright exports as `devices`), as JSON: an object of descriptors by
// device name.
func DeviceDescriptors(driver *Driver) ([]byte, error) {
	path := filepath.Join(driver.Dir, "package", "lib", "server", "deviceDescriptorsSource.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the Playwright driver's device descriptors: %w", err)
	}
	return raw, nil
}
