import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';

/** The way to sign in instead, and the terms and privacy the visitor agrees to. */
export function RegisterFootnotes({ email }: { email: string | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="auth-footnote">
        {t('auth.register.haveAccount')}{' '}
        <Link to={paths.login({ user: email })} data-testid="register-sign-in">
          {t('auth.register.signIn')}
        </Link>
      </p>
      <p className="auth-legal">
        <Trans
          i18nKey="auth.register.legal"
          components={{
            terms: <Link to={paths.support({ article: 'terms' })} />,
            privacy: <Link to={paths.support({ article: 'privacy' })} />,
          }}
        />
      </p>
    </>
  );
}

/** A customer's word beside the form. */
export function RegisterTestimonial() {
  const { t } = useTranslation();
  return (
    <aside className="auth-testimonial" aria-label={t('auth.register.testimonial.label')}>
      <figure>
        <blockquote>{t('auth.register.testimonial.quote')}</blockquote>
        <figcaption>
          <strong>{t('auth.register.testimonial.name')}</strong>
          <span>{t('auth.register.testimonial.role')}</span>
        </figcaption>
      </figure>
    </aside>
  );
}
