package demoapp

// The demo app's richer JSON API, for the built-in API steps' features:
// users with nested objects, arrays, UUIDs and dates (CRUD), a token login
// and an endpoint that needs it, an echo of whatever a request sends
// (method, query, headers, JSON, form, multipart files), any status code,
// and a redirect.
//
//	GET  /api/users[?role=&active=]   {"total": n, "items": [user...]}
//	GET  /api/users/{id}              a user, or 404
//	POST /api/users                   201 with Location; 400 lists the invalid fields
//	PUT|PATCH|DELETE /api/users/{id}
//	POST /api/login                   JSON or form {username, password} -> {token, tokenType, expiresAt}
//	GET  /api/me                      needs "Authorization: Bearer <token>" (or Basic demo:secret)
//	*    /api/echo                    what the request sent
//	GET  /api/status/{code}           that status, with {"status": code, "text": "..."}
//	GET  /api/redirect?to=/path       302 to path
//	POST /api/jobs[?ms=300]           202 {"id", "status": "running"}; GET /api/jobs/{id} is "done" ms later

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

type address struct {
	Street  string `json:"street"`
	City    string `json:"city"`
	Country string `json:"country"`
}

type user struct {
	ID        int      `json:"id"`
	UUID      string   `json:"uuid"`
	Name      string   `json:"name"`
	Email     string   `json:"email"`
	Roles     []string `json:"roles"`
	Active    bool     `json:"active"`
	Address   *address `json:"address"`
	ManagerID *int     `json:"managerId"`
	Birthday  string   `json:"birthday,omitempty"`
	CreatedAt string   `json:"createdAt"`
	Tags      []string `json:"tags"`
}

// users is the users API's state (part of app: each Handler has its own).
type users struct {
	list   []user
	nextID int
	tokens map[string]string // bearer token -> user name
	jobs   []time.Time       // when each job (id = index+1) is done
}

func seedUsers() users {
	one := 1
	return users{
		list: []user{
			{ID: 1, UUID: "8f14e45f-ceea-4e7a-9b1c-2f7d3c1a9b01", Name: "Ada Lovelace", Email: "ada@example.com",
				Roles: []string{"admin", "editor"}, Active: true, Address: &address{"12 St James's Square", "London", "UK"},
				Birthday: "1815-12-10", CreatedAt: "2024-01-15T09:30:00Z", Tags: []string{"math", "poetry"}},
			{ID: 2, UUID: "c9f0f895-fb98-4b91-8c3e-6a2b5d7e1f02", Name: "Grace Hopper", Email: "grace@example.com",
				Roles: []string{"editor"}, Active: true, Address: &address{"1 Navy Way", "New York", "US"}, ManagerID: &one,
				Birthday: "1906-12-09", CreatedAt: "2024-02-01T14:05:12.250Z", Tags: []string{}},
			{ID: 3, UUID: "45c48cce-2e2d-4fbd-a1b2-9c8d7e6f5a03", Name: "Alan Turing", Email: "alan@example.com",
				Roles: []string{"viewer"}, Active: false, CreatedAt: "2024-03-10T08:00:00+01:00", Tags: []string{"crypto"}},
		},
		nextID: 4,
		tokens: map[string]string{},
	}
}

func (a *app) apiRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/users", a.listUsers)
	mux.HandleFunc("GET /api/users/{id}", a.getUser)
	mux.HandleFunc("POST /api/users", a.createUser)
	mux.HandleFunc("PUT /api/users/{id}", a.updateUser)
	mux.HandleFunc("PATCH /api/users/{id}", a.updateUser)
	mux.HandleFunc("DELETE /api/users/{id}", a.deleteUser)
	mux.HandleFunc("POST /api/login", a.apiLogin)
	mux.HandleFunc("GET /api/me", a.me)
	mux.HandleFunc("/api/echo", echo)
	mux.HandleFunc("GET /api/status/{code}", status)
	mux.HandleFunc("POST /api/jobs", a.startJob)
	mux.HandleFunc("GET /api/jobs/{id}", a.job)
	mux.HandleFunc("GET /api/redirect", func(w http.ResponseWriter, r *http.Request) {
		to := r.URL.Query().Get("to")
		if !strings.HasPrefix(to, "/") || strings.HasPrefix(to, "//") {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "to must be a path on this server"})
			return
		}
		http.Redirect(w, r, to, http.StatusFound)
	})
}

