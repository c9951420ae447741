import { data } from "react-router";
import { createSnsVerifier, receiveSnsMessage } from "~/domain/newsletters/newsletter-sns.server";
import type { Route } from "./+types/newsletter-sns";

/** One verifier per process: it keeps the certificates it fetched. */
const verifier = createSnsVerifier();

/**
 * SES's bounce and complaint notifications, posted by Amazon SNS (issue 30). SNS sends its JSON as
 * text/plain, with no Origin and no session; the message's signature is what proves it. Without
 * SES_SNS_TOPIC_ARN the endpoint does not exist (404).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (!context.env.SES_SNS_TOPIC_ARN) throw data({ error: "Not Found" }, { status: 404 });
  if (request.method !== "POST") throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const answer = await receiveSnsMessage(context.db, await request.text(), { topicArn: context.env.SES_SNS_TOPIC_ARN, verifier, log: context.log });
  return data(answer.status === 200 ? { ok: true, result: answer.message } : { error: answer.message }, { status: answer.status, headers: { "Cache-Control": "no-store" } });
}

export function loader({ context }: Route.LoaderArgs) {
  if (!context.env.SES_SNS_TOPIC_ARN) throw data({ error: "Not Found" }, { status: 404 });
  throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
