import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

// A local stand-in for Stripe's API (issue 40): tests point the site's SDK at it with STRIPE_API_BASE,
// so no test reaches api.stripe.com. It answers the calls the site makes as Stripe's API does
// (form-encoded bodies with bracketed keys, Stripe's object shapes and id prefixes, errors as Stripe's
// JSON error objects, Bearer secret keys), keeps its state in memory, and serves the pages behind the
// `url`s it returns: Checkout (a "Pay" button) and the Customer Portal ("Cancel subscription").
// Paying creates the customer's subscription and a paid invoice, then POSTs the events Stripe would
// send to the site's webhook, signed with the SDK's own stripe.webhooks.generateTestHeaderString.
//
// In a test:     const stripe = await startStripeStandIn({ webhook: "http://127.0.0.1:3000/api/stripe/webhook" });
//                …STRIPE_API_BASE = stripe.url, STRIPE_SECRET_KEY = stripe.apiKey, STRIPE_WEBHOOK_SECRET = stripe.webhookSecret
//                await stripe.setSubscriptionStatus(subscriptionId, "past_due"); await stripe.replay(eventId); await stripe.stop();
// In a process:  node --import tsx tests/support/stripe-stand-in.ts --port 12111 --webhook-url http://localhost:3000/api/stripe/webhook
//                [--webhook-secret whsec_…]; it prints "listening <url>" and answers the control calls under
//                /_stand-in/ (see `controlRoute` below) for a test in another process.

export type Json = Record<string, unknown>;
type Params = Record<string, unknown>;

export interface Delivery {
  eventId: string;
  type: string;
  status: number;
}

export interface StandInOptions {
  /** Where events go: the site's webhook URL, or a function given the body and its Stripe-Signature header (answers a status). */
  webhook?: string | ((body: string, signature: string) => Promise<number>);
  webhookSecret?: string;
  apiKey?: string;
  port?: number;
  host?: string;
}

export type Signature = "valid" | "forged" | "stale" | "none";

export interface StripeStandIn {
  /** http://127.0.0.1:<port>: STRIPE_API_BASE. */
  url: string;
  /** A key it accepts (any sk_/rk_ key is accepted): STRIPE_SECRET_KEY. */
  apiKey: string;
  /** What events are signed with: STRIPE_WEBHOOK_SECRET. */
  webhookSecret: string;
  /** Where events are sent (may be set after start, once the site's port is known). */
  webhook: StandInOptions["webhook"] | null;
  products: Map<string, Json>;
  prices: Map<string, Json>;
  customers: Map<string, Json>;
  subscriptions: Map<string, Json>;
  sessions: Map<string, Json>;
  invoices: Map<string, Json>;
  /** Every event made, oldest first. */
  events: Json[];
  /** Every delivery attempt and the site's answer. */
  deliveries: Delivery[];
  /** Every API call: method, path and its parsed parameters. */
  requests: { method: string; path: string; params: Params }[];
  /** The next call whose method and path match is refused with Stripe's error object (once). */
  failNext(method: string, pathPrefix: string, error?: { status?: number; message?: string; type?: string; code?: string }): void;
  /** What "Pay" does on the Checkout page: the subscription, its invoice and the events, sent unless `deliver` is false. */
  completeCheckout(sessionId: string, options?: { deliver?: boolean }): Promise<{ subscription: Json; events: Json[] }>;
  /** Moves a subscription as Stripe would (a failed renewal: past_due; canceled: ended now) and sends the matching events. */
  setSubscriptionStatus(subscriptionId: string, status: "active" | "past_due" | "unpaid" | "canceled", options?: { deliver?: boolean }): Promise<Json[]>;
  /** Changes a subscription's fields (cancel_at_period_end…) and sends customer.subscription.updated. */
  updateSubscription(subscriptionId: string, changes: Json, options?: { deliver?: boolean }): Promise<Json[]>;
  /** A renewal: the next period, a paid invoice (billing_reason subscription_cycle), invoice.paid and customer.subscription.updated. */
  renew(subscriptionId: string, options?: { deliver?: boolean }): Promise<Json[]>;
  /** Sends an event (again), signed as asked: the site's answer status. */
  send(event: Json, options?: { signature?: Signature }): Promise<number>;
  /** Sends a stored event again, exactly as before (Stripe's retries and `stripe events resend`). */
  replay(eventId: string): Promise<number>;
  /** The subscription a Checkout session made, once paid. */
  subscriptionOfSession(sessionId: string): Json | null;
  stop(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
const now = () => Math.floor(Date.now() / 1000);
const DAY = 24 * 60 * 60;
const periodSeconds = (interval: string) => (interval === "year" ? 365 * DAY : 30 * DAY);

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
    readonly param?: string,
    readonly code?: string,
  ) {
    super(message);
  }
  toJSON() {
    return { error: { type: this.type, message: this.message, ...(this.param ? { param: this.param } : {}), ...(this.code ? { code: this.code } : {}) } };
  }
}

