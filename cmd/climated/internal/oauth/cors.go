package oauth

import "net/http"

// postCORS serves h to POST requests from any origin, with the preflight
// a browser sends first (OPTIONS), as MCP clients that run in a browser
// page (the Inspector, web apps) call /token and /register. Any origin may:
// neither endpoint reads a cookie, and a public client proves itself by
// its PKCE verifier or refresh token, not by where it runs.
func postCORS(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodPost:
			h(w, r)
		case http.MethodOptions:
			w.Header().Set("Access-Control-Allow-Methods", "POST")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Authorization, MCP-Protocol-Version")
			w.Header().Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
		default:
			w.Header().Set("Allow", "POST, OPTIONS")
			http.Error(w, "use POST", http.StatusMethodNotAllowed)
		}
	})
}