func (a *app) listUsers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a.mu.Lock()
	items := []user{}
	for _, u := range a.users.list {
		if role := q.Get("role"); role != "" && !slices.Contains(u.Roles, role) {
			continue
		}
		if act := q.Get("active"); act != "" && strconv.FormatBool(u.Active) != act {
			continue
		}
		items = append(items, u)
	}
	a.mu.Unlock()
	w.Header().Set("X-Total-Count", strconv.Itoa(len(items)))
	writeJSON(w, http.StatusOK, map[string]any{"total": len(items), "items": items})
}

// userIndex finds the user of the path's {id}, answering 400 or 404 when
// there is none; call with a.mu held.
func (a *app) userIndex(w http.ResponseWriter, r *http.Request) int {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "id must be a number"})
		return -1
	}
	for i, u := range a.users.list {
		if u.ID == id {
			return i
		}
	}
	writeJSON(w, http.StatusNotFound, map[string]string{"error": "no user " + strconv.Itoa(id)})
	return -1
}

func (a *app) getUser(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if i := a.userIndex(w, r); i >= 0 {
		writeJSON(w, http.StatusOK, a.users.list[i])
	}
}

type fieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// userInput is a user as a client sends it; nil fields were not sent.
type userInput struct {
	Name    *string  `json:"name"`
	Email   *string  `json:"email"`
	Roles   []string `json:"roles"`
	Active  *bool    `json:"active"`
	Address *address `json:"address"`
	Tags    []string `json:"tags"`
}

// readUser decodes a user; partial allows missing fields (PATCH). It
// answers 400 and returns false when the body is not a valid user.
func readUser(w http.ResponseWriter, r *http.Request, partial bool) (userInput, bool) {
	var in userInput
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "body must be a JSON object", "detail": err.Error()})
		return in, false
	}
	var errs []fieldError
	if in.Name == nil && !partial || in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		errs = append(errs, fieldError{"name", "is required"})
	}
	if in.Email == nil && !partial {
		errs = append(errs, fieldError{"email", "is required"})
	} else if in.Email != nil && !strings.Contains(*in.Email, "@") {
		errs = append(errs, fieldError{"email", "is not an email address"})
	}
	if len(errs) > 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid user", "errors": errs})
		return in, false
	}
	return in, true
}

func (in userInput) applyTo(u *user) {
	if in.Name != nil {
		u.Name = strings.TrimSpace(*in.Name)
	}
	if in.Email != nil {
		u.Email = *in.Email
	}
	if in.Roles != nil {
		u.Roles = in.Roles
	}
	if in.Active != nil {
		u.Active = *in.Active
	}
	if in.Address != nil {
		u.Address = in.Address
	}
	if in.Tags != nil {
		u.Tags = in.Tags
	}
}

func (a *app) createUser(w http.ResponseWriter, r *http.Request) {
	in, ok := readUser(w, r, false)
	if !ok {
		return
	}
	u := user{UUID: uuid.NewString(), Roles: []string{"viewer"}, Active: true, Tags: []string{},
		CreatedAt: time.Now().UTC().Format(time.RFC3339Nano)}
	in.applyTo(&u)
	a.mu.Lock()
	u.ID = a.users.nextID
	a.users.nextID++
	a.users.list = append(a.users.list, u)
	a.mu.Unlock()
	w.Header().Set("Location", "/api/users/"+strconv.Itoa(u.ID))
	writeJSON(w, http.StatusCreated, u)
}

func (a *app) updateUser(w http.ResponseWriter, r *http.Request) {
	in, ok := readUser(w, r, r.Method == http.MethodPatch)
	if !ok {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	i := a.userIndex(w, r)
	if i < 0 {
		return
	}
	u := a.users.list[i]
	if r.Method == http.MethodPut {
		u = user{ID: u.ID, UUID: u.UUID, CreatedAt: u.CreatedAt, Roles: []string{"viewer"}, Active: true, Tags: []string{}}
	}
	in.applyTo(&u)
	a.users.list[i] = u
	writeJSON(w, http.StatusOK, u)
}

func (a *app) deleteUser(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if i := a.userIndex(w, r); i >= 0 {
		a.users.list = slices.Delete(a.users.list, i, i+1)
		w.WriteHeader(http.StatusNoContent)
	}
}

// apiLogin trades the demo credentials, sent as JSON or as a form, for a
// bearer token.
func (a *app) apiLogin(w http.ResponseWriter, r *http.Request) {
	var in struct{ Username, Password string }
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "body must be JSON like {\"username\": \"...\", \"password\": \"...\"}"})
			return
		}
	} else {
		in.Username, in.Password = r.PostFormValue("username"), r.PostFormValue("password")
	}
	if in.Username != User || in.Password != Password {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid username or password"})
		return
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	a.mu.Lock()
	a.users.tokens[tok] = in.Username
	a.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]string{"token": tok, "tokenType": "Bearer",
		"expiresAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
}