const missing = (kind: string, value: string, param = "id") => new StripeApiError(404, `No such ${kind}: '${value}'`, "invalid_request_error", param, "resource_missing");
const required = (param: string) => new StripeApiError(400, `Missing required param: ${param}.`, "invalid_request_error", param, "parameter_missing");

/** `a[b][0][c]=v` pairs (the SDK's encoding) as nested objects and arrays. */
export function parseStripeForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const name = part === "" ? String(Object.keys(node).length) : part;
      if (i === parts.length - 1) node[name] = value;
      else node = (node[name] ??= {}) as Record<string, unknown>;
    });
  }
  return arraysOf(root) as Params;
}

function arraysOf(value: unknown): unknown {
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, arraysOf(v)] as const);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  return Object.fromEntries(entries);
}

const str = (params: Params, name: string): string | undefined => (typeof params[name] === "string" ? (params[name] as string) : undefined);
const obj = (params: Params, name: string): Params => (params[name] && typeof params[name] === "object" ? (params[name] as Params) : {});
const bool = (value: unknown) => value === "true" || value === true;

function list(url: string, data: Json[]): Json {
  return { object: "list", data, has_more: false, url };
}

const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#635bff;color:#fff;cursor:pointer}a{color:#635bff}</style>
</head><body><p><small>Stripe stand-in (tests)</small></p>${body}</body></html>`;
}

export async function startStripeStandIn(options: StandInOptions = {}): Promise<StripeStandIn> {
  const signer = new Stripe("sk_test_stand_in");
  const products = new Map<string, Json>();
  const prices = new Map<string, Json>();
  const customers = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  const portalSessions = new Map<string, Json>();
  const events: Json[] = [];
  const deliveries: Delivery[] = [];
  const requests: StripeStandIn["requests"] = [];
  const failures: { method: string; pathPrefix: string; error: StripeApiError }[] = [];
  let baseUrl = "";

  const standIn = {} as StripeStandIn;

  function priceOf(priceId: string): Json {
    const price = prices.get(priceId);
    if (!price) throw missing("price", priceId, "price");
    return price;
  }

  function event(type: string, object: Json, previous?: Json): Json {
    const made: Json = {
      id: id("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: now(),
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    events.push(made);
    return made;
  }

  async function send(made: Json, sendOptions: { signature?: Signature } = {}): Promise<number> {
    const target = standIn.webhook;
    if (!target) throw new Error("stripe stand-in: no webhook to send events to (set standIn.webhook)");
    const body = JSON.stringify(made, null, 2);
    const signature = sendOptions.signature ?? "valid";
    const header =
      signature === "none"
        ? ""
        : signer.webhooks.generateTestHeaderString({
            payload: body,
            secret: signature === "forged" ? "whsec_forged_by_someone_else" : standIn.webhookSecret,
            // Stripe's tolerance is 300 s: an hour old is stale.
            ...(signature === "stale" ? { timestamp: now() - 3600 } : {}),
          });
    let status: number;
    if (typeof target === "function") status = await target(body, header);
    else {
      const response = await fetch(target, { method: "POST", headers: { "content-type": "application/json; charset=utf-8", ...(header ? { "stripe-signature": header } : {}) }, body });
      await response.arrayBuffer();
      status = response.status;
    }
    deliveries.push({ eventId: String(made.id), type: String(made.type), status });
    return status;
  }

  async function sendAll(made: Json[], deliver = true): Promise<Json[]> {
    if (deliver) for (const e of made) await send(e);
    return made;
  }

  function invoiceFor(subscription: Json, amount: number, status: "paid" | "open", billingReason: string): Json {
    const created = now();
    const invoice: Json = {
      id: id("in"),
      object: "invoice",
      customer: subscription.customer,
      currency: subscription.currency,
      amount_due: amount,
      amount_paid: status === "paid" ? amount : 0,
      amount_remaining: status === "paid" ? 0 : amount,
      attempt_count: status === "paid" ? 1 : 1,
      billing_reason: billingReason,
      status,
      created,
      hosted_invoice_url: `${baseUrl}/invoice/${created}`,
      parent: { type: "subscription_details", quote_details: null, subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
      status_transitions: { finalized_at: created, paid_at: status === "paid" ? created : null },
      livemode: false,
    };
    invoices.set(String(invoice.id), invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  function itemOf(subscription: Json): Json {
    return ((subscription.items as Json).data as Json[])[0]!;
  }

  function createSubscription(customer: string, priceId: string, trialDays: number, metadata: Json): Json {
    const price = priceOf(priceId);
    const start = now();
    const trialEnd = trialDays > 0 ? start + trialDays * DAY : null;
    const periodEnd = trialEnd ?? start + periodSeconds(String((price.recurring as Json).interval));
    const subscriptionId = id("sub");
    const subscription: Json = {
      id: subscriptionId,
      object: "subscription",
      customer,
      currency: price.currency,
      status: trialEnd ? "trialing" : "active",
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: start,
      start_date: start,
      trial_start: trialEnd ? start : null,
      trial_end: trialEnd,
      metadata,
      latest_invoice: null,
      livemode: false,
      items: list(`/v1/subscription_items?subscription=${subscriptionId}`, [
        { id: id("si"), object: "subscription_item", price: structuredClone(price), quantity: 1, subscription: subscriptionId, current_period_start: start, current_period_end: periodEnd, created: start },
      ]),
    };
    subscriptions.set(subscriptionId, subscription);
    return subscription;
  }

  async function completeCheckout(sessionId: string, completeOptions: { deliver?: boolean } = {}) {
    const session = sessions.get(sessionId);
    if (!session) throw missing("checkout.session", sessionId);
    if (session.status !== "open") throw new StripeApiError(400, `This Checkout Session is ${String(session.status)}.`);
    const lineItems = session._line_items as { price: string }[];
    const subscriptionData = (session._subscription_data ?? {}) as Params;
    let customer = session.customer as string | null;
    if (!customer) {
      customer = id("cus");
      customers.set(customer, { id: customer, object: "customer", email: session.customer_email ?? null, name: null, metadata: {}, created: now(), livemode: false });
      session.customer = customer;
    }
    const trialDays = Number(subscriptionData.trial_period_days ?? 0);
    const subscription = createSubscription(customer, lineItems[0]!.price, trialDays, (subscriptionData.metadata ?? {}) as Json);
    const price = priceOf(lineItems[0]!.price);
    const invoice = invoiceFor(subscription, trialDays > 0 ? 0 : Number(price.unit_amount), "paid", "subscription_create");
    Object.assign(session, { status: "complete", payment_status: trialDays > 0 ? "no_payment_required" : "paid", subscription: subscription.id, url: null });
    const made = [event("customer.subscription.created", subscription), event("invoice.paid", invoice), event("checkout.session.completed", session)];
    await sendAll(made, completeOptions.deliver ?? true);
    return { subscription, events: made };
  }

  async function cancelNow(subscription: Json, deliver = true): Promise<Json[]> {
    const previous = { status: subscription.status };
    Object.assign(subscription, { status: "canceled", canceled_at: now(), ended_at: now(), cancel_at_period_end: false });
    return sendAll([event("customer.subscription.deleted", subscription, previous)], deliver);
  }

  async function setSubscriptionStatus(subscriptionId: string, status: "active" | "past_due" | "unpaid" | "canceled", statusOptions: { deliver?: boolean } = {}) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw missing("subscription", subscriptionId);
    const deliver = statusOptions.deliver ?? true;
    if (status === "canceled") return cancelNow(subscription, deliver);
    const previous = { status: subscription.status };
    const amount = Number((itemOf(subscription).price as Json).unit_amount);
    const made: Json[] = [];
    if (status === "past_due") {
      const invoice = invoiceFor(subscription, amount, "open", "subscription_cycle");
      subscription.status = status;
      made.push(event("invoice.payment_failed", invoice));
    } else if (status === "active" && subscription.status !== "active") {
      const invoice = invoiceFor(subscription, amount, "paid", "subscription_cycle");
      subscription.status = status;
      made.push(event("invoice.paid", invoice));
    } else subscription.status = status;
    made.push(event("customer.subscription.updated", subscription, previous));
    return sendAll(made, deliver);
  }

  async function updateSubscription(subscriptionId: string, changes: Json, updateOptions: { deliver?: boolean } = {}) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw missing("subscription", subscriptionId);
    const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, subscription[key]]));
    Object.assign(subscription, changes);
    return sendAll([event("customer.subscription.updated", subscription, previous)], updateOptions.deliver ?? true);
  }

  async function renew(subscriptionId: string, renewOptions: { deliver?: boolean } = {}) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw missing("subscription", subscriptionId);
    const item = itemOf(subscription);
    const price = item.price as Json;
    const previous = { items: structuredClone(subscription.items), status: subscription.status };
    item.current_period_start = item.current_period_end;
    item.current_period_end = Number(item.current_period_end) + periodSeconds(String((price.recurring as Json).interval));
    subscription.status = "active";
    const invoice = invoiceFor(subscription, Number(price.unit_amount), "paid", "subscription_cycle");
    return sendAll([event("invoice.paid", invoice), event("customer.subscription.updated", subscription, previous)], renewOptions.deliver ?? true);
  }

  // ---- the API

  function createProduct(params: Params): Json {
    const name = str(params, "name");
    if (!name) throw required("name");
    const product: Json = {
      id: id("prod"),
      object: "product",
      name,
      description: str(params, "description") ?? null,
      active: params.active === undefined ? true : bool(params.active),
      metadata: obj(params, "metadata"),
      created: now(),
      updated: now(),
      livemode: false,
    };
    products.set(String(product.id), product);
    return product;
  }

  function createPrice(params: Params): Json {
    const product = str(params, "product");
    if (!product) throw required("product");
    if (!products.has(product)) throw missing("product", product, "product");
    const currency = str(params, "currency");
    if (!currency) throw required("currency");
    if (!/^[a-z]{3}$/.test(currency)) throw new StripeApiError(400, `Invalid currency: ${currency}.`, "invalid_request_error", "currency");
    const amount = str(params, "unit_amount");
    if (amount === undefined) throw required("unit_amount");
    if (!/^\d+$/.test(amount)) throw new StripeApiError(400, "Invalid integer: unit_amount", "invalid_request_error", "unit_amount");
    const recurring = obj(params, "recurring");
    if (recurring.interval !== undefined && !["day", "week", "month", "year"].includes(String(recurring.interval))) {
      throw new StripeApiError(400, `Invalid recurring[interval]: must be one of day, week, month, or year`, "invalid_request_error", "recurring[interval]");
    }
    const price: Json = {
      id: id("price"),
      object: "price",
      active: true,
      currency,
      product,
      unit_amount: Number(amount),
      type: recurring.interval ? "recurring" : "one_time",
      recurring: recurring.interval ? { interval: recurring.interval, interval_count: Number(recurring.interval_count ?? 1), usage_type: "licensed" } : null,
      nickname: str(params, "nickname") ?? null,
      metadata: obj(params, "metadata"),
      created: now(),
      livemode: false,
    };
    prices.set(String(price.id), price);
    return price;
  }

  function createCheckoutSession(params: Params): Json {
    if (str(params, "mode") !== "subscription" && str(params, "mode") !== "payment") throw new StripeApiError(400, "Invalid mode", "invalid_request_error", "mode");
    for (const name of ["success_url", "cancel_url"]) if (!str(params, name)) throw required(name);
    const lineItems = (Array.isArray(params.line_items) ? params.line_items : []) as Params[];
    if (lineItems.length === 0) throw required("line_items");
    for (const [i, item] of lineItems.entries()) {
      const price = priceOf(String(item.price));
      if (!price.active) throw new StripeApiError(400, `The price specified is inactive. This field only accepts active prices.`, "invalid_request_error", `line_items[${i}][price]`);
      if (params.mode === "subscription" && !price.recurring) throw new StripeApiError(400, "You must provide at least one recurring price in `subscription` mode when using prices.", "invalid_request_error", "line_items");
    }
    const customer = str(params, "customer") ?? null;
    if (customer && !customers.has(customer)) throw missing("customer", customer, "customer");
    const sessionId = `cs_test_${randomBytes(24).toString("base64url").replace(/[-_]/g, "x")}`;
    const first = priceOf(String(lineItems[0]!.price));
    const session: Json = {
      id: sessionId,
      object: "checkout.session",
      mode: params.mode,
      status: "open",
      payment_status: "unpaid",
      customer,
      customer_email: str(params, "customer_email") ?? (customer ? (customers.get(customer)!.email ?? null) : null),
      client_reference_id: str(params, "client_reference_id") ?? null,
      subscription: null,
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      url: `${baseUrl}/checkout/${sessionId}`,
      metadata: obj(params, "metadata"),
      currency: first.currency,
      amount_total: first.unit_amount,
      created: now(),
      expires_at: now() + DAY,
      livemode: false,
      _line_items: lineItems.map((item) => ({ price: String(item.price), quantity: Number(item.quantity ?? 1) })),
      _subscription_data: obj(params, "subscription_data"),
    };
    sessions.set(sessionId, session);
    return session;
  }

  /** What the API answers: Stripe's object without the stand-in's own fields (those starting with "_"). */
  const visible = (object: Json): Json => Object.fromEntries(Object.entries(object).filter(([k]) => !k.startsWith("_")));

  async function api(method: string, path: string, params: Params): Promise<Json> {
    let m: RegExpExecArray | null;
    if (method === "POST" && path === "/v1/products") return createProduct(params);
    if ((m = /^\/v1\/products\/([^/]+)$/.exec(path))) {
      const product = products.get(m[1]!);
      if (!product) throw missing("product", m[1]!);
      if (method === "POST") {
        for (const key of ["name", "description"]) if (params[key] !== undefined) product[key] = params[key] === "" ? null : params[key];
        if (params.active !== undefined) product.active = bool(params.active);
        if (params.metadata) product.metadata = { ...(product.metadata as Json), ...obj(params, "metadata") };
        product.updated = now();
      }
      return product;
    }
    if (method === "POST" && path === "/v1/prices") return createPrice(params);
    if ((m = /^\/v1\/prices\/([^/]+)$/.exec(path))) {
      const price = priceOf(m[1]!);
      if (method === "POST") {
        if (params.active !== undefined) price.active = bool(params.active);
        if (params.nickname !== undefined) price.nickname = params.nickname;
        if (params.metadata) price.metadata = { ...(price.metadata as Json), ...obj(params, "metadata") };
      }
      return price;
    }
    if (method === "POST" && path === "/v1/customers") {
      const customer: Json = { id: id("cus"), object: "customer", email: str(params, "email") ?? null, name: str(params, "name") ?? null, metadata: obj(params, "metadata"), created: now(), livemode: false };
      customers.set(String(customer.id), customer);
      return customer;
    }
    if ((m = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = customers.get(m[1]!);
      if (!customer) throw missing("customer", m[1]!);
      if (method === "POST") {
        for (const key of ["email", "name"]) if (params[key] !== undefined) customer[key] = params[key];
        if (params.metadata) customer.metadata = { ...(customer.metadata as Json), ...obj(params, "metadata") };
      }
      return customer;
    }
    if (method === "POST" && path === "/v1/checkout/sessions") return visible(createCheckoutSession(params));
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)) && method === "GET") {
      const session = sessions.get(m[1]!);
      if (!session) throw missing("checkout.session", m[1]!);
      return visible(session);
    }
    if (method === "GET" && path === "/v1/subscriptions") {
      const customer = str(params, "customer");
      const status = str(params, "status");
      const found = [...subscriptions.values()].filter(
        (s) => (!customer || s.customer === customer) && (status === "all" ? true : status ? s.status === status : s.status !== "canceled" && s.status !== "incomplete_expired"),
      );
      return list("/v1/subscriptions", found.reverse());
    }
    if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(m[1]!);
      if (!subscription) throw missing("subscription", m[1]!);
      if (method === "DELETE") {
        if (subscription.status === "canceled") throw new StripeApiError(400, "This subscription is already canceled.", "invalid_request_error", undefined, "resource_missing");
        await cancelNow(subscription, Boolean(standIn.webhook));
      } else if (method === "POST" && params.cancel_at_period_end !== undefined) {
        const previous = { cancel_at_period_end: subscription.cancel_at_period_end };
        subscription.cancel_at_period_end = bool(params.cancel_at_period_end);
        await sendAll([event("customer.subscription.updated", subscription, previous)], Boolean(standIn.webhook));
      }
      return subscription;
    }
    if ((m = /^\/v1\/invoices\/([^/]+)$/.exec(path)) && method === "GET") {
      const invoice = invoices.get(m[1]!);
      if (!invoice) throw missing("invoice", m[1]!);
      return invoice;
    }
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const customer = str(params, "customer");
      if (!customer) throw required("customer");
      if (!customers.has(customer)) throw missing("customer", customer, "customer");
      const session: Json = { id: id("bps"), object: "billing_portal.session", customer, return_url: str(params, "return_url") ?? null, created: now(), livemode: false };
      session.url = `${baseUrl}/portal/${String(session.id)}`;
      portalSessions.set(String(session.id), session);
      return session;
    }
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}). The Stripe stand-in does not answer it.`);
  }

  // ---- the pages behind the urls, and the control calls

  async function pages(method: string, path: string, params: Params, res: http.ServerResponse): Promise<boolean> {
    let m: RegExpExecArray | null;
    const html = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(body);
    };
    if ((m = /^\/checkout\/([^/]+)$/.exec(path)) && method === "GET") {
      const session = sessions.get(m[1]!);
      if (!session) return html(404, page("Not found", "<h1>No such Checkout session</h1>")), true;
      if (session.status !== "open") return html(410, page("Checkout", `<h1>This Checkout session is ${escapeHtml(String(session.status))}</h1>`)), true;
      const price = priceOf((session._line_items as { price: string }[])[0]!.price);
      const product = products.get(String(price.product));
      const amount = new Intl.NumberFormat("en", { style: "currency", currency: String(price.currency).toUpperCase() }).format(Number(price.unit_amount) / 100);
      const trial = Number(((session._subscription_data ?? {}) as Params).trial_period_days ?? 0);
      html(
        200,
        page(
          "Checkout",
          `<h1>Subscribe to ${escapeHtml(String(product?.name ?? ""))}</h1><p>${amount} per ${escapeHtml(String((price.recurring as Json).interval))}${trial ? ` after a ${trial}-day free trial` : ""}</p>` +
            `<p>${escapeHtml(String(session.customer_email ?? ""))}</p>` +
            `<form method="post" action="/checkout/${escapeHtml(String(session.id))}/pay"><button type="submit">Pay</button></form>` +
            `<p><a href="${escapeHtml(String(session.cancel_url))}">Back</a></p>`,
        ),
      );
      return true;
    }
    if ((m = /^\/checkout\/([^/]+)\/pay$/.exec(path)) && method === "POST") {
      const session = sessions.get(m[1]!);
      if (!session) return html(404, page("Not found", "<h1>No such Checkout session</h1>")), true;
      await completeCheckout(String(session.id));
      res.writeHead(303, { location: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", String(session.id)) });
      res.end();
      return true;
    }
    if ((m = /^\/portal\/([^/]+)$/.exec(path)) && method === "GET") {
      const portal = portalSessions.get(m[1]!);
      if (!portal) return html(404, page("Not found", "<h1>No such portal session</h1>")), true;
      const own = [...subscriptions.values()].filter((s) => s.customer === portal.customer && s.status !== "canceled");
      html(
        200,
        page(
          "Customer portal",
          `<h1>Your subscriptions</h1>` +
            (own.length === 0 ? "<p>No current subscription.</p>" : "") +
            own
              .map(
                (s) =>
                  `<section><p>${escapeHtml(String(products.get(String((itemOf(s).price as Json).product))?.name ?? ""))}: ${escapeHtml(String(s.status))}${s.cancel_at_period_end ? " (ends at the period's end)" : ""}</p>` +
                  (s.cancel_at_period_end ? "" : `<form method="post" action="/portal/${escapeHtml(String(portal.id))}/cancel/${escapeHtml(String(s.id))}"><button type="submit">Cancel subscription</button></form>`) +
                  `</section>`,
              )
              .join("") +
            `<p><a href="${escapeHtml(String(portal.return_url ?? "/"))}">Return to the site</a></p>`,
        ),
      );
      return true;
    }
    if ((m = /^\/portal\/([^/]+)\/cancel\/([^/]+)$/.exec(path)) && method === "POST") {
      const portal = portalSessions.get(m[1]!);
      const subscription = subscriptions.get(m[2]!);
      if (!portal || !subscription || subscription.customer !== portal.customer) return html(404, page("Not found", "<h1>Not found</h1>")), true;
      const previous = { cancel_at_period_end: false };
      subscription.cancel_at_period_end = true;
      await sendAll([event("customer.subscription.updated", subscription, previous)]);
      res.writeHead(303, { location: `/portal/${String(portal.id)}` });
      res.end();
      return true;
    }
    // Control calls, for a test in another process (a CLI-started stand-in).
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (path === "/_stand-in/state" && method === "GET") {
      const all = (map: Map<string, Json>) => [...map.values()].map(visible);
      return json(200, { products: all(products), prices: all(prices), customers: all(customers), subscriptions: all(subscriptions), sessions: all(sessions), invoices: all(invoices), events, deliveries }), true;
    }
    if ((m = /^\/_stand-in\/subscriptions\/([^/]+)\/status$/.exec(path)) && method === "POST") {
      return json(200, { events: await setSubscriptionStatus(m[1]!, String(params.status) as "past_due") }), true;
    }
    if ((m = /^\/_stand-in\/subscriptions\/([^/]+)$/.exec(path)) && method === "POST") {
      const changes = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === "true" ? true : v === "false" ? false : v]));
      return json(200, { events: await updateSubscription(m[1]!, changes) }), true;
    }
    if ((m = /^\/_stand-in\/subscriptions\/([^/]+)\/renew$/.exec(path)) && method === "POST") return json(200, { events: await renew(m[1]!) }), true;
    if ((m = /^\/_stand-in\/checkout\/([^/]+)\/complete$/.exec(path)) && method === "POST") return json(200, await completeCheckout(m[1]!)), true;
    if ((m = /^\/_stand-in\/events\/([^/]+)\/replay$/.exec(path)) && method === "POST") return json(200, { status: await standIn.replay(m[1]!) }), true;
    if (path === "/_stand-in/webhook" && method === "POST") {
      standIn.webhook = String(params.url);
      return json(200, { webhook: standIn.webhook }), true;
    }
    return false;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        const method = req.method ?? "GET";
        const body = Buffer.concat(chunks).toString("utf8");
        const params = { ...parseStripeForm(url.searchParams.toString()), ...parseStripeForm(body) };
        try {
          if (!url.pathname.startsWith("/v1/")) {
            if (await pages(method, url.pathname, params, res)) return;
            throw new StripeApiError(404, `Unrecognized request URL (${method}: ${url.pathname}).`);
          }
          requests.push({ method, path: url.pathname, params });
          const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
          if (!key || !/^(sk|rk)_(test|live)_/.test(key)) {
            throw new StripeApiError(401, "Invalid API Key provided: " + (key ? `${key.slice(0, 8)}*****` : "none"), "invalid_request_error");
          }
          const failure = failures.findIndex((f) => f.method === method && url.pathname.startsWith(f.pathPrefix));
          if (failure >= 0) throw failures.splice(failure, 1)[0]!.error;
          const answer = await api(method, url.pathname, params);
          res.writeHead(200, { "content-type": "application/json", "request-id": id("req") });
          res.end(JSON.stringify(visible(answer)));
        } catch (error) {
          const refusal = error instanceof StripeApiError ? error : new StripeApiError(500, error instanceof Error ? error.message : String(error), "api_error");
          res.writeHead(refusal.status, { "content-type": "application/json", "request-id": id("req") });
          res.end(JSON.stringify(refusal.toJSON()));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  baseUrl = `http://${options.host ?? "127.0.0.1"}:${(server.address() as AddressInfo).port}`;

  Object.assign(standIn, {
    url: baseUrl,
    apiKey: options.apiKey ?? "sk_test_stand_in_key",
    webhookSecret: options.webhookSecret ?? `whsec_${randomBytes(24).toString("base64url").replace(/[-_]/g, "x")}`,
    webhook: options.webhook ?? null,
    products,
    prices,
    customers,
    subscriptions,
    sessions,
    invoices,
    events,
    deliveries,
    requests,
    failNext(method: string, pathPrefix: string, error: { status?: number; message?: string; type?: string; code?: string } = {}) {
      failures.push({ method, pathPrefix, error: new StripeApiError(error.status ?? 400, error.message ?? "The stand-in refused this call.", error.type ?? "invalid_request_error", undefined, error.code) });
    },
    completeCheckout,
    setSubscriptionStatus,
    updateSubscription,
    renew,
    send,
    async replay(eventId: string) {
      const found = events.find((e) => e.id === eventId);
      if (!found) throw new Error(`stripe stand-in: no event ${eventId}`);
      return send(found);
    },
    subscriptionOfSession(sessionId: string) {
      const subscriptionId = sessions.get(sessionId)?.subscription;
      return typeof subscriptionId === "string" ? (subscriptions.get(subscriptionId) ?? null) : null;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies Partial<StripeStandIn>);
  return standIn;
}

// Run as a process: node --import tsx tests/support/stripe-stand-in.ts --port 12111 --webhook-url <url> [--webhook-secret whsec_…]
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(`--${name}`);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const standIn = await startStripeStandIn({ port: Number(arg("port") ?? 12111), webhook: arg("webhook-url"), webhookSecret: arg("webhook-secret") });
  process.stdout.write(`listening ${standIn.url} ${standIn.webhookSecret}\n`);
  const stop = () => void standIn.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
