package install

import (
	"bufio"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// DefaultRegistry is npm's public registry, used when nothing else is set.
const DefaultRegistry = "https://registry.npmjs.org/"

// NpmConfig is the part of the user's npm configuration that fetching a
// package needs: the registry (and per-scope registries) and, for private
// mirrors, the auth tokens npm would send. Precedence is npm's own:
// environment, then the project .npmrc, then the user .npmrc.
type NpmConfig struct {
	// Registry is the default registry URL, always ending in "/".
	Registry string
	// RegistrySource says where Registry came from (for reports).
	RegistrySource string
	// Scopes maps "@scope" to that scope's registry URL.
	Scopes map[string]string
	// tokens maps npm "nerf darts" ("//host/path/") to bearer tokens.
	tokens map[string]string
}

// LoadNpmConfig reads the registry settings as npm would: env
// npm_config_registry / NPM_CONFIG_REGISTRY, then workDir/.npmrc (the
// project), then the user's .npmrc ($NPM_CONFIG_USERCONFIG or ~/.npmrc),
// else DefaultRegistry. workDir "" means the current directory. A missing
// .npmrc is not an error; an unreadable one is.
func LoadNpmConfig(workDir string) (*NpmConfig, error) {
	if workDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("npm config: %w", err)
		}
		workDir = wd
	}
	c := &NpmConfig{Scopes: map[string]string{}, tokens: map[string]string{}}
	var files []string
	files = append(files, filepath.Join(workDir, ".npmrc"))
	user := firstEnv("npm_config_userconfig", "NPM_CONFIG_USERCONFIG")
	if user == "" {
		if home, err := os.UserHomeDir(); err == nil {
			user = filepath.Join(home, ".npmrc")
		}
	}
	if user != "" && !samePath(user, files[0]) {
		files = append(files, user)
	}
	// Lowest precedence first, so later assignments win.
	for i := len(files) - 1; i >= 0; i-- {
		kv, err := readNpmrc(files[i])
		if err != nil {
			return nil, err
		}
		for k, v := range kv {
			switch {
			case k == "registry":
				c.Registry, c.RegistrySource = v, files[i]
			case strings.HasPrefix(k, "@") && strings.HasSuffix(k, ":registry"):
				c.Scopes[strings.TrimSuffix(k, ":registry")] = withSlash(v)
			case strings.HasPrefix(k, "//") && strings.HasSuffix(k, ":_authToken"):
				c.tokens[strings.TrimSuffix(k, ":_authToken")] = v
			}
		}
	}
	for _, name := range []string{"npm_config_registry", "NPM_CONFIG_REGISTRY"} {
		if v := os.Getenv(name); v != "" {
			c.Registry, c.RegistrySource = v, "env "+name
			break
		}
	}
	if c.Registry == "" {
		c.Registry, c.RegistrySource = DefaultRegistry, "default"
	}
	c.Registry = withSlash(c.Registry)
	return c, nil
}

// RegistryFor returns the registry that serves package name (honouring
// "@scope:registry").
func (c *NpmConfig) RegistryFor(name string) string {
	if strings.HasPrefix(name, "@") {
		if scope, _, ok := strings.Cut(name, "/"); ok {
			if r, ok := c.Scopes[scope]; ok {
				return r
			}
		}
	}
	return c.Registry
}

// tokenFor returns the bearer token configured for rawURL, matching npm's
// "//host/path/:_authToken" keys by longest prefix. Tokens are only ever
// sent to the URL prefix they were configured for.
func (c *NpmConfig) tokenFor(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	nerf := "//" + u.Host + u.Path
	best, tok := "", ""
	for k, v := range c.tokens {
		if strings.HasPrefix(nerf, withSlash(k)) && len(k) > len(best) {
			best, tok = k, v
		}
	}
	return tok
}

var envRef = regexp.MustCompile(`\$\{([^}]+)\}`)

// readNpmrc parses the ini-like .npmrc format: key=value lines, ; and #
// comments, ${VAR} expansion. Sections are ignored (npm ignores them too).
func readNpmrc(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("npm config: %w", err)
	}
	defer f.Close()
	kv := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == ';' || line[0] == '#' || line[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		v = envRef.ReplaceAllStringFunc(v, func(m string) string {
			return os.Getenv(m[2 : len(m)-1])
		})
		kv[strings.TrimSpace(k)] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("npm config %s: %w", path, err)
	}
	return kv, nil
}

