#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Calls `body` with a NULL-terminated array of C-string copies of `strings`
/// (the shape `PQconnectdbParams` takes); the copies are freed afterwards.
func withCStringArray<R>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R
) rethrows -> R {
    var pointers: [UnsafePointer<CChar>?] = strings.map { UnsafePointer(strdup($0)) }
    pointers.append(nil)
    defer {
        for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) }
    }
    return try pointers.withUnsafeBufferPointer { try body($0.baseAddress!) }
}
