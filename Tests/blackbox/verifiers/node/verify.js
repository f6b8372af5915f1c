#!/usr/bin/env node
// Verifies a PhoneVerify credential with jose (panva/jose, Debian's node-jose), knowing only the
// issuer: discovery -> jwks_uri -> key by kid. usage: verify.js BASE_URL TOKEN AUDIENCE
// Exit 0 valid (claims as JSON on stdout), 1 refused, 2 usage/discovery/JWKS error,
// 3 an algorithm this jose cannot verify.
'use strict';
module.paths.push('/usr/share/nodejs'); // where Debian installs node-jose
const jose = require('jose');

async function main([issuer, token, audience]) {
  if (!audience) {
    console.error('usage: verify.js BASE_URL TOKEN AUDIENCE');
    return 2;
  }
  let config;
  try {
    const res = await fetch(issuer.replace(/\/+$/, '') + '/.well-known/openid-configuration');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    config = await res.json();
  } catch (err) {
    console.error(`discovery failed: ${err.message}`);
    return 2;
  }
  if (config.issuer !== issuer) {
    console.error(`discovery issuer ${JSON.stringify(config.issuer)} is not ${JSON.stringify(issuer)}`);
    return 2;
  }
  const jwks = jose.createRemoteJWKSet(new URL(config.jwks_uri));
  try {
    const { payload } = await jose.jwtVerify(token, jwks, {
      issuer,
      audience,
      algorithms: ['EdDSA', 'ES256', 'RS256'],
      requiredClaims: ['exp', 'sub'],
    });
    console.log(JSON.stringify(payload));
    return 0;
  } catch (err) {
    // jose's own errors are ERR_JWS_*/ERR_JWT_*/ERR_JWKS_NO_MATCHING_KEY (the token) or
    // ERR_JWKS_TIMEOUT/ERR_JWKS_INVALID (the key set); anything else (ECONNREFUSED…) is the fetch.
    if (['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID'].includes(err.code) || !String(err.code).startsWith('ERR_J')) {
      console.error(`JWKS fetch failed: ${err.message}`);
      return 2;
    }
    if (err.code === 'ERR_JOSE_NOT_SUPPORTED') {
      console.error(`unsupported algorithm: ${err.message}`);
      return 3;
    }
    console.error(`refused: ${err.code || err.name}: ${err.message}`);
    return 1;
  }
}

main(process.argv.slice(2)).then((status) => { process.exitCode = status; });
