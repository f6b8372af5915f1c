package main

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"fmt"
	"math/big"

	"github.com/golang-jwt/jwt/v4"
)

// JWKS is a JSON Web Key Set (RFC 7517) of public signing keys: OKP/Ed25519, EC/P-256 and RSA.
type JWKS struct {
	Keys []struct {
		Kty, Kid, Alg, Crv, X, Y, N, E string
	} `json:"keys"`
}

// Keyfunc returns the public key the token's `kid` names, refusing a key whose type does not
// match the token's `alg` (no algorithm confusion).
func (s JWKS) Keyfunc(t *jwt.Token) (any, error) {
	kid, _ := t.Header["kid"].(string)
	alg := t.Method.Alg()
	for _, k := range s.Keys {
		if k.Kid != kid || (k.Alg != "" && k.Alg != alg) {
			continue
		}
		b := func(v string) []byte { d, _ := base64.RawURLEncoding.DecodeString(v); return d }
		switch {
		case alg == "EdDSA" && k.Kty == "OKP" && k.Crv == "Ed25519" && len(b(k.X)) == ed25519.PublicKeySize:
			return ed25519.PublicKey(b(k.X)), nil
		case alg == "ES256" && k.Kty == "EC" && k.Crv == "P-256":
			key := &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(b(k.X)), Y: new(big.Int).SetBytes(b(k.Y))}
			if !key.Curve.IsOnCurve(key.X, key.Y) {
				return nil, fmt.Errorf("key %q is not on P-256", kid)
			}
			return key, nil
		case alg == "RS256" && k.Kty == "RSA":
			return &rsa.PublicKey{N: new(big.Int).SetBytes(b(k.N)), E: int(new(big.Int).SetBytes(b(k.E)).Int64())}, nil
		}
	}
	return nil, fmt.Errorf("no %s key with kid %q in the JWKS", alg, kid)
}
