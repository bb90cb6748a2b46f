import * as z from 'zod/mini';
import {
  GUARDRAIL_TYPES,
  type GuardrailSeverity,
  type GuardrailType,
  POLICY_SEVERITIES,
  type PolicySeverity,
  RESOURCE_ACTIONS,
  type ResourceAction,
  TAG_ENFORCEMENT_MODES,
  type TagEnforcementMode,
} from './enums.js';
import {
  MAX_REQUEST_LIST_ITEMS,
  MAX_REQUEST_LIST_VALUES,
  MAX_RESOURCE_ADDRESS_LENGTH,
  MAX_RULE_VALUE_LENGTH,
} from './limits.js';
import {
  filterValues,
  type IncludeExclude,
  includeExclude,
  type ModeObject,
  modeEnum,
  modeObject,
  ObjectId,
  PathId,
  type SortSpec,
  type Strictness,
  sortSchema,
  Timestamp,
} from './primitives.js';
import { looseObject, strictObject, withMeta } from './zod.js';

/**
 * A list of strings of a request (`strict`: at most {@link MAX_REQUEST_LIST_VALUES} values of at most
 * `maxLength` characters) or of an answer (any length).
 */
function modeStrings(mode: Strictness, maxLength = MAX_RULE_VALUE_LENGTH): z.ZodMiniArray<z.ZodMiniString> {
  return mode === 'strict'
    ? z.array(z.string().check(z.maxLength(maxLength))).check(z.maxLength(MAX_REQUEST_LIST_VALUES))
    : z.array(z.string());
}

/**
 * A request's `requiredValues`: at most {@link MAX_REQUEST_LIST_VALUES} tags, each named in at most
 * {@link MAX_RULE_VALUE_LENGTH} characters, each with a list of values. The tag names are checked by a
 * refinement rather than a key schema, so that an error names the member without echoing a long name.
 */
function requiredValuesSchema() {
  return withMeta(
    z.record(z.string(), modeStrings('strict')).check(
      z.superRefine((values, ctx) => {
        const names = Object.keys(values);
        if (names.length > MAX_REQUEST_LIST_VALUES) {
          ctx.addIssue({
            code: 'custom',
            message: `expected at most ${MAX_REQUEST_LIST_VALUES} tags (${names.length} were given)`,
          });
        }
        const long = names.find((name) => name.length > MAX_RULE_VALUE_LENGTH);
        if (long !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message: `expected tag names of at most ${MAX_RULE_VALUE_LENGTH} characters (one has ${long.length})`,
          });
        }
      }),
    ),
    {
      maxProperties: MAX_REQUEST_LIST_VALUES,
      propertyNames: { maxLength: MAX_RULE_VALUE_LENGTH },
    },
  );
}

/**
 * An include/exclude member of a request (the scope's `workspaces`, `repositories`, `branches`,
 * `labels`; the criteria's `policies`, `regions`, `assetTypes`): `{ include, exclude }`, where a
 * list left out reads as `[]`, what the evaluation reads a missing list as
 * (`include: []` includes everything, `exclude: []` excludes nothing). Clients that drop empty lists
 * (Go's `omitempty`: Firefly's Terraform provider sends `{"include":["*"]}`) are answered as the live
 * service answers them; the rule is stored, and answered, with both lists. The members
 * themselves stay required. An answer's member (`loose`) carries both lists.
 */
function includeExcludeInput() {
  const list = (meaning: string) =>
    withMeta(z._default(modeStrings('strict'), []), { description: `Default [] (${meaning}).` });
  return strictObject({
    include: list('includes everything'),
    exclude: list('excludes nothing'),
  });
}

