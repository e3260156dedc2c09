import type { i18n as I18n } from 'i18next';
import { createRef } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { OptionsPanel, type OptionTab } from '@/features/send/components/options-panel';
import { GUEST, initialForm, type SendForm, type SenderContext } from '@/shared/send-form/send-state';
import { createTestI18n, renderHtml } from '../../../helpers/render-html';

// Where the send form offers "verified recipients": the Sharing tab for every sender (a guest's
// email send included), the Link tab for signed-in senders (guests cannot send links).
let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});

const PRO: SenderContext = { role: 'pro', signedIn: true, email: 'pro@example.com' };

function panel(tab: OptionTab, sender: SenderContext, form: SendForm = initialForm()) {
  return renderHtml(
    i18n,
    <MemoryRouter>
      <OptionsPanel
        id="options"
        form={form}
        sender={sender}
        members={null}
        tab={tab}
        now={Date.UTC(2026, 10, 28)}
        problems={{}}
        fieldRefs={{ sendAs: createRef(), expiry: createRef(), password: createRef(), e2e: createRef() }}
        onTab={() => undefined}
        onChange={() => undefined}
      />
    </MemoryRouter>,
  );
}

describe('"verified recipients" in the send form\'s options', () => {
  it("is in the Sharing tab for a guest's send and a signed-in sender's", () => {
    for (const sender of [GUEST, PRO]) {
      const view = panel('sharing', sender);
      expect(view.has('send-verified'), sender.role).toBe(true);
      expect(view.text()).toContain('Only verified recipients can download');
    }
  });

  it('is in the Link tab for a signed-in sender, and not for a guest, who cannot send links', () => {
    expect(panel('link', PRO).has('send-verified')).toBe(true);
    expect(panel('link', GUEST).has('send-verified')).toBe(false);
  });

  it('is in neither the Expiry nor the Password tab', () => {
    expect(panel('expiry', PRO).has('send-verified')).toBe(false);
    expect(panel('password', PRO).has('send-verified')).toBe(false);
  });

  it('asks a link send for addresses or a domain, and an email send for more addresses, once ticked', () => {
    const link = panel('link', PRO, { ...initialForm(), sendAs: 'link', verified: true });
    expect(link.has('send-verified-allow')).toBe(true);
    expect(link.attr('send-verified', 'checked')).toBe('');
    const email = panel('sharing', GUEST, { ...initialForm(), sendAs: 'email', verified: true });
    expect(email.has('send-verified-allow')).toBe(true);
    expect(link.text()).toContain('Who may download (addresses or @domain)');
    expect(email.text()).toContain('Also allow (addresses or @domain, optional)');
    expect(panel('sharing', GUEST).has('send-verified-allow')).toBe(false);
  });
});
