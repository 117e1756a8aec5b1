package demoapp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world"
)

func TestAPI(t *testing.T) {
	srv := httptest.NewServer(demoapp.Handler())
	defer srv.Close()
	c := srv.Client()

	getJSON := func(path string, v any) int {
		t.Helper()
		resp, err := c.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if v != nil {
			if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		return resp.StatusCode
	}
	var health map[string]string
	if code := getJSON("/api/health", &health); code != 200 || health["status"] != "ok" {
		t.Errorf("health: %d %v", code, health)
	}
	var todos []map[string]any
	getJSON("/api/todos", &todos)
	if len(todos) != 3 {
		t.Errorf("seed todos: %v", todos)
	}
	resp, err := c.Post(srv.URL+"/api/todos", "application/json", strings.NewReader(`{"title":" Ship it "}`))
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /api/todos: %v %v", resp, err)
	}
	var created map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if created["title"] != "Ship it" || created["id"] != float64(4) {
		t.Errorf("created: %v", created)
	}
	resp, _ = c.Post(srv.URL+"/api/todos", "application/json", strings.NewReader(`{"title":""}`))
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("empty title: %d", resp.StatusCode)
	}
	resp.Body.Close()
	req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/api/todos/4", nil)
	resp, _ = c.Do(req)
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE: %d", resp.StatusCode)
	}
	resp.Body.Close()
	resp, _ = c.Do(req)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("DELETE again: %d", resp.StatusCode)
	}
	resp.Body.Close()

	start := time.Now()
	var slow map[string]any
	if code := getJSON("/api/slow?ms=150", &slow); code != 200 || slow["ms"] != float64(150) {
		t.Errorf("slow: %d %v", code, slow)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("/api/slow?ms=150 answered after %v", d)
	}
	if code := getJSON("/api/slow?ms=-1", nil); code != http.StatusBadRequest {
		t.Errorf("slow bad ms: %d", code)
	}
	if code := getJSON("/templates/login.html", nil); code != http.StatusNotFound {
		t.Errorf("templates must not be served raw: %d", code)
	}
	for _, p := range []string{"/", "/todo.html", "/table.html", "/dialogs.html", "/popup.html", "/popup-content.html", "/slow.html", "/style.css", "/todo.js", "/login",
		"/elements.html", "/forms.html", "/frames.html", "/frame-inner.html", "/frame-deep.html", "/environment.html"} {
		if code := getJSON(p, nil); code != 200 {
			t.Errorf("GET %s: %d", p, code)
		}
	}
}

