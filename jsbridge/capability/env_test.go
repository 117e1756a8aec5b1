package capability

import (
	"reflect"
	"testing"
)

func TestEnvAllowList(t *testing.T) {
	environ := []string{"HOME=/root", "TZ=UTC", "EMPTY=", "SECRET=s3cr3t", "DUP=first", "DUP=second", "EQ=a=b", "NOEQUALS"}
	tests := []struct {
		name  string
		names []string
		want  map[string]string
	}{
		{"nil list", nil, map[string]string{}},
		{"empty list", []string{}, map[string]string{}},
		{"intersection", []string{"HOME", "TZ", "MISSING"}, map[string]string{"HOME": "/root", "TZ": "UTC"}},
		{"empty value is present", []string{"EMPTY"}, map[string]string{"EMPTY": ""}},
		{"first duplicate wins", []string{"DUP"}, map[string]string{"DUP": "first"}},
		{"value with =", []string{"EQ"}, map[string]string{"EQ": "a=b"}},
		{"no invented names", []string{"NOEQUALS", "", "HOME=/x", "home"}, map[string]string{}},
		{"repeated name", []string{"TZ", "TZ"}, map[string]string{"TZ": "UTC"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EnvAllowList(tc.names, environ)
			if got == nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
	if got := EnvAllowList([]string{"HOME"}, nil); len(got) != 0 {
		t.Errorf("empty environ: %v", got)
	}
}
