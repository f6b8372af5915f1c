#!/usr/bin/env perl
# Verifies a PhoneVerify credential with Crypt::JWT, knowing only the issuer:
# discovery -> jwks_uri -> key by kid. usage: verify.pl BASE_URL TOKEN AUDIENCE
# Exit 0 valid (claims as JSON on stdout), 1 refused, 2 usage/discovery/JWKS error.
use strict;
use warnings;
use Crypt::JWT qw(decode_jwt);
use HTTP::Tiny;
use JSON::PP;

my ($issuer, $token, $audience) = @ARGV;
unless (defined $audience) { print STDERR "usage: verify.pl BASE_URL TOKEN AUDIENCE\n"; exit 2 }

my $http = HTTP::Tiny->new(timeout => 10);
sub get_json {
    my ($url) = @_;
    my $res = $http->get($url);
    die "GET $url: $res->{status} $res->{reason}\n" unless $res->{success};
    return decode_json($res->{content});
}

(my $base = $issuer) =~ s{/+$}{};
my ($config, $jwks);
eval { $config = get_json("$base/.well-known/openid-configuration"); 1 }
    or do { print STDERR "discovery failed: $@"; exit 2 };
if (($config->{issuer} // '') ne $issuer) {
    print STDERR "discovery issuer '" . ($config->{issuer} // '') . "' is not '$issuer'\n";
    exit 2;
}
eval { $jwks = get_json($config->{jwks_uri}); 1 }
    or do { print STDERR "JWKS fetch failed: $@"; exit 2 };

my $claims = eval {
    decode_jwt(
        token        => $token,
        kid_keys     => $jwks,                           # the key is picked by the token's kid
        accepted_alg => qr/^(?:EdDSA|ES256|RS256)$/,     # never HS*/none
        verify_iss   => $issuer,
        verify_aud   => $audience,
        verify_exp   => 1,                               # required, and in the future
    );
};
unless ($claims) { print STDERR "refused: $@"; exit 1 }
print JSON::PP->new->canonical->encode($claims), "\n";
exit 0;
