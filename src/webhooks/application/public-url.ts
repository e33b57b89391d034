/**
 * The webhook URL rules as one check for any URL a tenant gives the platform to call (a webhook
 * endpoint, an agent's tool): https and a public address, both lifted by WEBHOOK_ALLOW_PRIVATE_URLS.
 * Other contexts use it through src/webhooks/index.ts, so that every such URL follows the same rules.
 */
import { ApiError } from '../../kernel/http/api-error';
import { resolvePublicAddress, validateWebhookUrl, withPrivateUrlHint } from '../infra/address-policy';

export interface PublicUrlCheck {
  /** WEBHOOK_ALLOW_PRIVATE_URLS (webhooksSettings.allowPrivateUrls). */
  allowPrivate: boolean;
  /** The request field the URL came from, named by a refusal (`url`, `agent_config.tools[0].url`). */
  param: string;
  /** Where the precise reason of a refused name goes (the server log only). */
  log: (reason: string) => void;
}

/**
 * The URL, normalised, or a 400 naming `param`. A refusal that WEBHOOK_ALLOW_PRIVATE_URLS=true would
 * lift says so. One message whether the name does not resolve or resolves to a private address (the
 * difference would let a tenant probe internal names); the reason goes to the log only.
 */
export async function ensurePublicUrl(raw: string, check: PublicUrlCheck): Promise<string> {
  const refuse = (message: string) =>
    ApiError.invalid(withPrivateUrlHint(message.replace(/^url\b/, check.param), raw), check.param);
  const valid = validateWebhookUrl(raw, { allowPrivate: check.allowPrivate });
  if (!valid.ok) throw refuse(valid.message);
  if (!check.allowPrivate) {
    const resolved = await resolvePublicAddress(valid.url.hostname, { allowPrivate: false, log: check.log });
    if (!resolved.ok) throw refuse(resolved.message);
  }
  return valid.url.toString();
}
