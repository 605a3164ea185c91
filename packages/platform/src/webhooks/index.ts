export { startWebhookDeliverer } from './webhook-deliverer.js';
export { nudgeWebhook, recordWebhook, type WebhookAttempt, webhookDeliveryView } from './webhook-deliveries.js';
export { readWebhookSecret, rotateWebhookSecret } from './webhook-secrets.js';
export { signWebhook, type VerifyWebhookOptions, verifyWebhookSignature, webhookSignatureHeader } from './webhook-signature.js';
