/// A log line whose personal parts are marked at the call site and masked when rendered.
///
/// ```swift
/// // given: logger: MSALLoggerConfig, username: String
/// logger.info("initiate for \(pii: username)")   // "initiate for Masked(not-null)" with PII off
/// ```
package struct LogMessage: ExpressibleByStringInterpolation, Sendable {
    fileprivate enum Part: Sendable {
        case plain(String)
        case pii(String?)
    }

    private var parts: [Part] = []

    package init(stringLiteral value: String) {
        parts = [.plain(value)]
    }

    package init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []

        package init(literalCapacity: Int, interpolationCount: Int) {}

        package mutating func appendLiteral(_ literal: String) {
            parts.append(.plain(literal))
        }

        /// Non-personal values (status codes, endpoint names, counts, correlation ids).
        package mutating func appendInterpolation<T>(_ value: T) {
            parts.append(.plain(String(describing: value)))
        }

        /// Personal data or a secret: shown only when the app enabled PII logging.
        package mutating func appendInterpolation(pii value: String?) {
            parts.append(.pii(value))
        }

        /// Another message, its personal parts still marked.
        package mutating func appendInterpolation(_ message: LogMessage) {
            parts += message.parts
        }
    }

    var containsPII: Bool {
        parts.contains { if case .pii = $0 { return true } else { return false } }
    }

    func render(piiEnabled: Bool) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .plain(let value):
                text += value
            case .pii(let value):
                if piiEnabled {
                    text += value ?? "(null)"
                } else {
                    text += value == nil ? "Masked(null)" : "Masked(not-null)"
                }
            }
        }
        return text
    }
}

extension MSALLoggerConfig {
    package func error(_ message: @autoclosure () -> LogMessage) { emit(.error, message()) }
    package func warning(_ message: @autoclosure () -> LogMessage) { emit(.warning, message()) }
    package func info(_ message: @autoclosure () -> LogMessage) { emit(.info, message()) }
    package func verbose(_ message: @autoclosure () -> LogMessage) { emit(.verbose, message()) }
}
