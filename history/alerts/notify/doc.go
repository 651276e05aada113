// Package notify sends alert events to a phone through a webhook in the
// JSON formats of ntfy and Gotify, without ever blocking the hub's ingest.
//
// ntfy: "Publish as JSON" (https://docs.ntfy.sh/publish/#publish-as-json):
// a POST of {"topic", "title", "message", "priority" 1…5, "tags"} to the
// server's root URL (not the topic's URL); an access token goes in
// "Authorization: Bearer".
//
// Gotify: "Push messages" (https://gotify.net/docs/pushmsg; the server
// reads the token in auth/authentication.go, readTokenFromRequest): a POST of
// {"title", "message", "priority"} to the server's /message with the
// application token in the X-Gotify-Key header (Gotify also takes
// ?token=, which would put it in proxies' logs, so it is not used).
//
// Events wait in a bounded queue: Notify appends and returns at once; when
// the queue is full the oldest event is dropped, counted and logged. Run,
// the one goroutine, delivers them in order and retries a failed delivery
// (no connection, a timeout, 5xx, 429) with exponential back-off; an event
// the server refuses for good (another 4xx: a wrong token, topic or URL) is
// logged and dropped so that it does not hold up the others.
package notify
