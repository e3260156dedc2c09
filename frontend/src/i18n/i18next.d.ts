import 'i18next';
import type en from '@/i18n/locales/en.json';
import type insights from '@/i18n/locales/insights/en.json';
import type requests from '@/i18n/locales/requests/en.json';
import type transfers from '@/i18n/locales/transfers/en.json';
import type contacts from '@/i18n/locales/contacts/en.json';
import type settings from '@/i18n/locales/settings/en.json';
import type billing from '@/i18n/locales/billing/en.json';
import type send from '@/i18n/locales/send/en.json';
import type account from '@/i18n/locales/account/en.json';
import type pages from '@/i18n/locales/pages/en.json';
import type teams from '@/i18n/locales/teams/en.json';
import type domains from '@/i18n/locales/domains/en.json';
import type branding from '@/i18n/locales/branding/en.json';
import type previews from '@/i18n/locales/previews/en.json';
import type sealed from '@/i18n/locales/sealed/en.json';
import type marketing from '@/i18n/locales/marketing/en.json';
import type webhooks from '@/i18n/locales/webhooks/en.json';
import type api from '@/i18n/locales/api/en.json';
import type abuse from '@/i18n/locales/abuse/en.json';
import type live from '@/i18n/locales/live/en.json';
import type access from '@/i18n/locales/access/en.json';
import type reviewer from '@/i18n/locales/reviewer/en.json';
import type senderReview from '@/i18n/locales/sender-review/en.json';

// Keys are typed from en.json, the source of truth (conventions 13).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // the sections of the catalogue that load with their screens (namespaces.ts SECTION_NAMESPACES)
    fallbackNS: ['send', 'account', 'pages'];
    resources: {
      translation: typeof en;
      transfers: typeof transfers;
      insights: typeof insights;
      contacts: typeof contacts;
      requests: typeof requests;
      settings: typeof settings;
      billing: typeof billing;
      send: typeof send;
      account: typeof account;
      pages: typeof pages;
      teams: typeof teams;
      domains: typeof domains;
      branding: typeof branding;
      previews: typeof previews;
      // end-to-end encrypted transfers on the download page: bundled with their own chunk (features/downloads/sealed)
      sealed: typeof sealed;
      marketing: typeof marketing;
      webhooks: typeof webhooks;
      api: typeof api;
      abuse: typeof abuse;
      live: typeof live;
      access: typeof access;
      reviewer: typeof reviewer;
      'sender-review': typeof senderReview;
    };
  }
}
