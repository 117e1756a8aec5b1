package install

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// EnvNode names a Node.js binary to use instead of the node found on PATH.
const EnvNode = "FERRIDRIVER_NODE"

// MinNodeMajor is the oldest Node.js that playwright-core 1.52 supports
// (its package.json "engines").
const MinNodeMajor = 18

// Node is a Node.js binary that can run the driver.
type Node struct {
	Path    string
	Source  string // "FERRIDRIVER_NODE", "PLAYWRIGHT_NODEJS_PATH" or "PATH"
	Version string // e.g. "v20.11.1"; empty until LookupVersion
}

// FindNode locates node: $FERRIDRIVER_NODE if set (it must exist), else
// $PLAYWRIGHT_NODEJS_PATH (playwright-go's own variable), else "node" on
// PATH. It does not run it.
func FindNode() (*Node, error) {
	for _, env := range []string{EnvNode, "PLAYWRIGHT_NODEJS_PATH"} {
		if p := os.Getenv(env); p != "" {
			if err := checkExecutable(p); err != nil {
				return nil, fmt.Errorf("%s=%s: %w", env, p, err)
			}
			return &Node{Path: p, Source: env}, nil
		}
	}
	p, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node (Node.js %d or newer) is not on PATH: the Playwright driver needs it. "+
			"Install it (Debian/Ubuntu: apt-get install -y nodejs) or set %s to a node binary", MinNodeMajor, EnvNode)
	}
	return &Node{Path: p, Source: "PATH"}, nil
}

// LookupVersion runs `node --version`, fills n.Version and checks it is new
// enough for the driver.
func (n *Node) LookupVersion(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, n.Path, "--version").Output()
	if err != nil {
		return fmt.Errorf("run %s --version: %w", n.Path, err)
	}
	n.Version = strings.TrimSpace(string(out))
	major, _, _ := strings.Cut(strings.TrimPrefix(n.Version, "v"), ".")
	if m, err := strconv.Atoi(major); err != nil || m < MinNodeMajor {
		return fmt.Errorf("%s is Node.js %s; the Playwright driver needs %d or newer", n.Path, n.Version, MinNodeMajor)
	}
	return nil
}

func checkExecutable(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("not found: %w", err)
	}
	if st.IsDir() {
		return fmt.Errorf("is a directory, not an executable")
	}
	if st.Mode().Perm()&0o111 == 0 && os.PathSeparator == '/' {
		return fmt.Errorf("is not executable (mode %v)", st.Mode().Perm())
	}
	return nil
}
