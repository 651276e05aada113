// Package notify sends alert events to a phone through a webhook in the
// JSON formats of ntfy and Gotify (body.go, each with its reference),
// without ever blocking the hub's ingest.
//
// Events wait in a bounded queue: Notify appends and returns at once. Run,
// the one goroutine, delivers them in order and retries a failed delivery
// (no connection, a timeout, 5xx, 429) with exponential back-off; an event
// the server refuses for good (another 4xx: a wrong token, topic or URL) is
// logged and dropped so that it does not hold up the others.
//
// # Bounds
//
// What reaches the phone is bounded three ways:
//
//   - Per alert (a rule in a zone): one notification at once, then at most
//     one per Options.PerAlert (DefaultPerAlert, a minute). Its events in
//     between wait, each replacing the one before, and the latest is sent
//     when the minute is up with the count it stands for ("and 7 more
//     events of this alert since the last notification"), so a rule that
//     flaps sends at most 1 + T/PerAlert notifications in a time T and the
//     phone still ends with its latest state. At most 4 × Queue alerts are
//     paced at once; beyond them events are queued unpaced.
//   - All alerts: the engine emits at most alerts.DefaultBurst events,
//     then alerts.DefaultMaxEventsPerSecond (a rule that flaps faster is
//     cut there first; see the alerts package); cleared events reach the
//     webhook only with Config.Cleared.
//   - The queue: at most Options.Queue (DefaultQueue, 100) events wait,
//     besides one held per paced alert; beyond it the oldest are dropped,
//     counted in Stats.Dropped and logged at most once per DropLogEvery
//     with the count since the line before. Deliveries go one at a time,
//     each within Options.Timeout.
package notify
