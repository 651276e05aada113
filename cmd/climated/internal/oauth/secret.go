package oauth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net"
	"strings"
)

// newSecret is 32 random bytes in base64url: codes, tokens and families.
func newSecret() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand, Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hash is what the database keeps of a secret. The secrets are 256
// random bits, so a fast hash is enough: there is nothing to guess.
func hash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// pkceS256 is the code_challenge of verifier (RFC 7636 §4.2).
func pkceS256(verifier string) string {
	h := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// validVerifier: 43 to 128 characters of the unreserved set (RFC 7636 §4.1).
func validVerifier(v string) bool {
	if len(v) < 43 || len(v) > 128 {
		return false
	}
	for _, c := range v {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("-._~", c)) {
			return false
		}
	}
	return true
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
