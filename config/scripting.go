package config

import (
	"fmt"

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

// ProcessEnv is process.env of the project's JavaScript: exactly the
// [scripting] allowEnv variables present in environ (os.Environ()).
func (c *Config) ProcessEnv(environ []string) map[string]string {
	return capability.EnvAllowList(c.Scripting.AllowEnv, environ)
}
