package jsbridge

import (
	"fmt"
	"testing"
	"time"
)

func TestZZStartup(t *testing.T) {
	for i := 0; i < 5; i++ {
		t0 := time.Now()
		b, err := Build(BundleOptions{Entries: []string{"/tmp/bench2/steps/logic.ts"}, Dir: "/tmp/bench2"})
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		vm, err := NewVM(b, VMOptions{Dir: "/tmp/bench2"})
		if err != nil {
			t.Fatal(err)
		}
		t2 := time.Now()
		vm.NewWorld()
		fmt.Println("build", t1.Sub(t0), "vm", t2.Sub(t1), "world", time.Since(t2))
	}
}
