export { nudgeWebhook, recordWebhook, type WebhookAttempt, webhookDeliveryView } from './webhook-deliveries.js';
export { readWebhookSecret, rotateWebhookSecret } from './webhook-secrets.js';
