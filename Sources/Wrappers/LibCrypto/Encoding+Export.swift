/// Base64url (`Base64URL`) lives in the dependency-free Encoding module, shared with VerifyCore.
@_exported import Encoding
