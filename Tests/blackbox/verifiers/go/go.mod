module phoneverify.example/verifier

go 1.19

require github.com/golang-jwt/jwt/v4 v4.4.3

// Built offline from Debian's golang-github-golang-jwt-jwt-dev (GOPROXY=off, GOFLAGS=-mod=mod).
// Outside Debian, drop this line and `go mod tidy` fetches the same version.
replace github.com/golang-jwt/jwt/v4 => /usr/share/gocode/src/github.com/golang-jwt/jwt
