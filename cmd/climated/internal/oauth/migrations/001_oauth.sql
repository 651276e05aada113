-- OAuth (package cmd/climated/internal/oauth): the assistants a household
-- lets in. No secret is kept: codes and tokens are stored as SHA-256
-- hashes of random values, so a copy of this file signs nobody in.

-- Clients registered by Dynamic Client Registration (RFC 7591). A client
-- that never completes a sign-in is deleted after a day (oauth.Options).
CREATE TABLE oauth_clients (
	id            TEXT    PRIMARY KEY,
	name          TEXT    NOT NULL,
	redirect_uris TEXT    NOT NULL, -- JSON array, matched exactly
	created       INTEGER NOT NULL, -- Unix seconds
	last_used     INTEGER NOT NULL  -- Unix seconds, 0 until its first grant
) WITHOUT ROWID;

-- Authorization codes: single use (deleted when redeemed), short-lived.
CREATE TABLE oauth_codes (
	hash         BLOB    PRIMARY KEY,
	client_id    TEXT    NOT NULL,
	redirect_uri TEXT    NOT NULL,
	challenge    TEXT    NOT NULL, -- PKCE S256 code_challenge
	resource     TEXT    NOT NULL, -- RFC 8707
	scope        TEXT    NOT NULL,
	expires      INTEGER NOT NULL  -- Unix seconds
) WITHOUT ROWID;

-- One row per grant (a refresh-token family): the current refresh token
-- and the current access token. A refresh token is "<family>.<secret>":
-- one that names its family but not its current secret is a reused
-- (rotated-out) token, and the row is deleted, revoking the family.
CREATE TABLE oauth_grants (
	family          TEXT    PRIMARY KEY,
	client_id       TEXT    NOT NULL,
	resource        TEXT    NOT NULL,
	scope           TEXT    NOT NULL,
	created         INTEGER NOT NULL, -- Unix seconds
	last_used       INTEGER NOT NULL, -- Unix seconds
	refresh_hash    BLOB    NOT NULL,
	refresh_expires INTEGER NOT NULL, -- Unix seconds
	access_hash     BLOB    NOT NULL UNIQUE,
	access_expires  INTEGER NOT NULL  -- Unix seconds
) WITHOUT ROWID;
CREATE INDEX oauth_grants_client ON oauth_grants (client_id);
