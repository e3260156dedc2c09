import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_TOKEN_HEADER, type CreateTransferResponse, type PlannedFile } from '@domain/transfer-api';
import { transferDraftSchema } from '@domain/validation';
import { loadDraftRules } from '@/shared/send-form/draft-rules';
import { matchPlannedFiles } from '@/shared/upload/picked-files';
import { uploadNewTransfer } from '@/shared/upload/send-flow';
import {
  GUEST,
  addFiles,
  commitRecipients,
  formIssues,
  initialForm,
  removeFile,
  setRecording,
  toDraftInput,
  type SendForm,
} from '@/shared/send-form/send-state';
import { inDraftOrder, type PickedFile } from '@/shared/upload/picked-files';

const NOW = Date.UTC(2026, 10, 21, 7);
const ID = 'rec1234';
const TOKEN = 'U'.repeat(43);

const picked = (fileName: string, content: string): PickedFile => ({
  fileName,
  size: content.length,
  blob: new Blob([content]),
});
const recording = (fileName: string, content: string, type = 'audio/webm') => ({
  fileName,
  blob: new Blob([content], { type }),
});

function guestForm(files: (form: SendForm) => SendForm): SendForm {
  const base = commitRecipients({ ...initialForm('me@corp.com') }, 'bob@example.com', 'anon').form;
  return files(base);
}

// formIssues checks with the draft schema, which the app loads on first use
beforeAll(async () => {
  await loadDraftRules();
});

describe('recordings in the form', () => {
  it('a recording joins the file list; a new one of the same kind replaces it, the other kind stays', () => {
    let form = addFiles(initialForm(), [picked('a.pdf', 'aaaa')], 'anon').form;
    form = setRecording(form, 'voice', recording('voice-memo-1.webm', 'v1'));
    form = setRecording(form, 'video', recording('video-1.webm', 'video1', 'video/webm'));
    form = setRecording(form, 'voice', recording('voice-memo-2.webm', 'v2!'));
    expect(form.files.map((f) => [f.fileName, f.size, f.recording])).toEqual([
      ['a.pdf', 4, undefined],
      ['video-1.webm', 6, 'video'],
      ['voice-memo-2.webm', 3, 'voice'],
    ]);
  });

  it('starting a new recording clears the old one of its kind; a clear with nothing to clear keeps the form', () => {
    const form = setRecording(initialForm(), 'voice', recording('voice-memo-1.webm', 'v1'));
    expect(setRecording(form, 'voice', null).files).toEqual([]);
    expect(setRecording(form, 'video', null)).toBe(form);
  });

  it('is removed like any file', () => {
    const form = setRecording(initialForm(), 'voice', recording('voice-memo-1.webm', 'v1'));
    expect(removeFile(form, 'voice-memo-1.webm').files).toEqual([]);
  });

  it('goes to the server as voiceMemo / recordedVideos, not fileObjects', () => {
    const form = guestForm((f) =>
      setRecording(
        setRecording(
          addFiles(f, [picked('a.pdf', 'aaaa')], 'anon').form,
          'voice',
          recording('voice-memo-1.webm', 'v1'),
        ),
        'video',
        recording('video-1.webm', 'vid', 'video/webm'),
      ),
    );
    const draft = toDraftInput(form, GUEST);
    expect(draft.fileObjects).toEqual([{ fileName: 'a.pdf', size: 4 }]);
    expect(draft.recordedVideos).toEqual([{ fileName: 'video-1.webm', size: 3 }]);
    expect(draft.voiceMemo).toEqual([{ fileName: 'voice-memo-1.webm', size: 2 }]);
    expect(transferDraftSchema({ role: 'anon', now: NOW }).safeParse(draft).success).toBe(true);
  });

  it('a voice memo alone is enough to send (spec §5: a file or a recording is required)', () => {
    const empty = guestForm((f) => f);
    expect(formIssues(empty, GUEST, NOW).map((i) => i.field)).toEqual(['files']);
    const memoOnly = guestForm((f) => setRecording(f, 'voice', recording('voice-memo-1.webm', 'v1')));
    expect(formIssues(memoOnly, GUEST, NOW)).toEqual([]);
    expect(toDraftInput(memoOnly, GUEST).fileObjects).toEqual([]);
  });

  it('orders files as the server plans them: picked, videos, voice memo', () => {
    const files: PickedFile[] = [
      { ...picked('voice-memo-1.webm', 'v'), recording: 'voice' },
      picked('a.pdf', 'a'),
      { ...picked('video-1.webm', 'w'), recording: 'video' },
      picked('b.pdf', 'b'),
    ];
    expect(inDraftOrder(files).map((f) => f.fileName)).toEqual(['a.pdf', 'b.pdf', 'video-1.webm', 'voice-memo-1.webm']);
  });
});