// me answers who the request is authenticated as: a bearer token from
// /api/login, or HTTP Basic with the demo credentials.
func (a *app) me(w http.ResponseWriter, r *http.Request) {
	name := ""
	via := ""
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		a.mu.Lock()
		name = a.users.tokens[tok]
		a.mu.Unlock()
		via = "bearer"
	} else if u, p, ok := r.BasicAuth(); ok && u == User && p == Password {
		name, via = u, "basic"
	}
	if name == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="demo"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "authentication required"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"username": name, "authenticatedWith": via, "roles": []string{"admin"}})
}

type echoFile struct {
	Field       string `json:"field"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Size        int    `json:"size"`
	Text        string `json:"text"`
}

// echo answers with what the request sent: method, path, query, headers
// (lower-case names), the body as text, and as JSON, form fields or
// multipart files when it is one of those.
func echo(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{"method": r.Method, "path": r.URL.Path, "json": nil, "form": nil, "files": []echoFile{}}
	query := map[string]any{}
	for k, vs := range r.URL.Query() {
		query[k] = oneOrMany(vs)
	}
	out["query"] = query
	headers := map[string]string{}
	for k, vs := range r.Header {
		headers[strings.ToLower(k)] = strings.Join(vs, ", ")
	}
	out["headers"] = headers
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	out["contentType"] = ct
	body := http.MaxBytesReader(w, r.Body, 1<<20)
	switch ct {
	case "multipart/form-data":
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad multipart body: " + err.Error()})
			return
		}
		form := map[string]any{}
		for k, vs := range r.MultipartForm.Value {
			form[k] = oneOrMany(vs)
		}
		out["form"] = form
		files := []echoFile{}
		for field, fhs := range r.MultipartForm.File {
			for _, fh := range fhs {
				f, err := fh.Open()
				if err != nil {
					continue
				}
				data, _ := io.ReadAll(f)
				f.Close()
				files = append(files, echoFile{field, fh.Filename, fh.Header.Get("Content-Type"), len(data), string(data)})
			}
		}
		out["files"] = files
		out["body"] = ""
	default:
		data, err := io.ReadAll(body)
		if err != nil {
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": err.Error()})
			return
		}
		out["body"] = string(data)
		switch ct {
		case "application/json":
			var v any
			if json.Unmarshal(data, &v) == nil {
				out["json"] = v
			}
		case "application/x-www-form-urlencoded":
			if vals, err := parseQuery(string(data)); err == nil {
				out["form"] = vals
			}
		}
	}
	w.Header().Set("X-Request-Id", uuid.NewString())
	writeJSON(w, http.StatusOK, out)
}

func parseQuery(s string) (map[string]any, error) {
	r, err := http.NewRequest("GET", "/?"+s, nil)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for k, vs := range r.URL.Query() {
		out[k] = oneOrMany(vs)
	}
	return out, nil
}

// oneOrMany is a single value as itself, repeated ones as a list.
func oneOrMany(vs []string) any {
	if len(vs) == 1 {
		return vs[0]
	}
	return vs
}

func status(w http.ResponseWriter, r *http.Request) {
	code, err := strconv.Atoi(r.PathValue("code"))
	if err != nil || code < 200 || code > 599 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "code must be a number from 200 to 599"})
		return
	}
	writeJSON(w, code, map[string]any{"status": code, "text": http.StatusText(code)})
}

// startJob starts a pretend background job that is done after ?ms=
// milliseconds (default 300, at most MaxSlow): something to poll.
func (a *app) startJob(w http.ResponseWriter, r *http.Request) {
	d, ok := delay(w, r, 300)
	if !ok {
		return
	}
	a.mu.Lock()
	a.users.jobs = append(a.users.jobs, time.Now().Add(d))
	id := len(a.users.jobs)
	a.mu.Unlock()
	w.Header().Set("Location", "/api/jobs/"+strconv.Itoa(id))
	writeJSON(w, http.StatusAccepted, map[string]any{"id": id, "status": "running"})
}

func (a *app) job(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	a.mu.Lock()
	var done time.Time
	found := err == nil && id >= 1 && id <= len(a.users.jobs)
	if found {
		done = a.users.jobs[id-1]
	}
	a.mu.Unlock()
	if !found {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no job " + r.PathValue("id")})
		return
	}
	if time.Now().Before(done) {
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "status": "running"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "status": "done", "result": map[string]any{"rows": 42}})
}
