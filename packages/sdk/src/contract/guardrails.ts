import { z } from 'zod';
import {
  GUARDRAIL_TYPES,
  type GuardrailType,
  POLICY_SEVERITIES,
  type PolicySeverity,
  RESOURCE_ACTIONS,
  type ResourceAction,
  TAG_ENFORCEMENT_MODES,
  type TagEnforcementMode,
} from './enums.js';
import {
  filterValues,
  type IncludeExclude,
  includeExclude,
  modeEnum,
  modeObject,
  ObjectId,
  PathId,
  type Strictness,
  sortSchema,
  Timestamp,
} from './primitives.js';

/** Builds the guardrail rule parts, strict (request bodies) or loose (responses). */
function guardrailParts<M extends Strictness>(mode: M) {
  const list = includeExclude(mode);
  const strictSeverity = z.union([z.literal(1), z.literal(2), z.literal(3)], {
    error: 'expected 1 (flexible), 2 (strict) or 3 (warning)',
  });
  const severity = (mode === 'strict' ? strictSeverity : z.number().int()) as M extends 'strict'
    ? typeof strictSeverity
    : z.ZodNumber;
  const scope = modeObject(mode, {
    workspaces: list,
    repositories: list,
    branches: list,
    labels: list,
  });
  const cost = modeObject(mode, {
    thresholdAmount: z.number().min(0).optional(),
    thresholdPercentage: z.number().min(0).optional(),
  });
  const policy = modeObject(mode, {
    severity: modeEnum(mode, POLICY_SEVERITIES),
    policies: list,
  });
  const resource = modeObject(mode, {
    actions: z.array(modeEnum(mode, RESOURCE_ACTIONS)).optional(),
    regions: list,
    assetTypes: list,
    specificResources: z.array(z.string()).optional(),
  });
  const tag = modeObject(mode, {
    tagEnforcementMode: modeEnum(mode, TAG_ENFORCEMENT_MODES),
    requiredTags: z.array(z.string()).optional(),
    requiredValues: z.record(z.string(), z.array(z.string())).optional(),
  });
  const criteria = modeObject(mode, {
    cost: cost.optional(),
    policy: policy.optional(),
    resource: resource.optional(),
    tag: tag.optional(),
  });
  return { scope, criteria, severity, type: modeEnum(mode, GUARDRAIL_TYPES) };
}

const loose = guardrailParts('loose');
const strict = guardrailParts('strict');

/** A guardrail rule's scope (spec §2.4): four include/exclude lists. */
export const GuardrailScope = guardrailParts('loose').scope;
/** A guardrail rule's scope: which workspaces, repositories, branches and labels it applies to. */
export interface GuardrailScope {
  /** Workspace names (`*` wildcard). */
  workspaces: IncludeExclude;
  /** Repositories, `<org>/<repo>` (`*` wildcard). */
  repositories: IncludeExclude;
  /** Branch names (`*` wildcard). */
  branches: IncludeExclude;
  /** Workspace labels (`*` wildcard). */
  labels: IncludeExclude;
}

/** A guardrail rule's criteria (spec §2.4): the member named by the rule's `type`. */
export const GuardrailCriteria = guardrailParts('loose').criteria;
/** A guardrail rule's criteria: the member named by the rule's `type`. */
export interface GuardrailCriteria {
  /** Cost criteria: the monthly cost increase allowed, as an amount and/or a percentage. */
  cost?: { thresholdAmount?: number; thresholdPercentage?: number };
  /** Policy criteria: findings at or above `severity`, among the included and not excluded policies. */
  policy?: { severity: PolicySeverity; policies: IncludeExclude };
  /** Resource criteria: changes with these actions, in these regions, of these asset types. */
  resource?: {
    actions?: ResourceAction[];
    regions: IncludeExclude;
    assetTypes: IncludeExclude;
    specificResources?: string[];
  };
  /** Tag criteria: which tags (or tag values) created and updated resources must carry. */
  tag?: {
    tagEnforcementMode: TagEnforcementMode;
    requiredTags?: string[];
    requiredValues?: Record<string, string[]>;
  };
}

/** A guardrail rule, the item of guardrail search (spec §2.4). */
export const GuardrailRule = z.looseObject({
  id: ObjectId,
  accountId: ObjectId,
  createdBy: ObjectId,
  name: z.string(),
  type: loose.type,
  scope: GuardrailScope,
  criteria: GuardrailCriteria,
  isEnabled: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  notificationId: ObjectId.nullish(),
  severity: loose.severity,
});
/** A guardrail rule. */
export type GuardrailRule = z.infer<typeof GuardrailRule>;