func TestLoginWithoutBrowser(t *testing.T) {
	srv := httptest.NewServer(demoapp.Handler())
	defer srv.Close()
	c := srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.PostForm(srv.URL+"/login", url.Values{"username": {"demo"}, "password": {"wrong"}})
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("bad login: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, _ = c.PostForm(srv.URL+"/login", url.Values{"username": {demoapp.User}, "password": {demoapp.Password}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/welcome" || len(resp.Cookies()) != 1 {
		t.Fatalf("good login: %d %v", resp.StatusCode, resp.Header)
	}
	resp.Body.Close()
	resp, _ = c.Get(srv.URL + "/welcome")
	if resp.StatusCode != http.StatusSeeOther {
		t.Errorf("welcome without cookie must redirect: %d", resp.StatusCode)
	}
	resp.Body.Close()
}

// TestPagesInBrowser drives every page in a real headless Chromium.
func TestPagesInBrowser(t *testing.T) {
	testenv.NeedBrowser(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, err := demoapp.Serve(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l, err := world.NewLauncher(world.Config{BaseURL: base, OutputDir: t.TempDir()}, world.Options{AutoPrewarm: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := l.Close(); err != nil {
			t.Error(err)
		}
	}()
	expect := playwright.NewPlaywrightAssertions(5000)
	role := func(p playwright.Page, r, name string) playwright.Locator {
		return p.GetByRole(playwright.AriaRole(r), playwright.PageGetByRoleOptions{Name: name, Exact: playwright.Bool(true)})
	}
	run := func(name string, fn func(t *testing.T, p playwright.Page)) {
		t.Run(name, func(t *testing.T) {
			s := l.NewSession(0, name)
			p, err := s.Page(ctx)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, p)
			if _, err := s.Close(t.Failed()); err != nil {
				t.Error(err)
			}
		})
	}
	ok := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	run("login ok", func(t *testing.T, p playwright.Page) {
		_, err := p.Goto("/")
		ok(t, err)
		ok(t, role(p, "link", "Login").Click())
		ok(t, p.GetByLabel("Username").Fill("demo"))
		ok(t, p.GetByLabel("Password").Fill("secret"))
		ok(t, role(p, "button", "Log in").Click())
		// Relative: playwright-go joins baseURL with an absolute expected URL.
		ok(t, expect.Page(p).ToHaveURL("/welcome"))
		ok(t, expect.Locator(p.GetByTestId("welcome")).ToHaveText("Welcome, demo!"))
		ok(t, expect.Locator(p.GetByRole("status")).ToHaveText("You are logged in."))
	})
	run("login bad password", func(t *testing.T, p playwright.Page) {
		_, err := p.Goto("/login")
		ok(t, err)
		ok(t, p.GetByLabel("Username").Fill("demo"))
		ok(t, p.GetByLabel("Password").Fill("nope"))
		ok(t, role(p, "button", "Log in").Click())
		ok(t, expect.Locator(p.GetByRole("alert")).ToHaveText("Invalid username or password"))
		ok(t, expect.Locator(p.GetByLabel("Username")).ToHaveValue("demo"))
	})
	run("todo add complete delete", func(t *testing.T, p playwright.Page) {
		_, err := p.Goto("/todo.html")
		ok(t, err)
		count := p.GetByTestId("todo-count")
		ok(t, expect.Locator(count).ToHaveText("0 items left"))
		input := p.GetByPlaceholder("What needs to be done?")
		for _, item := range []string{"Buy milk", "Walk the dog", "Write tests"} {
			ok(t, input.Fill(item))
			ok(t, input.Press("Enter"))
		}
		ok(t, expect.Locator(p.GetByTestId("todo-item")).ToHaveCount(3))
		ok(t, expect.Locator(count).ToHaveText("3 items left"))
		ok(t, p.GetByRole("checkbox", playwright.PageGetByRoleOptions{Name: "Walk the dog"}).Check())
		ok(t, expect.Locator(count).ToHaveText("2 items left"))
		ok(t, role(p, "button", "Delete Buy milk").Click())
		ok(t, expect.Locator(p.GetByTestId("todo-item")).ToHaveCount(2))
		ok(t, expect.Locator(count).ToHaveText("1 item left"))
		ok(t, role(p, "link", "Completed").Click())
		ok(t, expect.Locator(p.GetByTestId("todo-title")).ToHaveText([]string{"Walk the dog"}))
		ok(t, role(p, "link", "All").Click())
		// Survives a reload within the same context.
		_, err = p.Reload()
		ok(t, err)
		ok(t, expect.Locator(p.GetByTestId("todo-title")).ToHaveText([]string{"Walk the dog", "Write tests"}))
		ok(t, role(p, "button", "Clear completed").Click())
		ok(t, expect.Locator(p.GetByTestId("todo-title")).ToHaveText([]string{"Write tests"}))
	})
	run("table sort", func(t *testing.T, p playwright.Page) {
		_, err := p.Goto("/table.html")
		ok(t, err)
		table := p.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Team members"})
		firstCells := table.Locator("tbody tr td:first-child")
		ok(t, expect.Locator(firstCells).ToHaveCount(5))
		ok(t, role(p, "button", "Age").Click())
		ok(t, expect.Locator(firstCells).ToHaveText([]string{"Ada", "Grace", "Alan", "Margaret", "Linus"}))
		ok(t, expect.Locator(p.GetByRole("columnheader", playwright.PageGetByRoleOptions{Name: "Age"})).ToHaveAttribute("aria-sort", "ascending"))
		ok(t, role(p, "button", "Age").Click())
		ok(t, expect.Locator(firstCells.First()).ToHaveText("Linus"))
		ok(t, role(p, "button", "Name").Click())
		ok(t, expect.Locator(firstCells).ToHaveText([]string{"Ada", "Alan", "Grace", "Linus", "Margaret"}))
		ok(t, expect.Locator(p.GetByTestId("sort-status")).ToHaveText("Sorted by Name (ascending)"))
	})
	run("dialogs", func(t *testing.T, p playwright.Page) {
		_, err := p.Goto("/dialogs.html")
		ok(t, err)
		var seen []string
		p.OnDialog(func(d playwright.Dialog) {
			seen = append(seen, d.Type()+": "+d.Message())
			switch d.Type() {
			case "confirm":
				_ = d.Dismiss()
			case "prompt":
				_ = d.Accept("Ada")
			default:
				_ = d.Accept()
			}
		})
		result := p.GetByTestId("dialog-result")
		ok(t, role(p, "button", "Show alert").Click())
		ok(t, expect.Locator(result).ToHaveText("Alert closed"))
		ok(t, role(p, "button", "Show confirm").Click())
		ok(t, expect.Locator(result).ToHaveText("Cancelled"))
		ok(t, role(p, "button", "Show prompt").Click())
		ok(t, expect.Locator(result).ToHaveText("Hello, Ada!"))
		want := "alert: Hello from the demo app|confirm: Delete everything?|prompt: What is your name?"
		if got := strings.Join(seen, "|"); got != want {
			t.Errorf("dialogs seen: %s", got)
		}
	})
	run("popup", func(t *testing.T, p playwright.Page) {
		_, err := p.Goto("/popup.html")
		ok(t, err)
		popup, err := p.ExpectPopup(func() error { return role(p, "button", "Open popup").Click() })
		ok(t, err)
		ok(t, popup.WaitForLoadState())
		ok(t, expect.Page(popup).ToHaveTitle("Popup window · Demo app"))
		ok(t, expect.Locator(p.GetByTestId("popup-status")).ToHaveText("Popup opened"))
		ok(t, role(popup, "button", "Send and close").Click())
		ok(t, expect.Locator(p.GetByTestId("popup-status")).ToHaveText("Popup says: done"))
	})
	run("slow element", func(t *testing.T, p playwright.Page) {
		start := time.Now()
		_, err := p.Goto("/slow.html?delay=800")
		ok(t, err)
		ok(t, expect.Locator(p.GetByRole("progressbar", playwright.PageGetByRoleOptions{Name: "Loading"})).ToBeVisible())
		content := p.GetByTestId("slow-content")
		ok(t, expect.Locator(content).ToHaveText("Loaded after 800 ms"))
		if d := time.Since(start); d < 750*time.Millisecond {
			t.Errorf("slow element appeared after %v, want >= 800ms", d)
		}
		ok(t, expect.Locator(p.GetByTestId("spinner")).ToHaveCount(0))
		resp, err := p.ExpectResponse("**/api/slow?ms=800", func() error { return role(p, "button", "Load data").Click() })
		ok(t, err)
		if resp.Status() != 200 {
			t.Errorf("/api/slow status %d", resp.Status())
		}
		ok(t, expect.Locator(p.GetByTestId("data-result")).ToHaveText("Data loaded in 800 ms"))
	})
}
