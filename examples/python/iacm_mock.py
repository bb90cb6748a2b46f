"""A client of the standalone iacm mock (dist-bin/iacm-mock, or `iacm-mock`) over HTTP, with the
standard library only: a session of its own, a scene, a login, paged workspace searches, the journal."""

import json
import urllib.error
import urllib.request

# Selects a session of the mock (SESSION_HEADER in @iacm/mock-server).
SESSION_HEADER = "X-Iacm-Mock-Session"


class MockClient:
    """Calls the mock: the API (with the token once logged in) and the control plane (/__mock)."""

    def __init__(self, base_url, session=None, token=None):
        self.base_url = base_url.rstrip("/")
        self.session = session
        self.token = token

    def request(self, method, path, body=None):
        """Sends a request; answers (status, decoded JSON or None). An error status is an answer too."""
        data = None if body is None else json.dumps(body).encode()
        headers = {}
        # The control plane wants application/json on POST, PUT, PATCH and DELETE, even without a body.
        if method != "GET":
            headers["Content-Type"] = "application/json"
        if self.session:
            headers[SESSION_HEADER] = self.session
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                status, text = res.status, res.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        return status, (json.loads(text) if text else None)

    def login(self, access_key, secret_key):
        """Exchanges a key pair for a token (POST /v2/login) and keeps it for the next requests."""
        status, answer = self.request("POST", "/v2/login", {"accessKey": access_key, "secretKey": secret_key})
        if status != 200:
            raise RuntimeError(f"login answered {status}: {answer}")
        self.token = answer["accessToken"]

    def all_workspaces(self, page_size, body):
        """Pages POST /v2/workspaces/search (query page, zero-based, and pageSize) until a page is
        shorter than pageSize: the answers are bare arrays without a total. Answers (items, pages)."""
        items, page = [], 0
        while True:
            path = f"/v2/workspaces/search?page={page}&pageSize={page_size}"
            status, answer = self.request("POST", path, body)
            if status != 200:
                raise RuntimeError(f"{path} answered {status}: {answer}")
            items.extend(answer)
            page += 1
            if len(answer) < page_size:
                return items, page
