import Foundation

/// Where the interactive flow draws its secrets (PKCE verifier, `state`, `nonce`). Injected so that
/// tests can fix them; production uses `.system`.
package struct RandomBytes: Sendable {
    private let draw: @Sendable (Int) -> [UInt8]

    /// Random bytes from `draw(count)`, which must return exactly `count` bytes.
    package init(_ draw: @escaping @Sendable (Int) -> [UInt8]) {
        self.draw = draw
    }

    /// `SystemRandomNumberGenerator` (`getrandom(2)` on Linux), a cryptographically secure source.
    package static let system = RandomBytes { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// `count` bytes.
    package func bytes(_ count: Int) -> [UInt8] {
        let bytes = draw(count)
        precondition(bytes.count == count, "RandomBytes: asked for \(count) bytes, got \(bytes.count)")
        return bytes
    }
}
