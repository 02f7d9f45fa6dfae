import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// Runs a command-line tool (curl, openssl) to the end and returns its standard output; a failed
/// exit fails the test.
@discardableResult
func runTool(_ tool: String, _ arguments: [String]) throws -> String {
    let result = try ChildProcess.runBlocking(tool, arguments, limit: 120)
    try #require(result.status == 0, "\(tool) failed")
    return result.stdout
}

/// A throwaway self-signed certificate for 127.0.0.1 (also as its subjectAltName), made by openssl
/// in a temporary directory that the caller removes: its path, and the two PEM files.
func selfSignedCertificate() throws -> (directory: URL, certificate: String, key: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let certificate = directory.appendingPathComponent("cert.pem").path
    let key = directory.appendingPathComponent("key.pem").path
    try runTool(
        "/usr/bin/openssl",
        [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
        ])
    return (directory, certificate, key)
}
