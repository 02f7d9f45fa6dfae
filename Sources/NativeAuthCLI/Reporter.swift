import Foundation

/// Writes a command's result to stdout (text, or one JSON object with `--json`) and its messages
/// and errors to stderr (with `--json`, errors as one JSON object `{"error": {...}}`).
struct Reporter {
    let terminal: any Terminal
    let json: Bool

    /// The command's result: `text` (a newline is added unless empty), or `object` as JSON. The
    /// object is made only for `--json` (formatting a date loads ICU and the time zone: 2 ms of `token`).
    func result(_ text: String, _ object: @autoclosure () -> [String: Any]) {
        if json {
            terminal.output(Self.encode(object()) + "\n")
        } else if !text.isEmpty {
            terminal.output(text.hasSuffix("\n") ? text : text + "\n")
        }
    }

    /// A message for a person (stderr); left out with `--json`.
    func note(_ text: String) {
        guard !json else { return }
        terminal.message(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Reports `error` and returns its exit status. A sign-in that waits for input also prints, with
    /// `--json`, what it waits for on stdout (that is the command's result).
    func failure(_ error: CLIError) -> Int32 {
        if json {
            if var waiting = error.waiting?.json {
                waiting["sign_in_id"] = error.signInId
                terminal.output(Self.encode(waiting) + "\n")
            } else if let id = error.signInId {
                terminal.output(Self.encode(["sign_in_id": id]) + "\n")
            }
            let body: [String: Any] = [
                "error": ["code": error.code.name, "exit_status": Int(error.code.rawValue), "message": error.message]
            ]
            terminal.message(Self.encode(body) + "\n")
        } else {
            if let id = error.signInId { terminal.output(id + "\n") }
            terminal.message("native-auth: \(error.message)\n")
        }
        return error.code.rawValue
    }

    /// One line of JSON, keys sorted.
    static func encode(_ object: [String: Any]) -> String {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What a sign-in waits for, for the message and `--json`.
struct WaitingFor: Equatable, Sendable {
    var needs: String
    var username: String?
    var sentTo: String?
    var channel: String?
    var codeLength: Int?
    /// `(id, channel, masked contact)` of each method offered.
    var methods: [Method] = []
    var next: String

    struct Method: Equatable, Sendable {
        var id: String
        var channel: String
        var hint: String?
    }

    var json: [String: Any] {
        var object: [String: Any] = ["status": "needs_input", "needs": needs, "next": next]
        object["username"] = username
        object["sent_to"] = sentTo
        object["channel"] = channel
        object["code_length"] = codeLength
        if !methods.isEmpty {
            object["methods"] = methods.map { method -> [String: Any] in
                var entry: [String: Any] = ["id": method.id, "channel": method.channel]
                entry["hint"] = method.hint
                return entry
            }
        }
        return object
    }
}
