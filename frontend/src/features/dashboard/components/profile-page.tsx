import { useTranslation } from 'react-i18next';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { ImageField } from './image-field';
import { ProfileDetails } from './profile-details';

/** Profile (spec §2 /dash/account/profile, §3 User): names, company, picture and company logo. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { user, setUser } = useSession();
  usePageTitle(t('dashboard.profile.title'));
  if (!user) return <PageLoading />;
  return (
    <div className="container dash-page">
      <h1>{t('dashboard.profile.title')}</h1>
      <p className="lead">{t('dashboard.profile.lead')}</p>
      <div className="dash-profile-grid">
        <ProfileDetails key={user._id} user={user} onSaved={setUser} />
        <section className="card" aria-labelledby="dash-pictures-title">
          <h2 id="dash-pictures-title">{t('dashboard.profile.picturesTitle')}</h2>
          <ImageField kind="profile" user={user} onSaved={setUser} />
          <ImageField kind="logo" user={user} onSaved={setUser} />
        </section>
      </div>
    </div>
  );
}
