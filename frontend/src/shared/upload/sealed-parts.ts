/**
 * Where the plaintext of an end-to-end encrypted file's upload parts lies (docs/e2e-format.md):
 * the server plans the parts on the plaintext and signs sealed part sizes, so the engine cuts the
 * sealed object as usual and reads, for each part, the plaintext range that seals to it. Pure
 * arithmetic, no cipher: the engine stays free of crypto code (a PartSealer brings it).
 */
import type { PlannedFile } from '@domain/transfer-api';
import { cipherSizeOf, plainPartSizeOf } from '@domain/e2e-params';

/** Seals the plaintext of one part; the engine gets one per encrypted file. */
export interface PartSealer {
  /** the file's plaintext size (the plan's `size` is the sealed size) */
  readonly plainSize: number;
  /** the stored bytes of the plaintext [start, start + plain.length): the same bytes on every call */
  seal(start: number, plain: Uint8Array): Promise<Uint8Array>;
}

export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** The stored bytes of part `part` (1-based) of a planned file: a single PUT is the whole object. */
export function storedRangeOf(plan: Pick<PlannedFile, 'size' | 'mode' | 'partSize'>, part: number): ByteRange {
  if (plan.mode !== 'multipart') return { start: 0, end: plan.size };
  const partSize = plan.partSize ?? plan.size;
  const start = (part - 1) * partSize;
  return { start, end: Math.min(plan.size, start + partSize) };
}

/**
 * The plaintext whose sealed bytes are part `part` of an encrypted file of `plainSize` bytes:
 * part n holds plaintext [(n-1)P, min(nP, plainSize)) with P the plaintext in a sealed part.
 */
export function plainRangeOf(
  plan: Pick<PlannedFile, 'size' | 'mode' | 'partSize'>,
  plainSize: number,
  part: number,
): ByteRange {
  if (plan.mode !== 'multipart') return { start: 0, end: plainSize };
  const plainPart = plainPartSizeOf(plan.partSize ?? plan.size);
  const start = (part - 1) * plainPart;
  return { start, end: Math.min(plainSize, start + plainPart) };
}

/** Why a plan cannot be the sealed plan of a file of `plainSize` bytes, or null when it is. */
export function sealedPlanProblem(
  plan: Pick<PlannedFile, 'size' | 'mode' | 'partSize' | 'partCount'>,
  plainSize: number,
): string | null {
  if (cipherSizeOf(plainSize) !== plan.size) return `${plan.size} bytes is not the sealed size of ${plainSize} bytes`;
  if (plan.mode !== 'multipart') return null;
  let plainPart: number;
  try {
    plainPart = plainPartSizeOf(plan.partSize ?? 0);
  } catch {
    return `${plan.partSize} bytes is no sealed part size`;
  }
  if (Math.max(1, Math.ceil(plainSize / plainPart)) !== plan.partCount)
    return `${plan.partCount} parts do not hold ${plainSize} bytes of plaintext`;
  return null;
}
