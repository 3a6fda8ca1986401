/**
 * Approval webhooks: approvals with a role step are announced to
 * `TOOLGATE_APPROVAL_WEBHOOK_URL`, signed with `TOOLGATE_WEBHOOK_SECRET`, from an outbox
 * table that every instance's delivery loop drains.
 */
export { type ApprovalEvent, type ApprovalEventBody, approvalEventTypes } from './approval-event';
export { enqueueApprovalEvent } from './enqueue-approval-event';
export { signWebhookBody } from './sign-webhook-body';
export {
  hasWebhookDelivery,
  listWebhookDeliveries,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from './webhook-deliveries';
