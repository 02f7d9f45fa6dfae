import Foundation
import MSALRedis
import TestSupport
import Testing

/// Client certificates (`certificateFile`, `keyFile`) against a real `redis-server` with
/// `tls-auth-clients yes`: the right certificate works; none, or one another CA signed, is a
/// clear error; a key that cannot be used is `.invalidConfiguration` when the client is made.
@Suite struct ClientCertificateTests {
    /// A server that asks for client certificates its CA signed, and that CA's files.
    static func server() throws -> (RedisServer, TLSFiles) {
        let tls = try TLSFiles(clientCertificates: true)
        return (try RedisServer(RedisServer.Options(tls: tls, requireClientCertificates: true)), tls)
    }

    static func client(
        _ server: RedisServer, _ tls: TLSFiles, _ change: (inout MSALRedisConfiguration) -> Void = { _ in }
    ) throws -> MSALRedisClient {
        try ClientTests.client(server.url) {
            $0.caFile = tls.caCertificate
            $0.commandTimeout = 3
            change(&$0)
        }
    }

    static func error(_ body: () throws -> Void) -> MSALRedisError? {
        do {
            try body()
            return nil
        } catch {
            return error as? MSALRedisError
        }
    }

    @Test func sendsTheCertificateTheServerAsksFor() throws {
        let (server, tls) = try Self.server()
        let client = try Self.client(server, tls) {
            $0.certificateFile = tls.clientCertificate
            $0.keyFile = tls.clientKey
        }
        try client.command("SET", key: "over", "mutual tls")
        #expect(try client.command("GET", key: "over").string == "mutual tls")
        // The key may follow the certificate in one file.
        let oneFile = try Self.client(server, tls) { $0.certificateFile = tls.clientCertificateAndKey }
        #expect(try oneFile.command("GET", key: "over").string == "mutual tls")
    }

    @Test func withoutACertificateTheServerRefusesWithAClearError() throws {
        let (server, tls) = try Self.server()
        // TLS 1.3: the handshake ends on the client's side first; the server's alert (certificate
        // required) comes instead of the first reply, or the first write meets the reset that
        // follows it: either, each time (several connections, to meet both).
        for _ in 0..<5 {
            let refused = Self.error { try Self.client(server, tls).command("PING") }
            #expect(refused?.code == .tlsCertificate, "\(String(describing: refused))")
            #expect(
                refused?.message.contains("requires a client certificate (TLS alert: certificate required)") == true,
                "\(String(describing: refused))")
        }
    }

    @Test func refusesACertificateAnotherCASigned() throws {
        let (server, tls) = try Self.server()
        let refused = Self.error {
            try Self.client(server, tls) {
                $0.certificateFile = tls.otherClientCertificate
                $0.keyFile = tls.otherClientKey
            }.command("PING")
        }
        #expect(refused?.code == .tlsCertificate, "\(String(describing: refused))")
        #expect(
            refused?.message.contains("refused the client certificate (TLS alert: unknown CA)") == true, "\(String(describing: refused))")
    }

    @Test func refusesAnEncryptedKeyWhenTheClientIsMade() throws {
        let tls = try TLSFiles(clientCertificates: true)
        let refused = Self.error {
            _ = try ClientTests.client("rediss://127.0.0.1:1") {
                $0.certificateFile = tls.clientCertificate
                $0.keyFile = tls.encryptedClientKey
            }
        }
        #expect(refused?.code == .invalidConfiguration, "\(String(describing: refused))")
        #expect(refused?.message.contains(tls.encryptedClientKey) == true && refused?.message.contains("encrypted") == true)
        let key = try String(contentsOfFile: tls.encryptedClientKey, encoding: .utf8)
        let body = key.split(separator: "\n").dropFirst().first.map(String.init) ?? key
        #expect(refused.map { !$0.description.contains(tls.encryptedKeyPassphrase) && !$0.description.contains(body) } == true)
    }

    @Test func refusesAKeyThatDoesNotMatchTheCertificate() throws {
        let tls = try TLSFiles(clientCertificates: true)
        let refused = Self.error {
            _ = try ClientTests.client("rediss://127.0.0.1:1") {
                $0.certificateFile = tls.clientCertificate
                $0.keyFile = tls.otherClientKey
            }
        }
        #expect(
            refused?.code == .invalidConfiguration && refused?.message.contains("does not match") == true, "\(String(describing: refused))")
    }

    @Test func refusesFilesItCannotUse() throws {
        let tls = try TLSFiles(clientCertificates: true)
        func refusal(_ url: String, certificate: String?, key: String?) -> MSALRedisError? {
            Self.error {
                _ = try ClientTests.client(url) {
                    $0.certificateFile = certificate
                    $0.keyFile = key
                }
            }
        }
        let withoutTLS = refusal("redis://127.0.0.1:1", certificate: tls.clientCertificate, key: tls.clientKey)
        #expect(
            withoutTLS?.code == .invalidConfiguration && withoutTLS?.message.contains("TLS") == true, "\(String(describing: withoutTLS))")
        let keyAlone = refusal("rediss://127.0.0.1:1", certificate: nil, key: tls.clientKey)
        #expect(keyAlone?.code == .invalidConfiguration, "\(String(describing: keyAlone))")
        let noCertificate = refusal("rediss://127.0.0.1:1", certificate: "/nonexistent/client.crt", key: tls.clientKey)
        #expect(noCertificate?.code == .invalidConfiguration && noCertificate?.message.contains("/nonexistent/client.crt") == true)
        let noKey = refusal("rediss://127.0.0.1:1", certificate: tls.clientCertificate, key: "/nonexistent/client.key")
        #expect(noKey?.code == .invalidConfiguration && noKey?.message.contains("/nonexistent/client.key") == true)
        let keyNotInFile = refusal("rediss://127.0.0.1:1", certificate: tls.clientCertificate, key: nil)
        #expect(keyNotInFile?.code == .invalidConfiguration && keyNotInFile?.message.contains("no private key") == true)
    }

    @Test func aServerThatDoesNotAskStillWorksWithACertificate() throws {
        let tls = try TLSFiles(clientCertificates: true)
        let server = try RedisServer(RedisServer.Options(tls: tls))
        let client = try Self.client(server, tls) {
            $0.certificateFile = tls.clientCertificate
            $0.keyFile = tls.clientKey
        }
        #expect(try client.command("PING") == .simple("PONG"))
    }
}
