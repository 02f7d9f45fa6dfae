import Foundation

/// A throwaway CA and a server certificate it signed, made with the `openssl` command in a
/// temporary directory: for 127.0.0.1 and localhost, or (`wrongHost`) for another name only.
public final class TLSFiles: @unchecked Sendable {
    public let directory: String
    public var caCertificate: String { directory + "/ca.crt" }
    public var serverCertificate: String { directory + "/server.crt" }
    public var serverKey: String { directory + "/server.key" }

    public init(names: String = "IP:127.0.0.1,DNS:localhost") throws {
        directory = try RedisServer.temporaryDirectory()
        let days = ["-days", "2"]
        try Self.openssl(
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/ca.key", "-out", caCertificate,
                "-subj", "/CN=MSAL Redis test CA",
            ] + days)
        try Self.openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", serverKey, "-out", directory + "/server.csr",
            "-subj", "/CN=redis test server",
        ])
        try "subjectAltName=\(names)\n".write(toFile: directory + "/ext.cnf", atomically: true, encoding: .utf8)
        try Self.openssl(
            [
                "x509", "-req", "-in", directory + "/server.csr", "-CA", caCertificate, "-CAkey", directory + "/ca.key",
                "-CAcreateserial", "-out", serverCertificate, "-extfile", directory + "/ext.cnf",
            ] + days)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    private static func openssl(_ arguments: [String]) throws {
        let result = try ChildProcess.runBlocking("/usr/bin/openssl", arguments, limit: 60)
        guard result.status == 0 else { throw RedisTestError("openssl \(arguments[0]) failed: \(result.stderr)") }
    }
}
