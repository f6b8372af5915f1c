// Command verifier checks a PhoneVerify credential with golang-jwt, knowing only the issuer:
// discovery -> jwks_uri -> key by kid.
//
//	verifier BASE_URL TOKEN AUDIENCE
//
// Exit 0 valid (claims as JSON on stdout), 1 refused, 2 usage/discovery/JWKS error.
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v4"
)

var client = &http.Client{Timeout: 10 * time.Second}

func getJSON(url string, into any) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d", url, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(into)
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: verifier BASE_URL TOKEN AUDIENCE")
		os.Exit(2)
	}
	issuer, token, audience := os.Args[1], os.Args[2], os.Args[3]

	var config struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := getJSON(strings.TrimRight(issuer, "/")+"/.well-known/openid-configuration", &config); err != nil {
		fmt.Fprintln(os.Stderr, "discovery failed:", err)
		os.Exit(2)
	}
	if config.Issuer != issuer {
		fmt.Fprintf(os.Stderr, "discovery issuer %q is not %q\n", config.Issuer, issuer)
		os.Exit(2)
	}
	var set JWKS
	if err := getJSON(config.JWKSURI, &set); err != nil {
		fmt.Fprintln(os.Stderr, "JWKS fetch failed:", err)
		os.Exit(2)
	}

	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, set.Keyfunc,
		jwt.WithValidMethods([]string{"EdDSA", "ES256", "RS256"}))
	if err == nil {
		// golang-jwt v4 checks exp/nbf/iat when present; iss, aud and exp's presence are ours.
		switch {
		case !claims.VerifyIssuer(issuer, true):
			err = fmt.Errorf("iss is not %q", issuer)
		case !claims.VerifyAudience(audience, true):
			err = fmt.Errorf("aud does not contain %q", audience)
		case claims["exp"] == nil:
			err = fmt.Errorf("no exp")
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "refused:", err)
		os.Exit(1)
	}
	out, _ := json.Marshal(claims)
	fmt.Println(string(out))
}
