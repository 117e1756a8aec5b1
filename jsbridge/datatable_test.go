package jsbridge

import (
	"testing"

	"github.com/ferridriver/ferridriver/messages"
)

// DataTable's methods give what cucumber-js's give, and copies the caller
// may change without changing the table.
func TestDataTable(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	row := func(cells ...string) *messages.PickleTableRow {
		r := &messages.PickleTableRow{}
		for _, c := range cells {
			r.Cells = append(r.Cells, &messages.PickleTableCell{Value: c})
		}
		return r
	}
	vm.rt.Set("dt", vm.newDataTable(&messages.PickleTable{Rows: []*messages.PickleTableRow{row("k", "v", "k"), row("a", "1", "A"), row("b", "2", "B")}}))
	vm.rt.Set("pairs", vm.newDataTable(&messages.PickleTable{Rows: []*messages.PickleTableRow{row("x", "1"), row("y", "2")}}))
	vm.rt.Set("empty", vm.newDataTable(&messages.PickleTable{}))
	for _, tc := range []struct{ src, want string }{
		{`return JSON.stringify(dt.hashes())`, `[{"k":"A","v":"1"},{"k":"B","v":"2"}]`},
		{`return JSON.stringify(dt.raw())`, `[["k","v","k"],["a","1","A"],["b","2","B"]]`},
		{`return JSON.stringify(dt.rows())`, `[["a","1","A"],["b","2","B"]]`},
		{`const r = dt.raw(); r[0][0] = 'changed'; r.push([]); const h = dt.hashes(); h[0].k = 'changed'; dt.rows()[0][0] = 'changed'; return JSON.stringify(dt.raw())`, `[["k","v","k"],["a","1","A"],["b","2","B"]]`},
		{`return JSON.stringify(pairs.rowsHash())`, `{"x":"1","y":"2"}`},
		{`try { dt.rowsHash() } catch (e) { return e.message }`, "rowsHash can only be called on a data table where all rows have exactly two columns"},
		{`return JSON.stringify(dt.transpose().raw())`, `[["k","a","b"],["v","1","2"],["k","A","B"]]`},
		{`return JSON.stringify([empty.hashes(), empty.raw(), empty.rows(), empty.transpose().raw()])`, `[[],[],[],[]]`},
		{`return Object.getPrototypeOf(dt.hashes()[0]) === Object.prototype && Array.isArray(dt.hashes())`, "true"},
	} {
		if got := mustEval(t, vm, tc.src); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}
