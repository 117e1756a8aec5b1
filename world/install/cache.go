// Package install finds and installs what ferridriver needs to drive a
// browser: the Playwright driver (the npm package playwright-core, run by the
// system node), a Node.js binary, and a Chrome/Chromium (or a browser that
// Playwright downloaded itself). It backs `ferridriver install` and the
// check that `ferridriver bdd` runs the first time a test touches the page.
package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Driver package pinned by playwright-go v0.5200.1: its protocol must match
// the driver's exactly, so this version is not configurable.
const (
	DriverPackage = "playwright-core"
	DriverVersion = "1.52.0"
)

// EnvCacheDir overrides the cache directory (below an explicit option).
const EnvCacheDir = "FERRIDRIVER_CACHE_DIR"

// CacheDir resolves the cache directory: the explicit value if non-empty,
// else $FERRIDRIVER_CACHE_DIR, else $XDG_CACHE_HOME/ferridriver, else the
// platform's user cache dir (~/.cache on Linux) + /ferridriver.
func CacheDir(explicit string) (string, error) {
	if explicit != "" {
		return filepath.Abs(explicit)
	}
	if v := os.Getenv(EnvCacheDir); v != "" {
		return filepath.Abs(v)
	}
	if v := os.Getenv("XDG_CACHE_HOME"); v != "" && filepath.IsAbs(v) {
		return filepath.Join(v, "ferridriver"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot locate the ferridriver cache directory (set %s): %w", EnvCacheDir, err)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Caches", "ferridriver"), nil
	case "windows":
		if v := os.Getenv("LocalAppData"); v != "" {
			return filepath.Join(v, "ferridriver"), nil
		}
		return filepath.Join(home, "AppData", "Local", "ferridriver"), nil
	}
	return filepath.Join(home, ".cache", "ferridriver"), nil
}

// DriverDir is the playwright-go DriverDirectory inside cacheDir: it
// contains package/cli.js once the driver is installed.
func DriverDir(cacheDir string) string {
	return filepath.Join(cacheDir, "driver", DriverPackage+"-"+DriverVersion)
}

// PackageDir is where FetchPackage keeps name@version inside cacheDir (the
// returned directory contains package/). Scoped names keep their scope as a
// directory level: @cucumber/html-formatter -> npm/@cucumber/html-formatter-V.
func PackageDir(cacheDir, name, version string) string {
	return filepath.Join(cacheDir, "npm", filepath.FromSlash(name)+"-"+version)
}

// errNotFound marks "looked, nothing there" as opposed to I/O failures.
var errNotFound = errors.New("not found")
