/**
 * A storage owner's branding item (docs/data-model.md patterns BR1-BR3) under
 * `USER#<sub>/BRANDING`: `backgroundKey`, `backgroundColor`, `accentColor` (`#rrggbb`),
 * `hidePoweredBy`, `updatedAt`. The logo stays on the profile (spec §3 User logoPic, showLogoNav).
 */
import { ddb } from '../lib/clients/dynamodb';
import { table } from './base';
import { keys } from './keys';

export interface BrandingRecord {
  readonly backgroundKey?: string;
  readonly backgroundColor?: string;
  readonly accentColor?: string;
  readonly hidePoweredBy?: boolean;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** BR1: one GetItem; no item is no branding. */
export async function getBranding(userId: string): Promise<BrandingRecord> {
  const out = await ddb().get({ TableName: table(), Key: keys.branding(userId) });
  const i = out.Item ?? {};
  const backgroundKey = str(i.backgroundKey);
  const backgroundColor = str(i.backgroundColor);
  const accentColor = str(i.accentColor);
  return {
    ...(backgroundKey ? { backgroundKey } : {}),
    ...(backgroundColor ? { backgroundColor } : {}),
    ...(accentColor ? { accentColor } : {}),
    ...(i.hidePoweredBy === true ? { hidePoweredBy: true } : {}),
  };
}

/** BR2: UpdateItem SET the given fields, REMOVE the ones given as null (creates the item on first use). */
export async function updateBranding(
  userId: string,
  edit: { [K in keyof BrandingRecord]?: BrandingRecord[K] | null },
  now = Date.now(),
): Promise<void> {
  const set: string[] = ['#updatedAt = :updatedAt', '#entity = :entity'];
  const remove: string[] = [];
  const names: Record<string, string> = { '#updatedAt': 'updatedAt', '#entity': 'entity' };
  const values: Record<string, unknown> = { ':updatedAt': now, ':entity': 'branding' };
  for (const [field, value] of Object.entries(edit)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) remove.push(`#${field}`);
    else {
      set.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  await ddb().update({
    TableName: table(),
    Key: keys.branding(userId),
    UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}
