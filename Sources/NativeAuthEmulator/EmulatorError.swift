/// An error inside the emulator (start-up, configuration, seed).
public struct EmulatorError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
