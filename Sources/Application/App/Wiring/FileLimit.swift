import Glibc

/// Open-descriptor limit: each connection takes two descriptors (the socket and the duplicate
/// the header timeout shuts down), plus the store, the vendors' connections and the logs.
enum FileLimit {
    /// Raises the soft `RLIMIT_NOFILE` towards what `connections` need (never above the hard
    /// limit; never lowers it). Returns (soft limit now, descriptors wanted).
    static func raise(forConnections connections: Int) -> (limit: UInt64, wanted: UInt64) {
        let wanted = UInt64(connections) * 2 + 512
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return (0, wanted) }
        if UInt64(limits.rlim_cur) < wanted {
            var raised = limits
            raised.rlim_cur = min(rlim_t(wanted), limits.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return (UInt64(limits.rlim_cur), wanted)
    }
}
