// Package demoapp is a small, realistic web application embedded in the
// ferridriver binary, for the example suite, tests and benchmarks: a login
// form, a todo list with a counter, a sortable table, JS dialogs, a popup, a
// slow-loading element and a small JSON API. Markup is accessible (labels,
// roles, test ids) so Playwright's getByRole/getByLabel/getByTestId work.
//
// Pages: / (index), /login (demo/secret) -> /welcome, /todo.html,
// /table.html, /dialogs.html, /popup.html (opens /popup-content.html),
// /slow.html?delay=ms; for the built-in step library's own features,
// /elements.html, /forms.html, /frames.html (with nested frames),
// /environment.html (what the browser tells the page, and requests) and
// /catalogue.html (collections, a basket, downloads; catalogue.go). API:
// GET/POST /api/todos, DELETE /api/todos/{id}, GET /api/slow?ms=N,
// GET /api/health; users, login, echo, status and redirect endpoints are
// listed in api.go; /graphql in graphql.go, /api/xml/... in xml.go and the
// WebSocket /ws in websocket.go.
package demoapp

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed site
var site embed.FS

// Credentials accepted by the login form.
const (
	User     = "demo"
	Password = "secret"
)

// MaxSlow caps /api/slow?ms= so that a typo cannot hang a test run.
const MaxSlow = 10 * time.Second

var pages = template.Must(template.ParseFS(site, "site/templates/*.html"))

type todo struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

// app holds the state of one Handler: login sessions and the API's todos.
type app struct {
	mu       sync.Mutex
	sessions map[string]string // cookie token -> user
	todos    []todo
	nextID   int
	users    users // the users API (api.go)
}

const cookieName = "demo_session"

// Handler returns the demo app. Each call has its own state (logins, API
// todos), so tests do not see each other's data.
func Handler() http.Handler {
	a := &app{
		sessions: map[string]string{},
		todos:    []todo{{1, "Read the docs", true}, {2, "Write a feature", false}, {3, "Run ferridriver", false}},
		nextID:   4,
		users:    seedUsers(),
	}
	static, err := fs.Sub(site, "site")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.FileServerFS(static)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", a.loginPage)
	mux.HandleFunc("POST /login", a.login)
	mux.HandleFunc("GET /login.html", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/login", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /welcome", a.welcome)
	mux.HandleFunc("POST /logout", a.logout)
	mux.HandleFunc("GET /api/health", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /api/todos", a.listTodos)
	mux.HandleFunc("POST /api/todos", a.addTodo)
	mux.HandleFunc("DELETE /api/todos/{id}", a.deleteTodo)
	mux.HandleFunc("GET /api/slow", slow)
	mux.HandleFunc("POST /api/basket", addToBasket)
	mux.HandleFunc("GET /api/export.csv", exportProducts)
	a.apiRoutes(mux)
	schema, err := a.graphQLSchema()
	if err != nil {
		panic(err) // the schema is fixed at build time
	}
	mux.HandleFunc("/graphql", a.graphQL(schema))
	mux.HandleFunc("GET /api/xml/users", a.xmlUsers)
	mux.HandleFunc("GET /api/xml/users/{id}", a.xmlUser)
	mux.HandleFunc("POST /api/xml/echo", xmlEcho)
	mux.HandleFunc("GET /ws", serveWebSocket)
	mux.HandleFunc("/templates/", http.NotFound)
	mux.Handle("/", files)
	return mux
}

type loginData struct{ Username, Error string }

func (a *app) loginPage(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusOK, "login.html", loginData{})
}

func (a *app) login(w http.ResponseWriter, r *http.Request) {
	user := r.PostFormValue("username")
	if user != User || r.PostFormValue("password") != Password {
		render(w, http.StatusUnauthorized, "login.html", loginData{Username: user, Error: "Invalid username or password"})
		return
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	a.mu.Lock()
	a.sessions[tok] = user
	a.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, "/welcome", http.StatusSeeOther)
}

func (a *app) user(r *http.Request) string {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sessions[c.Value]
}

func (a *app) welcome(w http.ResponseWriter, r *http.Request) {
	user := a.user(r)
	if user == "" {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	render(w, http.StatusOK, "welcome.html", loginData{Username: user})
}

func (a *app) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(cookieName); err == nil {
		a.mu.Lock()
		delete(a.sessions, c.Value)
		a.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

func (a *app) listTodos(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	out := append([]todo{}, a.todos...)
	a.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

func (a *app) addTodo(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Title string `json:"title"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "body must be JSON like {\"title\": \"...\"}"})
		return
	}
	if strings.TrimSpace(in.Title) == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "title is required"})
		return
	}
	a.mu.Lock()
	t := todo{ID: a.nextID, Title: strings.TrimSpace(in.Title)}
	a.nextID++
	a.todos = append(a.todos, t)
	a.mu.Unlock()
	writeJSON(w, http.StatusCreated, t)
}

func (a *app) deleteTodo(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "id must be a number"})
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, t := range a.todos {
		if t.ID == id {
			a.todos = append(a.todos[:i], a.todos[i+1:]...)
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"error": "no todo " + strconv.Itoa(id)})
}

// delay reads ?ms= (def when absent) as a duration of at most MaxSlow; it
// answers 400 and returns false when ms is not a non-negative integer.
func delay(w http.ResponseWriter, r *http.Request, def int) (time.Duration, bool) {
	ms := def
	if v := r.URL.Query().Get("ms"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "ms must be a non-negative integer"})
			return 0, false
		}
		ms = n
	}
	return min(time.Duration(ms)*time.Millisecond, MaxSlow), true
}

// slow answers after ?ms= milliseconds (default 500, at most MaxSlow).
func slow(w http.ResponseWriter, r *http.Request) {
	d, ok := delay(w, r, 500)
	if !ok {
		return
	}
	select {
	case <-time.After(d):
	case <-r.Context().Done():
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "ms": d.Milliseconds()})
}

func render(w http.ResponseWriter, status int, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = pages.ExecuteTemplate(w, name, data)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Serve serves Handler on addr ("127.0.0.1:0" picks a free port) until ctx
// is done, and returns the base URL, e.g. "http://127.0.0.1:41234".
func Serve(ctx context.Context, addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("demo app: listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = ln.Close()
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	return "http://" + ln.Addr().String(), nil
}
