/// Base64 and base64url, hex and JSON (`JSONValue` and its reader) live in the dependency-free
/// Encoding module, shared with the wrappers; the domain's users see them through VerifyCore.
@_exported import Encoding
