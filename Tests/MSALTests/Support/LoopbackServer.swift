import Foundation
import TestSupport

@testable import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 (a free port, `LoopbackTestListener`) for transport tests:
/// each connection gets one request read and one scripted answer, which may be a cut or oversize
/// body on purpose.
final class LoopbackServer: Sendable {
    enum Answer: Sendable {
        /// Writes these bytes verbatim, then closes.
        case raw(Data)
        /// Writes the head and part of a longer body, then closes.
        case cutBody(status: Int, declared: Int, sent: Int)
        /// Accepts and closes without a byte.
        case close
    }

    var port: UInt16 { listener.port }
    private let listener: LoopbackTestListener
    private let requests: Locked<[Data]>

    init(answers: [Answer]) throws {
        let requests = Locked<[Data]>([])
        let answers = Locked(answers)
        self.requests = requests
        listener = try LoopbackTestListener { connection in
            let request = Self.readRequest(connection)
            requests.withLock { $0.append(request) }
            Self.write(connection, answers.withLock { $0.isEmpty ? Answer.close : $0.removeFirst() })
            close(connection)
        }
    }

    /// A port on which nothing listens: bound but never listening, so connections are refused,
    /// and held until `release` so that no other test's server can be given it meanwhile.
    static func refusingPort() throws -> (port: UInt16, release: () -> Void) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (UInt16(bigEndian: address.sin_port), { close(fd) })
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/t/oauth2/v2.0/initiate")! }
    var receivedRequests: [Data] { requests.withLock { $0 } }

    func stop() { listener.stop() }

    private static func write(_ connection: Int32, _ answer: Answer) {
        switch answer {
        case .raw(let data):
            write(connection, data)
        case .cutBody(let status, let declared, let sent):
            write(connection, Data("HTTP/1.1 \(status) OK\r\nContent-Type: application/json\r\nContent-Length: \(declared)\r\n\r\n".utf8))
            write(connection, Data(repeating: UInt8(ascii: "x"), count: sent))
        case .close:
            break
        }
    }

    private static func readRequest(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let headEnd = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self).lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if data.count - headEnd.upperBound >= length { return data }
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private static func write(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return }
                offset += written
            }
        }
    }

    static func response(status: Int, headers: [String: String] = [:], body: String) -> Answer {
        var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return .raw(Data((head + "\r\n" + body).utf8))
    }
}