/** The plan as functions/services/transfers.ts builds it: fileObjects, recordedVideos, voiceMemo. */
function planFor(form: SendForm): PlannedFile[] {
  const draft = toDraftInput(form, GUEST);
  const entries = [...(draft.fileObjects ?? []), ...(draft.recordedVideos ?? []), ...(draft.voiceMemo ?? [])];
  return entries.map((e, i) => ({
    fileId: `file${String(i).padStart(6, '0')}`,
    fileName: e.fileName,
    size: e.size,
    mode: 'single',
    url: `https://bucket.test/put/${i}`,
  }));
}

describe('pairing the upload plan with recordings', () => {
  // The recording was made first, a file picked afterwards: the list order differs from the plan's.
  const form = () =>
    guestForm(
      (f) =>
        addFiles(
          setRecording(f, 'voice', recording('voice-memo-2026-11-21T07-40-12.webm', 'VOICE')),
          [picked('notes.txt', 'NOTES')],
          'anon',
        ).form,
    );

  it('matches every plan entry to its own bytes, even with equal sizes', async () => {
    const sent = form();
    expect(sent.files.map((f) => f.fileName)).toEqual(['voice-memo-2026-11-21T07-40-12.webm', 'notes.txt']);
    const pairs = matchPlannedFiles(planFor(sent), inDraftOrder(sent.files));
    expect(await Promise.all(pairs.map(async (p) => [p.plan.fileName, await p.blob.text()]))).toEqual([
      ['notes.txt', 'NOTES'],
      ['voice-memo-2026-11-21T07-40-12.webm', 'VOICE'],
    ]);
  });

  describe('uploadNewTransfer', () => {
    const stored = new Map<string, string>();
    const uploaded = new Set<string>();
    let plan: PlannedFile[];

    beforeEach(() => {
      stored.clear();
      uploaded.clear();
      plan = planFor(form());
      // The transfer API behind apiFetch: sign, file complete, transfer complete.
      vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const path = String(input).replace(/^\/api/, '');
        const reply = (status: number, body: unknown) =>
          new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
        if ((init.headers as Record<string, string>)[UPLOAD_TOKEN_HEADER] !== TOKEN)
          return reply(401, { error: { code: 'bad_token', message: 'no' } });
        if (path === `/transfers/${ID}/sign`) {
          const { fileId } = JSON.parse(String(init.body)) as { fileId: string };
          return reply(200, {
            fileId,
            url: plan.find((f) => f.fileId === fileId)!.url,
            expiresAt: Date.now() + 3_600_000,
          });
        }
        const done = new RegExp(`^/transfers/${ID}/files/(\\w+)/complete$`).exec(path);
        if (done) {
          const file = plan.find((f) => f.fileId === done[1])!;
          uploaded.add(file.fileId);
          return reply(200, { fileId: file.fileId, size: file.size });
        }
        if (path === `/transfers/${ID}/complete`)
          return reply(200, {
            id: ID,
            link: `https://app.test/w/${ID}`,
            expiryDate: NOW + 1,
            recipients: ['bob@example.com'],
          });
        return reply(404, { error: { code: 'not_found', message: path } });
      });
    });
    afterEach(() => vi.unstubAllGlobals());

    it('puts the voice memo bytes under the voice memo entry and the file bytes under the file', async () => {
      const created: CreateTransferResponse = {
        id: ID,
        uploadToken: TOKEN,
        region: 'hongkong',
        sendAs: 'email',
        link: `https://app.test/w/${ID}`,
        expiryDate: NOW + 1,
        files: plan,
      };
      const bucket = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
        stored.set(
          String(input),
          init.body instanceof Blob ? await init.body.text() : new TextDecoder().decode(init.body as Uint8Array),
        );
        return new Response('', { status: 200, headers: { etag: '"e"' } });
      }) as typeof fetch;
      await uploadNewTransfer(
        created,
        form().files,
        { signal: new AbortController().signal, onProgress: () => undefined, onWarning: () => undefined },
        { storage: null, fetchImpl: bucket },
      );
      const byName = Object.fromEntries(plan.map((f) => [f.fileName, stored.get(f.url!)]));
      expect(byName).toEqual({ 'notes.txt': 'NOTES', 'voice-memo-2026-11-21T07-40-12.webm': 'VOICE' });
      expect(uploaded.size).toBe(2);
    });
  });
});