/** Names of the top-level members of a guardrail rule (what `projection` may name). */
export const GUARDRAIL_FIELDS = Object.keys(GuardrailRule.shape) as [
  keyof typeof GuardrailRule.shape,
  ...Array<keyof typeof GuardrailRule.shape>,
];

/** Sortable fields of guardrail search (spec §4.2). */
export const GUARDRAIL_SORT_FIELDS = ['createdAt', 'accountId', 'createdBy', 'name', 'severity'] as const;
/** A sortable field of guardrail search. */
export type GuardrailSortField = (typeof GUARDRAIL_SORT_FIELDS)[number];

const guardrailFilterShape = {
  createdBy: filterValues(z.string()).optional(),
  type: filterValues(z.enum(GUARDRAIL_TYPES)).optional(),
  labels: filterValues(z.string()).optional(),
  repositories: filterValues(z.string()).optional(),
  workspaces: filterValues(z.string()).optional(),
  branches: filterValues(z.string()).optional(),
};

/**
 * Filters of guardrail search. `labels`, `repositories`, `workspaces` and `branches` match rules
 * whose scope includes one of the values; values are any-of, members AND, `$or` any member.
 */
export const GuardrailFilters = z.strictObject({
  ...guardrailFilterShape,
  $or: z.strictObject(guardrailFilterShape).optional(),
});
/** Filters of guardrail search. */
export type GuardrailFilters = z.input<typeof GuardrailFilters>;

/** The body of `POST /v2/guardrails/search`. Every member is optional. */
export const GuardrailSearchBody = z.strictObject({
  projection: z.array(z.enum(GUARDRAIL_FIELDS)).optional(),
  searchValue: z.string().max(256).optional(),
  filters: GuardrailFilters.optional(),
  sort: sortSchema(GUARDRAIL_SORT_FIELDS).optional(),
});
/** The body of guardrail search. */
export type GuardrailSearchBody = z.input<typeof GuardrailSearchBody>;

/** The answer of guardrail search: a bare array of rules, no total. */
export const GuardrailSearchResponse = z.array(GuardrailRule);
/** The answer of guardrail search. */
export type GuardrailSearchResponse = z.infer<typeof GuardrailSearchResponse>;

const ruleBodyShape = {
  accountId: ObjectId.optional().meta({ description: "Must be the caller's account when given." }),
  createdBy: ObjectId,
  name: z.string().trim().min(1, { error: 'expected a non-empty name' }).max(256),
  type: strict.type,
  scope: strict.scope,
  criteria: strict.criteria,
  isEnabled: z.boolean().optional().meta({ description: 'Default true.' }),
  createdAt: Timestamp.optional().meta({ description: 'Accepted and ignored: the server sets it.' }),
  updatedAt: Timestamp.optional().meta({ description: 'Accepted and ignored: the server sets it.' }),
  notificationId: ObjectId.optional(),
  severity: strict.severity,
};

type CriteriaInput = z.input<typeof strict.criteria>;
type TagInput = NonNullable<CriteriaInput['tag']>;
type CostInput = NonNullable<CriteriaInput['cost']>;

/**
 * Checks that criteria fit a rule kind: the criteria hold exactly the member named by `type`, cost
 * criteria name at least one threshold, and tag criteria carry what their enforcement mode needs.
 * Returns the problems as `[path, message]` pairs (empty when the criteria fit).
 */
export function criteriaProblems(
  type: GuardrailType,
  criteria: CriteriaInput,
): Array<[PropertyKey[], string]> {
  const problems: Array<[PropertyKey[], string]> = [];
  if (criteria[type] === undefined) {
    problems.push([['criteria', type], `a rule of type "${type}" needs criteria.${type}`]);
  }
  for (const kind of GUARDRAIL_TYPES) {
    if (kind !== type && criteria[kind] !== undefined) {
      problems.push([
        ['criteria', kind],
        `a rule of type "${type}" takes only criteria.${type}, not criteria.${kind}`,
      ]);
    }
  }
  const cost: CostInput | undefined = criteria.cost;
  if (
    type === 'cost' &&
    cost &&
    cost.thresholdAmount === undefined &&
    cost.thresholdPercentage === undefined
  ) {
    problems.push([['criteria', 'cost'], 'cost criteria need thresholdAmount, thresholdPercentage or both']);
  }
  const tag: TagInput | undefined = criteria.tag;
  if (type === 'tag' && tag) {
    if (tag.tagEnforcementMode === 'requiredValues') {
      if (!tag.requiredValues || Object.keys(tag.requiredValues).length === 0) {
        problems.push([
          ['criteria', 'tag', 'requiredValues'],
          'tagEnforcementMode "requiredValues" needs a non-empty requiredValues object',
        ]);
      }
    } else if (!tag.requiredTags || tag.requiredTags.length === 0) {
      problems.push([
        ['criteria', 'tag', 'requiredTags'],
        `tagEnforcementMode "${tag.tagEnforcementMode}" needs a non-empty requiredTags list`,
      ]);
    }
  }
  return problems;
}

