// Package iacmmock drives the standalone iacm mock (dist-bin/iacm-mock, or `iacm-mock`) over HTTP
// with the standard library only: a session of its own, a scene, a login, paged workspace searches
// and the journal.
package iacmmock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// SessionHeader selects a session of the mock (SESSION_HEADER in @iacm/mock-server).
const SessionHeader = "X-Iacm-Mock-Session"

// Client calls the mock: the API (with Token once logged in) and the control plane (/__mock).
type Client struct {
	BaseURL string
	Session string // sent as SessionHeader when set
	Token   string // sent as a bearer token when set
	HTTP    *http.Client
}

// NewClient returns a client of the mock at baseURL.
func NewClient(baseURL string) *Client {
	return &Client{BaseURL: baseURL, HTTP: &http.Client{Timeout: 30 * time.Second}}
}

// Do sends a request with an optional JSON body and decodes a JSON answer into out (when not nil).
// It answers the status; an answer that is not JSON where out expects it is an error.
func (c *Client) Do(method, path string, body, out any) (int, error) {
	var reader io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		reader = bytes.NewReader(encoded)
	}
	req, err := http.NewRequest(method, c.BaseURL+path, reader)
	if err != nil {
		return 0, err
	}
	// The control plane wants application/json on POST, PUT, PATCH and DELETE, even without a body.
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Session != "" {
		req.Header.Set(SessionHeader, c.Session)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, err
	}
	if out != nil && len(text) > 0 {
		if err := json.Unmarshal(text, out); err != nil {
			return res.StatusCode, fmt.Errorf("%s %s: %d %s: %w", method, path, res.StatusCode, text, err)
		}
	}
	return res.StatusCode, nil
}

// Account is an account of the mock with its key pair (GET /__mock/accounts).
type Account struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	AccessKey string `json:"accessKey"`
	SecretKey string `json:"secretKey"`
}

// Workspace is the part of a workspace summary this example reads.
type Workspace struct {
	ID            string   `json:"id"`
	WorkspaceName string   `json:"workspaceName"`
	Labels        []string `json:"labels"`
	LastRunStatus *struct {
		Description string `json:"description"`
	} `json:"lastRunStatus"`
}

// JournalCall is an entry of GET /__mock/journal?endpoint=<name>.
type JournalCall struct {
	Endpoint string         `json:"endpoint"`
	Status   int            `json:"status"`
	Query    map[string]any `json:"query"`
	Body     map[string]any `json:"body"`
}

// Login exchanges a key pair for a token (POST /v2/login) and keeps it for the next requests.
func (c *Client) Login(accessKey, secretKey string) error {
	var answer struct {
		AccessToken string `json:"accessToken"`
	}
	status, err := c.Do(http.MethodPost, "/v2/login", map[string]string{"accessKey": accessKey, "secretKey": secretKey}, &answer)
	if err != nil {
		return err
	}
	if status != http.StatusOK || answer.AccessToken == "" {
		return fmt.Errorf("login answered %d", status)
	}
	c.Token = answer.AccessToken
	return nil
}

// AllWorkspaces pages POST /v2/workspaces/search (query page, zero-based, and pageSize) until a page
// is shorter than pageSize: the answers are bare arrays without a total.
func (c *Client) AllWorkspaces(pageSize int, body any) ([]Workspace, int, error) {
	var all []Workspace
	for page := 0; ; page++ {
		var items []Workspace
		path := fmt.Sprintf("/v2/workspaces/search?page=%d&pageSize=%d", page, pageSize)
		status, err := c.Do(http.MethodPost, path, body, &items)
		if err != nil {
			return nil, page, err
		}
		if status != http.StatusOK {
			return nil, page, fmt.Errorf("%s answered %d", path, status)
		}
		all = append(all, items...)
		if len(items) < pageSize {
			return all, page + 1, nil
		}
	}
}
