package iacmmock

import (
	"fmt"
	"net/http"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The mock's base URL: IACM_BASE_URL, as the mock's start banner prints it.
func baseURL(t *testing.T) string {
	url := os.Getenv("IACM_BASE_URL")
	if url == "" {
		t.Fatal("set IACM_BASE_URL to a running mock: dist-bin/iacm-mock --port 0 prints it")
	}
	return strings.TrimRight(url, "/")
}

// The scene of this test: one account, seven workspaces, one of them blocked by a strict rule.
func testScene(names []string) map[string]any {
	workspaces := []map[string]any{}
	for i, name := range names {
		workspace := map[string]any{"name": name, "runs": []any{}}
		if i == 0 {
			workspace["labels"] = []string{"prod"}
			workspace["runs"] = []any{map[string]any{"status": "blocked", "title": "Bigger database"}}
		}
		workspaces = append(workspaces, workspace)
	}
	return map[string]any{
		"seed": 7,
		"accounts": []any{map[string]any{
			"name":       "Go Team",
			"rules":      []any{map[string]any{"name": "cost ceiling", "type": "cost", "severity": 2}},
			"workspaces": workspaces,
		}},
	}
}

func TestWorkspacesInOwnSession(t *testing.T) {
	mock := NewClient(baseURL(t))

	// A session of our own: other clients of the same mock do not see our data or our journal.
	var session struct {
		ID string `json:"id"`
	}
	status, err := mock.Do(http.MethodPost, "/__mock/sessions", map[string]any{}, &session)
	if err != nil || status != http.StatusCreated || session.ID == "" {
		t.Fatalf("POST /__mock/sessions: %d %v", status, err)
	}
	mock.Session = session.ID
	t.Cleanup(func() {
		// DELETE with Content-Type: application/json (the control plane refuses other types).
		ended := &Client{BaseURL: mock.BaseURL, HTTP: mock.HTTP}
		status, err := ended.Do(http.MethodDelete, "/__mock/sessions/"+session.ID, nil, nil)
		if err != nil || status != http.StatusNoContent {
			t.Errorf("DELETE /__mock/sessions/%s: %d %v", session.ID, status, err)
		}
		status, _ = mock.Do(http.MethodGet, "/__mock/accounts", nil, nil)
		if status != http.StatusNotFound {
			t.Errorf("the ended session still answers: %d", status)
		}
	})

	// Arrange: the scene.
	names := []string{"go-payments", "go-web", "go-api", "go-queue", "go-cache", "go-search", "go-mail"}
	var loaded map[string]any
	if status, err := mock.Do(http.MethodPost, "/__mock/scene", testScene(names), &loaded); err != nil || status != http.StatusOK {
		t.Fatalf("POST /__mock/scene: %d %v %v", status, err, loaded)
	}

	// Log in with the key pair the session's account has (the demo pair on a loopback mock).
	var accounts []Account
	if status, err := mock.Do(http.MethodGet, "/__mock/accounts", nil, &accounts); err != nil || status != http.StatusOK {
		t.Fatalf("GET /__mock/accounts: %d %v", status, err)
	}
	if len(accounts) != 1 || accounts[0].Name != "Go Team" {
		t.Fatalf("the scene's accounts: %+v", accounts)
	}
	if err := mock.Login(accounts[0].AccessKey, accounts[0].SecretKey); err != nil {
		t.Fatal(err)
	}

	// Page every workspace, 3 a page, sorted by name.
	byName := map[string]any{"sort": []any{map[string]any{"workspaceName": map[string]int{"order": 1}}}}
	workspaces, pages, err := mock.AllWorkspaces(3, byName)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, w := range workspaces {
		got = append(got, w.WorkspaceName)
	}
	want := append([]string{}, names...)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) || pages != 3 {
		t.Fatalf("paged %v in %d pages, want %v in 3", got, pages, want)
	}

	// A filter: the one blocked workspace.
	blocked, _, err := mock.AllWorkspaces(25, map[string]any{"filters": map[string]any{"status": []string{"blocked"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocked) != 1 || blocked[0].WorkspaceName != "go-payments" || blocked[0].LastRunStatus == nil ||
		blocked[0].LastRunStatus.Description != "blocked" {
		t.Fatalf("blocked workspaces: %+v", blocked)
	}

	// Assert: the journal of the session holds exactly our searches, oldest first.
	var calls []JournalCall
	if status, err := mock.Do(http.MethodGet, "/__mock/journal?endpoint=workspaces.search", nil, &calls); err != nil || status != http.StatusOK {
		t.Fatalf("GET /__mock/journal: %d %v", status, err)
	}
	queries := []string{}
	for _, call := range calls {
		if call.Status != http.StatusOK {
			t.Errorf("a search answered %d", call.Status)
		}
		queries = append(queries, fmt.Sprintf("page=%v pageSize=%v", call.Query["page"], call.Query["pageSize"]))
	}
	wantQueries := []string{"page=0 pageSize=3", "page=1 pageSize=3", "page=2 pageSize=3", "page=0 pageSize=25"}
	if !reflect.DeepEqual(queries, wantQueries) {
		t.Fatalf("journalled searches %v, want %v", queries, wantQueries)
	}
	// The whole journal redacts credentials: the login is there, its secret key is not.
	var journal []map[string]any
	if _, err := mock.Do(http.MethodGet, "/__mock/journal", nil, &journal); err != nil {
		t.Fatal(err)
	}
	if text := fmt.Sprint(journal); !strings.Contains(text, "auth.login") || strings.Contains(text, accounts[0].SecretKey) {
		t.Fatalf("the journal should hold the login without its secret key: %s", text)
	}

	// The default session (no header) still has the mock's own seeded data.
	outside := &Client{BaseURL: mock.BaseURL, HTTP: mock.HTTP}
	var seeded []Account
	if _, err := outside.Do(http.MethodGet, "/__mock/accounts", nil, &seeded); err != nil || len(seeded) == 0 || seeded[0].Name == "Go Team" {
		t.Fatalf("the default session changed: %+v %v", seeded, err)
	}
}
