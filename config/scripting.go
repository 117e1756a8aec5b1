package config

import (
	"fmt"
	"os"
	"strings"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// ScriptCommands parses [scripting.allow]: the commands first-party code
// (step files, scripts) may run. A net restriction there is an error:
// allow.net restricts extension tools only.
func (c *Config) ScriptCommands() (*capability.CommandSet, error) {
	allow, err := capability.ParseAllow(c.Scripting.Allow)
	if err != nil {
		return nil, fmt.Errorf("[scripting.allow]: %w", err)
	}
	if !allow.Net.Unrestricted() {
		return nil, fmt.Errorf("[scripting.allow] net is not supported: first-party code (steps, scripts) may fetch any host but cloud metadata endpoints; allow.net restricts extension tools")
	}
	return allow.Commands, nil
}

// EnvMode says what process.env holds for the project's step code.
type EnvMode struct {
	// Node is set when step code sees the whole environment, as under
	// Node; otherwise it sees the [scripting] allowEnv names alone.
	Node bool
	// Why is the rule that chose the mode, for --print-config.
	Why string
}

// EnvMode decides process.env of step code. A suite configured by a
// cucumber-js configuration file runs as under Node (the whole
// environment, with what the file set in process.env), unless the project
// says how to restrict it: a [scripting] table in ferridriver.toml or
// FERRIDRIVER_SCRIPTING_ALLOWENV. Every other project, and every host but
// `bdd` (tools, scripts, the MCP server, which load the configuration
// with Load), sees [scripting] allowEnv alone.
func (c *Config) EnvMode() EnvMode {
	file := relName(c.Dir, c.File)
	switch {
	case c.Cucumber == nil:
		return EnvMode{Why: "no cucumber-js configuration file: process.env is [scripting] allowEnv"}
	case c.scriptingInFile():
		return EnvMode{Why: file + " has a [scripting] table: process.env is [scripting] allowEnv"}
	case envSet("FERRIDRIVER_SCRIPTING_ALLOWENV"):
		return EnvMode{Why: "FERRIDRIVER_SCRIPTING_ALLOWENV is set: process.env is [scripting] allowEnv"}
	case file == "":
		return EnvMode{Node: true, Why: "configured by " + c.Cucumber.File + ", no ferridriver.toml: process.env is the whole environment, as under Node"}
	}
	return EnvMode{Node: true, Why: "configured by " + c.Cucumber.File + ", and " + file + " has no [scripting] table: process.env is the whole environment, as under Node"}
}

func (c *Config) scriptingInFile() bool {
	_, ok := rawFile(c)["scripting"]
	return ok
}

// ProcessEnv is process.env of the project's JavaScript for environ
// (os.Environ()), as EnvMode decides: in Node mode all of it, otherwise
// exactly the [scripting] allowEnv names it holds. What a JavaScript
// cucumber-js configuration file did to process.env applies first, as in
// one Node process.
func (c *Config) ProcessEnv(environ []string) map[string]string {
	env := c.ambientEnv(environ)
	if c.EnvMode().Node {
		return env
	}
	return capability.EnvAllowList(c.Scripting.AllowEnv, environLines(env))
}

// HiddenEnv says which names of environ process.env leaves out: those set
// (in the environment or by the cucumber-js configuration file) but not
// allowed. Nil in Node mode.
func (c *Config) HiddenEnv(environ []string) map[string]bool {
	if c.EnvMode().Node {
		return nil
	}
	allowed := c.ProcessEnv(environ)
	hidden := map[string]bool{}
	for k := range c.ambientEnv(environ) {
		if _, ok := allowed[k]; !ok {
			hidden[k] = true
		}
	}
	return hidden
}

// HiddenEnvNote is what to tell a user whose code read a variable that is
// set but hidden from it: the setting to add it to.
func (c *Config) HiddenEnvNote(name string) string {
	where := "[scripting] allowEnv in " + relName(c.Dir, c.File)
	if c.File == "" {
		where = "[scripting] allowEnv in a ferridriver.toml"
	}
	return fmt.Sprintf("process.env.%s is set but not visible to step code (default-deny): add %q to %s, or set FERRIDRIVER_SCRIPTING_ALLOWENV='[%q]'", name, name, where, name)
}

// ambientEnv is environ as a map, with what the cucumber-js configuration
// file did to process.env.
func (c *Config) ambientEnv(environ []string) map[string]string {
	if c.Cucumber != nil && c.Cucumber.Env != nil {
		return c.Cucumber.Env
	}
	env := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

// environLines turns a map back into KEY=VALUE lines.
func environLines(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

func envSet(name string) bool {
	_, ok := os.LookupEnv(name)
	return ok
}
