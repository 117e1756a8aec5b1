package demoapp

// The catalogue page's endpoints (/catalogue.html): adding a product to
// the basket and exporting the products as a CSV download.
//
//	POST /api/basket       {"sku": "F-1", "quantity": 2} -> 201 {"sku", "name", "quantity", "price"}
//	GET  /api/export.csv   the products, as an attachment named products.csv

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

type product struct {
	SKU   string  `json:"sku"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
	Stock int     `json:"stock"`
}

// products are the catalogue's products, as catalogue.html shows them.
var products = []product{
	{"F-1", "Milk", 1.20, 12},
	{"F-2", "Bread", 2.50, 5},
	{"F-3", "Eggs", 3.10, 30},
	{"F-4", "Honey", 6.00, 0},
}

func productBySKU(sku string) (product, bool) {
	for _, p := range products {
		if p.SKU == sku {
			return p, true
		}
	}
	return product{}, false
}

func addToBasket(w http.ResponseWriter, r *http.Request) {
	var in struct {
		SKU      string `json:"sku"`
		Quantity int    `json:"quantity"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": `body must be JSON like {"sku": "F-1", "quantity": 1}`})
		return
	}
	p, ok := productBySKU(in.SKU)
	switch {
	case !ok:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no product " + in.SKU})
		return
	case in.Quantity < 1:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "quantity must be at least 1"})
		return
	case in.Quantity > p.Stock:
		writeJSON(w, http.StatusConflict, map[string]any{"error": fmt.Sprintf("only %d in stock", p.Stock)})
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"sku": p.SKU, "name": p.Name, "quantity": in.Quantity, "price": p.Price})
}

func exportProducts(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	b.WriteString("sku,name,price\n")
	for _, p := range products {
		fmt.Fprintf(&b, "%s,%s,%.2f\n", p.SKU, p.Name, p.Price)
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="products.csv"`)
	_, _ = w.Write([]byte(b.String()))
}
