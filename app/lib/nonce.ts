import { createContext, useContext } from "react";

/**
 * The script nonce of the answer being rendered (its Content-Security-Policy allows scripts with it
 * only: server/middleware/security-headers.ts). Set by app/entry.server.tsx; "" in the browser, which
 * hides nonces from the page anyway.
 */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
