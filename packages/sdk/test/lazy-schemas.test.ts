/**
 * The client loads an endpoint group's schemas on the first call that validates, and only that
 * group's (`contract/endpoint-groups/<group>.schemas.generated.ts`, one chunk each in the ESM build): a first
 * workspace search must not bring the guardrail, IaC explorer or event center schemas along, a call
 * with validation off loads none, and a group whose module cannot be loaded fails the call with a
 * clear error (and the next call tries again).
 */
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { guardrailRule, workspaceSummary } from './fixtures.js';

/** Which group schemas modules were imported (each module's first import), and which one must fail. */
const state = { imported: [] as string[], fail: undefined as string | undefined };

/** The groups' schemas modules (generated from their declarations), by group. */
const GROUP_MODULES = {
  auth: '../src/contract/endpoint-groups/auth.schemas.generated.js',
  workspaces: '../src/contract/endpoint-groups/workspaces.schemas.generated.js',
  guardrails: '../src/contract/endpoint-groups/guardrails.schemas.generated.js',
  iacExplorer: '../src/contract/endpoint-groups/iac-explorer.schemas.generated.js',
  eventCenter: '../src/contract/endpoint-groups/event-center.schemas.generated.js',
  // Not a group: the wording of validation issues, loaded on the first failed validation only.
  issueWording: '../src/contract/issue-wording.js',
};

/** A fresh copy of the SDK (nothing loaded yet) with a client whose fetch answers `body`. */
async function freshClient(body: unknown, validation?: 'strict' | 'warn' | 'off') {
  vi.resetModules();
  for (const [group, path] of Object.entries(GROUP_MODULES)) {
    // Each group module, as itself, noting its import (and failing it when asked).
    vi.doMock(path, async (original) => {
      state.imported.push(group);
      if (state.fail === group) throw new Error(`failed to fetch dynamically imported module: ${path}`);
      return original();
    });
  }
  const { IacmClient, IacmError } = await import('../src/index.js');
  const fetch = async () =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const client = new IacmClient({
    baseUrl: 'https://iacm.test',
    auth: { token: 't' },
    fetch,
    ...(validation ? { validation } : {}),
  });
  return { client, IacmError };
}

beforeEach(() => {
  state.imported.length = 0;
  state.fail = undefined;
});

afterAll(() => {
  for (const path of Object.values(GROUP_MODULES)) vi.doUnmock(path);
});

describe('schemas load one group at a time', () => {
  it('a first workspace search loads the workspaces schemas and no other group', async () => {
    const { client } = await freshClient([workspaceSummary]);
    await expect(client.workspaces.search()).resolves.toHaveLength(1);
    expect(state.imported).toEqual(['workspaces']);
    // Later calls of the group use the loaded schemas: nothing more is imported.
    await client.workspaces.search();
    expect(state.imported).toEqual(['workspaces']);
  });

  it('a guardrail search loads the guardrails schemas only, and still validates the answer', async () => {
    const { client } = await freshClient([guardrailRule]);
    await expect(client.guardrails.search()).resolves.toHaveLength(1);
    expect(state.imported).toEqual(['guardrails']);
    const broken = await freshClient([{ ...guardrailRule, id: 42 }]);
    await expect(broken.client.guardrails.search()).rejects.toThrow(/does not match|id/);
  });

  it('the issue wording loads only when a validation fails, and then words the issues', async () => {
    const { client } = await freshClient([workspaceSummary]);
    await client.workspaces.search();
    expect(state.imported).not.toContain('issueWording');
    const broken = await freshClient([{ ...workspaceSummary, workspaceName: 42 }]);
    await expect(broken.client.workspaces.search()).rejects.toThrow(/workspaceName/);
    expect(state.imported).toContain('issueWording');
    state.imported.length = 0;
    const bad = await freshClient([workspaceSummary]);
    await expect(bad.client.workspaces.search({ filters: { status: 'done' } } as never)).rejects.toThrow(
      /filters\.status/,
    );
    expect(state.imported).toEqual(['workspaces', 'issueWording']);
  });

  it('with validation off, a call loads no schemas', async () => {
    const { client } = await freshClient([workspaceSummary], 'off');
    await expect(client.workspaces.search()).resolves.toHaveLength(1);
    expect(state.imported).toEqual([]);
  });

  it('a group that cannot be loaded fails the call with a clear error; the next call tries again', async () => {
    state.fail = 'workspaces';
    const { client, IacmError } = await freshClient([workspaceSummary]);
    const failure = await client.workspaces.search().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IacmError);
    expect((failure as Error).message).toMatch(
      /^workspaces\.search: could not load the schemas of the workspaces endpoints/,
    );
    expect((failure as Error).message).toMatch(/validation: 'off'/);
    // The import's own error is kept as the cause (vitest wraps a failing mock's error in its own).
    expect((failure as Error).cause).toBeInstanceOf(Error);
    state.fail = undefined;
    await expect(client.workspaces.search()).resolves.toHaveLength(1);
  });
});
