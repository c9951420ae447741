import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memberSession, subscribers } from "~/db/schema";
import { erasePerson } from "~/domain/newsletters/subscribers-admin.server";
import { AppError } from "~/lib/app-error";
import type { Billing } from "./billing.server";
import { DELETE_CANCEL_FAILED } from "./member-account.schema";
import { deleteSignInLinksOf } from "./member-accounts.server";

/**
 * Erases a member (their own "Delete my account", or an admin's delete on the member page): every paid
 * subscription is canceled at Stripe first (`billing.cancelAll`); if that fails nothing is erased and
 * the AppError "upstream_failed" says so (the cause stays in the error's `cause`). Then, in one
 * transaction: the person's row and everything that is theirs (erasePerson: subscriptions, sessions,
 * timeline, meter; their address leaves every send's recipient list, and only its hash is kept), their
 * unused sign-in links; the payment records (member_subscriptions, member_invoices) stay, anonymised
 * (their member set null). Answers the address's hash (for the caller's activity log).
 */
export async function eraseMember(db: Db, billing: Pick<Billing, "cancelAll"> | null, memberId: string): Promise<string> {
  const [member] = await db.select({ id: subscribers.id, email: subscribers.email, stripeCustomerId: subscribers.stripeCustomerId }).from(subscribers).where(eq(subscribers.id, memberId));
  if (!member) throw new AppError("not_found", "This member no longer exists.");
  if (billing) {
    try {
      await billing.cancelAll(member.id);
    } catch (cause) {
      throw new AppError("upstream_failed", DELETE_CANCEL_FAILED, { cause });
    }
  }
  return db.transaction(async (tx) => {
    await tx.delete(memberSession).where(eq(memberSession.userId, member.id));
    await deleteSignInLinksOf(tx, member.email);
    return erasePerson(tx, member.id);
  });
}
