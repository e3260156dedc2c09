import { useId, useRef, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { e2eModeOf, type SendForm, type SenderContext, type TeamMemberOption } from '@/shared/send-form/send-state';
import { E2eOption } from './e2e-option';
import { ExpiryTab } from './expiry-tab';
import { LinkTab, PasswordTab } from './option-tabs';
import { SharingTab } from './sharing-tab';
import { ReviewOption, VerifiedOption } from './verified-option';

export const OPTION_TABS = ['link', 'sharing', 'expiry', 'password'] as const;
export type OptionTab = (typeof OPTION_TABS)[number];

interface OptionsPanelProps {
  readonly id: string;
  readonly form: SendForm;
  readonly sender: SenderContext;
  /** team members other than the sender, or null when it's just them */
  readonly members: readonly TeamMemberOption[] | null;
  readonly tab: OptionTab;
  readonly now: number;
  /** translated problems, by option */
  readonly problems: {
    readonly sendAs?: string;
    readonly expiry?: string;
    readonly password?: string;
    readonly e2e?: string;
  };
  readonly fieldRefs: {
    readonly sendAs: RefObject<HTMLDivElement | null>;
    readonly expiry: RefObject<HTMLDivElement | null>;
    readonly password: RefObject<HTMLDivElement | null>;
    readonly e2e: RefObject<HTMLDivElement | null>;
  };
  onTab(tab: OptionTab): void;
  onChange(update: (form: SendForm) => SendForm): void;
}

/** The cog panel (spec §2): Link, Sharing, Expiry and Password tabs. */
export function OptionsPanel({
  id,
  form,
  sender,
  members,
  tab,
  now,
  problems,
  fieldRefs,
  onTab,
  onChange,
}: OptionsPanelProps) {
  const { t } = useTranslation();
  const base = useId();
  const tabRefs = useRef<Partial<Record<OptionTab, HTMLButtonElement | null>>>({});

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = OPTION_TABS.indexOf(tab);
    const move = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: OPTION_TABS.length - 1 - index }[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const next = OPTION_TABS[(index + move + OPTION_TABS.length) % OPTION_TABS.length]!;
    onTab(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div id={id} className="qs-options">
      <div role="tablist" aria-label={t('send.form.options')} className="qs-tabs">
        {OPTION_TABS.map((name) => (
          <button
            key={name}
            ref={(el) => {
              tabRefs.current[name] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${base}-panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            className="qs-tab"
            onClick={() => onTab(name)}
            onKeyDown={onTabKey}
          >
            {t(`send.tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel-${tab}`} aria-labelledby={`${base}-tab-${tab}`} className="qs-tabpanel">
        {tab === 'link' && (
          <LinkTab
            form={form}
            sender={sender}
            problem={problems.sendAs}
            fieldRef={fieldRefs.sendAs}
            onChange={onChange}
          />
        )}
        {tab === 'sharing' && <SharingTab form={form} members={members} onChange={onChange} />}
        {(tab === 'sharing' || (tab === 'link' && sender.signedIn)) && (
          <VerifiedOption form={form} onChange={onChange} />
        )}
        {tab === 'link' && sender.signedIn && <ReviewOption form={form} onChange={onChange} />}
        {(tab === 'link' || tab === 'sharing') && (
          <E2eOption form={form} sender={sender} problem={problems.e2e} fieldRef={fieldRefs.e2e} onChange={onChange} />
        )}
        {tab === 'expiry' && (
          <ExpiryTab
            form={form}
            sender={sender}
            now={now}
            problem={problems.expiry}
            fieldRef={fieldRefs.expiry}
            onChange={onChange}
          />
        )}
        {tab === 'password' && (
          <PasswordTab
            form={form}
            encrypted={e2eModeOf(form, sender) !== null}
            problem={problems.password}
            fieldRef={fieldRefs.password}
            onChange={onChange}
          />
        )}
      </div>
    </div>
  );
}
