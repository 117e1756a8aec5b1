package demoapp

// The demo app's GraphQL endpoint, for the built-in GraphQL steps:
//
//	POST /graphql   {"query": "...", "variables": {...}, "operationName": "..."}
//	GET  /graphql?query=...&variables=...
//
//	type Query {
//	  user(id: Int!): User          # null, with an error, when there is none
//	  users(role: String): [User!]!
//	  product(sku: String!): Product
//	}
//	type Mutation { addToBasket(sku: String!, quantity: Int!): BasketLine }
//
// The schema runs on graphql-go (the reference implementation's port).

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/graphql-go/graphql"
)

// graphQLSchema builds the schema over a's users and the catalogue.
func (a *app) graphQLSchema() (graphql.Schema, error) {
	address := graphql.NewObject(graphql.ObjectConfig{Name: "Address", Fields: graphql.Fields{
		"street":  &graphql.Field{Type: graphql.String},
		"city":    &graphql.Field{Type: graphql.String},
		"country": &graphql.Field{Type: graphql.String},
	}})
	userType := graphql.NewObject(graphql.ObjectConfig{Name: "User", Fields: graphql.Fields{
		"id":        &graphql.Field{Type: graphql.NewNonNull(graphql.Int)},
		"uuid":      &graphql.Field{Type: graphql.NewNonNull(graphql.String)},
		"name":      &graphql.Field{Type: graphql.NewNonNull(graphql.String)},
		"email":     &graphql.Field{Type: graphql.NewNonNull(graphql.String)},
		"roles":     &graphql.Field{Type: graphql.NewList(graphql.NewNonNull(graphql.String))},
		"active":    &graphql.Field{Type: graphql.NewNonNull(graphql.Boolean)},
		"address":   &graphql.Field{Type: address},
		"createdAt": &graphql.Field{Type: graphql.String},
	}})
	productType := graphql.NewObject(graphql.ObjectConfig{Name: "Product", Fields: graphql.Fields{
		"sku":   &graphql.Field{Type: graphql.NewNonNull(graphql.String)},
		"name":  &graphql.Field{Type: graphql.NewNonNull(graphql.String)},
		"price": &graphql.Field{Type: graphql.NewNonNull(graphql.Float)},
		"stock": &graphql.Field{Type: graphql.NewNonNull(graphql.Int)},
	}})
	lineType := graphql.NewObject(graphql.ObjectConfig{Name: "BasketLine", Fields: graphql.Fields{
		"sku":      &graphql.Field{Type: graphql.NewNonNull(graphql.String)},
		"name":     &graphql.Field{Type: graphql.NewNonNull(graphql.String)},
		"quantity": &graphql.Field{Type: graphql.NewNonNull(graphql.Int)},
		"price":    &graphql.Field{Type: graphql.NewNonNull(graphql.Float)},
	}})
	// Resolvers read the structs as JSON objects, so the fields' names are
	// the REST API's.
	asMap := func(v any) map[string]any {
		b, _ := json.Marshal(v)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		return m
	}
	query := graphql.NewObject(graphql.ObjectConfig{Name: "Query", Fields: graphql.Fields{
		"user": &graphql.Field{
			Type: userType,
			Args: graphql.FieldConfigArgument{"id": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.Int)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				id := p.Args["id"].(int)
				a.mu.Lock()
				defer a.mu.Unlock()
				for _, u := range a.users.list {
					if u.ID == id {
						return asMap(u), nil
					}
				}
				return nil, fmt.Errorf("no user %d", id)
			},
		},
		"users": &graphql.Field{
			Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(userType))),
			Args: graphql.FieldConfigArgument{"role": &graphql.ArgumentConfig{Type: graphql.String}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				role, _ := p.Args["role"].(string)
				a.mu.Lock()
				defer a.mu.Unlock()
				out := []any{}
				for _, u := range a.users.list {
					if role == "" || slices.Contains(u.Roles, role) {
						out = append(out, asMap(u))
					}
				}
				return out, nil
			},
		},
		"product": &graphql.Field{
			Type: productType,
			Args: graphql.FieldConfigArgument{"sku": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.String)}},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				if pr, ok := productBySKU(p.Args["sku"].(string)); ok {
					return asMap(pr), nil
				}
				return nil, fmt.Errorf("no product %s", p.Args["sku"])
			},
		},
	}})
	mutation := graphql.NewObject(graphql.ObjectConfig{Name: "Mutation", Fields: graphql.Fields{
		"addToBasket": &graphql.Field{
			Type: lineType,
			Args: graphql.FieldConfigArgument{
				"sku":      &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.String)},
				"quantity": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.Int)},
			},
			Resolve: func(p graphql.ResolveParams) (any, error) {
				pr, ok := productBySKU(p.Args["sku"].(string))
				q := p.Args["quantity"].(int)
				switch {
				case !ok:
					return nil, fmt.Errorf("no product %s", p.Args["sku"])
				case q < 1:
					return nil, errors.New("quantity must be at least 1")
				case q > pr.Stock:
					return nil, fmt.Errorf("only %d in stock", pr.Stock)
				}
				return map[string]any{"sku": pr.SKU, "name": pr.Name, "quantity": q, "price": pr.Price}, nil
			},
		},
	}})
	return graphql.NewSchema(graphql.SchemaConfig{Query: query, Mutation: mutation})
}

// graphQL serves /graphql: a POST with a JSON body, or a GET with the query
// in the URL. The answer is 200 with {data, errors} (GraphQL's convention:
// errors of the query are in the body), or 400 for a request that is not
// a GraphQL request at all.
func (a *app) graphQL(schema graphql.Schema) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query         string         `json:"query"`
			Variables     map[string]any `json:"variables"`
			OperationName string         `json:"operationName"`
		}
		switch r.Method {
		case http.MethodGet:
			req.Query = r.URL.Query().Get("query")
			req.OperationName = r.URL.Query().Get("operationName")
			if v := r.URL.Query().Get("variables"); v != "" {
				if err := json.Unmarshal([]byte(v), &req.Variables); err != nil {
					writeJSON(w, http.StatusBadRequest, map[string]string{"error": "variables must be a JSON object"})
					return
				}
			}
		case http.MethodPost:
			if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": `body must be JSON like {"query": "{ users { name } }"}`})
				return
			}
		default:
			w.Header().Set("Allow", "GET, POST")
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "GraphQL is served by GET and POST"})
			return
		}
		if req.Query == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "no query"})
			return
		}
		res := graphql.Do(graphql.Params{Schema: schema, RequestString: req.Query, VariableValues: req.Variables, OperationName: req.OperationName, Context: r.Context()})
		writeJSON(w, http.StatusOK, res)
	}
}
