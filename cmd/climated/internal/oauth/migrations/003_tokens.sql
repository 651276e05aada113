-- OAuth (package cmd/climated/internal/oauth): a grant (a refresh-token
-- family) holds several token pairs, so that a refresh retried with the
-- token it rotated out (its answer lost, or the client racing itself)
-- gets a pair of its own instead of ending the grant (issue 39).
--
-- A pair's refresh token is "<family>.<secret>", kept as the hash of the
-- secret. At most one pair of a family is used (first_used > 0): the one
-- last refreshed from; every other pair is a successor it gave and not
-- yet used. Using a successor deletes every other pair of its family;
-- presenting a token the family no longer holds, or a used one after the
-- reuse interval, revokes the family.
CREATE TABLE oauth_tokens (
	refresh_hash    BLOB    PRIMARY KEY,
	family          TEXT    NOT NULL,
	access_hash     BLOB    NOT NULL UNIQUE,
	created         INTEGER NOT NULL,          -- Unix seconds
	first_used      INTEGER NOT NULL DEFAULT 0, -- Unix seconds its refresh token was first used, 0 never
	refresh_expires INTEGER NOT NULL,          -- Unix seconds
	access_expires  INTEGER NOT NULL           -- Unix seconds
) WITHOUT ROWID;
CREATE INDEX oauth_tokens_family ON oauth_tokens (family);

-- Each grant's current pair, its only one so far.
INSERT INTO oauth_tokens (refresh_hash, family, access_hash, created, first_used, refresh_expires, access_expires)
	SELECT refresh_hash, family, access_hash, last_used, 0, refresh_expires, access_expires FROM oauth_grants;

-- The grant keeps what its pairs share.
CREATE TABLE oauth_grants_011 (
	family    TEXT    PRIMARY KEY,
	client_id TEXT    NOT NULL,
	resource  TEXT    NOT NULL,
	scope     TEXT    NOT NULL,
	created   INTEGER NOT NULL, -- Unix seconds
	last_used INTEGER NOT NULL  -- Unix seconds
) WITHOUT ROWID;
INSERT INTO oauth_grants_011 (family, client_id, resource, scope, created, last_used)
	SELECT family, client_id, resource, scope, created, last_used FROM oauth_grants;
DROP TABLE oauth_grants;
ALTER TABLE oauth_grants_011 RENAME TO oauth_grants;
CREATE INDEX oauth_grants_client ON oauth_grants (client_id);

-- Whatever ends a grant (a revocation, a replayed code, reuse, the
-- clean-up, from this process or climated clients beside it) ends its
-- pairs with it.
CREATE TRIGGER oauth_grants_end AFTER DELETE ON oauth_grants
BEGIN
	DELETE FROM oauth_tokens WHERE family = old.family;
END;