/** Builds the guardrail rule parts, strict (request bodies) or loose (responses). */
function guardrailParts<M extends Strictness>(mode: M) {
  const list = includeExclude(mode);
  const strictSeverity = z.union([z.literal(1), z.literal(2), z.literal(3)], {
    error: 'expected 1 (flexible), 2 (strict) or 3 (warning)',
  });
  const severity = (mode === 'strict' ? strictSeverity : z.number().check(z.int())) as M extends 'strict'
    ? typeof strictSeverity
    : z.ZodMiniNumber;
  const member = (mode === 'strict' ? includeExcludeInput() : list) as M extends 'strict'
    ? ReturnType<typeof includeExcludeInput>
    : typeof list;
  const scope = modeObject(mode, {
    workspaces: member,
    repositories: member,
    branches: member,
    labels: member,
  });
  const costShape = {
    thresholdAmount: z.optional(z.number().check(z.gte(0))),
    thresholdPercentage: z.optional(z.number().check(z.gte(0))),
  };
  // At least one threshold; said in the JSON Schema too (the check itself is in criteriaProblems).
  const cost = (
    mode === 'strict'
      ? withMeta(modeObject(mode, costShape), { minProperties: 1 })
      : modeObject(mode, costShape)
  ) as ModeObject<M, typeof costShape>;
  // The criteria's include/exclude lists read a list left out as [] in a request too (as the scope's).
  const policy = modeObject(mode, {
    severity: modeEnum(mode, POLICY_SEVERITIES),
    policies: member,
  });
  const resource = modeObject(mode, {
    actions: z.optional(
      mode === 'strict'
        ? z.array(modeEnum(mode, RESOURCE_ACTIONS)).check(z.maxLength(MAX_REQUEST_LIST_VALUES))
        : z.array(modeEnum(mode, RESOURCE_ACTIONS)),
    ),
    regions: member,
    assetTypes: member,
    specificResources: z.optional(modeStrings(mode, MAX_RESOURCE_ADDRESS_LENGTH)),
  });
  const tag = modeObject(mode, {
    tagEnforcementMode: modeEnum(mode, TAG_ENFORCEMENT_MODES),
    requiredTags: z.optional(modeStrings(mode)),
    requiredValues: z.optional(
      mode === 'strict' ? requiredValuesSchema() : z.record(z.string(), z.array(z.string())),
    ),
  });
  const criteriaShape = {
    cost: z.optional(cost),
    policy: z.optional(policy),
    resource: z.optional(resource),
    tag: z.optional(tag),
  };
  // Exactly one member, the one named by `type`; said in the JSON Schema too (checked with the type).
  const criteria = (
    mode === 'strict'
      ? withMeta(modeObject(mode, criteriaShape), { minProperties: 1, maxProperties: 1 })
      : modeObject(mode, criteriaShape)
  ) as ModeObject<M, typeof criteriaShape>;
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
/** Cost criteria: the monthly cost increase allowed, as an amount and/or a percentage (at least one). */
export interface CostCriteria {
  /** The increase allowed, in dollars. */
  thresholdAmount?: number | undefined;
  /** The increase allowed, in percent. */
  thresholdPercentage?: number | undefined;
}

/** Policy criteria: findings at or above `severity`, among the included and not excluded policies. */
export interface PolicyCriteria {
  /** The lowest finding severity that breaks the rule. */
  severity: PolicySeverity;
  /** The policies checked (`*` wildcard). */
  policies: IncludeExclude;
}

/** Resource criteria: changes with these actions, in these regions, of these asset types. */
export interface ResourceCriteria {
  /** The actions that break the rule; all when absent. */
  actions?: ResourceAction[] | undefined;
  /** Regions (`*` wildcard). */
  regions: IncludeExclude;
  /** Asset types, like `aws_s3_bucket` (`*` wildcard). */
  assetTypes: IncludeExclude;
  /** Specific resource addresses (in a request, each at most 2,048 characters: `MAX_RESOURCE_ADDRESS_LENGTH`). */
  specificResources?: string[] | undefined;
}

/**
 * Tag criteria: which tags (or tag values) created and updated resources must carry:
 * `requiredTags` for the modes `requiredTags` and `anyTags`, `requiredValues` for `requiredValues`.
 */
export interface TagCriteria {
  /** How the tags are enforced. */
  tagEnforcementMode: TagEnforcementMode;
  /** Tag names. */
  requiredTags?: string[] | undefined;
  /** Allowed values of each tag (in a request, at most 1,000 tags named in at most 256 characters). */
  requiredValues?: Record<string, string[]> | undefined;
}

/** A guardrail rule's criteria, as a rule carries them: the member named by the rule's `type`. */
export interface GuardrailCriteria {
  /** Cost criteria (rules of type `cost`). */
  cost?: CostCriteria | undefined;
  /** Policy criteria (rules of type `policy`). */
  policy?: PolicyCriteria | undefined;
  /** Resource criteria (rules of type `resource`). */
  resource?: ResourceCriteria | undefined;
  /** Tag criteria (rules of type `tag`). */
  tag?: TagCriteria | undefined;
}

/** A guardrail rule, the item of guardrail search (spec §2.4). */
export const GuardrailRule = looseObject({
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
  notificationId: z.nullish(ObjectId),
  severity: loose.severity,
});
/**
 * A guardrail rule, the item of guardrail search. Enumerated members are typed with their
 * documented values (answers are read tolerantly: other values can arrive at run time, see
 * `docs/validation.md`).
 */
export interface GuardrailRule {
  /** The rule's 24-hex id. */
  id: string;
  /** The owning account's id. */
  accountId: string;
  /** The id of the user who created the rule. */
  createdBy: string;
  /** The rule's name. */
  name: string;
  /** The rule's kind; `criteria` holds the member of that name. */
  type: GuardrailType;
  /** What the rule applies to. */
  scope: GuardrailScope;
  /** What breaks the rule. */
  criteria: GuardrailCriteria;
  /** Whether the rule is checked. */
  isEnabled: boolean;
  /** When the rule was created. */
  createdAt: string;
  /** When the rule last changed. */
  updatedAt: string;
  /** The id of the rule's notification configuration. */
  notificationId?: string | null | undefined;
  /** 1 flexible, 2 strict, 3 warning. */
  severity: GuardrailSeverity;
}

/** A member of a guardrail rule: what guardrail search's `projection` may name. */
export type GuardrailField = keyof GuardrailRule;

/** Names of the top-level members of a guardrail rule (what `projection` may name). */
export const GUARDRAIL_FIELDS = Object.keys(GuardrailRule.shape) as [GuardrailField, ...GuardrailField[]];

/** Sortable fields of guardrail search (spec §4.2). */
export const GUARDRAIL_SORT_FIELDS = ['createdAt', 'accountId', 'createdBy', 'name', 'severity'] as const;
/** A sortable field of guardrail search. */
export type GuardrailSortField = (typeof GUARDRAIL_SORT_FIELDS)[number];

const guardrailFilterShape = {
  createdBy: z.optional(filterValues(z.string())),
  type: z.optional(filterValues(z.enum(GUARDRAIL_TYPES))),
  labels: z.optional(filterValues(z.string())),
  repositories: z.optional(filterValues(z.string())),
  workspaces: z.optional(filterValues(z.string())),
  branches: z.optional(filterValues(z.string())),
};

/**
 * Filters of guardrail search. `labels`, `repositories`, `workspaces` and `branches` match rules
 * whose scope includes one of the values; values are any-of, members AND, `$or` any member.
 */
export const GuardrailFilters = strictObject({
  ...guardrailFilterShape,
  $or: z.optional(strictObject(guardrailFilterShape)),
});
/** The members of guardrail search's filters (and of their `$or`). Each list is any-of. */
export interface GuardrailFilterMembers {
  /** Ids of the users who created the rules. */
  createdBy?: string[] | undefined;
  /** Rule kinds. */
  type?: GuardrailType[] | undefined;
  /** Labels the rule's scope includes. */
  labels?: string[] | undefined;
  /** Repositories the rule's scope includes. */
  repositories?: string[] | undefined;
  /** Workspaces the rule's scope includes. */
  workspaces?: string[] | undefined;
  /** Branches the rule's scope includes. */
  branches?: string[] | undefined;
}

/**
 * Filters of guardrail search. `labels`, `repositories`, `workspaces` and `branches` match rules
 * whose scope includes one of the values; values are any-of, members AND, `$or` any member.
 */
export interface GuardrailFilters extends GuardrailFilterMembers {
  /** Members of which at least one must match. */
  $or?: GuardrailFilterMembers | undefined;
}

/** The body of `POST /v2/guardrails/search`. Every member is optional. */
export const GuardrailSearchBody = strictObject({
  projection: z.optional(z.array(z.enum(GUARDRAIL_FIELDS)).check(z.maxLength(MAX_REQUEST_LIST_ITEMS))),
  searchValue: z.optional(z.string().check(z.maxLength(256))),
  filters: z.optional(GuardrailFilters),
  sort: z.optional(sortSchema(GUARDRAIL_SORT_FIELDS)),
});
/** The body of `POST /v2/guardrails/search`. Every member is optional. */
export interface GuardrailSearchBody {
  /** Only these members of each rule (plus `id`). */
  projection?: GuardrailField[] | undefined;
  /** Free text to search for (at most 256 characters). */
  searchValue?: string | undefined;
  /** Filters. */
  filters?: GuardrailFilters | undefined;
  /** Sort keys. */
  sort?: SortSpec<GuardrailSortField> | undefined;
}

/** The answer of guardrail search: a bare array of rules, no total. */
export const GuardrailSearchResponse = z.array(GuardrailRule);
/** The answer of guardrail search: one page of rules. */
export type GuardrailSearchResponse = GuardrailRule[];

const ruleBodyShape = {
  accountId: withMeta(z.optional(ObjectId), { description: "Must be the caller's account when given." }),
  createdBy: ObjectId,
  name: z
    .string()
    .check(z.trim())
    .check(z.minLength(1, { error: 'expected a non-empty name' }))
    .check(z.maxLength(256)),
  type: strict.type,
  scope: strict.scope,
  criteria: strict.criteria,
  isEnabled: withMeta(z.optional(z.boolean()), { description: 'Default true.' }),
  createdAt: withMeta(z.optional(Timestamp), { description: 'Accepted and ignored: the server sets it.' }),
  updatedAt: withMeta(z.optional(Timestamp), { description: 'Accepted and ignored: the server sets it.' }),
  notificationId: z.optional(ObjectId),
  severity: strict.severity,
};

type CriteriaInput = z.input<typeof strict.criteria>;
type TagInput = NonNullable<CriteriaInput['tag']>;
type CostInput = NonNullable<CriteriaInput['cost']>;

/**
 * What is wrong with the members criteria hold, whatever the rule's kind: cost criteria name at
 * least one threshold; tag criteria carry what their enforcement mode needs.
 */
function memberProblems(
  criteria: CriteriaInput,
  kinds: readonly GuardrailType[],
): Array<[PropertyKey[], string]> {
  const problems: Array<[PropertyKey[], string]> = [];
  const cost: CostInput | undefined = criteria.cost;
  if (
    kinds.includes('cost') &&
    cost &&
    cost.thresholdAmount === undefined &&
    cost.thresholdPercentage === undefined
  ) {
    problems.push([['criteria', 'cost'], 'cost criteria need thresholdAmount, thresholdPercentage or both']);
  }
  const tag: TagInput | undefined = criteria.tag;
  if (kinds.includes('tag') && tag) {
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
  problems.push(...memberProblems(criteria, [type]));
  return problems;
}

/**
 * Checks criteria sent without a `type` (an update that keeps the rule's kind): they hold exactly one
 * member (the server then checks that it is the one the stored `type` names), and that member fits
 * as in {@link criteriaProblems}.
 */
function criteriaWithoutTypeProblems(criteria: CriteriaInput): Array<[PropertyKey[], string]> {
  const present = GUARDRAIL_TYPES.filter((kind) => criteria[kind] !== undefined);
  const problems: Array<[PropertyKey[], string]> = [];
  if (present.length !== 1) {
    problems.push([
      ['criteria'],
      `criteria hold exactly one member, the one the rule's type names (cost, policy, resource or tag); received ${
        present.length === 0 ? 'none' : present.join(', ')
      }`,
    ]);
  }
  problems.push(...memberProblems(criteria, present));
  return problems;
}

/**
 * The body of `POST /v2/guardrails`: a guardrail rule without its id. Required, as the live service
 * requires them: `createdBy`, `name`, `type`, all four `scope` members, `criteria` with exactly the
 * member named by `type` (resource criteria with `regions` and `assetTypes`), and `severity`.
 */
export const GuardrailCreateBody = strictObject(ruleBodyShape).check(
  z.superRefine((body, ctx) => {
    for (const [path, message] of criteriaProblems(body.type, body.criteria))
      ctx.addIssue({ code: 'custom', path, message });
  }),
);
/** The members every guardrail create body has, whatever its `type`. */
export interface GuardrailCreateFields {
  /** Must be the caller's account when given. */
  accountId?: string | undefined;
  /** The id of the user who creates the rule. */
  createdBy: string;
  /** The rule's name: 1 to 256 characters, not blank. */
  name: string;
  /**
   * What the rule applies to: all four members are required (this type names both lists of each; on
   * the wire a member's `include` or `exclude` left out reads as `[]`). In a request each list holds
   * at most 1,000 values of at most 256 characters (`MAX_REQUEST_LIST_VALUES`,
   * `MAX_RULE_VALUE_LENGTH`), as do the criteria's lists.
   */
  scope: GuardrailScope;
  /** Whether the rule is checked. Default true. */
  isEnabled?: boolean | undefined;
  /** Accepted and ignored: the server sets it. */
  createdAt?: string | undefined;
  /** Accepted and ignored: the server sets it. */
  updatedAt?: string | undefined;
  /** An existing notification configuration to attach; a new one is made otherwise. */
  notificationId?: string | undefined;
  /** 1 flexible, 2 strict, 3 warning. */
  severity: GuardrailSeverity;
}

/** A cost rule's kind and criteria. */
export interface CostGuardrailKind {
  /** The rule's kind. */
  type: 'cost';
  /** Cost criteria only. */
  criteria: { cost: CostCriteria };
}

/** A policy rule's kind and criteria. */
export interface PolicyGuardrailKind {
  /** The rule's kind. */
  type: 'policy';
  /** Policy criteria only. */
  criteria: { policy: PolicyCriteria };
}

/** A resource rule's kind and criteria. */
export interface ResourceGuardrailKind {
  /** The rule's kind. */
  type: 'resource';
  /** Resource criteria only. */
  criteria: { resource: ResourceCriteria };
}

/** A tag rule's kind and criteria. */
export interface TagGuardrailKind {
  /** The rule's kind. */
  type: 'tag';
  /** Tag criteria only. */
  criteria: { tag: TagCriteria };
}

/**
 * A rule's `type` with the `criteria` that fit it: `criteria` holds exactly the member named by
 * `type`. Combine it with other members to declare rules of any kind, like
 * `Pick<GuardrailCreateFields, 'name' | 'severity' | 'scope'> & GuardrailKind`.
 */
export type GuardrailKind =
  | CostGuardrailKind
  | PolicyGuardrailKind
  | ResourceGuardrailKind
  | TagGuardrailKind;

/** The body of guardrail create for a cost rule. */
export interface CostGuardrailCreateBody extends GuardrailCreateFields, CostGuardrailKind {}

/** The body of guardrail create for a policy rule. */
export interface PolicyGuardrailCreateBody extends GuardrailCreateFields, PolicyGuardrailKind {}

/** The body of guardrail create for a resource rule. */
export interface ResourceGuardrailCreateBody extends GuardrailCreateFields, ResourceGuardrailKind {}

/** The body of guardrail create for a tag rule. */
export interface TagGuardrailCreateBody extends GuardrailCreateFields, TagGuardrailKind {}

/**
 * The body of `POST /v2/guardrails`, one shape per rule kind: `criteria` holds exactly the member
 * named by `type` (`{ type: 'cost', criteria: { cost: {...} } }`).
 */
export type GuardrailCreateBody =
  | CostGuardrailCreateBody
  | PolicyGuardrailCreateBody
  | ResourceGuardrailCreateBody
  | TagGuardrailCreateBody;

/**
 * The answer of `POST /v2/guardrails`. The spec gives `{ ruleId, notificationId }`; the live
 * service has been seen to answer with the bare rule id as a JSON string. Both are accepted; use
 * {@link normalizeGuardrailCreateResponse} to read either as an object.
 */
export const GuardrailCreateResponse = z.union([
  looseObject({ ruleId: ObjectId, notificationId: z.nullish(ObjectId) }),
  ObjectId,
]);
/** The answer of guardrail create, in either form: `{ ruleId, notificationId }` or the bare rule id. */
export type GuardrailCreateResponse = GuardrailCreated | string;

/** The answer of guardrail create, read as an object. */
export interface GuardrailCreated {
  /** The new rule's id. */
  ruleId: string;
  /** The id of the rule's notification configuration, when the answer named it. */
  notificationId?: string | null | undefined;
}

/**
 * The body of `PATCH /v2/guardrails/{ruleId}`: the members of the create body, each optional; the
 * members given replace the stored ones (`scope` and `criteria` are replaced whole). At least one
 * member. `criteria` hold exactly one member; when `type` is given too they must fit it; the server
 * also checks that the merged rule fits.
 */
export const GuardrailUpdateBody = z
  .strictObject({
    ...ruleBodyShape,
    createdBy: z.optional(ruleBodyShape.createdBy),
    name: z.optional(ruleBodyShape.name),
    type: z.optional(ruleBodyShape.type),
    scope: z.optional(ruleBodyShape.scope),
    criteria: z.optional(ruleBodyShape.criteria),
    severity: z.optional(ruleBodyShape.severity),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (Object.keys(body).length === 0)
        ctx.addIssue({ code: 'custom', message: 'expected at least one member to change' });
      if (body.criteria !== undefined) {
        const problems =
          body.type !== undefined
            ? criteriaProblems(body.type, body.criteria)
            : criteriaWithoutTypeProblems(body.criteria);
        for (const [path, message] of problems) ctx.addIssue({ code: 'custom', path, message });
      }
    }),
  );
/** The members of a guardrail update body other than `type` and `criteria`, each optional. */
export interface GuardrailUpdateFields {
  /** Must be the rule's account when given. */
  accountId?: string | undefined;
  /** The id of the user who created the rule. */
  createdBy?: string | undefined;
  /** The rule's name: 1 to 256 characters, not blank. */
  name?: string | undefined;
  /** What the rule applies to (replaced whole). */
  scope?: GuardrailScope | undefined;
  /** Whether the rule is checked. */
  isEnabled?: boolean | undefined;
  /** Accepted and ignored: the server sets it. */
  createdAt?: string | undefined;
  /** Accepted and ignored: the server sets it. */
  updatedAt?: string | undefined;
  /** The notification configuration to attach. */
  notificationId?: string | undefined;
  /** 1 flexible, 2 strict, 3 warning. */
  severity?: GuardrailSeverity | undefined;
}

/** A guardrail update that keeps the rule's kind: new criteria, if any, must fit the stored `type`. */
export interface GuardrailUpdateKeepingType extends GuardrailUpdateFields {
  /** Not given: the rule keeps its kind. */
  type?: never;
  /** New criteria (replaced whole), with the member named by the rule's stored `type`. */
  criteria?: GuardrailKind['criteria'] | undefined;
}

/** A guardrail update that makes the rule a cost rule. */
export interface CostGuardrailUpdateBody extends GuardrailUpdateFields {
  /** The rule's new kind. */
  type: 'cost';
  /** Cost criteria only (needed unless the rule already has them). */
  criteria?: { cost: CostCriteria } | undefined;
}

/** A guardrail update that makes the rule a policy rule. */
export interface PolicyGuardrailUpdateBody extends GuardrailUpdateFields {
  /** The rule's new kind. */
  type: 'policy';
  /** Policy criteria only (needed unless the rule already has them). */
  criteria?: { policy: PolicyCriteria } | undefined;
}

/** A guardrail update that makes the rule a resource rule. */
export interface ResourceGuardrailUpdateBody extends GuardrailUpdateFields {
  /** The rule's new kind. */
  type: 'resource';
  /** Resource criteria only (needed unless the rule already has them). */
  criteria?: { resource: ResourceCriteria } | undefined;
}

/** A guardrail update that makes the rule a tag rule. */
export interface TagGuardrailUpdateBody extends GuardrailUpdateFields {
  /** The rule's new kind. */
  type: 'tag';
  /** Tag criteria only (needed unless the rule already has them). */
  criteria?: { tag: TagCriteria } | undefined;
}

/**
 * The body of `PATCH /v2/guardrails/{ruleId}`: the members given replace the stored ones (`scope`
 * and `criteria` whole); at least one member. When `type` is given, `criteria` (if given) holds the
 * member of that name; the server checks that the merged rule fits.
 */
export type GuardrailUpdateBody =
  | GuardrailUpdateKeepingType
  | CostGuardrailUpdateBody
  | PolicyGuardrailUpdateBody
  | ResourceGuardrailUpdateBody
  | TagGuardrailUpdateBody;

/** Path parameters of the guardrail endpoints. */
export const GuardrailPathParams = strictObject({ ruleId: PathId });
/** Path parameters of the guardrail endpoints. */
export interface GuardrailPathParams {
  /** The rule's id: 24-hex, or a lower-case UUID. */
  ruleId: string;
}

/** The answer of `PATCH /v2/guardrails/{ruleId}`. */
export const GuardrailUpdateResponse = looseObject({
  id: ObjectId,
  name: z.string(),
  enabled: z.boolean(),
  updatedAt: Timestamp,
});
/** The answer of guardrail update. */
export interface GuardrailUpdateResponse {
  /** The rule's id. */
  id: string;
  /** The rule's name. */
  name: string;
  /** Whether the rule is checked (the rule's `isEnabled`). */
  enabled: boolean;
  /** When the rule changed. */
  updatedAt: string;
}

/** The answer of `DELETE /v2/guardrails/{ruleId}`: `{ status, message }`. */
export const GuardrailDeleteResponse = looseObject({
  status: z.number().check(z.int()),
  message: z.string(),
});
/** The answer of guardrail delete: `{ status, message }`. */
export interface GuardrailDeleteResponse {
  /** The HTTP status, repeated. */
  status: number;
  /** A human-readable confirmation. */
  message: string;
}
