// Package token is the bearer token every request needs when the hub
// listens beyond loopback: a file of the service user's (mode 0600),
// created with a random token on first use, and climated token, which
// prints it.
package token
