import CRedisTLS
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An OpenSSL client context: the CAs to trust and the client certificate to send, made once per client.
final class TLSContext: @unchecked Sendable {
    private let context: OpaquePointer
    /// Whether the context sends a client certificate (for the message when a server refuses the connection).
    let sendsCertificate: Bool

    /// Trusts `caFile` (PEM), or the system's store when `nil`; sends the client certificate of
    /// `certificateFile` (PEM) with the private key of `keyFile`, or of `certificateFile` when `nil`.
    init(caFile: String?, certificateFile: String? = nil, keyFile: String? = nil) throws(MSALRedisError) {
        guard let context = msal_redis_tls_context(caFile) else {
            throw MSALRedisError(
                .invalidConfiguration, caFile == nil ? "The system's CA store cannot be loaded" : "The CA file \(caFile!) cannot be loaded")
        }
        if let certificateFile {
            let result = msal_redis_tls_use_certificate(context, certificateFile, keyFile)
            guard result == 0 else {
                SSL_CTX_free(context)
                throw Self.certificateError(result, certificateFile: certificateFile, keyFile: keyFile)
            }
        }
        self.context = context
        sendsCertificate = certificateFile != nil
    }

    /// What `msal_redis_tls_use_certificate`'s `result` means, naming the files, never what they hold.
    private static func certificateError(_ result: Int32, certificateFile: String, keyFile: String?) -> MSALRedisError {
        let key = keyFile ?? certificateFile
        let message: String
        switch result {
        case MSAL_REDIS_TLS_CERTIFICATE_UNREADABLE:
            message = "The client certificate file \(certificateFile) cannot be loaded: it must be readable and hold a PEM certificate"
        case MSAL_REDIS_TLS_KEY_ENCRYPTED:
            message =
                "The client key file \(key) is encrypted, and no passphrase is asked for: decrypt it with "
                + "`openssl pkey -in \(key) -out \(key).plain` and keep that file readable by the service only"
        case MSAL_REDIS_TLS_KEY_MISMATCH:
            message = "The client key file \(key) does not match the certificate in \(certificateFile)"
        default:
            message =
                keyFile == nil
                ? "The client certificate file \(certificateFile) holds no private key: set keyFile, or append the key to it"
                : "The client key file \(key) cannot be loaded: it must be readable and hold a PEM private key"
        }
        return MSALRedisError(.invalidConfiguration, message)
    }

    deinit { SSL_CTX_free(context) }

    /// The TLS alerts about a client certificate, by number.
    private static let alertNames: [Int32: String] = [
        116: "certificate required", 48: "unknown CA", 42: "bad certificate", 43: "unsupported certificate", 44: "certificate revoked",
        45: "certificate expired", 46: "certificate unknown", 49: "access denied",
    ]

    /// Why the server at `host` ended a TLS connection (after the handshake, before its first
    /// reply), from the TLS `alert` it sent (0: none). With `tls-auth-clients yes`, a server sends
    /// certificate required (116) when it got no certificate, unknown CA (48) for one it does not trust.
    func refusal(host: String, alert: Int32) -> MSALRedisError {
        guard let name = Self.alertNames[alert] else {
            let advice = sendsCertificate ? "and not trust this one" : "(set certificateFile and keyFile)"
            return MSALRedisError(
                .connectionFailed,
                "The Redis server at \(host) ended the TLS connection before answering: it may require a client certificate "
                    + "(tls-auth-clients yes) \(advice)")
        }
        guard sendsCertificate else {
            return MSALRedisError(
                .tlsCertificate,
                "The Redis server at \(host) requires a client certificate (TLS alert: \(name)): set certificateFile and keyFile")
        }
        return MSALRedisError(
            .tlsCertificate,
            "The Redis server at \(host) refused the client certificate (TLS alert: \(name)): it must be valid and signed by a CA the server trusts"
        )
    }

    /// A TLS session over `descriptor` after a handshake that verified the certificate for `host`.
    func handshake(_ descriptor: Int32, host: String, deadline: Deadline) throws(MSALRedisError) -> OpaquePointer {
        let isIP = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        guard let session = msal_redis_tls_session(context, descriptor, host, isIP ? 1 : 0) else {
            throw MSALRedisError(.connectionFailed, "A TLS session for Redis cannot be made")
        }
        while true {
            msal_redis_tls_clear_errors()
            let result = withoutSIGPIPE { SSL_connect(session) }
            if result == 1 { return session }
            let events: Int16
            switch SSL_get_error(session, result) {
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            default:
                let verify = SSL_get_verify_result(session)
                let alert = verify == X509_V_OK ? withoutSIGPIPE { msal_redis_tls_received_alert(session) } : 0
                SSL_free(session)
                if verify != X509_V_OK {
                    let reason = String(cString: X509_verify_cert_error_string(verify))
                    throw MSALRedisError(.tlsCertificate, "The Redis server's certificate was refused for \(host): \(reason)")
                }
                if Self.alertNames[alert] != nil { throw refusal(host: host, alert: alert) }
                throw MSALRedisError(
                    .connectionFailed,
                    "The TLS handshake with Redis at \(host) failed: the port may not be TLS, or the server may require a client "
                        + "certificate (tls-auth-clients yes) it did not get or does not trust")
            }
            do {
                try RedisSocket.wait(descriptor, events: events, deadline: deadline)
            } catch {
                SSL_free(session)
                throw error
            }
        }
    }
}