/**
 * The body of `POST /v2/guardrails`: a guardrail rule without its id. Required, as the live service
 * requires them: `createdBy`, `name`, `type`, all four `scope` members, `criteria` with exactly the
 * member named by `type` (resource criteria with `regions` and `assetTypes`), and `severity`.
 */
export const GuardrailCreateBody = z.strictObject(ruleBodyShape).superRefine((body, ctx) => {
  for (const [path, message] of criteriaProblems(body.type, body.criteria))
    ctx.addIssue({ code: 'custom', path, message });
});
/** The body of guardrail create. */
export type GuardrailCreateBody = z.input<typeof GuardrailCreateBody>;

/**
 * The answer of `POST /v2/guardrails`. The spec gives `{ ruleId, notificationId }`; the live
 * service has been seen to answer with the bare rule id as a JSON string. Both are accepted; use
 * {@link normalizeGuardrailCreateResponse} to read either as an object.
 */
export const GuardrailCreateResponse = z.union([
  z.looseObject({ ruleId: ObjectId, notificationId: ObjectId.nullish() }),
  ObjectId,
]);
/** The answer of guardrail create, in either form. */
export type GuardrailCreateResponse = z.infer<typeof GuardrailCreateResponse>;

/** The answer of guardrail create, read as an object. */
export interface GuardrailCreated {
  /** The new rule's id. */
  ruleId: string;
  /** The id of the rule's notification configuration, when the answer named it. */
  notificationId?: string | null | undefined;
}

/** Reads a guardrail create answer in either form as `{ ruleId, notificationId }`. */
export function normalizeGuardrailCreateResponse(response: GuardrailCreateResponse): GuardrailCreated {
  return typeof response === 'string' ? { ruleId: response } : response;
}

/**
 * The body of `PATCH /v2/guardrails/{ruleId}`: the members of the create body, each optional; the
 * members given replace the stored ones (`scope` and `criteria` are replaced whole). At least one
 * member. When both `type` and `criteria` are given they must fit; the server also checks that the
 * merged rule fits.
 */
export const GuardrailUpdateBody = z
  .strictObject({
    ...ruleBodyShape,
    createdBy: ruleBodyShape.createdBy.optional(),
    name: ruleBodyShape.name.optional(),
    type: ruleBodyShape.type.optional(),
    scope: ruleBodyShape.scope.optional(),
    criteria: ruleBodyShape.criteria.optional(),
    severity: ruleBodyShape.severity.optional(),
  })
  .superRefine((body, ctx) => {
    if (Object.keys(body).length === 0)
      ctx.addIssue({ code: 'custom', message: 'expected at least one member to change' });
    if (body.type !== undefined && body.criteria !== undefined) {
      for (const [path, message] of criteriaProblems(body.type, body.criteria))
        ctx.addIssue({ code: 'custom', path, message });
    }
  });
/** The body of guardrail update. */
export type GuardrailUpdateBody = z.input<typeof GuardrailUpdateBody>;

/** Path parameters of the guardrail endpoints. */
export const GuardrailPathParams = z.strictObject({ ruleId: PathId });
/** Path parameters of the guardrail endpoints. */
export type GuardrailPathParams = z.infer<typeof GuardrailPathParams>;

/** The answer of `PATCH /v2/guardrails/{ruleId}`. */
export const GuardrailUpdateResponse = z.looseObject({
  id: ObjectId,
  name: z.string(),
  enabled: z.boolean(),
  updatedAt: Timestamp,
});
/** The answer of guardrail update. */
export type GuardrailUpdateResponse = z.infer<typeof GuardrailUpdateResponse>;

/** The answer of `DELETE /v2/guardrails/{ruleId}`: `{ status, message }`. */
export const GuardrailDeleteResponse = z.looseObject({
  status: z.number().int(),
  message: z.string(),
});
/** The answer of guardrail delete. */
export type GuardrailDeleteResponse = z.infer<typeof GuardrailDeleteResponse>;
