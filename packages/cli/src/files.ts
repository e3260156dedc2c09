/**
 * The local files of `sendbridge send`: files as given, folders walked recursively with their
 * paths relative to the folder's parent (`./photos` -> `photos/2024/a.jpg`, as the browser
 * sends a dropped folder). Symbolic links are followed for the paths given, not inside folders.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './errors';
import type { LocalFileIdentity } from './checkpoint';

export interface LocalFile extends LocalFileIdentity {
  readonly fileName: string;
  /** the path inside the transfer (folders), '/'-separated; absent for a file given alone */
  readonly itemPath?: string;
}

export function collectFiles(inputs: readonly string[], cwd = process.cwd()): LocalFile[] {
  const out: LocalFile[] = [];
  const seen = new Set<string>();
  const add = (abs: string, itemPath: string | undefined) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    const st = statSync(abs);
    out.push({
      path: abs,
      size: st.size,
      mtimeMs: st.mtimeMs,
      ino: st.ino,
      fileName: path.basename(abs),
      ...(itemPath ? { itemPath } : {}),
    });
  };
  const walk = (dir: string, rel: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(abs, r);
      else if (e.isFile()) add(abs, r);
      // sockets, fifos, devices and links inside folders are skipped
    }
  };
  for (const input of inputs) {
    const abs = path.resolve(cwd, input);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(abs);
    } catch {
      throw new UsageError(`no such file or folder: ${input}`);
    }
    if (st.isDirectory()) {
      const name = path.basename(abs) || 'folder';
      walk(abs, name);
    } else if (st.isFile()) {
      add(abs, undefined);
    } else {
      throw new UsageError(`not a regular file or folder: ${input}`);
    }
  }
  if (out.length === 0) throw new UsageError('nothing to send: the folders are empty');
  return out;
}
