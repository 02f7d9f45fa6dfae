import Foundation
import MSAL
import Testing

@testable import MSAL

/// Golden files of requests: each request rendered as normalised text (sorted headers and fields,
/// machine-specific values and secrets replaced) and compared with `Golden/<name>.txt`.
/// Re-record with `MSAL_RECORD_GOLDEN=1 swift test --filter GoldenRequestTests`.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// Values that must never appear in a golden file, with what stands in for them.
    static let secrets: [(String, String)] = [
        (Fixture.password, "<password>"), (Fixture.code, "<code>"), (Fixture.username, "<username>"),
        ("RT-secret-value", "<refresh_token>"), (StrongAuthFixture.phone, "<phone>"),
    ]

    static func render(_ requests: [HTTPTransportRequest]) -> String {
        requests.map(render).joined(separator: "\n----\n")
    }

    static func render(_ request: HTTPTransportRequest) -> String {
        var lines = ["\(request.method) \(request.url.absoluteString)"]
        for (name, value) in request.headers.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            var shown = value
            if name == "x-client-OS" { shown = "<os-version>" }
            if name == "x-client-Ver" { shown = "<sdk-version>" }
            lines.append("\(name): \(shown)")
        }
        lines.append("")
        if request.headers["Content-Type"] == "application/json" {
            // Native auth V2 interaction requests: the JSON body as sent (sorted keys), secrets replaced.
            var json = String(decoding: request.body, as: UTF8.self)
            for (secret, stand) in secrets { json = json.replacingOccurrences(of: secret, with: stand) }
            lines.append("json: \(json)")
            return lines.joined(separator: "\n") + "\n"
        }
        var raw = String(decoding: request.body, as: UTF8.self)
        for (secret, stand) in secrets { raw = raw.replacingOccurrences(of: FormEncoding.escape(secret), with: FormEncoding.escape(stand)) }
        lines.append("body: \(raw)")
        let fields = FormEncoding.decode(request.body) ?? [("<undecodable>", "")]
        for (name, value) in fields.sorted(by: { $0.0 < $1.0 }) {
            var shown = value
            for (secret, stand) in secrets { shown = shown.replacingOccurrences(of: secret, with: stand) }
            lines.append("  \(name) = \(shown)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func check(_ requests: [HTTPTransportRequest], named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rendered = render(requests)
        for (secret, _) in secrets {
            #expect(!rendered.contains(secret), "golden \(name) would contain a secret", sourceLocation: sourceLocation)
        }
        let file = directory.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["MSAL_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try rendered.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("missing golden file \(file.path); record with MSAL_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        #expect(rendered == expected, "request differs from golden \(name).txt", sourceLocation: sourceLocation)
    }
}
