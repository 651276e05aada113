package oauth

import "net/http"

// corsHeaders are the request headers a browser-based MCP client sends
// with its requests to the hub's OAuth endpoints: the TypeScript SDK adds
// MCP-Protocol-Version to its discovery requests, and a preflight that
// does not allow it fails the sign-in in a browser.
const corsHeaders = "Content-Type, Authorization, MCP-Protocol-Version"

// postCORS serves h to POST requests from any origin, with the preflight
// a browser sends first (OPTIONS), as MCP clients that run in a browser
// page (the Inspector, web apps) call /token and /register. Any origin may:
// neither endpoint reads a cookie, and a public client proves itself by
// its PKCE verifier or refresh token, not by where it runs.
func postCORS(h http.HandlerFunc) http.Handler {
	return cors("POST", h)
}

// getCORS is postCORS for GET and HEAD: the metadata documents and a
// client's registration, which are public.
func getCORS(h http.HandlerFunc) http.Handler {
	return cors("GET, HEAD", h)
}

func cors(methods string, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		switch {
		case r.Method == http.MethodOptions:
			w.Header().Set("Access-Control-Allow-Methods", methods)
			w.Header().Set("Access-Control-Allow-Headers", corsHeaders)
			w.Header().Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodPost && methods == "POST",
			(r.Method == http.MethodGet || r.Method == http.MethodHead) && methods != "POST":
			h(w, r)
		default:
			w.Header().Set("Allow", methods+", OPTIONS")
			http.Error(w, "use "+methods, http.StatusMethodNotAllowed)
		}
	})
}
