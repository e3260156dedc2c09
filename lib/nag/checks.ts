import { type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';

/**
 * A kind of IAM wildcard this app accepts. A statement qualifies when every one of its actions
 * matches `actions` (and the policy sits under `path`, if given); its wildcard resources matching
 * `resources` are then acknowledged with `reason`. Action wildcards only with `actionWildcards`.
 */
export interface WildcardAllowance {
  readonly reason: string;
  readonly actions: RegExp;
  readonly resources: RegExp;
  readonly actionWildcards?: boolean;
  readonly path?: RegExp;
}

export const IAM_WILDCARD_ALLOWANCES: readonly WildcardAllowance[] = [
  {
    actions: /^s3:(GetObject|PutObject|DeleteObject|AbortMultipartUpload)$/,
    // `<bucket>/*` of a named bucket, never `arn:aws:s3:::*/*`
    resources: /^(?!\*|.*:::\*).*[^*]\/\*$/,
    reason:
      'Object-level access inside the SendBridge region buckets only: object keys are generated per transfer at runtime, so they cannot be listed in the policy.',
  },
  {
    actions: /^dynamodb:[A-Za-z]+$/,
    resources: /[^*]\/index\/\*$/,
    reason:
      "Queries on the single table's own GSIs (functions/data/table-schema.ts); the wildcard covers index names of that table only.",
  },
  {
    actions: /^xray:(PutTraceSegments|PutTelemetryRecords)$/,
    resources: /^\*$/,
    reason: 'X-Ray trace upload actions do not support resource-level permissions (Resource must be *).',
  },
  {
    actions: /^ses:GetAccount$/,
    resources: /^\*$/,
    reason: 'ses:GetAccount (health check: is sending enabled) does not support resource-level permissions.',
  },
  {
    actions: /^ses:(SendEmail|SendRawEmail)$/,
    resources: /:ses:[^*]+:identity\/\*$/,
    reason:
      'Mail goes out from the verified product identity and from customer sender domains verified at runtime (spec: email domain feature), so identities cannot be listed at deploy time. The configuration set is named exactly.',
  },
  {
    actions: /^ses:(CreateEmailIdentity|GetEmailIdentity|DeleteEmailIdentity)$/,
    resources: /:ses:[^*]+:identity\/\*$/,
    reason:
      "users' sender domains become SES identities at run time (spec §6), so their names cannot be listed at deploy time; only identity actions are granted.",
  },
  {
    actions:
      /^cloudfront:(CreateDistributionTenant|GetDistributionTenant|GetDistributionTenantByDomain|UpdateDistributionTenant|DeleteDistributionTenant)$/,
    resources: /:cloudfront::[^*]+:distribution-tenant\/\*$/,
    reason:
      "one distribution tenant per user's verified custom domain is created at run time, so tenant ids cannot be listed at deploy time; creation is also scoped to the one multi-tenant distribution and connection group.",
  },
  {
    // the role GuardDuty Malware Protection for S3 assumes (lib/storage-stack.ts)
    path: /\/MalwareProtectionRole\//,
    actions:
      /^s3:(GetObject|GetObjectVersion|GetObjectTagging|GetObjectVersionTagging|PutObjectTagging|PutObjectVersionTagging)$/,
    resources: /^(?!\*|.*:::\*).*[^*]\/\*$/,
    reason:
      "GuardDuty Malware Protection reads and tags each new object it scans in this region's two buckets; object keys are made at run time.",
  },
  {
    path: /\/MalwareProtectionRole\//,
    actions: /^events:(PutRule|DeleteRule|PutTargets|RemoveTargets|DescribeRule|ListTargetsByRule)$/,
    resources: /:rule\/DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3\*$/,
    reason:
      'GuardDuty Malware Protection manages its own EventBridge rules, whose names it chooses under this fixed prefix (its documented policy).',
  },
  {
    path: /\/Custom::CDKBucketDeployment[^/]*\//,
    actions: /^(s3|cloudfront):[A-Za-z*]+$/,
    resources: /.*/,
    actionWildcards: true,
    reason:
      "CDK's BucketDeployment handler (deploy-time only): aws-cdk-lib grants it read on the CDK assets bucket, read/write on its destination bucket and invalidation of its own distribution.",
  },
];

interface Statement {
  readonly Effect?: string;
  readonly Action?: unknown;
  readonly Resource?: unknown;
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

function policyDocuments(node: CfnResource): unknown[] {
  const stack = Stack.of(node);
  if (node instanceof iam.CfnPolicy || node instanceof iam.CfnManagedPolicy)
    return [stack.resolve(node.policyDocument)];
  if (node instanceof iam.CfnRole || node instanceof iam.CfnUser || node instanceof iam.CfnGroup) {
    return asArray(stack.resolve(node.policies)).map((p) =>
      stack.resolve((stack.resolve(p) as { policyDocument?: unknown }).policyDocument),
    );
  }
  return [];
}

/**
 * Acknowledges the AwsSolutions-IAM5 findings of `node` that the allowances cover. A wildcard
 * resource is covered when every action of its statement has an allowance for that resource
 * (statements get merged by @aws-cdk/aws-iam:minimizePolicies, so coverage is per action); a
 * finding is acknowledged only if every statement producing it is covered, so an unrelated
 * statement with the same wildcard still fails. Runs at validation time because the finding ids
 * contain resolved cross-stack references (Fn::GetStackOutput), which exist only after synthesis.
 */
export function acknowledgeIamWildcards(node: CfnResource, allowances = IAM_WILDCARD_ALLOWANCES): void {
  const path = `/${node.node.path}/`;
  const inScope = allowances.filter((a) => !a.path || a.path.test(path));
  const covered = new Map<string, Set<string>>();
  const uncovered = new Set<string>();
  const note = (finding: string, reasons: string[] | undefined): void => {
    if (!reasons) {
      uncovered.add(finding);
      return;
    }
    const set = covered.get(finding) ?? new Set<string>();
    for (const r of reasons) set.add(r);
    covered.set(finding, set);
  };
  /** The reasons covering every action for `test`, or undefined if some action is not covered. */
  const coverAll = (actions: string[], test: (a: WildcardAllowance, action: string) => boolean) => {
    if (actions.length === 0) return undefined; // NotAction statements are never covered
    const reasons = new Set<string>();
    for (const action of actions) {
      const allowance = inScope.find((a) => test(a, action));
      if (!allowance) return undefined;
      reasons.add(allowance.reason);
    }
    return [...reasons];
  };

  for (const doc of policyDocuments(node)) {
    for (const statement of asArray((doc as { Statement?: unknown } | undefined)?.Statement) as Statement[]) {
      if (statement.Effect !== 'Allow') continue;
      const actions = asArray(statement.Action).map(String);
      for (const action of actions.filter((a) => a.includes('*'))) {
        note(
          `Action::${action}`,
          coverAll([action], (a, x) => Boolean(a.actionWildcards) && a.actions.test(x)),
        );
      }
      for (const resource of asArray(statement.Resource)
        .map(flattenCfnReference)
        .filter((r) => r.includes('*'))) {
        note(
          `Resource::${resource}`,
          coverAll(actions, (a, x) => a.actions.test(x) && a.resources.test(resource)),
        );
      }
    }
  }
  for (const [finding, reasons] of covered) {
    if (!uncovered.has(finding))
      Validations.of(node).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason: [...reasons].join(' ') });
  }
}

/** AwsSolutions, plus the IAM wildcard allowances above (see docs/deploy.md). */
export class SendBridgeChecks extends AwsSolutionsChecks {
  protected override checkResource(node: CfnResource): void {
    acknowledgeIamWildcards(node);
    super.checkResource(node);
  }
}