// Fetcher downloads npm package versions into a directory, verifying the
// registry's integrity hash. The zero value uses LoadNpmConfig("") and
// http.DefaultClient.
type Fetcher struct {
	Npm    *NpmConfig
	Client *http.Client
	// Logf, if set, receives one line per download.
	Logf func(format string, args ...any)
}

// PackageMeta is the part of a registry's version document that we use.
type PackageMeta struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Dist    struct {
		Tarball   string `json:"tarball"`
		Integrity string `json:"integrity"`
		Shasum    string `json:"shasum"`
	} `json:"dist"`
}

// maxTarball bounds a download so that a broken mirror cannot fill the disk.
const maxTarball = 512 << 20

// Fetch makes dest/package hold name@version, downloading it only when it
// is not there yet (idempotent: an installed package costs no request). The
// install is atomic: the tarball is verified against the registry's
// dist.integrity (or dist.shasum for old packages), unpacked into a
// temporary sibling of dest and renamed into place, so a crash or a
// concurrent install never leaves a half-written package. It returns the
// package directory and whether a download happened.
func (f *Fetcher) Fetch(ctx context.Context, name, version, dest string) (pkgDir string, fetched bool, err error) {
	pkgDir = filepath.Join(dest, "package")
	if installedVersion(pkgDir, name) == version {
		return pkgDir, false, nil
	}
	npm := f.Npm
	if npm == nil {
		if npm, err = LoadNpmConfig(""); err != nil {
			return "", false, err
		}
	}
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	meta, err := fetchMeta(ctx, client, npm, name, version)
	if err != nil {
		return "", false, err
	}
	if f.Logf != nil {
		f.Logf("downloading %s@%s from %s", name, version, meta.Dist.Tarball)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return "", false, fmt.Errorf("install %s@%s: %w", name, version, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), ".tmp-"+filepath.Base(dest)+"-")
	if err != nil {
		return "", false, fmt.Errorf("install %s@%s: %w", name, version, err)
	}
	defer os.RemoveAll(tmp) // no-op after a successful rename
	tgz := filepath.Join(tmp, "package.tgz")
	if err := download(ctx, client, npm, meta, tgz); err != nil {
		return "", false, err
	}
	if err := unpackTarball(tgz, filepath.Join(tmp, "package")); err != nil {
		return "", false, fmt.Errorf("unpack %s: %w", meta.Dist.Tarball, err)
	}
	if err := os.Remove(tgz); err != nil {
		return "", false, err
	}
	if got := installedVersion(filepath.Join(tmp, "package"), name); got != version {
		return "", false, fmt.Errorf("install %s@%s: tarball %s holds %s@%q", name, version, meta.Dist.Tarball, name, got)
	}
	if err := os.Rename(tmp, dest); err != nil {
		// Someone else may have finished the same install meanwhile.
		if installedVersion(pkgDir, name) == version {
			return pkgDir, true, nil
		}
		// A stale, broken directory: replace it.
		if rmErr := os.RemoveAll(dest); rmErr != nil {
			return "", false, fmt.Errorf("install %s@%s: replace %s: %w", name, version, dest, rmErr)
		}
		if err := os.Rename(tmp, dest); err != nil {
			return "", false, fmt.Errorf("install %s@%s: %w", name, version, err)
		}
	}
	return pkgDir, true, nil
}

// installedVersion reads pkgDir/package.json and returns its version if its
// name is name, else "".
func installedVersion(pkgDir, name string) string {
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return ""
	}
	var pj struct{ Name, Version string }
	if json.Unmarshal(b, &pj) != nil || pj.Name != name {
		return ""
	}
	return pj.Version
}

func fetchMeta(ctx context.Context, client *http.Client, npm *NpmConfig, name, version string) (*PackageMeta, error) {
	// npm escapes the scope separator: @scope%2fname.
	u := npm.RegistryFor(name) + strings.Replace(name, "/", "%2f", 1) + "/" + url.PathEscape(version)
	body, err := get(ctx, client, npm, u, "application/json", 16<<20)
	if err != nil {
		return nil, fmt.Errorf("npm metadata for %s@%s: %w", name, version, err)
	}
	var meta PackageMeta
	if err := json.Unmarshal(body, &meta); err != nil {
		return nil, fmt.Errorf("npm metadata for %s@%s from %s: %w", name, version, u, err)
	}
	if meta.Name != name || meta.Version != version {
		return nil, fmt.Errorf("npm metadata from %s describes %s@%s, want %s@%s", u, meta.Name, meta.Version, name, version)
	}
	if meta.Dist.Tarball == "" {
		return nil, fmt.Errorf("npm metadata from %s has no dist.tarball", u)
	}
	if meta.Dist.Integrity == "" && meta.Dist.Shasum == "" {
		return nil, fmt.Errorf("npm metadata from %s has no dist.integrity: refusing an unverifiable download", u)
	}
	return &meta, nil
}

