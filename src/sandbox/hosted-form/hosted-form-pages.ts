/** HTML of the sandbox's hosted payment form (the spec's first binding flow). */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}
.banner{background:#fff3cd;border:1px solid #e0c46c;padding:.6rem .8rem;border-radius:6px;font-size:.9rem}
label{display:block;margin:.8rem 0 .2rem}input[type=text],input[type=password]{width:100%;padding:.45rem;box-sizing:border-box}
button{margin-top:1rem;padding:.55rem 1.2rem}.error{color:#a00}.ok{color:#060}
</style>
</head>
<body>
<p class="banner"><strong>PROVIDER SANDBOX</strong>: a simulator. No card is charged and no real money moves.</p>
${body}
</body>
</html>
`;
}

export function formPage(customerID: string, customerAccessToken: string, error?: string): string {
  return page(
    'Bind a card',
    `<h1>Bind a card for recurring charges</h1>
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/sandbox/hosted-form" autocomplete="off">
<input type="hidden" name="customerID" value="${escapeHtml(customerID)}">
<input type="hidden" name="customerAccessToken" value="${escapeHtml(customerAccessToken)}">
<label for="cardNumber">Card number</label><input type="text" id="cardNumber" name="cardNumber" inputmode="numeric" placeholder="4242 4242 4242 4242" required>
<label for="expDate">Expiry (MM/YY)</label><input type="text" id="expDate" name="expDate" placeholder="12/30" required>
<label for="cvv">CVV</label><input type="password" id="cvv" name="cvv" inputmode="numeric" placeholder="123" required>
<label for="cardHolder">Card holder</label><input type="text" id="cardHolder" name="cardHolder" placeholder="JOHN DOE">
<label><input type="checkbox" name="consent" value="yes" required> I agree that this card is charged for recurring payments without my further action, and to a small test charge that is refunded at once.</label>
<button type="submit">Bind card</button>
</form>`,
  );
}

export function resultPage(outcome: 'succeeded' | 'failed' | 'pending', details: { bindingID: string; lastDigits: string; message?: string }): string {
  const headline = {
    succeeded: `<p class="ok">The card ending ${escapeHtml(details.lastDigits)} is bound. Recurring charges are now allowed.</p>`,
    failed: `<p class="error">The card ending ${escapeHtml(details.lastDigits)} could not be bound: ${escapeHtml(details.message ?? 'declined')}.</p>`,
    pending: `<p>The binding of the card ending ${escapeHtml(details.lastDigits)} is still being processed; the merchant learns the result from the customer's events.</p>`,
  }[outcome];
  return page('Card binding', `<h1>Card binding</h1>\n${headline}\n<p>Binding <code>${escapeHtml(details.bindingID)}</code>: ${outcome}.</p>`);
}

export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p class="error">${escapeHtml(message)}</p>`);
}
