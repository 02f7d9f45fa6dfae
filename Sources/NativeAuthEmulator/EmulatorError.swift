/// An error inside the emulator (start-up, configuration, seed).
public struct EmulatorError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in a sentence for a person.
    public let description: String
    /// An error that says `description`.
    public init(_ description: String) { self.description = description }
}
