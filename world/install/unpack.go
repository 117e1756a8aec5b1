package install

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxUnpacked bounds the total unpacked size (a gzip bomb guard).
const maxUnpacked = 2 << 30

// unpackTarball extracts an npm package tarball (gzip'd tar) into root,
// dropping the first path component as npm does (it is "package/" for
// almost every package). Entries that would land outside root (absolute
// paths, "..") make the whole unpack fail; links and special files are
// skipped, since npm does not install them either, so nothing written later
// can be redirected through a link.
func unpackTarball(tgz, root string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("not a gzip tarball: %w", err)
	}
	defer zr.Close()
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read tarball: %w", err)
		}
		rel, err := entryPath(hdr.Name)
		if err != nil {
			return err
		}
		if rel == "" {
			continue // the top-level directory itself
		}
		dst := filepath.Join(root, filepath.FromSlash(rel))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
		case tar.TypeReg, tar.TypeRegA: //nolint:staticcheck // old tarballs use TypeRegA
			total += hdr.Size
			if total > maxUnpacked {
				return fmt.Errorf("tarball unpacks to more than %d bytes", int64(maxUnpacked))
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if hdr.Mode&0o111 != 0 {
				mode = 0o755
			}
			out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
			if err != nil {
				return err
			}
			_, err = io.Copy(out, io.LimitReader(tr, hdr.Size))
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("write %s: %w", rel, err)
			}
		default:
			// Symlinks, hard links, devices: skipped (see above).
		}
	}
}

// entryPath validates a tar entry name and returns it relative to the
// package root, with the first component stripped.
func entryPath(name string) (string, error) {
	n := strings.ReplaceAll(name, "\\", "/")
	if strings.HasPrefix(n, "/") || (len(n) >= 2 && n[1] == ':') {
		return "", fmt.Errorf("unsafe tarball entry %q: absolute path", name)
	}
	for _, part := range strings.Split(n, "/") {
		if part == ".." {
			return "", fmt.Errorf("unsafe tarball entry %q: escapes the package directory", name)
		}
	}
	n = path.Clean(n)
	if n == "." {
		return "", nil
	}
	_, rest, _ := strings.Cut(n, "/")
	return rest, nil
}
