/**
 * The changelog we own (spec §3 Changelog entry: id, types, created, title, markdownDetails),
 * served by GET /canny/changelog to the dashboard's What's-new panel and the /updates page.
 * English markdown, rendered by the app without raw HTML. Add an entry when something users
 * can see ships; ids are stable (the panel counts entries newer than the user last saw).
 * Newest first; test/unit/functions/changelog.test.ts checks ids, dates, order and markdown.
 */
import type { ChangelogEntry } from '../domain/dashboard-api';

export const CHANGELOG: readonly ChangelogEntry[] = [
  {
    id: 'dashboard-transfers',
    types: ['new'],
    created: '2026-11-25T00:00:00.000Z',
    title: 'Your transfers, who downloaded them, and from where',
    markdownDetails: [
      'The dashboard now shows everything you have sent:',
      '',
      '- **Transfers**: every transfer with its files, size, recipients, expiry and downloads. Filter by active, expired, unseen or expiring soon, and search by file name or recipient.',
      '- **Transfer details**: open a transfer to see each download with its country, time and recipient. Add files, forward it to new people, send the email again, change the expiry or the password, or delete it.',
      '- **Per-recipient tracking**: each recipient gets their own link, so you see who has downloaded and who has not, and can remind those who have not.',
      '- **Notifications**: the bell tells you when someone downloads your files, within seconds and without reloading the page.',
      '- **Analytics**: downloads over time by day, week or month, a map of countries, your top transfers, unique recipients and a CSV export.',
    ].join('\n'),
  },
  {
    id: 'guessing-protection',
    types: ['improved'],
    created: '2026-11-24T18:00:00.000Z',
    title: 'Stronger protection against guessing',
    markdownDetails: [
      'Wrong passwords, verification codes and download passwords now slow down only the device that guesses: it waits a little longer after each batch of wrong tries, while you and your recipients can still sign in and download as usual.',
      '',
      'Sending without an account has a daily allowance, and guests can keep up to 5 GB of files at a time. Create a free account for more room.',
    ].join('\n'),
  },
  {
    id: 'mail-in-your-language',
    types: ['improved'],
    created: '2026-11-24T12:00:00.000Z',
    title: "Emails in each recipient's language",
    markdownDetails:
      'When a recipient has a SendBridge account, the email about your transfer now arrives in the language they chose. Everyone else gets it in yours. Transfer, download and extension emails are available in all eight languages.',
  },
  {
    id: 'faster-pages',
    types: ['improved'],
    created: '2026-11-24T09:00:00.000Z',
    title: 'Faster pages',
    markdownDetails:
      'The home page and the download page load less code on the first visit, and the parts of the app you open next are fetched ahead of time. Recording tools and the upload engine load only when you use them.',
  },
  {
    id: 'accounts',
    types: ['new'],
    created: '2026-11-21T18:00:00.000Z',
    title: 'Accounts and your dashboard',
    markdownDetails: [
      'Create an account in three steps with a code sent to your email, log in, and reset a forgotten password by email.',
      '',
      'Your dashboard shows how much storage you use, lets you send from it with every expiry your plan allows, suggests recipients you have sent to before, and keeps your profile and pictures.',
    ].join('\n'),
  },
  {
    id: 'voice-and-video',
    types: ['new'],
    created: '2026-11-21T16:00:00.000Z',
    title: 'Record a voice memo or a video',
    markdownDetails:
      'Add a voice memo or a short video to a transfer straight from the send form: a three-second countdown, then record, listen back and send it with your files.',
  },
  {
    id: 'extension-requests',
    types: ['new'],
    created: '2026-11-21T14:00:00.000Z',
    title: 'Ask for more time on an expired link',
    markdownDetails:
      'A recipient who arrives too late can ask the sender for more time from the download page. The sender approves with one click in the email, and the link works again for another **48 hours**.',
  },
  {
    id: 'download-passwords',
    types: ['new'],
    created: '2026-11-21T13:00:00.000Z',
    title: 'Password-protected transfers',
    markdownDetails:
      'Set a password when you send, and recipients must enter it before they can see or download the files.',
  },
  {
    id: 'zip-download',
    types: ['new'],
    created: '2026-11-21T12:30:00.000Z',
    title: 'Download everything as one ZIP',
    markdownDetails:
      'Recipients can download each file on its own or all of them at once as a single ZIP, folders included. Large transfers are packed on our side, so the download starts as soon as the ZIP is ready.',
  },
  {
    id: 'resumable-uploads',
    types: ['new'],
    created: '2026-11-21T12:00:00.000Z',
    title: 'Uploads that survive a dropped connection',
    markdownDetails: [
      'Large files are uploaded in parts, several at a time, and each part is retried when the connection drops.',
      '',
      'If you close the tab or your browser crashes, add the same files again within **7 days** and the upload continues where it stopped.',
    ].join('\n'),
  },
  {
    id: 'send-files',
    types: ['new'],
    created: '2026-11-21T11:00:00.000Z',
    title: 'Send large files and folders by email or link',
    markdownDetails:
      'Drag files or whole folders onto the send form, add a message, and send them by email to as many recipients as your plan allows, or get a link to share yourself. Choose how long the transfer stays available and where your files are stored.',
  },
  {
    id: 'not-found',
    types: ['improved'],
    created: '2026-11-21T10:00:00.000Z',
    title: 'Clearer missing pages',
    markdownDetails:
      "Unknown addresses now lead to a page that names the address we couldn't find, and old comparison links lead to the new comparison pages.",
  },
  {
    id: 'languages',
    types: ['new'],
    created: '2026-11-21T09:00:00.000Z',
    title: 'Eight languages',
    markdownDetails:
      'The interface speaks English, 中文, Français, Italiano, Deutsch, Español, 한국어 and 日本語. Pick English or 中文 in the footer; other languages follow your browser.',
  },
  {
    id: 'website',
    types: ['new'],
    created: '2026-11-21T08:00:00.000Z',
    title: 'A new home for SendBridge',
    markdownDetails:
      'The website now has a home page, pricing with the full plan table, product pages, comparisons, support articles and this changelog.',
  },
];
