"""Run with `python3 -m unittest` and IACM_BASE_URL pointing at a running mock."""

import os
import unittest

from iacm_mock import MockClient

NAMES = ["py-payments", "py-web", "py-api", "py-queue", "py-cache", "py-search", "py-mail"]


def scene():
    """One account, seven workspaces, the first one blocked by a strict rule."""
    workspaces = [{"name": name, "runs": []} for name in NAMES]
    workspaces[0]["labels"] = ["prod"]
    workspaces[0]["runs"] = [{"status": "blocked", "title": "Bigger database"}]
    return {
        "seed": 7,
        "accounts": [
            {
                "name": "Python Team",
                "rules": [{"name": "cost ceiling", "type": "cost", "severity": 2}],
                "workspaces": workspaces,
            }
        ],
    }


class WorkspacesInOwnSession(unittest.TestCase):
    def setUp(self):
        base_url = os.environ.get("IACM_BASE_URL")
        if not base_url:
            self.fail("set IACM_BASE_URL to a running mock: dist-bin/iacm-mock --port 0 prints it")
        self.base_url = base_url
        # A session of our own: other clients of the same mock do not see our data or our journal.
        status, answer = MockClient(base_url).request("POST", "/__mock/sessions", {})
        self.assertEqual(status, 201, answer)
        self.session = answer["id"]
        self.mock = MockClient(base_url, session=self.session)

    def tearDown(self):
        # DELETE with Content-Type: application/json (the control plane refuses other types).
        status, answer = MockClient(self.base_url).request("DELETE", f"/__mock/sessions/{self.session}")
        self.assertEqual(status, 204, answer)
        status, _ = self.mock.request("GET", "/__mock/accounts")
        self.assertEqual(status, 404, "the ended session still answers")

    def test_scene_login_paging_and_journal(self):
        mock = self.mock
        # Arrange: the scene.
        status, answer = mock.request("POST", "/__mock/scene", scene())
        self.assertEqual(status, 200, answer)

        # Log in with the key pair the session's account has (the demo pair on a loopback mock).
        status, accounts = mock.request("GET", "/__mock/accounts")
        self.assertEqual(status, 200)
        self.assertEqual([a["name"] for a in accounts], ["Python Team"])
        mock.login(accounts[0]["accessKey"], accounts[0]["secretKey"])

        # Page every workspace, 3 a page, sorted by name.
        by_name = {"sort": [{"workspaceName": {"order": 1}}]}
        workspaces, pages = mock.all_workspaces(3, by_name)
        self.assertEqual([w["workspaceName"] for w in workspaces], sorted(NAMES))
        self.assertEqual(pages, 3)

        # A filter: the one blocked workspace.
        blocked, _ = mock.all_workspaces(25, {"filters": {"status": ["blocked"]}})
        self.assertEqual([w["workspaceName"] for w in blocked], ["py-payments"])
        self.assertEqual(blocked[0]["lastRunStatus"]["description"], "blocked")

        # Assert: the session's journal holds exactly our searches, oldest first.
        status, calls = mock.request("GET", "/__mock/journal?endpoint=workspaces.search")
        self.assertEqual(status, 200)
        self.assertEqual([c["status"] for c in calls], [200] * 4)
        self.assertEqual(
            [(c["query"]["page"], c["query"]["pageSize"]) for c in calls],
            [(0, 3), (1, 3), (2, 3), (0, 25)],
        )
        # The whole journal redacts credentials: the login is there, its secret key is not.
        status, journal = mock.request("GET", "/__mock/journal")
        self.assertIn("auth.login", [entry["endpoint"] for entry in journal])
        self.assertNotIn(accounts[0]["secretKey"], str(journal))

        # The default session (no header) still has the mock's own seeded data.
        status, seeded = MockClient(self.base_url).request("GET", "/__mock/accounts")
        self.assertNotEqual(seeded[0]["name"], "Python Team")


if __name__ == "__main__":
    unittest.main()
