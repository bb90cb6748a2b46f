/** Control routes: `GET` and `PUT /__mock/state`, snapshots of the whole state. @module */
import {
  Backend,
  Event,
  GuardrailRule,
  IacStack,
  Module,
  ObjectId,
  Repository,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import * as z from 'zod';
import type { MockState } from '../store/state.js';
import { type ControlRoute, ok } from './route.js';

const MockAccountSchema = z.strictObject({
  id: ObjectId.toLowerCase(),
  name: z.string(),
  accessKey: z.string().min(1),
  secretKey: z.string().min(1),
});

/** A snapshot, as `PUT /__mock/state` checks it. */
export const StateSchema = z.strictObject({
  version: z.literal(1),
  seed: z.union([z.number(), z.string()]),
  sizes: z.record(z.string(), z.number()),
  accounts: z
    .array(
      z.strictObject({
        account: MockAccountSchema,
        workspaces: z.array(WorkspaceSummary),
        runs: z.array(WorkspaceRun),
        rules: z.array(GuardrailRule),
        notifications: z.array(
          z.strictObject({
            id: z.string(),
            ruleId: z.string(),
            integrationIds: z.array(z.string()),
            createdAt: z.string(),
          }),
        ),
        stacks: z.array(IacStack),
        backends: z.array(Backend),
        modules: z.array(Module),
        repositories: z.array(Repository),
        events: z.array(Event),
      }),
    )
    .min(1),
});

/** The largest snapshot `PUT /__mock/state` takes, bytes (256 MiB: a state of the largest documented sizes). */
export const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

/** The snapshot routes. */
export const stateRoutes: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/__mock/state',
    summary: 'the whole state as JSON',
    handler: ({ plane }) => ok(plane.getState()),
  },
  {
    method: 'PUT',
    path: '/__mock/state',
    summary: 'load a snapshot',
    body: StateSchema,
    maxBodyBytes: MAX_SNAPSHOT_BYTES,
    handler: ({ deps, body }) => {
      deps.setState(body as unknown as MockState);
      return ok({ status: 'loaded' });
    },
  },
];