func get(ctx context.Context, client *http.Client, npm *NpmConfig, u, accept string, limit int64) ([]byte, error) {
	resp, err := doGet(ctx, client, npm, u, accept)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("GET %s: response larger than %d bytes", u, limit)
	}
	return b, nil
}

func doGet(ctx context.Context, client *http.Client, npm *NpmConfig, u, accept string) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", "ferridriver-install")
	if tok := npm.tokenFor(u); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	resp.Body = &cancelOnClose{resp.Body, cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error { err := c.ReadCloser.Close(); c.cancel(); return err }

// download streams the tarball to path and checks it against the registry's
// integrity before anything is unpacked.
func download(ctx context.Context, client *http.Client, npm *NpmConfig, meta *PackageMeta, path string) error {
	check, err := newIntegrity(meta.Dist.Integrity, meta.Dist.Shasum)
	if err != nil {
		return fmt.Errorf("%s@%s: %w", meta.Name, meta.Version, err)
	}
	resp, err := doGet(ctx, client, npm, meta.Dist.Tarball, "application/octet-stream")
	if err != nil {
		return fmt.Errorf("download %s@%s: %w", meta.Name, meta.Version, err)
	}
	defer resp.Body.Close()
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	n, err := io.Copy(io.MultiWriter(out, check.h), io.LimitReader(resp.Body, maxTarball+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("download %s: %w", meta.Dist.Tarball, err)
	}
	if n > maxTarball {
		return fmt.Errorf("download %s: larger than %d bytes", meta.Dist.Tarball, maxTarball)
	}
	if err := check.verify(); err != nil {
		return fmt.Errorf("download %s: %w", meta.Dist.Tarball, err)
	}
	return nil
}

// integrity checks a download against a Subresource Integrity string
// ("sha512-<base64> ...", strongest supported algorithm wins) or, for old
// packages without one, npm's hex sha1 shasum.
type integrity struct {
	alg  string
	want []byte
	h    hash.Hash
}

func newIntegrity(sri, shasum string) (*integrity, error) {
	rank := map[string]int{"sha1": 1, "sha256": 2, "sha384": 3, "sha512": 4}
	var best *integrity
	for _, part := range strings.Fields(sri) {
		alg, b64, ok := strings.Cut(part, "-")
		if !ok || rank[alg] == 0 {
			continue
		}
		if i := strings.IndexByte(b64, '?'); i >= 0 { // SRI options
			b64 = b64[:i]
		}
		want, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Errorf("bad integrity %q: %w", part, err)
		}
		if best == nil || rank[alg] > rank[best.alg] {
			best = &integrity{alg: alg, want: want}
		}
	}
	if best == nil && shasum != "" {
		want, err := hex.DecodeString(shasum)
		if err != nil {
			return nil, fmt.Errorf("bad shasum %q: %w", shasum, err)
		}
		best = &integrity{alg: "sha1", want: want}
	}
	if best == nil {
		return nil, fmt.Errorf("no usable integrity in %q", sri)
	}
	switch best.alg {
	case "sha1":
		best.h = sha1.New()
	case "sha256":
		best.h = sha256.New()
	case "sha384":
		best.h = sha512.New384()
	default:
		best.h = sha512.New()
	}
	return best, nil
}

func (i *integrity) verify() error {
	got := i.h.Sum(nil)
	if string(got) != string(i.want) {
		return fmt.Errorf("integrity mismatch: %s is %s, registry says %s (corrupted or tampered download)",
			i.alg, base64.StdEncoding.EncodeToString(got), base64.StdEncoding.EncodeToString(i.want))
	}
	return nil
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

func withSlash(s string) string {
	if strings.HasSuffix(s, "/") {
		return s
	}
	return s + "/"
}

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}
