import { useTranslation } from 'react-i18next';

/** The simulator's test cards, since nothing real is charged. */
export function TestCardsHint() {
  const { t } = useTranslation('billing');
  return (
    <aside className="bl-test-cards" aria-labelledby="bl-test-cards-title" data-testid="test-cards">
      <h3 id="bl-test-cards-title">{t('card.testCards.title')}</h3>
      <p>{t('card.testCards.body')}</p>
      <ul>
        <li>
          <code>4242 4242 4242 4242</code> {t('card.testCards.succeeds')}
        </li>
        <li>
          <code>4000 0000 0000 0002</code> {t('card.testCards.declined')}
        </li>
        <li>
          <code>4000 0000 0000 0341</code> {t('card.testCards.laterFails')}
        </li>
      </ul>
    </aside>
  );
}
