package main

import "testing"

func TestOverlapBrowserWork(t *testing.T) {
	tests := []struct {
		workers, cpus int
		setting       string
		want, wantErr bool
	}{
		{1, 2, "", true, false},
		{2, 2, "", false, false},
		{3, 2, "", false, false},
		{4, 8, "", true, false},
		{1, 1, "", false, false},
		{2, 2, "1", true, false},
		{1, 2, "0", false, false},
		{1, 2, "yes", false, true},
	}
	for _, tt := range tests {
		got, err := overlapBrowserWork(tt.workers, tt.cpus, tt.setting)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("overlapBrowserWork(%d, %d, %q) = %v, %v; want %v, error %v", tt.workers, tt.cpus, tt.setting, got, err, tt.want, tt.wantErr)
		}
	}
}
