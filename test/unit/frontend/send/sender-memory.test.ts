import { describe, expect, it } from 'vitest';
import {
  SENDER_EMAIL_KEY,
  SEND_TIMES_KEY,
  rememberGuestSend,
  rememberedSenderEmail,
  sendTimes,
} from '@/features/send/sender-memory';

class MemoryStorage implements Storage {
  private readonly map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

describe("a guest sender's local memory", () => {
  it('counts sends and remembers the sender email for the next visit', () => {
    const storage = new MemoryStorage();
    expect(sendTimes(storage)).toBe(0);
    expect(rememberedSenderEmail(storage)).toBe('');
    rememberGuestSend(' Me@Corp.com ', storage);
    rememberGuestSend('me@corp.com', storage);
    expect(storage.getItem(SEND_TIMES_KEY)).toBe('2');
    expect(sendTimes(storage)).toBe(2);
    expect(rememberedSenderEmail(storage)).toBe('me@corp.com');
  });

  it('reads a damaged counter as zero and ignores a stored value that is not an email', () => {
    const storage = new MemoryStorage();
    storage.setItem(SEND_TIMES_KEY, 'lots');
    storage.setItem(SENDER_EMAIL_KEY, '<script>');
    expect(sendTimes(storage)).toBe(0);
    expect(rememberedSenderEmail(storage)).toBe('');
    rememberGuestSend('not an email', storage);
    expect(sendTimes(storage)).toBe(1);
    expect(storage.getItem(SENDER_EMAIL_KEY)).toBe('<script>');
  });

  it('never fails the send when storage refuses to work', () => {
    const broken = new MemoryStorage();
    broken.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    broken.getItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    expect(() => rememberGuestSend('me@corp.com', broken)).not.toThrow();
    expect(sendTimes(broken)).toBe(0);
    expect(rememberedSenderEmail(null)).toBe('');
  });
});
