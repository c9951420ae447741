-- One-time tokens and trusted devices (issue 28, decision 0037). Better Auth now keeps the identifiers
-- of the verification table as SHA-256 hashes (base64url, no padding: verification.storeIdentifier
-- "hashed"); the ones it wrote in clear before are hashed the same way here, so the table never holds
-- a usable link, and a reset link or a sign-in waiting for its code at the upgrade still works.
-- Trusted devices ("trust this device" skipped the second factor for 30 days) are off: their records go.
DELETE FROM verification WHERE identifier LIKE 'trust-device-%';
--> statement-breakpoint
UPDATE verification
   SET identifier = rtrim(translate(encode(sha256(convert_to(identifier, 'UTF8')), 'base64'), '+/', '-_'), '=')
 WHERE identifier LIKE 'reset-password:%' OR identifier LIKE '2fa-%';
