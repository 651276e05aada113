-- OAuth (package cmd/climated/internal/oauth): a redeemed authorization
-- code is kept, marked used, until it expires, with the grant (family) it
-- made: a code presented again revokes that grant (RFC 6749 §4.1.2).
-- A code whose redemption was refused is used with no family.
ALTER TABLE oauth_codes ADD COLUMN used INTEGER NOT NULL DEFAULT 0;
ALTER TABLE oauth_codes ADD COLUMN family TEXT NOT NULL DEFAULT '';

-- A grant exists only for a listed client. Earlier versions could make
-- one for a client their clean-up had just deleted, or that was revoked
-- while its code was being redeemed: such grants no list showed and no
-- revocation reached. They end here, with codes of clients that are gone.
DELETE FROM oauth_grants WHERE client_id NOT IN (SELECT id FROM oauth_clients);
DELETE FROM oauth_codes WHERE client_id NOT IN (SELECT id FROM oauth_clients);
