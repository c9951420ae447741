// The subscriber list of /admin/subscribers (issue 30): what the screen and the server both read. Browser-safe.

export const SUBSCRIBER_STATES = ["pending", "active", "unsubscribed", "bounced", "complained"] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];
export const SUBSCRIBER_STATE_LABELS: Record<SubscriberState, string> = {
  pending: "Pending",
  active: "Active",
  unsubscribed: "Unsubscribed",
  bounced: "Bounced",
  complained: "Complained",
};
export const SUBSCRIBERS_PAGE_SIZE = 50;
export const CONSENT_REQUIRED = "Tick “These people agreed to receive it”: only people who agreed may be imported.";

export const isSubscriberState = (value: string): value is SubscriberState => (SUBSCRIBER_STATES as readonly string[]).includes(value);
