import pino from "pino";
import type { AppLoadContext } from "react-router";
import { describe, expect, it } from "vitest";
import { envSchema } from "~/lib/env.server";
import { classifyPath } from "~/lib/path-classes";
import { action, loader } from "./newsletter-sns";

// The SNS endpoint's door (issue 30); what it does with a message is tested in
// app/domain/newsletters/newsletter-sns.server.test.ts.

const log = pino({ level: "silent" });
const contextWith = (env: Record<string, string>) => ({ db: null, log, env }) as unknown as AppLoadContext;
const post = (body: string) => new Request("http://localhost/api/newsletter/sns", { method: "POST", body, headers: { "content-type": "text/plain; charset=UTF-8" } });
const statusOf = async (work: () => unknown) => {
  try {
    const answer = (await work()) as { init?: ResponseInit | null };
    return answer.init?.status ?? 200;
  } catch (thrown) {
    return (thrown as { init?: ResponseInit }).init?.status;
  }
};

describe("/api/newsletter/sns", () => {
  it("takes SNS's JSON as text/plain, with no Origin or session, never cached", () => {
    const { pathClass, rules } = classifyPath("/api/newsletter/sns");
    expect(pathClass).toBe("mail notifications");
    // formsOnly would refuse text/plain with 415 before routing; an Origin is asked only of signed-in requests.
    expect(rules).toMatchObject({ formsOnly: false, signedInChangesNameTheSite: false, cacheable: false, personal: "always", changesPages: false, adminGate: "none" });
  });

  it("SES_SNS_TOPIC_ARN is optional, and an SNS topic's ARN when set", () => {
    expect(envSchema.safeParse({}).success).toBe(true);
    expect(envSchema.safeParse({ SES_SNS_TOPIC_ARN: "arn:aws:sns:eu-west-1:123456789012:ses-events" }).success).toBe(true);
    expect(envSchema.safeParse({ SES_SNS_TOPIC_ARN: "arn:aws:sns:cn-north-1:123456789012:ses" }).success).toBe(true);
    expect(envSchema.safeParse({ SES_SNS_TOPIC_ARN: "arn:aws:sqs:eu-west-1:123456789012:q" }).success).toBe(false);
    expect(envSchema.safeParse({ SES_SNS_TOPIC_ARN: "ses-events" }).success).toBe(false);
  });

  it("is 404 without SES_SNS_TOPIC_ARN, whatever the method", async () => {
    expect(await statusOf(() => action({ request: post("{}"), context: contextWith({}), params: {} } as never))).toBe(404);
    expect(await statusOf(() => loader({ request: new Request("http://localhost/api/newsletter/sns"), context: contextWith({}), params: {} } as never))).toBe(404);
  });

  it("with a topic: a GET is 405, a body that is no SNS message 400, a message whose certificate is not SNS's 403", async () => {
    const context = contextWith({ SES_SNS_TOPIC_ARN: "arn:aws:sns:us-east-1:123456789012:ses" });
    expect(await statusOf(() => loader({ request: new Request("http://localhost/api/newsletter/sns"), context, params: {} } as never))).toBe(405);
    expect(await statusOf(() => action({ request: post("hello"), context, params: {} } as never))).toBe(400);
    const forged = {
      Type: "Notification",
      MessageId: "1",
      TopicArn: "arn:aws:sns:us-east-1:123456789012:ses",
      Message: "{}",
      Timestamp: new Date().toISOString(),
      SignatureVersion: "2",
      Signature: "AAAA",
      SigningCertURL: "https://attacker.example/cert.pem",
    };
    expect(await statusOf(() => action({ request: post(JSON.stringify(forged)), context, params: {} } as never))).toBe(403);
  });
});
