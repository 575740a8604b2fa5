import i18next from 'i18next';
import { ApiErrorFields, describeApiError } from '../../console/src/api/error-message';
import en from '../../console/src/i18n/en.json';
import ru from '../../console/src/i18n/ru.json';
import { ERROR_CODE_NAMES } from '../../src/common/errors/error-codes';

/** An error as unwrap() makes it (a plain object: the class itself lives in the browser-only client). */
const apiError = (status: number, code: string, message: string, field?: string, details: Record<string, unknown> = {}): ApiErrorFields => ({ status, code, message, field, details });

/** The console speaks from the API's stable error codes, in both its languages; it never shows a raw key. */
describe("the console's API error messages", () => {
  const i18n = i18next.createInstance();
  beforeAll(() => i18n.init({ resources: { en: { translation: en }, ru: { translation: ru } }, lng: 'ru', fallbackLng: false, initAsync: false, interpolation: { escapeValue: false } }));
  const describe_ = (error: ApiErrorFields, lng: 'en' | 'ru') => {
    const t = i18n.getFixedT(lng);
    return describeApiError(error, t, (key) => i18n.exists(key, { lng }));
  };

  it('has a message in English and Russian for every code the API can answer', () => {
    const missing = ERROR_CODE_NAMES.flatMap((code) => (['en', 'ru'] as const).filter((lng) => !i18n.exists(`apiError.${code}`, { lng })).map((lng) => `${lng}: ${code}`));
    expect(missing).toEqual([]);
  });

  it('says a 409 and a 422 with its field in Russian, the field in the form’s words', () => {
    expect(describe_(apiError(409, 'charge_already_paid', 'Charge x is paid: there is nothing to recover'), 'ru')).toEqual({ message: 'Списание уже оплачено: взыскивать нечего.', field: null, translated: true });
    expect(describe_(apiError(400, 'validation_failed', 'lines.0.price must not be less than 1', 'lines.0.price'), 'ru').message).toBe('Поле «Цена» заполнено неверно: проверьте его и отправьте снова.');
    expect(describe_(apiError(400, 'validation_failed', 'colour is not allowed', 'colour'), 'en').message).toBe('colour is not valid: check it and send again.');
    expect(describe_(apiError(400, 'validation_failed', 'bad'), 'en').message).toBe('Something in the request is not valid: check what was entered.');
    expect(describe_(apiError(403, 'insufficient_scope', 'lacks plans:write', undefined, { scope: 'plans:write' }), 'ru').message).toBe('У этого ключа нет права plans:write, нужного для этого действия.');
    expect(describe_(apiError(503, 'outcome_unknown', 'lost'), 'ru').message).toMatch(/^Связь потеряна/);
  });

  it("falls back to the daemon's own message for a code it does not know", () => {
    expect(describe_(apiError(409, 'brand_new_code', 'Something new happened'), 'ru')).toEqual({ message: 'Something new happened', field: null, translated: false });
  });
});
