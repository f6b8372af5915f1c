import Glibc

/// A TLS server for tests: `openssl s_server -www` on 127.0.0.1 with a freshly generated
/// self-signed P-256 certificate for IP 127.0.0.1. Started and stopped by the test itself.
final class OpenSSLTestServer {
    let port: Int
    /// PEM file with the server certificate, usable as a CA bundle that trusts it.
    let certificatePath: String
    private let directory: String
    private let pid: pid_t

    /// Whether the `openssl` command is available (the TLS tests are skipped otherwise).
    static var isAvailable: Bool { access("/usr/bin/openssl", X_OK) == 0 }

    init() throws {
        var template = Array("/tmp/httpclient-tls-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw TestSetupError("mkdtemp failed") }
        directory = String(cString: created)
        certificatePath = directory + "/cert.pem"
        let keyPath = directory + "/key.pem"
        let generator = try Self.spawn([
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        var status: Int32 = 0
        waitpid(generator, &status, 0)
        guard status == 0 else { throw TestSetupError("openssl req failed with status \(status)") }
        port = unusedPort()
        pid = try Self.spawn([
            "openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificatePath, "-key", keyPath,
            "-www", "-quiet",
        ])
        try waitUntilListening()
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink(certificatePath)
        unlink(directory + "/key.pem")
        rmdir(directory)
    }

    /// Polls until a TCP connect succeeds, at most 5 seconds.
    private func waitUntilListening() throws {
        for _ in 0..<500 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(fd)
            if connected { return }
            usleep(10_000)
        }
        throw TestSetupError("openssl s_server did not start listening on port \(port)")
    }

    /// Starts `arguments` (looked up in PATH) with stdin, stdout and stderr on /dev/null, no
    /// blocked signals and default dispositions (test-runner threads block most signals, and
    /// a spawned child would inherit that mask).
    private static func spawn(_ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = argv.withUnsafeBufferPointer { posix_spawnp(&pid, arguments[0], &actions, &attributes, $0.baseAddress!, nil) }
        guard result == 0 else { throw TestSetupError("posix_spawnp \(arguments[0]) failed: \(result)") }
        return pid
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
