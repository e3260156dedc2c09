import { describe, expect, it } from 'vitest';
import {
  IMAGE_MAX_BYTES,
  imageUploadSchema,
  type ImageUploadResponse,
  type SessionUser,
  type UpdateProfileInput,
} from '@domain/auth-api';
import { EN_TEXTS as en } from '../../../helpers/catalogues';
import { problemOf } from '@domain/validation';
import {
  ImageRejectedError,
  greetingNameOf,
  imageProblem,
  initialsOf,
  profileChanges,
  removeImageBody,
  uploadProfileImage,
  type ImageKind,
  type ProfileApi,
} from '@/features/dashboard/profile';

const image = (type: string, size: number) => new Blob([new Uint8Array(size)], { type });

describe('picture checks before upload', () => {
  it('accepts PNG, JPEG, GIF and WebP up to 5 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
      expect(imageProblem({ type, size: 1000 }), type).toBeNull();
    expect(imageProblem({ type: 'image/png', size: IMAGE_MAX_BYTES })).toBeNull();
  });

  it('refuses other types, even other images', () => {
    for (const type of ['image/svg+xml', 'application/pdf', 'text/html', ''])
      expect(imageProblem({ type, size: 1000 }), type).toBe('type');
  });

  it('refuses more than 5 MB, and empty files', () => {
    expect(imageProblem({ type: 'image/jpeg', size: IMAGE_MAX_BYTES + 1 })).toBe('size');
    expect(imageProblem({ type: 'image/jpeg', size: 0 })).toBe('empty');
  });

  it("says it in the API's own words", () => {
    const issues =
      imageUploadSchema.safeParse({ kind: 'profile', contentType: 'image/tiff', size: IMAGE_MAX_BYTES + 1 }).error
        ?.issues ?? [];
    const messages = issues.map((i) => problemOf(i).message);
    expect(messages).toContain(en.dashboard.profile.errors.type);
    expect(messages).toContain(en.dashboard.profile.errors.size);
  });
});

/** Records the calls the upload makes, answering like the API would. */
function recordingApi(): ProfileApi & { calls: string[] } {
  const calls: string[] = [];
  const target: ImageUploadResponse = {
    url: 'https://bucket.example/put',
    key: 'profile/u1/abc.png',
    headers: { 'content-type': 'image/png' },
  };
  return {
    calls,
    async requestImageUpload(body) {
      calls.push(`images ${JSON.stringify(body)}`);
      return target;
    },
    async putFile(url, headers, file) {
      calls.push(`put ${url} ${JSON.stringify(headers)} ${file.size}`);
    },
    async updateProfile(body: UpdateProfileInput) {
      calls.push(`update ${JSON.stringify(body)}`);
      return { _id: 'u1', profilePic: 'https://bucket.example/get?sig' } as SessionUser;
    },
  };
}

describe('picture upload', () => {
  it.each<[ImageKind, string]>([
    ['profile', 'profilePicKey'],
    ['logo', 'logoPicKey'],
  ])('asks for a signed PUT, sends the bytes there, then points the profile at the key (%s)', async (kind, field) => {
    const api = recordingApi();
    const user = await uploadProfileImage(kind, image('image/png', 2048), api);
    expect(api.calls).toEqual([
      `images {"kind":"${kind}","contentType":"image/png","size":2048}`,
      'put https://bucket.example/put {"content-type":"image/png"} 2048',
      `update {"${field}":"profile/u1/abc.png"}`,
    ]);
    expect(user.profilePic).toBe('https://bucket.example/get?sig');
  });

  it('uploads nothing when the file is not an allowed picture', async () => {
    const api = recordingApi();
    await expect(uploadProfileImage('profile', image('image/svg+xml', 10), api)).rejects.toBeInstanceOf(
      ImageRejectedError,
    );
    await expect(uploadProfileImage('logo', image('image/png', IMAGE_MAX_BYTES + 1), api)).rejects.toMatchObject({
      problem: 'size',
    });
    expect(api.calls).toEqual([]);
  });

  it('does not change the profile when the PUT fails', async () => {
    const api = recordingApi();
    api.putFile = async () => {
      throw new Error('403 Forbidden');
    };
    await expect(uploadProfileImage('profile', image('image/png', 10), api)).rejects.toThrow('403 Forbidden');
    expect(api.calls.some((c) => c.startsWith('update'))).toBe(false);
  });

  it('removes a picture with an empty key', () => {
    expect(removeImageBody('profile')).toEqual({ profilePicKey: '' });
    expect(removeImageBody('logo')).toEqual({ logoPicKey: '' });
  });
});

describe('profile form', () => {
  const saved = { fullName: 'Ada Lovelace', greetingName: '', company: 'Analytical Engines' };

  it('sends only what changed, trimmed', () => {
    expect(profileChanges(saved, { ...saved, greetingName: '  Ada ' })).toEqual({
      ok: true,
      changed: true,
      body: { greetingName: 'Ada' },
    });
    expect(profileChanges(saved, { ...saved, company: '' })).toEqual({
      ok: true,
      changed: true,
      body: { company: '' },
    });
    expect(profileChanges(saved, { ...saved, fullName: 'Ada Lovelace ' })).toEqual({
      ok: true,
      changed: false,
      body: {},
    });
  });

  it('requires a full name', () => {
    expect(profileChanges(saved, { ...saved, fullName: '  ' })).toEqual({
      ok: false,
      problems: { fullName: 'fullNameRequired' },
    });
  });

  it('refuses a greeting name longer than the API takes', () => {
    expect(profileChanges(saved, { ...saved, greetingName: 'x'.repeat(101) })).toEqual({
      ok: false,
      problems: { greetingName: 'tooLong' },
    });
  });
});

describe('names on the dashboard', () => {
  it('greets by greeting name, else first name, else the address', () => {
    expect(greetingNameOf({ greetingName: 'Captain', fullName: 'Ada Lovelace', email: 'ada@x.org' })).toBe('Captain');
    expect(greetingNameOf({ greetingName: ' ', fullName: 'Ada Lovelace', email: 'ada@x.org' })).toBe('Ada');
    expect(greetingNameOf({ fullName: '', email: 'ada@x.org' })).toBe('ada');
  });

  it('draws initials from the first and last names, else the email', () => {
    expect(initialsOf({ fullName: 'ada king lovelace', email: 'a@x.org' })).toBe('AL');
    expect(initialsOf({ fullName: 'Ada', email: 'a@x.org' })).toBe('A');
    expect(initialsOf({ fullName: '  ', email: 'zed@x.org' })).toBe('Z');
    expect(initialsOf({ fullName: '王小明', email: 'w@x.org' })).toBe('王');
  });
});
