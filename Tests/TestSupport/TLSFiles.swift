import Foundation

/// A throwaway CA and a server certificate it signed, made with the `openssl` command in a
/// temporary directory: for 127.0.0.1 and localhost, or (`wrongHost`) for another name only.
/// With `clientCertificates`, also client certificates and keys (below).
public final class TLSFiles: @unchecked Sendable {
    public let directory: String
    public var caCertificate: String { directory + "/ca.crt" }
    public var serverCertificate: String { directory + "/server.crt" }
    public var serverKey: String { directory + "/server.key" }
    /// A client certificate the CA signed, and its key.
    public var clientCertificate: String { directory + "/client.crt" }
    public var clientKey: String { directory + "/client.key" }
    /// The client certificate followed by its key, in one file.
    public var clientCertificateAndKey: String { directory + "/client-and-key.pem" }
    /// The client key, encrypted (AES-256) with `encryptedKeyPassphrase`.
    public var encryptedClientKey: String { directory + "/client-encrypted.key" }
    public let encryptedKeyPassphrase = "Passphrase-Never-Shown-42"
    /// A client certificate another CA signed (one the server does not trust), and its key.
    public var otherClientCertificate: String { directory + "/other-client.crt" }
    public var otherClientKey: String { directory + "/other-client.key" }

    public init(names: String = "IP:127.0.0.1,DNS:localhost", clientCertificates: Bool = false) throws {
        directory = try RedisServer.temporaryDirectory()
        try Self.authority(directory + "/ca", name: "MSAL Redis test CA")
        try Self.signed(directory + "/server", name: "redis test server", by: directory + "/ca", extensions: "subjectAltName=\(names)")
        guard clientCertificates else { return }
        try Self.signed(directory + "/client", name: "redis test client", by: directory + "/ca", extensions: "extendedKeyUsage=clientAuth")
        let combined = try String(contentsOfFile: clientCertificate, encoding: .utf8) + String(contentsOfFile: clientKey, encoding: .utf8)
        try combined.write(toFile: clientCertificateAndKey, atomically: true, encoding: .utf8)
        try Self.openssl(["pkey", "-in", clientKey, "-aes256", "-passout", "pass:\(encryptedKeyPassphrase)", "-out", encryptedClientKey])
        try Self.authority(directory + "/other-ca", name: "Another test CA")
        try Self.signed(
            directory + "/other-client", name: "redis test client", by: directory + "/other-ca", extensions: "extendedKeyUsage=clientAuth")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A self-signed CA: `base`.crt and `base`.key.
    private static func authority(_ base: String, name: String) throws {
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", base + ".key", "-out", base + ".crt", "-subj", "/CN=\(name)",
            "-days", "2",
        ])
    }

    /// A certificate (`base`.crt, with its key `base`.key) that the CA `authority` signed, with the `extensions` line.
    private static func signed(_ base: String, name: String, by authority: String, extensions: String) throws {
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", base + ".key", "-out", base + ".csr", "-subj", "/CN=\(name)"])
        try (extensions + "\n").write(toFile: base + ".cnf", atomically: true, encoding: .utf8)
        try openssl([
            "x509", "-req", "-in", base + ".csr", "-CA", authority + ".crt", "-CAkey", authority + ".key", "-CAcreateserial", "-out",
            base + ".crt", "-extfile", base + ".cnf", "-days", "2",
        ])
    }

    private static func openssl(_ arguments: [String]) throws {
        let result = try ChildProcess.runBlocking("/usr/bin/openssl", arguments, limit: 60)
        guard result.status == 0 else { throw RedisTestError("openssl \(arguments[0]) failed: \(result.stderr)") }
    }
}
