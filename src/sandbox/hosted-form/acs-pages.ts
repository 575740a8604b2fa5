/** HTML of the sandbox's stand-in for a card issuer's 3-D Secure page (the ACS). */
import { errorPage, escapeHtml, page } from './hosted-form-pages';

/** The check itself: a pre-filled one-time password and a Confirm button, as the test bank's ACS shows them. */
export function acsPage(details: { bindingID: string; secret: string; lastDigits: string; paymentSystem: string }): string {
  return page(
    '3-D Secure',
    `<h1>3-D Secure check</h1>
<p>Your card issuer asks you to confirm that the ${escapeHtml(details.paymentSystem)} card ending ${escapeHtml(details.lastDigits)} may be bound for recurring charges.</p>
<form method="post" action="/sandbox/acs/confirm" autocomplete="off">
<input type="hidden" name="MD" value="${escapeHtml(details.bindingID)}">
<input type="hidden" name="PaReq" value="${escapeHtml(details.secret)}">
<label for="password">One-time password (any value works in the sandbox)</label><input type="password" id="password" name="password" value="****">
<button type="submit">Confirm</button>
</form>`,
  );
}

/** A 3-D Secure timeout card: the payer confirmed, the issuer never answers, and the binding fails when the wait ends. */
export function issuerSilentPage(): string {
  return page(
    '3-D Secure',
    `<h1>3-D Secure check</h1>
<p class="error">The card issuer does not answer. The binding fails once the provider stops waiting for the check.</p>`,
  );
}

export function noCheckPage(): string {
  return errorPage('No 3-D Secure check', 'No 3-D Secure check waits for this link: it was finished, it timed out, or the link is not complete.');
}
