import type { Browser } from 'playwright-core';

/** A short WebM recorded by Chromium itself (a tone, or a moving square), so Chromium can play it back; `ms` long. */
export async function recordWebm(browser: Browser, kind: 'audio' | 'video', ms = 1500): Promise<Buffer> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const base64 = await page.evaluate(
    async ([k, length]) => {
      let stream: MediaStream;
      let stop = () => undefined as void;
      if (k === 'audio') {
        const audio = new AudioContext();
        const tone = audio.createOscillator();
        const out = audio.createMediaStreamDestination();
        tone.connect(out);
        tone.start();
        stream = out.stream;
        stop = () => void audio.close();
      } else {
        const canvas = document.createElement('canvas');
        canvas.width = 160;
        canvas.height = 120;
        const g = canvas.getContext('2d')!;
        let x = 0;
        const timer = setInterval(() => {
          g.fillStyle = '#123';
          g.fillRect(0, 0, 160, 120);
          g.fillStyle = '#fc0';
          g.fillRect((x += 8) % 160, 40, 40, 40);
        }, 40);
        stream = canvas.captureStream(25);
        stop = () => clearInterval(timer);
      }
      const recorder = new MediaRecorder(stream, { mimeType: k === 'audio' ? 'audio/webm' : 'video/webm' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const done = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
      recorder.start();
      await new Promise((r) => setTimeout(r, length));
      recorder.stop();
      await done;
      stop();
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let text = '';
      for (const b of bytes) text += String.fromCharCode(b);
      return btoa(text);
    },
    [kind, ms] as const,
  );
  await context.close();
  return Buffer.from(base64, 'base64');
}
